"""Word searches: the Tosswords fit search and WordSpiel continuations over the whole list.

The Tosswords search scans one string with a regular expression for speed; these tests
hold it to games.wordfit (the rule's one definition) on every word the game allows.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.lexicon import DEFAULT_DICT_DIR
from games.wordfit import spiral_overlaps, tosswords_misfit
from games.words import WordAuthority

pytestmark = pytest.mark.skipif(
    not DEFAULT_DICT_DIR.is_dir(), reason="SCOWL is not installed (sudo apt install scowl)"
)


@pytest.fixture(scope="module")
def authority() -> WordAuthority:
    return WordAuthority.load(size=60)


@pytest.fixture(scope="module")
def tosswords_list(authority: WordAuthority) -> list[str]:
    """Every word the search may offer, found by asking rule() one word at a time: the
    list's words and the nouns it keeps as abbreviations (PARA, THERM)."""
    lex = authority.lexicon
    nouns = [k for k in lex.abbreviations if lex.is_noun_abbreviation(k)]
    words = [
        w for w in [*lex.words, *nouns]
        if w.isascii() and w.isalpha() and 3 <= len(w) <= 12
    ]
    return [w for w in words if authority.rule("tosswords", w).legal]


def test_trance_fits_c_t_and_a_three(authority: WordAuthority) -> None:
    found = authority.fitting_tosswords(("C", "T"), 3)
    assert "TRANCE" in found
    assert len(found) == len(set(found)) > 100
    for word in found[:50]:
        assert authority.rule("tosswords", word, keys=("C", "T"), die=3).legal, word


def test_the_sheets_missing_i_k_p_example_has_answers(authority: WordAuthority) -> None:
    found = authority.fitting_tosswords(("I", "K"), 2, extras=["P"])
    assert {"PIGSKIN", "PICKETING", "INNKEEPER"} <= set(found)
    for word in found:
        assert tosswords_misfit(word, ("I", "K"), 2, ["P"]) is None


def test_commonest_words_come_first_and_limit_cuts(authority: WordAuthority) -> None:
    found = authority.fitting_tosswords(("C", "T"), 3)
    # COUNT (SCOWL size 10, American and British) before TRANCE (35) before a size-60 word
    assert found.index("COUNT") < found.index("TRANCE")
    assert authority.fitting_tosswords(("C", "T"), 3, limit=5) == found[:5]


def test_no_plurals_or_proper_nouns_are_offered(authority: WordAuthority) -> None:
    found = authority.fitting_tosswords(("Z", "R"), 2)
    assert "ZEBRA" in found and "ZEBRAS" not in found
    found = authority.fitting_tosswords(("A", "K"), 2)
    assert "ALASKA" not in found


def test_impossible_draw_finds_nothing(authority: WordAuthority) -> None:
    assert authority.fitting_tosswords(("Q", "Z"), 0) == []


def test_wild_die_and_double_key(authority: WordAuthority) -> None:
    wild = authority.fitting_tosswords(("C", "T"), "wild")
    assert "TRANCE" in wild and "COUNT" in wild
    doubled = authority.fitting_tosswords(("E", "E"), 2)
    assert "EDGE" in doubled and "EVE" not in doubled  # two different E tiles, 2 letters apart
    assert all(tosswords_misfit(w, ("E", "E"), 2) is None for w in doubled)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    k1=st.sampled_from(string.ascii_uppercase),
    k2=st.sampled_from(string.ascii_uppercase),
    die=st.one_of(st.integers(min_value=0, max_value=10), st.none()),
    extras=st.lists(st.sampled_from(string.ascii_uppercase), max_size=2),
)
def test_search_agrees_with_wordfit_on_the_whole_list(
    authority: WordAuthority, tosswords_list: list[str], k1: str, k2: str, die: int | None, extras: list[str]
) -> None:
    expected = {w.upper() for w in tosswords_list if tosswords_misfit(w, (k1, k2), die, extras) is None}
    found = authority.fitting_tosswords((k1, k2), "wild" if die is None else die, extras)
    assert set(found) == expected


# -- WordSpiel ---------------------------------------------------------------------------------


def test_fun_continues_as_no_unite_funny(authority: WordAuthority) -> None:
    found = authority.spiral_continuations("FUN")
    assert {"NO", "UNITE", "FUNNY"} <= set(found)
    assert "FUN" not in found  # adds no card
    assert "ROBERT" not in found and "DON'T" not in found
    for word in found[:200]:
        assert spiral_overlaps("FUN", word)
        assert authority.rule("wordspiel", word, spiral="FUN").legal, word


def test_continuations_include_common_abbreviations(authority: WordAuthority) -> None:
    assert "TSP" in authority.spiral_continuations("LAST")
    assert "ASAP" not in authority.spiral_continuations("BRA")


def test_continuations_limit_and_order(authority: WordAuthority) -> None:
    found = authority.spiral_continuations("FUN")
    assert authority.spiral_continuations("fun", limit=7) == found[:7]
    assert found.index("NO") < found.index("UNITE")  # commonest first, whatever the overlap


def test_bad_spiral_and_draw_are_refused(authority: WordAuthority) -> None:
    with pytest.raises(ValueError, match="must be letters"):
        authority.spiral_continuations("F-N")
    with pytest.raises(ValueError, match="give the spiral"):
        authority.spiral_continuations("")
    with pytest.raises(ValueError, match="0-10"):
        authority.fitting_tosswords(("C", "T"), 12)

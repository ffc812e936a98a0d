"""Every example word in the five rule sheets, ruled against the real SCOWL list (size 60).

The sheets are the specification (../shared/rules/); each test names the line it checks.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.lexicon import DEFAULT_DICT_DIR
from games.words import WordAuthority

pytestmark = pytest.mark.skipif(
    not DEFAULT_DICT_DIR.is_dir(), reason="SCOWL is not installed (sudo apt install scowl)"
)


@pytest.fixture(scope="module")
def authority() -> WordAuthority:
    return WordAuthority.load(size=60)


def legal(authority: WordAuthority, game: str, word: str, **kw: object) -> bool:
    return authority.rule(game, word, **kw).legal  # type: ignore[arg-type]


# -- Word on the Street: 'Allowable Words' -------------------------------------------------


@pytest.mark.parametrize("word", ["Olives", "Pineapples"])
def test_wots_category_fit_is_for_the_players_vote(authority: WordAuthority, word: str) -> None:
    # Olives is allowed and Pineapples not for "A Pizza Topping" — but that is category
    # fit, settled by the players' vote. Both are words.
    r = authority.rule("wots", word)
    assert r.legal and r.source == "dictionary"
    assert "players to vote" in r.reason
    assert r.game == "word-on-the-street" and r.word == word.upper()


def test_wots_compound_word_is_one_word_two_words_are_not(authority: WordAuthority) -> None:
    assert legal(authority, "wots", "Sandbox")
    r = authority.rule("wots", "Sand Dollar")
    assert not r.legal
    assert r.reason.startswith("SAND DOLLAR is 2 words")
    assert r.rule == "Word on the Street, 'Allowable Words': \"in the form of a single word\""


@pytest.mark.parametrize("word", ["Zeta-Jones", "Winston-Salem", "zeta-jones", "WINSTON-SALEM"])
def test_wots_hyphen_allowed_as_part_of_a_name(authority: WordAuthority, word: str) -> None:
    r = authority.rule("word-on-the-street", word)
    assert r.legal, r
    assert "is a name" in r.reason


@pytest.mark.parametrize("word", ["part-time", "head-on", "mother-in-law"])
def test_wots_hyphen_not_allowed_outside_names(authority: WordAuthority, word: str) -> None:
    r = authority.rule("wots", word)
    assert not r.legal
    assert "only as part of a name" in r.reason


def test_wots_names_and_capitalized_words_allowed(authority: WordAuthority) -> None:
    # PURPLE (the tile-moving example), COOKED (tenses), RED and RHINOCEROS (sidetracking)
    for word in ("Robert", "Alaska", "PURPLE", "cooked", "Red", "Rhinoceros", "O'Brien"):
        assert legal(authority, "wots", word), word
    assert "Robert" in authority.rule("wots", "ROBERT").reason


def test_wots_abbreviations_and_nonsense_are_not_words(authority: WordAuthority) -> None:
    r = authority.rule("wots", "tsp")
    assert not r.legal and "abbreviation" in r.reason
    r = authority.rule("wots", "zqxv")
    assert not r.legal and r.reason == "ZQXV is not in the dictionary"


# -- Upwords: rule 4 NOTE, rule 7 ------------------------------------------------------------


@pytest.mark.parametrize(
    "word", ["MOOD", "WOOD", "DEAR", "NET", "ON", "WOOL", "LEAP", "SNACK", "LEAN", "PLUS", "NETS"]
)
def test_upwords_figure_words_are_legal(authority: WordAuthority, word: str) -> None:
    # Figures 1-6; NETS is legal as a word: rule 5 'Plurals' is a board rule (the engine's).
    r = authority.rule("upwords", word)
    assert r.legal, r
    assert r.rule.startswith("Upwords, rule 4")


@pytest.mark.parametrize(
    ("word", "rule", "reason"),
    [
        ("Alaska", "7A", "ALASKA is always capitalized (Alaska)"),
        ("Robert", "7A", "ROBERT is always capitalized (Robert)"),
        ("part-time", "7B", "PART-TIME needs a hyphen"),
        ("head-on", "7B", "HEAD-ON needs a hyphen"),
        ("don't", "7C", "DON'T needs an apostrophe"),
        ("DONT", "7C", "DONT is DON'T, which needs an apostrophe"),
        ("COULDNT", "7C", "COULDNT is COULDN'T, which needs an apostrophe"),
        ("tsp", "7D", "TSP is an abbreviation (tsp)"),
        ("V.I.P.", "7D", "V.I.P. is an abbreviation"),
        ("x&y", "7D", "X&Y contains &, which is not a letter: symbols are not allowed"),
        ("un", "7E", "UN is a prefix that cannot stand alone"),
        ("ness", "7E", "NESS is a suffix that cannot stand alone"),
    ],
)
def test_upwords_rule_7(authority: WordAuthority, word: str, rule: str, reason: str) -> None:
    r = authority.rule("upwords", word)
    assert not r.legal
    assert r.rule.startswith(f"Upwords, rule {rule} ")
    assert r.reason == reason


def test_upwords_rule_7b_wording_matches_the_brief(authority: WordAuthority) -> None:
    r = authority.rule("Upwords", "PART-TIME")
    assert r.rule == "Upwords, rule 7B 'Words requiring a hyphen are illegal'"
    assert r.reason == "PART-TIME needs a hyphen"


def test_upwords_foreign_words_only_if_in_the_dictionary(authority: WordAuthority) -> None:
    # 7F: words of foreign origin that the dictionary lists are English words now.
    for word in ("pinata", "PIÑATA", "putsch", "pilaf"):
        assert legal(authority, "upwords", word), word
    assert not legal(authority, "upwords", "schadenfreudig")


def test_upwords_single_letters_and_words_that_are_also_names(authority: WordAuthority) -> None:
    assert not legal(authority, "upwords", "A")
    # TURKEY is also a country and US also an abbreviation: the ordinary word wins.
    assert legal(authority, "upwords", "turkey")
    assert legal(authority, "upwords", "US")


# -- Tosswords -------------------------------------------------------------------------------


def test_tosswords_trance_with_c_t_and_a_three(authority: WordAuthority) -> None:
    r = authority.rule("tosswords", "TRANCE", keys=("C", "T"), die=3)
    assert r.legal
    assert r.reason == "TRANCE is a word and has 3 letters between C and T"
    assert r.rule.startswith("Tosswords, 'Retiring two tiles'")
    # Either order of the keys; a different die does not fit.
    assert legal(authority, "tosswords", "trance", keys=("T", "C"), die=3)
    r = authority.rule("tosswords", "TRANCE", keys=("C", "T"), die=2)
    assert not r.legal and r.source == "rules" and "2 letters between" in r.reason


def test_tosswords_the_missing_i_k_p_die_2_example(authority: WordAuthority) -> None:
    # The sheet's picture of a word for keys I, K, extra P and a 2 is missing; these fit.
    for word in ("PIGSKIN", "PICKETING", "INNKEEPER"):
        r = authority.rule("tosswords", word, keys=("I", "K"), die=2, extras=["P"])
        assert r.legal, r
        assert r.rule.startswith("Tosswords, 'Retiring three or more tiles'")
    r = authority.rule("tosswords", "TRANCE", keys=("C", "T"), die=3, extras=["P"])
    assert not r.legal and r.rule.startswith("Tosswords, 'Retiring three or more tiles'")
    assert r.reason == "TRANCE does not contain the drawn tile P"


def test_tosswords_wild_blank_die(authority: WordAuthority) -> None:
    assert legal(authority, "tosswords", "TRANCE", keys=("C", "T"), die="wild")
    assert not legal(authority, "tosswords", "TRANCE", keys=("C", "Q"), die="wild")


@pytest.mark.parametrize(
    ("word", "singular"),
    [("ZEBRAS", "ZEBRA"), ("BOXES", "BOX"), ("BABIES", "BABY"), ("WOLVES", "WOLF"), ("RUNS", "RUN")],
)
def test_tosswords_no_plural_made_with_s(authority: WordAuthority, word: str, singular: str) -> None:
    r = authority.rule("tosswords", word)
    assert not r.legal
    assert r.reason == f"{word} is a plural of {singular} made with an S; plurals are not allowed"
    assert r.rule == "Tosswords, 'A few fine points': \"creating a plural -- that's unacceptable\""


@pytest.mark.parametrize("word", ["NEWS", "SEEMS", "BUS", "GLASS", "ITS", "PHYSICS", "ALWAYS", "LENS"])
def test_tosswords_words_ending_in_s_that_are_not_plurals(authority: WordAuthority, word: str) -> None:
    assert legal(authority, "tosswords", word), authority.rule("tosswords", word)


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("don't", "DON'T is written with an apostrophe"),
        ("O'Brien", "O'BRIEN is written with an apostrophe"),
        ("COULDNT", "COULDNT is COULDN'T, written with an apostrophe"),
        ("part-time", "PART-TIME is hyphenated"),
    ],
)
def test_tosswords_plain_words_only(authority: WordAuthority, word: str, reason: str) -> None:
    r = authority.rule("tosswords", word)
    assert not r.legal and r.reason == f"{reason}; Tosswords words are plain single words"


def test_tosswords_length_and_proper_nouns(authority: WordAuthority) -> None:
    r = authority.rule("tosswords", "IT")
    assert not r.legal and "3 to 12" in r.reason
    assert not legal(authority, "tosswords", "extraordinarily")  # 15 letters: longer than the strip
    assert legal(authority, "tosswords", "troubleshoot")  # exactly 12
    r = authority.rule("tosswords", "Alaska")
    assert not r.legal and "proper noun" in r.reason


# -- WordSpiel: 'Allowable words' ------------------------------------------------------------


@pytest.mark.parametrize("word", ["NO", "UNITE", "FUNNY"])
def test_wordspiel_fun_continues(authority: WordAuthority, word: str) -> None:
    r = authority.rule("wordspiel", word, spiral="FUN")
    assert r.legal, r
    assert r.rule.startswith("WordSpiel, rule G")


@pytest.mark.parametrize("word", ["FUN", "TEA", "FUR"])
def test_wordspiel_must_build_on_the_spiral_and_add_a_card(authority: WordAuthority, word: str) -> None:
    r = authority.rule("wordspiel", word, spiral="FUN")
    assert not r.legal and r.source == "rules"


def test_wordspiel_empty_spiral_means_no_spiral(authority: WordAuthority) -> None:
    assert authority.rule("wordspiel", "tea", spiral="").legal
    assert authority.rule("wordspiel", "tea", spiral="   ").rule.startswith("WordSpiel, 'Allowable words'")


def test_wordspiel_common_abbreviations_allowed(authority: WordAuthority) -> None:
    for word in ("tsp", "lb", "TSP"):
        r = authority.rule("wordspiel", word)
        assert r.legal and "common abbreviation" in r.reason, r


@pytest.mark.parametrize(
    ("word", "what"),
    [
        ("don't", "contractions"),
        ("she's", "contractions"),
        ("DONT", "contractions"),
        ("A.S.A.P.", "acronyms"),
        ("V.I.P.", "acronyms"),
        ("ASAP", "acronyms"),
        ("part-time", "hyphenated words"),
        ("head-on", "hyphenated words"),
        ("Robert", "proper nouns"),
        ("Alaska", "proper nouns"),
        ("CA", "proper noun abbreviations"),
        ("Tue", "proper noun abbreviations"),
        ("Feb", "proper nouns"),
        ("O'Brien", "proper nouns"),
    ],
)
def test_wordspiel_not_allowed(authority: WordAuthority, word: str, what: str) -> None:
    r = authority.rule("wordspiel", word)
    assert not r.legal
    assert r.rule.startswith("WordSpiel, 'Allowable words': not allowed")
    assert what in r.rule


# -- Option ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "word", ["PICTURE", "RACER", "ROT", "DEALING", "DEAL", "RIDE", "TIDE", "TOOL", "TOLL", "DUSTY"]
)
def test_option_example_words(authority: WordAuthority, word: str) -> None:
    assert legal(authority, "option", word)


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("Alaska", "ALASKA is a proper noun (Alaska)"),
        ("tsp", "TSP is an abbreviation (tsp)"),
        ("don't", "DON'T is spelled with an apostrophe"),
        ("part-time", "PART-TIME is spelled with a hyphen"),
        ("OK", "OK is always written in capitals (OK)"),
    ],
)
def test_option_not_allowed(authority: WordAuthority, word: str, reason: str) -> None:
    r = authority.rule("option", word)
    assert not r.legal and r.reason == reason
    assert r.rule.startswith("Option, 'Object'")


def test_option_unknown_word_names_the_dictionary(authority: WordAuthority) -> None:
    r = authority.rule("option", "zqxv")
    assert r.reason == "ZQXV is not in the dictionary"
    assert r.rule == "Option, 'Challenging an opponent's word': \"Consult a dictionary\""


# -- unknown words ----------------------------------------------------------------------------


def test_unknown_word_names_the_larger_list_that_has_it(authority: WordAuthority) -> None:
    # A hint for a house word: the table may decide to allow QI.
    assert authority.rule("upwords", "qi").reason == (
        "QI is not in the everyday list (it is in the full dictionary); "
        "the table can allow it as a house word"
    )
    assert authority.rule("option", "zyzzyva").reason.startswith(
        "ZYZZYVA is not in the everyday list (it is in the list of rare words)"
    )
    assert authority.rule("option", "zqxv").reason == "ZQXV is not in the dictionary"


def test_largest_size_has_no_larger_list() -> None:
    big = WordAuthority.load(size=95)
    reason = big.rule("upwords", "zqxv").reason
    assert reason == "ZQXV is not in the dictionary"
    assert big.rule("upwords", "qi").legal


# -- arguments ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "kwargs", "message"),
    [
        ("chess", {}, "unknown game"),
        ("upwords", {"keys": ("C", "T"), "die": 3}, "belong to Tosswords"),
        ("option", {"spiral": "FUN"}, "belongs to WordSpiel"),
        ("tosswords", {"keys": ("C",), "die": 3}, "exactly two key tiles"),
        ("tosswords", {"keys": ("C", "T")}, "give the die"),
        ("tosswords", {"keys": ("C", "T"), "die": 11}, "0-10"),
        ("tosswords", {"keys": ("C", "T"), "die": "three"}, "0-10"),
        ("tosswords", {"keys": ("C", "7"), "die": 3}, "single letter"),
        ("tosswords", {"die": 3}, "key tiles too"),
        ("wordspiel", {"spiral": "F U-N"}, "must be letters"),
    ],
)
def test_bad_arguments_are_value_errors_with_a_reason(
    authority: WordAuthority, game: str, kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        authority.rule(game, "trance", **kwargs)  # type: ignore[arg-type]


def test_empty_word_is_refused(authority: WordAuthority) -> None:
    with pytest.raises(ValueError, match="no word"):
        authority.rule("upwords", "   ")


def test_aliases_and_case(authority: WordAuthority) -> None:
    assert authority.rule("WOTS", "purple").game == "word-on-the-street"
    assert authority.rule("Word-Spiel", "unite").game == "wordspiel"
    assert authority.rule("upwords", "MoOd").word == "MOOD"


def test_is_word(authority: WordAuthority) -> None:
    assert authority.is_word("trance") and authority.is_word("Alaska") and authority.is_word("don't")
    assert authority.is_word("Zeta-Jones") and not authority.is_word("part-time")
    assert not authority.is_word("tsp") and not authority.is_word("zqxv")
    assert not authority.is_word("sand dollar") and not authority.is_word("")


# -- any input at all ----------------------------------------------------------------------------

GAMES = ["word-on-the-street", "upwords", "tosswords", "wordspiel", "option"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(GAMES), word=st.text(min_size=1, max_size=30))
@example(game="upwords", word="\u0301")  # a lone combining accent
@example(game="word-on-the-street", word="\u00af")  # a macron: NFKD would make it a space
def test_any_text_gets_a_ruling_with_a_reason_or_a_plain_error(
    authority: WordAuthority, game: str, word: str
) -> None:
    try:
        r = authority.rule(game, word)
    except ValueError as exc:
        assert not word.strip() and "no word" in str(exc)
        return
    assert r.reason and r.rule and r.game == game
    assert r.word == " ".join(word.strip().replace("\u2019", "'").upper().split())
    assert r.source in ("dictionary", "rules", "house")

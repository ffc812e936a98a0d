"""Which SCOWL size is "the dictionary": measured against headwords of standard dictionaries.

docs/words.md, "Sizes, and why 70", quotes these figures; the tests recompute them from the
installed lists so that the page cannot drift from the data. Two measurements:

* a sample of dictionary headwords (below), each a headword of Merriam-Webster's Collegiate,
  Collins English Dictionary and the Oxford Dictionary of English: which size first has it,
  in SCOWL's American and British lists, then with the variant lists the dictionary adds;
* what each larger size adds: the share of its words that WordNet (Princeton's lexical
  database of English, a dictionary made by lexicographers) knows, by lemma or a regular
  inflection — a check that anyone can rerun, with no judgement of ours in it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.lexicon import DEFAULT_DICT_DIR
from games.word_lists import DEFAULT_SIZE, DEFAULT_VARIANT, EVERYDAY_SIZE
from games.word_lists import SPELLINGS as DICTIONARY_SPELLINGS
from games.word_sources import DEFAULT_WORDNET_DIR

pytestmark = pytest.mark.skipif(
    not (DEFAULT_DICT_DIR.is_dir() and DEFAULT_WORDNET_DIR.is_dir()),
    reason="needs scowl and wordnet-base (./dev installs them)",
)

LEVELS = (10, 20, 35, 40, 50, 55, 60, 70, 80, 95)
SPELLINGS = ("english", "american", "british")


def _sample(text: str) -> list[str]:
    """The words of a sample, written as running text so that it reads like a word list."""
    return text.split()


#: Each word is a headword (or a listed spelling of one) in Merriam-Webster's Collegiate,
#: Collins and the Oxford Dictionary of English. Ordinary nouns for things a family meets
#: in a walk, a house, a workshop or a wardrobe; none is technical, archaic or regional only.
RARE_NOUNS = _sample("""
    cirque tarn scree moraine corrie esker drumlin butte mesa arroyo atoll fjord firth bight copse
    spinney sward fen bracken gorse sedge teasel yarrow sorrel lichen newt vole stoat marten egret
    plover lapwing curlew linnet kestrel gannet awl bodkin adze gimlet auger plinth corbel lintel
    mullion transom finial dado trivet tureen ewer ramekin colander antimacassar valance cravat
    cummerbund dirndl gaiter jerkin smock snood tabard wimple clan cairn croft byre dais niche nook
    ingot quoin truss sconce spigot tine flange grommet dowel sprocket winch offal tripe kibble
""")
#: Two-letter headwords of all three: aa (lava), ai (three-toed sloth), qi (vital force;
#: from Chinese), ka (the spiritual self, Egyptian), jo (a sweetheart, Scots), ay (a variant
#: of aye), ba (the soul, Egyptian), os (a bone), om (a mantra); notes and Greek letters.
TWO_LETTERS = _sample("aa ai qi ka jo xi nu mu pi re mi fa la ti os om ye yo ay ba")
#: Nonstandard or informal, and listed as such (M-W: irregardless "nonstandard"; gonna,
#: wanna "nonstandard"; alright "less common spelling of all right"; nite, thru "informal").
NONSTANDARD = _sample("""
    irregardless alright gonna wanna gotta lite thru nite anyways ginormous kinda sorta yeah nope yep yup
""")
#: Spellings the dictionaries list beside another: Oxford's gaol, mediaeval, yoghurt, foetus,
#: gipsy; M-W's hooka ("also hooka"), ameer (variant of amir), judgement, catalogue ...
VARIANT_SPELLINGS = _sample("""
    gaol mediaeval yoghurt hooka ameer encyclopaedia amongst judgement catalogue dialogue ax axe whilst
    programme likeable ageing aeroplane manoeuvre moustache pyjamas sceptic storey tyre kerb plough
    draught mould smoulder sulphur foetus oesophagus anaesthetic paediatric haemoglobin orthopaedic gipsy
""")


def _words(spellings: tuple[str, ...]) -> dict[str, int]:
    """word -> the first SCOWL size whose ``words`` lists (of these spellings) have it."""
    first: dict[str, int] = {}
    for level in LEVELS:
        for spelling in spellings:
            path = DEFAULT_DICT_DIR / f"{spelling}-words.{level}"
            if path.is_file():
                for word in path.read_text(encoding="utf-8").split():
                    first.setdefault(word, level)
    return first


@pytest.fixture(scope="module")
def first_size() -> dict[str, int]:
    return _words(SPELLINGS)


def _covered(first: dict[str, int], sample: list[str], size: int) -> int:
    return sum(1 for w in sample if first.get(w, 999) <= size)


def test_the_sizes_are_named_after_what_they_hold() -> None:
    assert (EVERYDAY_SIZE, DEFAULT_SIZE) == (60, 70)


def test_ordinary_rare_nouns_are_all_in_size_70_and_not_all_in_60(first_size: dict[str, int]) -> None:
    assert len(RARE_NOUNS) == 85
    assert _covered(first_size, RARE_NOUNS, 50) == 66
    assert [w for w in RARE_NOUNS if first_size.get(w, 999) > 60] == ["esker", "tabard"]
    assert _covered(first_size, RARE_NOUNS, 70) == 85


def test_two_letter_and_nonstandard_headwords_come_in_at_70(first_size: dict[str, int]) -> None:
    assert [w for w in TWO_LETTERS if 60 < first_size.get(w, 999) <= 70] == ["ai", "qi", "ka", "jo"]
    assert _covered(first_size, TWO_LETTERS, 60) == 12 and _covered(first_size, TWO_LETTERS, 70) == 16
    # aa and os are SCOWL abbreviations (and WordNet nouns), ay a variant spelling, ba at 80
    assert [w for w in TWO_LETTERS if first_size.get(w, 999) > 70] == ["aa", "os", "ay", "ba"]
    assert [w for w in NONSTANDARD if 60 < first_size.get(w, 999) <= 70] == ["irregardless"]
    assert [w for w in NONSTANDARD if first_size.get(w, 999) > 70] == ["nite"]


def test_a_larger_size_than_70_adds_no_sample_word_but_one(first_size: dict[str, int]) -> None:
    sample = RARE_NOUNS + TWO_LETTERS + NONSTANDARD + VARIANT_SPELLINGS
    assert len(sample) == 157
    covered = {size: _covered(first_size, sample, size) for size in (50, 60, 70, 80, 95)}
    assert covered == {50: 117, 60: 138, 70: 145, 80: 146, 95: 146}


def test_the_variant_lists_hold_the_spellings_the_dictionaries_list_beside_another() -> None:
    both = _words(("english", *DICTIONARY_SPELLINGS[DEFAULT_VARIANT]))
    assert _covered(both, VARIANT_SPELLINGS, 60) == 36  # gaol, mediaeval, yoghurt, hooka, ameer …
    assert both["ay"] == 35 and both["nite"] <= 60
    sample = RARE_NOUNS + TWO_LETTERS + NONSTANDARD + VARIANT_SPELLINGS
    assert {size: _covered(both, sample, size) for size in (60, 70, 80)} == {60: 147, 70: 154, 80: 155}
    assert [w for w in sample if both.get(w, 999) > 70] == ["aa", "os", "ba"]


# -- what each size adds: WordNet's share ------------------------------------------------------

_ENDINGS = (
    ("s", ""), ("es", ""), ("es", "e"), ("ies", "y"), ("men", "man"), ("ed", ""), ("ed", "e"),
    ("ied", "y"), ("ing", ""), ("ing", "e"), ("er", ""), ("er", "e"), ("ier", "y"), ("est", ""),
    ("est", "e"), ("iest", "y"), ("ly", ""), ("ly", "le"), ("ily", "y"), ("ness", ""), ("iness", "y"),
)


def _wordnet() -> set[str]:
    """WordNet's lemmas and irregular forms (mice, went), every part of speech."""
    known: set[str] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        for name in (f"index.{pos}", f"{pos}.exc"):
            text = (DEFAULT_WORDNET_DIR / name).read_text(encoding="utf-8", errors="replace")
            known.update(line.split(" ", 1)[0] for line in text.splitlines() if line and line[0] != " ")
    return known


def _in_wordnet(word: str, lemmas: set[str]) -> bool:
    """A lemma, or a lemma with a regular ending (running: run + doubled n + ing)."""
    if word in lemmas:
        return True
    for ending, base in _ENDINGS:
        if word.endswith(ending):
            stem = word[: -len(ending)]
            if stem + base in lemmas or (len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in lemmas):
                return True
    return False


def test_wordnet_knows_most_of_what_70_adds_and_few_of_what_80_adds() -> None:
    lemmas = _wordnet()
    share = {}
    for level in (60, 70, 80, 95):
        added = {
            w
            for spelling in SPELLINGS
            if (path := Path(DEFAULT_DICT_DIR / f"{spelling}-words.{level}")).is_file()
            for w in path.read_text(encoding="utf-8").split()
            if w.islower() and "'" not in w
        }
        share[level] = round(100 * sum(_in_wordnet(w, lemmas) for w in added) / len(added))
    assert share == {60: 74, 70: 61, 80: 24, 95: 12}


def test_the_full_dictionary_rules_every_sample_headword_a_word_but_one() -> None:
    """The measurement through the referee itself (Upwords, rule 4: "in the dictionary"):
    the variant lists and the nouns the lists keep as abbreviations (aa, os) included."""
    from games.words import WordAuthority

    sample = RARE_NOUNS + TWO_LETTERS + NONSTANDARD + VARIANT_SPELLINGS
    full, everyday = WordAuthority.load(), WordAuthority.load(size=EVERYDAY_SIZE)
    assert [w for w in sample if not full.rule("upwords", w).legal] == ["ba"]
    refused = [w for w in sample if not everyday.rule("upwords", w).legal]
    assert refused == ["esker", "tabard", "aa", "ai", "qi", "ka", "jo", "os", "ba", "irregardless"]

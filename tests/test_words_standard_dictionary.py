"""Rulings a careful referee holding a standard dictionary would give, with reasons a
family can read: each word below cites the dictionary entry or the rule sheet's sentence
that decides it (Merriam-Webster's Collegiate: M-W; Collins English Dictionary; the
Oxford Dictionary of English: Oxford; the sheets in ../shared/rules/).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.lexicon import DEFAULT_DICT_DIR
from games.word_sources import DEFAULT_UNITS_FILE, DEFAULT_WORDNET_DIR
from games.words import WordAuthority

pytestmark = pytest.mark.skipif(
    not (DEFAULT_DICT_DIR.is_dir() and DEFAULT_WORDNET_DIR.is_dir() and DEFAULT_UNITS_FILE.is_file()),
    reason="needs scowl, wordnet-base and units (./dev installs them)",
)
GAMES = ["word-on-the-street", "upwords", "tosswords", "wordspiel", "option"]
HINT = "the table can allow it as a house word"


@pytest.fixture(scope="module")
def full() -> WordAuthority:
    """The default: the full dictionary."""
    return WordAuthority.load()


@pytest.fixture(scope="module")
def everyday() -> WordAuthority:
    """The family setting's smaller list."""
    return WordAuthority.load(size=60)


# -- standard dictionary words are words -------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "entry"),
    [
        ("ESKER", "M-W: esker, noun, a long narrow ridge of sand and gravel deposited by a glacier"),
        ("TABARD", "Collins: tabard, noun, a short sleeveless tunic"),
        ("CIRQUE", "M-W: cirque, noun, a deep steep-walled basin on a mountain"),
        ("CLAN", "Oxford: clan, noun, a group of close-knit and interrelated families"),
        ("QI", "M-W: qi, noun, variant of chi (vital force); a borrowing from Chinese"),
        ("KA", "M-W: ka, noun, the eternal spiritual self (Egyptian religion)"),
        ("JO", "M-W: jo, noun, chiefly Scottish: sweetheart"),
        ("IRREGARDLESS", "M-W: irregardless, adverb, nonstandard: regardless"),
        ("GAOL", "Oxford: gaol, noun, British variant spelling of jail"),
        ("YOGHURT", "Oxford: yoghurt, variant spelling of yogurt"),
        ("HOOKA", "M-W: hookah, also hooka, noun"),
        ("AY", "M-W: ay, variant of aye"),
    ],
)
@pytest.mark.parametrize("game", ["upwords", "option", "wordspiel"])
def test_standard_dictionary_words_are_words(full: WordAuthority, game: str, word: str, entry: str) -> None:
    r = full.rule(game, word)
    assert r.legal, (entry, r)
    assert r.reason.startswith(f"{word} is in the dictionary")


# -- reasons name the family's lists, never a library ----------------------------------------


@pytest.mark.parametrize(
    ("word", "entry"),
    [
        ("QI", "M-W: qi, noun"),
        ("ESKER", "M-W: esker, noun"),
        ("IRREGARDLESS", "M-W: irregardless, adverb, nonstandard"),
    ],
)
def test_a_word_of_the_full_dictionary_is_not_in_the_everyday_list(
    everyday: WordAuthority, word: str, entry: str
) -> None:
    for game in ("upwords", "option", "wordspiel", "word-on-the-street"):
        r = everyday.rule(game, word)
        assert not r.legal and r.source == "dictionary"
        assert r.reason == f"{word} is not in the everyday list (it is in the full dictionary); {HINT}", entry


def test_a_rare_word_is_not_called_not_in_the_dictionary(full: WordAuthority) -> None:
    # ZYZZYVA (a weevil) is in Collins and the Scrabble lists, not in a desk dictionary.
    r = full.rule("upwords", "zyzzyva")
    assert r.reason == f"ZYZZYVA is not in the full dictionary (it is in the list of rare words); {HINT}"


def test_another_spelling_says_which_spelling_it_is() -> None:
    # Oxford: colour, the British spelling of color; the table chose American spellings.
    american = WordAuthority.load(variant="american")
    r = american.rule("option", "colour")
    assert r.reason == f"COLOUR is a British spelling; this table plays American spellings; {HINT}"


def test_no_reason_names_a_library_a_list_size_or_a_false_not_in_the_dictionary(
    full: WordAuthority, everyday: WordAuthority
) -> None:
    """What a family screen shows: a sample of list words of every size, in every game."""
    words = set()
    for path in DEFAULT_DICT_DIR.glob("english-*.*"):
        words.update(path.read_text(encoding="utf-8", errors="replace").split())
    up_to_80 = set()
    for path in DEFAULT_DICT_DIR.glob("*-words.*"):
        if int(path.suffix[1:]) <= 80:
            up_to_80.update(path.read_text(encoding="utf-8", errors="replace").split())
    sample = random.Random(48).sample(sorted(words), 800)
    for authority in (full, everyday):
        for word in sample:
            for game in GAMES:
                r = authority.rule(game, word)
                assert not re.search(r"SCOWL|WordNet|GNU|\bsize\b|\blevel\b", r.reason), r
                if "not in the dictionary" in r.reason:
                    assert word.lower() not in up_to_80, r


def test_a_hyphen_reason_names_no_list(full: WordAuthority) -> None:
    # Word on the Street: "Hyphenated words are only allowed when the hyphen is part of a name"
    r = full.rule("wots", "Zeta-Jones")
    assert r.reason == "ZETA-JONES is a name (Jones is a name first), so its hyphen is allowed"
    assert "(no part of it is chiefly a name)" in full.rule("wots", "X-ray").reason
    r = full.rule("wots", "zeta-qzx")
    assert r.reason == "ZETA-QZX: QZX is not a word or name in the full dictionary"


# -- abbreviations: the rule on abbreviations decides, and nouns are words ------------------------


@pytest.mark.parametrize(
    ("word", "form", "entry"),
    [
        ("LB", "lb", "M-W: lb, abbreviation, pound"),
        ("KG", "kg", "M-W: kg, abbreviation, kilogram"),
        ("TSP", "tsp", "M-W: tsp, abbreviation, teaspoon"),
        ("ETC", "etc", "M-W: etc., abbreviation, et cetera"),
        ("MM", "MM", "M-W: mm, abbreviation, millimeter"),
    ],
)
def test_an_abbreviation_in_upwords_is_refused_by_rule_7d(
    full: WordAuthority, everyday: WordAuthority, word: str, form: str, entry: str
) -> None:
    # Upwords 7D: "Abbreviations and symbols are illegal." — not rule 4's dictionary test.
    for authority in (full, everyday):
        r = authority.rule("upwords", word)
        assert not r.legal and r.rule.startswith("Upwords, rule 7D"), (entry, r)
        assert r.reason == f"{word} is an abbreviation ({form})"


@pytest.mark.parametrize(
    ("word", "entry"),
    [
        ("AA", "M-W: aa, noun, stony rough lava"),
        ("OS", "M-W: os, noun, plural ossa, bone"),
        ("PSI", "M-W: psi, noun, the 23rd letter of the Greek alphabet"),
        ("RAD", "M-W: rad, noun, a unit of absorbed dose of ionizing radiation"),
        ("THERM", "M-W: therm, noun, a quantity of heat equal to 100,000 British thermal units"),
    ],
)
def test_a_noun_the_lists_keep_as_an_abbreviation_is_a_word(
    full: WordAuthority, word: str, entry: str
) -> None:
    for game in ("upwords", "option", "wordspiel", "word-on-the-street"):
        r = full.rule(game, word)
        assert r.legal and "abbreviation" not in r.reason, (entry, r)
    assert full.is_word(word)
    if len(word) >= 3:  # and the Tosswords search offers it, like any word
        assert full.rule("tosswords", word).legal
        assert word in full.fitting_tosswords((word[0], word[-1]), len(word) - 2)


# -- every reason names the rule that decides it, in the sheet's words ---------------------------

SHEETS = Path(__file__).resolve().parents[2] / "shared" / "rules"
SHEET_OF = {
    "Word on the Street": "word-on-the-street.txt",
    "Upwords": "upwords.txt",
    "Tosswords": "tosswords.txt",
    "WordSpiel": "wordspiel.txt",
    "Option": "option.txt",
}


def _plain(text: str) -> str:
    """A sheet's text for comparing: curly and mis-encoded apostrophes straight, one space."""
    text = text.replace("\u2019", "'").replace("¡¯", "'").replace("*", "")
    return " ".join(text.split()).lower()


def _quoted(rule: str) -> list[str]:
    """What a rule quotes: its section ('Allowable Words') and the sheet's words ("…")."""
    quotes = re.findall(r'"([^"]+)"', rule) + re.findall(r"(?<![a-z])'(.+?)'(?=:|$| )", rule)
    if "not allowed — " in rule:  # WordSpiel's list of what is NOT allowed, item by item
        quotes += rule.split("not allowed — ", 1)[1].split(" and ")
    return [part.strip() for q in quotes for part in q.split("…")]


@pytest.mark.skipif(not SHEETS.is_dir(), reason="the rule sheets are not beside the project")
def test_every_rule_cited_quotes_its_sheet(full: WordAuthority) -> None:
    words = [
        "trance", "zebras", "Alaska", "part-time", "don't", "DONT", "tsp", "V.I.P.", "x&y", "un", "zqxv",
        "sand dollar", "Zeta-Jones", "X-ray", "qi", "Tue", "CA", "ASAP", "etc", "it", "extraordinarily",
        "a", "unite", "Robert", "O'Brien", "colour", "intersticial", "mr", "aka", "eg",
    ]
    situations: dict[str, list[dict[str, object]]] = {
        "tosswords": [{}, {"keys": ("C", "T"), "die": 3}, {"keys": ("C", "T"), "die": 3, "extras": ("P",)}],
        "wordspiel": [{}, {"spiral": "FUN"}],
    }
    cited = set()
    for word in words:
        for game in GAMES:
            for kw in situations.get(game, [{}]):
                cited.add(full.rule(game, word, **kw).rule)  # type: ignore[arg-type]
    assert len(cited) > 25
    for rule in cited:
        game = next(g for g in SHEET_OF if rule.startswith(g + ","))
        sheet = _plain((SHEETS / SHEET_OF[game]).read_text(encoding="utf-8", errors="replace"))
        quotes = _quoted(rule)
        assert quotes, f"{rule} quotes nothing of its sheet"
        for quote in quotes:
            assert _plain(quote) in sheet, f"{rule}: {quote!r} is not in {SHEET_OF[game]}"


def test_a_misspelling_in_tosswords_cites_the_rule_that_asks_for_a_word(full: WordAuthority) -> None:
    # INTERSTICIAL is a misspelling of interstitial (M-W); only SCOWL's 95 list has it, and
    # Tosswords' 'Retiring two tiles': "come up with a word" is the rule it fails.
    r = full.rule("tosswords", "intersticial")
    assert not r.legal
    assert r.reason == "INTERSTICIAL is not in the dictionary"
    assert r.rule == "Tosswords, 'Retiring two tiles': \"come up with a word\""
    # the fine points are cited for what they say: proper nouns and plurals
    assert full.rule("tosswords", "Alaska").rule.endswith("\"Proper nouns aren't permitted\"")
    assert "creating a plural" in full.rule("tosswords", "zebras").rule


# -- WordSpiel: "common abbreviations such as tsp … or lb", not only units -----------------------


@pytest.mark.parametrize(
    ("word", "entry"),
    [
        ("ETC", "M-W: etc., abbreviation, et cetera"),
        ("VS", "M-W: vs, abbreviation, versus"),
        ("APPROX", "M-W: approx., abbreviation, approximate; approximately"),
        ("MISC", "M-W: misc., abbreviation, miscellaneous"),
        ("MR", "M-W: Mr., a conventional title of courtesy (mister), not a name"),
        ("TSP", "the sheet: tsp (for teaspoon)"),
        ("LB", "the sheet: lb (for pound)"),
    ],
)
def test_wordspiel_allows_every_common_abbreviation(
    full: WordAuthority, everyday: WordAuthority, word: str, entry: str
) -> None:
    for authority in (full, everyday):
        r = authority.rule("wordspiel", word)
        assert r.legal and r.reason.startswith(f"{word} is a common abbreviation ("), (entry, r)
        assert r.rule == "WordSpiel, 'Allowable words': \"plus common abbreviations such as tsp … or lb\""


@pytest.mark.parametrize(
    ("word", "what", "decides"),
    [
        ("AKA", "acronyms", "M-W: aka, a.k.a., also known as: initials of a phrase, like A.S.A.P."),
        ("EG", "acronyms", "M-W: e.g., exempli gratia: initials of a phrase"),
        ("ASAP", "acronyms", "the sheet: Acronyms (A.S.A.P. = As Soon As Possible)"),
        ("TUE", "proper noun abbreviations", "the sheet: Proper noun abbreviations (CA, Tue, Feb)"),
        ("CA", "proper noun abbreviations", "the sheet: Proper noun abbreviations (CA, Tue, Feb)"),
    ],
)
def test_wordspiel_still_refuses_acronyms_and_proper_noun_abbreviations(
    full: WordAuthority, word: str, what: str, decides: str
) -> None:
    r = full.rule("wordspiel", word)
    assert not r.legal and r.rule.startswith("WordSpiel, 'Allowable words': not allowed — "), decides
    assert what in r.rule, decides


def test_a_common_abbreviation_continues_a_spiral(full: WordAuthority) -> None:
    # Rule G: "each player builds a word starting with the last letter(s) played" — VET … ETC
    r = full.rule("wordspiel", "etc", spiral="VET")
    assert r.legal
    assert r.reason == "ETC is a common abbreviation (etc), and builds on ET, the end of the spiral"
    assert "ETC" in full.spiral_continuations("VET")

"""What a typed word *is*, before any game has an opinion: the facts the five policies share.

A player, the camera or the kiosk hands us a string: "Zeta-Jones", "DONT", "A.S.A.P.",
"sand dollar", "ZEBRAS". :func:`analyse` splits off its shape (spaces, hyphens, dots,
apostrophes, symbols) and asks the lexicon what kind of entry it is (an ordinary word, a
name, an abbreviation, a contraction, a word spelt without its apostrophe, or nothing).
:func:`plural_stem` answers the one grammatical question a rule sheet asks (Tosswords:
"no plural made by adding S"). The games' verdicts are in :mod:`games.word_policies`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.lexicon import Lexicon, fold

_INITIALS = re.compile(r"^(?:[^\W\d_]\.)+[^\W\d_]?\.?$")

#: Affixes that cannot stand alone (Upwords 7E). Only used to *explain* why a string that
#: is not in the dictionary is refused; whether it is a word is always the dictionary's call.
PREFIXES = frozenset(
    [
        "anti", "auto", "bi", "circum", "co", "contra", "counter", "de", "dis", "em", "en", "extra", "hemi",
        "hyper", "il", "im", "in", "inter", "intra", "ir", "macro", "mal", "micro", "mid", "mis", "mono",
        "multi", "neo", "non", "omni", "pan", "para", "peri", "poly", "post", "pre", "pro", "proto",
        "pseudo", "re", "retro", "semi", "sub", "supra", "syn", "tele", "trans", "tri", "ultra", "un", "uni"
    ]
)
SUFFIXES = frozenset(
    [
        "able", "ably", "al", "ance", "ence", "ation", "ative", "dom", "ed", "eer", "en", "ence", "er",
        "ery", "ese", "esque", "est", "ful", "hood", "ial", "ible", "ic", "ical", "ify", "ing", "ion",
        "ious", "ise", "ish", "ism", "ist", "ite", "ity", "ive", "ize", "less", "let", "ling", "ly", "ment",
        "ness", "ous", "ship", "sion", "some", "tion", "ty", "ward", "wards", "wise"
    ]
)

#: Words that end in S but are not plurals although their stem is a word. Either the stem's
#: "'s" form is a contraction, not a possessive ("it's", "let's"), or the S makes an adverb
#: or a pronoun, not a plural. Everything else is decided from the dictionary itself.
NOT_PLURALS = frozenset(
    [
        "its", "lets", "hers", "ours", "yours", "theirs", "his", "has", "was", "is", "us", "as", "thus",
        "this", "yes", "plus", "besides", "anyways", "afterwards", "backwards", "forwards", "towards",
        "downwards", "upwards", "onwards", "outwards", "inwards", "homewards", "sideways", "always",
        "nowadays", "overseas", "indoors", "outdoors", "upstairs", "downstairs", "amidships", "hereabouts",
        "thereabouts", "whereabouts", "needs"
    ]
)


@dataclass(frozen=True, slots=True)
class Facts:
    """The shape of one typed word and every way the dictionary knows it.

    ``display`` is what rulings show ("ZETA-JONES"). The dictionary fields are each None
    when the dictionary does not know the word that way; a word can be several things
    ("Ed" is a name, "ed" an abbreviation), and each game decides which matters.
    """

    display: str  # as typed, upper case, trimmed: "ZETA-JONES"
    key: str  # folded lookup key: "zeta-jones"
    letters: str  # letters only, folded: "zetajones"
    words: tuple[str, ...]  # split on spaces: ("sand", "dollar")
    parts: tuple[str, ...]  # the one word split on hyphens, dots dropped: ("zeta", "jones")
    symbols: str  # characters that are not letters, ' - . or spaces: "&"
    dotted: bool  # written with full stops: "A.S.A.P.", "tsp."
    is_word: bool  # an ordinary word: "trance", "zebras", "pinata"
    name: str | None  # only ever written with a capital: "Alaska", "OK"
    abbreviation: str | None  # "tsp", "VIP", "Tue"; "V.I.P." when typed as dotted initials
    contraction: str | None  # "don't", "she's": written with an apostrophe
    without_apostrophe: str | None  # "DONT" is "don't" spelt without its apostrophe
    spelling: str | None = None  # "British" when only one spelling list has the word (COLOUR)

    @property
    def spaced(self) -> bool:
        return len(self.words) > 1

    @property
    def hyphenated(self) -> bool:
        return len(self.parts) > 1

    @property
    def apostrophe(self) -> bool:
        return "'" in self.key

    @property
    def abbreviation_case(self) -> str | None:
        """'lower' (tsp), 'caps' (VIP, CA, V.I.P.) or 'capital' (Tue) — how it is written."""
        if self.abbreviation is None:
            return None
        letters = [ch for ch in self.abbreviation if ch.isalpha()]
        if all(ch.islower() for ch in letters):
            return "lower"
        if len(letters) > 1 and all(ch.isupper() for ch in letters):
            return "caps"
        return "capital"


def analyse(word: str, lex: Lexicon) -> Facts:
    """The facts about ``word``. Raises ValueError for an empty string."""
    text = str(word).strip().replace("\u2019", "'")
    if not text:
        raise ValueError("no word given")
    key = fold(text)
    if not key.strip():  # only accents, nothing to fold them onto: keep them as symbols
        key = text.lower()
    words: tuple[str, ...]
    parts: tuple[str, ...]
    if key.isalpha():  # the common case, one plain word: skip the character scans
        words, one, symbols, undotted, parts, letters = (key,), key, "", key, (key,), key
    else:
        words = tuple(key.split())
        one = words[0]
        symbols = "".join(sorted({ch for ch in key if not (ch.isalpha() or ch in "'-." or ch.isspace())}))
        undotted = one.replace(".", "")
        parts = tuple(undotted.split("-"))
        letters = "".join(ch for ch in key if ch.isalpha())
    is_word = contraction = name = abbreviation = without = None
    if "'" in undotted:
        if lex.is_contraction(undotted) or lex.is_word(undotted):
            contraction = undotted  # "don't"; and "she's", "zebra's" from the word list
        name = lex.name_form(undotted)  # "O'Brien"
    else:
        is_word = lex.is_word(undotted)
        name = lex.name_form(undotted)
        abbreviation = lex.abbreviation_form(undotted)
        if not is_word and abbreviation is not None and "." not in one:
            is_word = lex.is_noun_abbreviation(undotted)  # AA, OS: nouns of every dictionary
        if not is_word and undotted.isalpha():
            without = lex.apostrophe_form(undotted)
    if "." in one and _INITIALS.match(one):
        abbreviation = text.upper()  # dotted initials are an acronym, whatever the list says
    return Facts(
        display=" ".join(text.upper().split()),
        key=key,
        letters=letters,
        words=words,
        parts=parts,
        symbols=symbols,
        dotted="." in key,
        is_word=bool(is_word),
        name=name,
        abbreviation=abbreviation,
        contraction=contraction,
        without_apostrophe=without,
        spelling=lex.spelling_of(undotted) if is_word else None,
    )


def affix_kind(key: str) -> str | None:
    """'prefix' or 'suffix' when ``key`` is a common affix (used only for the 7E reason)."""
    bare = key.strip("-")
    if key.endswith("-") or (bare in PREFIXES and not key.startswith("-")):
        return "prefix"
    if key.startswith("-") or bare in SUFFIXES:
        return "suffix"
    return None


#: The plural settings (``[words] plurals``): "any" refuses every plural made with S, even
#: one that is also a verb form (RUNS, GOES); "nouns" refuses only plurals that are not
#: also verb forms. See docs/rulings.md.
PLURAL_MODES = ("any", "nouns")
DEFAULT_PLURALS = "any"


def plural_stem(key: str, lex: Lexicon, plurals: str = DEFAULT_PLURALS) -> str | None:
    """The singular noun that ``key`` is a plural of, made with S; else None.

    With WordNet installed (:mod:`games.word_sources`), from its parts of speech:

    * the word ends in S and a singular is in the list: +S (ZEBRAS), +ES after S/X/Z/CH/SH/O
      (BOXES, HEROES), Y->IES (BABIES), F/FE->VES (WOLVES, KNIVES), or WordNet's own
      irregular forms (GOES -> GO);
    * WordNet lists that singular as a noun (SEEM is not one, so SEEMS is no plural);
    * the word is not a noun of its own in WordNet (PANTS, SCISSORS, NEWS, PHYSICS, LENS),
      nor an adverb (ALWAYS, BACKWARDS), nor a pronoun of :data:`NOT_PLURALS` (ITS, HERS);
    * with ``plurals="nouns"`` it is not also the -S form of a verb (RUNS, GOES are).

    Without WordNet, the SCOWL-only heuristic of :func:`_heuristic_stem`.
    """
    if len(key) < 3 or not key.endswith("s") or not key.isalpha() or key in NOT_PLURALS:
        return None
    src = lex.sources()
    if not src.has_wordnet:
        return _heuristic_stem(key, lex)
    if src.is_noun(key) or key in (src.adverbs or ()):
        return None
    words = lex.words
    stems = [s for s in src.noun_exceptions.get(key, ()) if s != key] + _singulars(key)
    stem = next((s for s in stems if s in words and src.is_noun(s)), None)
    if stem is None or (plurals == "nouns" and src.is_verb_form(key)):
        return None
    return stem


def _heuristic_stem(key: str, lex: Lexicon) -> str | None:
    """The fallback without WordNet, from SCOWL's own structure:

    * the singular must be a noun: SCOWL lists possessives ("zebra's") for nouns only, and
      a stem with no possessive but no verb forms either (no -ING/-ED) is a noun too
      (NOTEPADS) — so SEEMS and ALLEGES are not plurals;
    * a word with its own possessive is itself singular (NEWS's, SPECIES's, LENS's).
    """
    words = lex.words
    if key + "'s" in words:
        return None
    for stem in _singulars(key):
        if stem in words and _is_noun(stem, words):
            return stem
    return None
def _singulars(key: str) -> list[str]:
    stems = [key[:-1]]
    if key.endswith("es"):
        bare = key[:-2]
        if bare.endswith(("s", "x", "z", "ch", "sh", "o")):
            stems.append(bare)
        if key.endswith("ies") and len(key) > 4:
            stems.append(key[:-3] + "y")
        if key.endswith("ves"):
            stems += [key[:-3] + "f", key[:-3] + "fe"]
    return stems


def _is_noun(stem: str, words: set[str]) -> bool:
    if stem + "'s" in words:
        return True
    verb_forms = [stem + "ing", stem + "ed", stem + stem[-1] + "ing"]
    if stem.endswith("e"):
        verb_forms.append(stem[:-1] + "ing")
    if stem.endswith("y"):
        verb_forms.append(stem[:-1] + "ied")
    return not any(v in words for v in verb_forms)

"""The vocabulary the word policies share: the rules they cite, the table's situation
(:class:`Context`: dictionary, game, Tosswords draw, WordSpiel spiral) and common wording.

Kept apart from :mod:`games.word_policies` so that each game's policy reads as a short list
of its sheet's rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.lexicon import Lexicon
from games.rulings import Ruling
from games.word_forms import Facts
from games.word_lists import RARE_WORDS_SIZE, SPELLINGS, list_name, spelling_name

#: SCOWL's "large" size, "words found in most dictionaries": a word listed there in
#: lower case is never called only a name or only an abbreviation
DICTIONARY_LEVEL = 70

# Each rule a ruling cites names the sheet's line and quotes its own words (the decisive
# clause, short enough for one line of the challenge screen).
WOTS_RULE = "Word on the Street, 'Allowable Words': \"Any word in the English language is allowed\""
WOTS_RULE_ONE_WORD = "Word on the Street, 'Allowable Words': \"in the form of a single word\""
WOTS_RULE_HYPHEN = "Word on the Street, 'Allowable Words': \"the hyphen is part of a name\""
UPWORDS_RULE = "Upwords, rule 4 NOTE: \"A word is legal … if it is in the dictionary\""
UPWORDS_RULE_LENGTH = "Upwords, 'How to play' rule 3: \"a word of two letters or more\""
UPWORDS_7A = "Upwords, rule 7A 'Words that are always capitalized are illegal'"
UPWORDS_7B = "Upwords, rule 7B 'Words requiring a hyphen are illegal'"
UPWORDS_7C = "Upwords, rule 7C 'Words requiring an apostrophe are illegal'"
UPWORDS_7D = "Upwords, rule 7D 'Abbreviations and symbols are illegal'"
UPWORDS_7E = "Upwords, rule 7E 'Prefixes and suffixes, that cannot stand alone, are illegal'"
TOSSWORDS_RULE_WORD = "Tosswords, 'Retiring two tiles': \"come up with a word\""
TOSSWORDS_RULE_STRIP = (
    "Tosswords, 'Retiring two tiles': \"the 12×1 strip … writing in the remaining letters\""
)
TOSSWORDS_RULE_SPACING = "Tosswords, 'Retiring two tiles': \"the number of spaces … shown on the die\""
TOSSWORDS_RULE_EXTRAS = "Tosswords, 'Retiring three or more tiles': \"must contain any and all extra tiles\""
TOSSWORDS_RULE_LENGTH = "Tosswords, 'A few fine points': \"between three and twelve letters\""
TOSSWORDS_RULE_PROPER = "Tosswords, 'A few fine points': \"Proper nouns aren't permitted\""
TOSSWORDS_RULE_PLURAL = "Tosswords, 'A few fine points': \"creating a plural -- that's unacceptable\""
#: the section; its list of what is "NOT allowed" is cited item by item
WORDSPIEL_SECTION = "WordSpiel, 'Allowable words'"
WORDSPIEL_RULE = f"{WORDSPIEL_SECTION}: \"All words in the dictionary … are allowed\""
WORDSPIEL_RULE_ABBREVIATIONS = f"{WORDSPIEL_SECTION}: \"plus common abbreviations such as tsp … or lb\""
WORDSPIEL_RULE_SPIRAL = "WordSpiel, rule G: \"builds a word starting with the last letter(s) played\""
WORDSPIEL_RULE_ONE = "WordSpiel, rule B: \"Only one word can be made per turn\""
OPTION_RULE_WORD = "Option, 'Object': \"try to make a word\""
OPTION_RULE_PROPER = "Option, 'Object': \"Players may not use proper nouns\""
OPTION_RULE_ABBREVIATIONS = "Option, 'Object': \"Players may not use … abbreviations\""
OPTION_RULE_SPELLED = "Option, 'Object': \"words spelled with apostrophes or hyphens\""
OPTION_RULE_DICTIONARY = "Option, 'Challenging an opponent's word': \"Consult a dictionary\""

TOSSWORDS_MIN, TOSSWORDS_MAX = 3, 12

#: How a refusal of a word some larger list has ends: the challenge screen's button does it.
HOUSE_HINT = "the table can allow it as a house word"


@dataclass(frozen=True, slots=True)
class Draw:
    """A Tosswords draw: two key tiles, the die (None = the d12's wild blank), extra tiles."""

    keys: tuple[str, str]
    die: int | None
    extras: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Context:
    """What a ruling needs besides the word: the dictionary and the table's situation."""

    lex: Lexicon
    game: str
    draw: Draw | None = None
    spiral: str | None = None
    #: the plural setting: "any" (every plural made with S) or "nouns" (not verb forms too)
    plurals: str = "any"

    def ruling(self, facts: Facts, legal: bool, reason: str, rule: str, source: str = "dictionary") -> Ruling:
        return Ruling(
            legal=legal, reason=reason, rule=rule, word=facts.display, game=self.game, source=source
        )

    def unknown(self, facts: Facts, rule: str) -> Ruling:
        """Not a word of this table's list. Where a larger list or another spelling has it,
        the reason says which, in the family's words, and that a house word can allow it:
        "QI is not in the everyday list (it is in the full dictionary)". "Not in the
        dictionary" is said only of what no list up to the rare words has (misspellings)."""
        lex = self.lex
        where = lex.elsewhere(facts.key) if facts.key.replace("'", "").isalpha() else None
        if where is None or where[0] > RARE_WORDS_SIZE:
            return self.ruling(facts, False, f"{facts.display} is not in the dictionary", rule)
        size, spelling = where
        if spelling in ("english", *SPELLINGS[lex.variant]):
            larger = list_name(size)
            larger = "a larger list" if larger == lex.list_name() else f"the {larger}"
            reason = f"{facts.display} is not in the {lex.list_name()} (it is in {larger})"
        else:
            name = spelling_name(spelling)
            article = "an" if name[0] in "AEIOU" else "a"
            played = lex.spellings_played()
            reason = f"{facts.display} is {article} {name} spelling; this table plays {played} spellings"
        return self.ruling(facts, False, f"{reason}; {HOUSE_HINT}", rule)

    def _lower_case_in_a_dictionary(self, key: str) -> bool:
        """Some SCOWL word list up to size 70 ("words found in most dictionaries"), or the
        size in use if larger, has ``key`` in lower case, in any spelling."""
        where = self.lex.elsewhere(key)
        return where is not None and where[0] <= max(DICTIONARY_LEVEL, self.lex.size)

    def only_capitalized(self, facts: Facts) -> bool:
        """True when it is fair to call the word a name: no dictionary-sized SCOWL list has it
        in lower case (ALASKA yes; JO no: "jo" is a size-70 word; GREY no: British)."""
        return facts.name is not None and not self._lower_case_in_a_dictionary(facts.key)

    def only_abbreviation(self, facts: Facts) -> bool:
        """True when the word is an abbreviation and no dictionary-sized SCOWL list has it as
        a word: then the game's rule on abbreviations decides (Upwords 7D for LB, TSP).
        A noun WordNet heads (AA, a lava) is a word already (:func:`games.word_forms.analyse`)."""
        if facts.abbreviation is None:
            return False
        return facts.dotted or not self._lower_case_in_a_dictionary(facts.key)

    def in_dictionary(self, facts: Facts) -> str:
        """'COLOUR is in the dictionary (British spelling)'."""
        if facts.spelling is None:
            return f"{facts.display} is in the dictionary"
        return f"{facts.display} is in the dictionary ({facts.spelling} spelling)"


# -- shared wording ------------------------------------------------------------------------


def plural(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def shape_problem(facts: Facts) -> str | None:
    """Spaces or symbols: not one word whatever the game."""
    if facts.spaced:
        return f"{facts.display} is {plural(len(facts.words), 'word')}, not one"
    if facts.symbols:
        verb = "is" if len(facts.symbols) == 1 else "are"
        return f"{facts.display} contains {', '.join(facts.symbols)}, which {verb} not a letter"
    return None


def capitalized(facts: Facts) -> str:
    """'a proper noun (Robert)', or 'always written in capitals (OK)' for the few such words."""
    name = facts.name or ""
    if len(name) > 1 and name.isupper():
        return f"always written in capitals ({name})"
    return f"a proper noun ({name})"


def apostrophe_kind(facts: Facts, ctx: Context) -> str:
    """'a contraction' (don't), or 'a contraction or possessive' for the 's forms (she's, zebra's)."""
    key = facts.contraction or facts.key
    if ctx.lex.is_contraction(key) or not key.endswith("'s"):
        return "a contraction"
    return "a contraction or possessive"

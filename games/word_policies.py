"""What each of the five games allows as a word, in the words of its rule sheet.

Each game has two checks:

* a *shape* check that needs no dictionary and that no house rule can lift: Tosswords'
  3 to 12 letters and its draw (keys, die, extra tiles), WordSpiel's spiral;
* a *word* check that asks the dictionary (through :class:`games.word_forms.Facts`) and
  that a house word overrides — players may allow "QI" or strike "OK".

Every verdict is a :class:`games.rulings.Ruling` whose ``reason`` a player can read and
whose ``rule`` names the line of the sheet it comes from. Choices the sheets leave open
are recorded in docs/rulings.md under "Word authority".
"""

from __future__ import annotations

from collections.abc import Callable

from games.rulings import Ruling
from games.word_forms import Facts, affix_kind, plural_stem
from games.word_policy_wots import wots_word
from games.word_rules import (
    OPTION_RULE_ABBREVIATIONS,
    OPTION_RULE_DICTIONARY,
    OPTION_RULE_PROPER,
    OPTION_RULE_SPELLED,
    OPTION_RULE_WORD,
    TOSSWORDS_MAX,
    TOSSWORDS_MIN,
    TOSSWORDS_RULE_EXTRAS,
    TOSSWORDS_RULE_LENGTH,
    TOSSWORDS_RULE_PLURAL,
    TOSSWORDS_RULE_PROPER,
    TOSSWORDS_RULE_SPACING,
    TOSSWORDS_RULE_STRIP,
    TOSSWORDS_RULE_WORD,
    UPWORDS_7A,
    UPWORDS_7B,
    UPWORDS_7C,
    UPWORDS_7D,
    UPWORDS_7E,
    UPWORDS_RULE,
    UPWORDS_RULE_LENGTH,
    WORDSPIEL_RULE,
    WORDSPIEL_RULE_ABBREVIATIONS,
    WORDSPIEL_RULE_ONE,
    WORDSPIEL_RULE_SPIRAL,
    WORDSPIEL_SECTION,
    Context,
    Draw,
    apostrophe_kind,
    capitalized,
    plural,
    shape_problem,
)
from games.wordfit import (
    key_spacing_fits,
    spiral_overlaps,
    tosswords_misfit,
)

# -- Upwords -------------------------------------------------------------------------------


def upwords_word(facts: Facts, ctx: Context) -> Ruling:
    if facts.spaced:
        return ctx.ruling(facts, False, shape_problem(facts) or "", UPWORDS_RULE, "rules")
    if facts.symbols:
        return ctx.ruling(
            facts, False, f"{shape_problem(facts)}: symbols are not allowed", UPWORDS_7D, "rules"
        )
    if facts.hyphenated:
        return ctx.ruling(facts, False, f"{facts.display} needs a hyphen", UPWORDS_7B)
    if facts.apostrophe:
        return ctx.ruling(facts, False, f"{facts.display} needs an apostrophe", UPWORDS_7C)
    if facts.dotted:
        return ctx.ruling(facts, False, f"{facts.display} is an abbreviation", UPWORDS_7D)
    if len(facts.letters) < 2:
        return ctx.ruling(
            facts, False, f"{facts.display} is a single letter, not a word", UPWORDS_RULE_LENGTH, "rules"
        )
    if facts.is_word:
        return ctx.ruling(facts, True, ctx.in_dictionary(facts), UPWORDS_RULE)
    if facts.without_apostrophe:
        return ctx.ruling(
            facts,
            False,
            f"{facts.display} is {facts.without_apostrophe.upper()}, which needs an apostrophe",
            UPWORDS_7C,
        )
    affix = affix_kind(facts.key)
    if affix:
        return ctx.ruling(facts, False, f"{facts.display} is a {affix} that cannot stand alone", UPWORDS_7E)
    if ctx.only_abbreviation(facts):
        return ctx.ruling(
            facts, False, f"{facts.display} is an abbreviation ({facts.abbreviation})", UPWORDS_7D
        )
    if ctx.only_capitalized(facts):
        return ctx.ruling(facts, False, f"{facts.display} is always capitalized ({facts.name})", UPWORDS_7A)
    return ctx.unknown(facts, UPWORDS_RULE)


# -- Tosswords -----------------------------------------------------------------------------


def tosswords_shape(facts: Facts, ctx: Context) -> Ruling | None:
    """Three to twelve letters (the strip), and the draw: key spacing and every extra tile."""
    n = len(facts.letters)
    if not TOSSWORDS_MIN <= n <= TOSSWORDS_MAX:
        side = "fewer than three" if n < TOSSWORDS_MIN else "more than twelve"
        return ctx.ruling(
            facts,
            False,
            f"{facts.display} has {plural(n, 'letter')}, {side}; words must have 3 to 12",
            TOSSWORDS_RULE_LENGTH,
            "rules",
        )
    draw = ctx.draw
    if draw is None:
        return None
    misfit = tosswords_misfit(facts.letters, draw.keys, draw.die, draw.extras)
    if misfit is None:
        return None
    spaced_ok = key_spacing_fits(facts.letters, *draw.keys, draw.die)
    rule = TOSSWORDS_RULE_EXTRAS if spaced_ok else TOSSWORDS_RULE_SPACING
    return ctx.ruling(facts, False, misfit, rule, "rules")


def tosswords_word(facts: Facts, ctx: Context) -> Ruling:
    problem = shape_problem(facts)
    if problem is None and facts.hyphenated:
        problem = f"{facts.display} is hyphenated"
    if problem is None and facts.apostrophe:
        problem = f"{facts.display} is written with an apostrophe"
    if problem is None and facts.without_apostrophe:
        problem = f"{facts.display} is {facts.without_apostrophe.upper()}, written with an apostrophe"
    if problem:
        reason = f"{problem}; Tosswords words are plain single words"
        return ctx.ruling(facts, False, reason, TOSSWORDS_RULE_STRIP)
    if facts.dotted:
        reason = f"{facts.display} is an abbreviation, not a word"
        return ctx.ruling(facts, False, reason, TOSSWORDS_RULE_WORD)
    if facts.is_word:
        stem = plural_stem(facts.key, ctx.lex, ctx.plurals)
        if stem is not None:
            return ctx.ruling(
                facts,
                False,
                f"{facts.display} is a plural of {stem.upper()} made with an S; plurals are not allowed",
                TOSSWORDS_RULE_PLURAL,
            )
        return _tosswords_legal(facts, ctx)
    if ctx.only_abbreviation(facts):
        return ctx.ruling(
            facts,
            False,
            f"{facts.display} is an abbreviation ({facts.abbreviation}), not a word",
            TOSSWORDS_RULE_WORD,
        )
    if ctx.only_capitalized(facts):
        return ctx.ruling(
            facts,
            False,
            f"{facts.display} is {capitalized(facts)}; proper nouns aren't permitted",
            TOSSWORDS_RULE_PROPER,
        )
    return ctx.unknown(facts, TOSSWORDS_RULE_WORD)


def _draw_text(draw: Draw) -> str:
    """'has 3 letters between T and C and contains P' — what fitting the draw means."""
    k1, k2 = (k.upper() for k in draw.keys)
    gap = "any number of letters" if draw.die is None else plural(draw.die, "letter")
    extra = f" and contains {', '.join(e.upper() for e in draw.extras)}" if draw.extras else ""
    return f"has {gap} between {k1} and {k2}{extra}"


def _draw_rule(draw: Draw) -> str:
    return TOSSWORDS_RULE_EXTRAS if draw.extras else TOSSWORDS_RULE_SPACING


def _tosswords_legal(facts: Facts, ctx: Context) -> Ruling:
    draw = ctx.draw
    if draw is None:
        spelling = f" ({facts.spelling} spelling)" if facts.spelling else ""
        reason = f"{facts.display} is a word{spelling}, not a plural or a proper noun"
        return ctx.ruling(facts, True, reason, TOSSWORDS_RULE_WORD)
    return ctx.ruling(facts, True, f"{facts.display} is a word and {_draw_text(draw)}", _draw_rule(draw))


# -- WordSpiel -----------------------------------------------------------------------------


def wordspiel_shape(facts: Facts, ctx: Context) -> Ruling | None:
    """With a spiral: start with its last letter(s), in order, and add at least one card."""
    if ctx.spiral is None or facts.spaced:
        return None
    if spiral_overlaps(ctx.spiral, facts.letters):
        return None
    spiral = "".join(ch for ch in ctx.spiral.upper() if ch.isalpha())
    return ctx.ruling(
        facts,
        False,
        f"{facts.display} does not start with the last letter(s) of {spiral} and add at least one card",
        WORDSPIEL_RULE_SPIRAL,
        "rules",
    )


def wordspiel_word(facts: Facts, ctx: Context) -> Ruling:
    def no(reason: str, what: str) -> Ruling:
        return ctx.ruling(facts, False, reason, f"{WORDSPIEL_SECTION}: not allowed — {what}")

    if facts.spaced:
        return ctx.ruling(facts, False, shape_problem(facts) or "", WORDSPIEL_RULE_ONE, "rules")
    if facts.symbols:
        return ctx.ruling(facts, False, shape_problem(facts) or "", WORDSPIEL_RULE, "rules")
    if facts.hyphenated:
        return no(f"{facts.display} is a hyphenated word", "hyphenated words")
    if facts.apostrophe and ctx.only_capitalized(facts) and not facts.contraction:
        return no(f"{facts.display} is {capitalized(facts)}", "proper nouns")
    if facts.apostrophe:
        return no(f"{facts.display} is {apostrophe_kind(facts, ctx)}", "contractions")
    if facts.is_word and not (facts.dotted and facts.abbreviation):
        return _wordspiel_legal(facts, ctx, ctx.in_dictionary(facts))
    unit = _unit(facts, ctx) if facts.abbreviation and not facts.dotted else None
    if unit:
        return _common_abbreviation(facts, ctx, f"{facts.key}), {unit}")
    case = facts.abbreviation_case if ctx.only_abbreviation(facts) else None
    src = ctx.lex.sources() if case is not None else None
    initials = src.initials(facts.key) if src is not None else None
    if initials:
        return no(f"{facts.display} is an acronym ({initials})", "acronyms")
    if case == "lower":
        return _common_abbreviation(facts, ctx, f"{facts.abbreviation})")
    if case == "caps":
        return no(
            f"{facts.display} is an acronym or a proper-noun abbreviation ({facts.abbreviation})",
            "acronyms and proper noun abbreviations",
        )
    title = src.title(facts.abbreviation or "") if src is not None and case == "capital" else None
    if title:
        spelt = f": {title}" if title.lower() != facts.key else ""
        return _common_abbreviation(facts, ctx, f"{facts.abbreviation}{spelt}), a title, not a name")
    if case == "capital":
        return no(
            f"{facts.display} is a proper-noun abbreviation ({facts.abbreviation})",
            "proper noun abbreviations",
        )
    if facts.without_apostrophe:
        form = facts.without_apostrophe
        possessive = form.endswith("'s") and not ctx.lex.is_contraction(form)
        kind = "a contraction or possessive" if possessive else "a contraction"
        return no(f"{facts.display} is {form.upper()}, {kind}", "contractions")
    if ctx.only_capitalized(facts):
        return no(f"{facts.display} is {capitalized(facts)}", "proper nouns")
    return ctx.unknown(facts, WORDSPIEL_RULE)


def _unit(facts: Facts, ctx: Context) -> str | None:
    """'a unit of measure (teaspoon)' when GNU units or WordNet says the abbreviation names
    one, whatever case the lists write it in (the sheet's own examples, tsp and lb)."""
    unit = ctx.lex.sources().unit(facts.key)
    return f"a unit of measure ({unit.split(': ', 1)[-1]})" if unit else None


def _common_abbreviation(facts: Facts, ctx: Context, detail: str) -> Ruling:
    """WordSpiel's "common abbreviations such as tsp … or lb": an abbreviation the list has,
    written as a dictionary writes a common noun's — in lower case (etc, vs, mph), or a unit
    of measure, or a title (Mr) — rather than a proper noun's (Tue, CA) or an acronym's
    (ASAP, a.k.a.). ``detail`` closes the reason's parenthesis: "etc)"."""
    reason = f"{facts.display} is a common abbreviation ({detail}"
    return _wordspiel_legal(facts, ctx, reason, rule=WORDSPIEL_RULE_ABBREVIATIONS)


def _wordspiel_legal(
    facts: Facts, ctx: Context, reason: str, source: str = "dictionary", *, rule: str = WORDSPIEL_RULE
) -> Ruling:
    if ctx.spiral is None:
        return ctx.ruling(facts, True, reason, rule, source)
    k = spiral_overlaps(ctx.spiral, facts.letters)[-1]
    spiral = "".join(ch for ch in ctx.spiral.upper() if ch.isalpha())
    return ctx.ruling(
        facts,
        True,
        f"{reason}, and builds on {spiral[-k:]}, the end of the spiral",
        WORDSPIEL_RULE_SPIRAL,
        source,
    )


# -- Option --------------------------------------------------------------------------------


def option_word(facts: Facts, ctx: Context) -> Ruling:
    problem = shape_problem(facts)
    if problem:
        return ctx.ruling(facts, False, problem, OPTION_RULE_WORD, "rules")
    if facts.hyphenated:
        return ctx.ruling(facts, False, f"{facts.display} is spelled with a hyphen", OPTION_RULE_SPELLED)
    if facts.apostrophe:
        return ctx.ruling(facts, False, f"{facts.display} is spelled with an apostrophe", OPTION_RULE_SPELLED)
    if facts.dotted:
        return ctx.ruling(facts, False, f"{facts.display} is an abbreviation", OPTION_RULE_ABBREVIATIONS)
    if facts.is_word:
        return ctx.ruling(facts, True, ctx.in_dictionary(facts), OPTION_RULE_DICTIONARY)
    if facts.without_apostrophe:
        return ctx.ruling(
            facts,
            False,
            f"{facts.display} is {facts.without_apostrophe.upper()}, spelled with an apostrophe",
            OPTION_RULE_SPELLED,
        )
    if ctx.only_abbreviation(facts):
        reason = f"{facts.display} is an abbreviation ({facts.abbreviation})"
        return ctx.ruling(facts, False, reason, OPTION_RULE_ABBREVIATIONS)
    if ctx.only_capitalized(facts):
        return ctx.ruling(facts, False, f"{facts.display} is {capitalized(facts)}", OPTION_RULE_PROPER)
    return ctx.unknown(facts, OPTION_RULE_DICTIONARY)


# -- the table -----------------------------------------------------------------------------

Shape = Callable[[Facts, Context], "Ruling | None"]
WordCheck = Callable[[Facts, Context], Ruling]


def _no_shape(facts: Facts, ctx: Context) -> Ruling | None:
    return None


#: canonical game name -> (shape check, word check)
POLICIES: dict[str, tuple[Shape, WordCheck]] = {
    "word-on-the-street": (_no_shape, wots_word),
    "upwords": (_no_shape, upwords_word),
    "tosswords": (tosswords_shape, tosswords_word),
    "wordspiel": (wordspiel_shape, wordspiel_word),
    "option": (_no_shape, option_word),
}


def house_ruling(facts: Facts, ctx: Context, allowed: bool, scope: str) -> Ruling:
    """The ruling a house entry gives, worded for the game (draw and spiral included)."""
    where = "in all games" if scope == "all games" else f"in {scope}"
    if not allowed:
        return ctx.ruling(
            facts, False, f"{facts.display} is struck by house rule ({where})", "House rule", "house"
        )
    reason = f"{facts.display} is allowed by house rule ({where})"
    if ctx.game == "tosswords" and ctx.draw is not None:
        return ctx.ruling(facts, True, f"{reason}, and {_draw_text(ctx.draw)}", _draw_rule(ctx.draw), "house")
    if ctx.game == "wordspiel" and ctx.spiral is not None:
        return _wordspiel_legal(facts, ctx, reason, "house")
    return ctx.ruling(facts, True, reason, "House rule", "house")

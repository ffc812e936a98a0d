"""Word on the Street's word policy: any English word or name, hyphens only inside names.

Its own module because the hyphen rule needs the most explaining (see docs/rulings.md,
"Word on the Street"); the other four games' policies are in :mod:`games.word_policies`.
"""

from __future__ import annotations

from games.rulings import Ruling
from games.word_forms import Facts
from games.word_rules import (
    WOTS_RULE,
    WOTS_RULE_HYPHEN,
    WOTS_RULE_ONE_WORD,
    Context,
    apostrophe_kind,
    capitalized,
    plural,
    shape_problem,
)

# -- Word on the Street --------------------------------------------------------------------


def wots_word(facts: Facts, ctx: Context) -> Ruling:
    if facts.spaced:
        return ctx.ruling(
            facts,
            False,
            f"{facts.display} is {plural(len(facts.words), 'word')}; a compound counts only when it "
            f"is written as one word (like SANDBOX)",
            WOTS_RULE_ONE_WORD,
            "rules",
        )
    if facts.symbols:
        return ctx.ruling(facts, False, shape_problem(facts) or "", WOTS_RULE_ONE_WORD, "rules")
    if facts.hyphenated:
        return _wots_hyphen(facts, ctx)
    if facts.is_word:
        spelling = f" ({facts.spelling} spelling)" if facts.spelling else ""
        return ctx.ruling(
            facts,
            True,
            f"{facts.display} is an English word{spelling}; whether it fits the category card is for "
            f"the players to vote on",
            WOTS_RULE,
        )
    if facts.name:
        return ctx.ruling(
            facts,
            True,
            f"{facts.display} is {capitalized(facts)}; capitalized words such as names of persons "
            f"and places are allowed",
            WOTS_RULE,
        )
    if facts.contraction:
        return ctx.ruling(
            facts, True, f"{facts.display} is an English word ({apostrophe_kind(facts, ctx)})", WOTS_RULE
        )
    if facts.without_apostrophe:
        return ctx.ruling(
            facts,
            True,
            f"{facts.display} is {facts.without_apostrophe.upper()}; the apostrophe is not a letter",
            WOTS_RULE,
        )
    if ctx.only_abbreviation(facts):
        return ctx.ruling(
            facts, False, f"{facts.display} is an abbreviation ({facts.abbreviation}), not a word", WOTS_RULE
        )
    return ctx.unknown(facts, WOTS_RULE)


def _wots_hyphen(facts: Facts, ctx: Context) -> Ruling:
    """A hyphen only as part of a name: Zeta-Jones, Winston-Salem, Rolls-Royce — not X-ray.

    The hyphenated form is a name when one of its parts is chiefly a name: the lists write
    it with a capital at a commoner level than in lower case (Jones, Salem, Royce). A part
    that is an ordinary word first (Ray, Will, Bill, Jack, Day, Mark) proves nothing, so
    X-RAY, SELF-WILL, T-BILL, JUMPING-JACK, PAY-DAY and FIRE-MARK are refused. SCOWL
    carries no hyphenated entries, so a brand whose parts are both ordinary words
    (COCA-COLA: coca, cola) is refused too; a table may allow it as a house word.
    """
    lex = ctx.lex
    missing = [p for p in facts.parts if not p or not (lex.is_word(p) or lex.name_form(p))]
    if missing:
        shown = ", ".join(p.upper() or "an empty part" for p in missing)
        return ctx.ruling(
            facts,
            False,
            f"{facts.display}: {shown} is not a word or name in the {lex.list_name()}",
            WOTS_RULE,
        )
    names = [lex.name_form(p) for p in facts.parts if lex.is_chiefly_name(p)]
    if names:
        return ctx.ruling(
            facts,
            True,
            f"{facts.display} is a name ({names[0]} is a name first), so its hyphen is allowed",
            WOTS_RULE_HYPHEN,
        )
    return ctx.ruling(
        facts,
        False,
        f"{facts.display} is hyphenated but is not a name (no part of it is chiefly a name); a hyphen "
        f"is allowed only as part of a name, like Zeta-Jones",
        WOTS_RULE_HYPHEN,
    )

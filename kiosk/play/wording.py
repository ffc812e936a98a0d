"""Plain words for the screens: counts that agree, winners that agree, when a game was played.

Pure functions (no Kivy), so the wording is tested directly: "1 turn", "1 point",
"Parents win!", "Dad wins!", "DEAR 8 points", "today 19:40".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any


def agreeing(n: int, noun: str) -> str:
    """The noun alone as it agrees with ``n``: 'point' for 1 (and -1), 'points' otherwise."""
    return noun if abs(n) == 1 else f"{noun}s"


def plural(n: int, noun: str) -> str:
    """'1 turn', '2 turns', '-1 point': the count and the noun that agrees with it."""
    return f"{n} {agreeing(n, noun)}"


#: Endings of a single person's name that look like a plural's "s": Chris, Marcus, Bess.
_SINGULAR_ENDINGS = ("ss", "us", "is")
#: Common first names ending in a plural-looking "s" (a side named after one person).
_SINGULAR_NAMES = frozenset(
    {
        "james", "charles", "jules", "miles", "giles", "agnes", "frances", "thomas", "nicholas",
        "douglas", "lucas", "silas", "elias", "carlos", "marcos", "amos", "wes", "les", "des",
    }
)
#: Joins that make a name two or more people: "Ann & Bob", "Mum and Dad".
_JOINS = re.compile(r"\s(?:&|and|\+)\s", re.IGNORECASE)


def reads_plural(name: str) -> bool:
    """Whether a side's name takes a plural verb: "Parents win!", "Dad wins!".

    A deliberately simple rule (docs/kiosk.md, End): a name joining two people ("Mum & Dad")
    is plural; otherwise its last word decides, plural when it ends in "s" but not in an
    ending common to single names (Chris, Marcus, Bess) and not a common first name that
    ends so (James, Charles). "Team A" and "Dad" stay singular."""
    if _JOINS.search(f" {name} "):
        return True
    words = re.findall(r"[A-Za-z']+", name)
    last = words[-1].lower() if words else ""
    if last in _SINGULAR_NAMES:
        return False
    return len(last) > 2 and last.endswith("s") and not last.endswith(_SINGULAR_ENDINGS)


def winner_line(winners: Sequence[str], side: str = "Player") -> str:
    """'Ann wins!', 'Parents win!', 'Dad wins!', 'Tie: Ann & Bob', 'No winner'.

    ``side`` is the game's word for a side (``playbook.Guide.side``): a player is one person
    ("Charles wins!" whatever the name ends in); a team's or side's name sets the verb's
    number by :func:`reads_plural`."""
    if not winners:
        return "No winner"
    if len(winners) > 1:
        return f"Tie: {' & '.join(winners)}"
    name = winners[0]
    plural_verb = side.lower() != "player" and reads_plural(name)
    return f"{name} {'win' if plural_verb else 'wins'}!"


def turn_scored(summary: str, points: int, unit: str = "point") -> str:
    """A turn and what it scored, the figure said once: 'DEAR 8 points' (the pad's 'DEAR 8'
    already holds it), 'TRANCE (d6: 6): retired T R A N C E (6 tiles)', '8 points'.

    ``unit``: what a game's score counts (``playbook.Guide.unit``): Tosswords' are tiles."""
    if not summary:
        return plural(points, unit)
    if re.search(rf"(?<![\d-]){re.escape(str(points))}$", summary):
        return f"{summary} {agreeing(points, unit)}"
    return f"{summary} ({plural(points, unit)})"


def score_change(player: str, points: int, unit: str = "point", side: str = "Player") -> str:
    """'Ann loses 10 points', 'Bob gets 1 card', 'Reds lose 1 letter': one score change as the
    table says it (the verb agrees with a side's name as in :func:`winner_line`)."""
    many = side.lower() != "player" and reads_plural(player)
    verb = ("lose" if many else "loses") if points < 0 else ("get" if many else "gets")
    return f"{player} {verb} {plural(abs(points), unit)}"


def consequence(message: str, turns: Sequence[Any], unit: str = "point", side: str = "Player") -> str:
    """What a ruling did, every score change included: 'LOOT stands; Ann loses 10 points'.

    ``turns`` are the ruling's score-sheet lines (``games.base.Turn``: player, points); the
    engine's message says what happens to the word, and a wrong challenger's penalty or the
    points a word takes off the board are said with it, so nobody has to work them out."""
    changes = [score_change(t.player, t.points, unit, side) for t in turns if getattr(t, "points", 0)]
    return "; ".join(part for part in (message, *changes) if part)


def when(stamp: str | None, now: datetime | None = None) -> str:
    """An ISO time stamp from the game log as a person says it, in local time:
    'today 19:40', 'yesterday 20:15', 'Mon 3 Nov 19:40', '3 Nov 2025' ('' when unknown)."""
    if not stamp:
        return ""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    now = (now or datetime.now(UTC)).astimezone()
    moment = moment.astimezone(now.tzinfo)
    clock = moment.strftime("%H:%M")
    if moment.date() == now.date():
        return f"today {clock}"
    if moment.date() == (now - timedelta(days=1)).date():
        return f"yesterday {clock}"
    if moment.year == now.year:
        return f"{moment.strftime('%a')} {moment.day} {moment.strftime('%b')} {clock}"
    return f"{moment.day} {moment.strftime('%b %Y')}"


def scores_line(scores: dict[str, int]) -> str:
    """'Ann 18, Bob 8' in seat order."""
    return ", ".join(f"{name} {points}" for name, points in scores.items())


def verdict_word(ruling: Any) -> str:
    """LEGAL / ILLEGAL, or for a vote what the table decided: ACCEPTED, REJECTED, TIED VOTE
    (a tie takes the word off, but nobody voted it out: "ILLEGAL" would say the wrong thing)."""
    match = re.search(r"(\d+) accept, (\d+) reject", str(getattr(ruling, "reason", "")))
    if getattr(ruling, "source", "") == "players" and match:
        accept, reject = int(match[1]), int(match[2])
        return "ACCEPTED" if accept > reject else "REJECTED" if reject > accept else "TIED VOTE"
    return "LEGAL" if ruling.legal else "ILLEGAL"

"""Plain words for the screens: counts that agree, winners that agree, when a game was played.

Pure functions (no Kivy), so the wording is tested directly: "1 turn", "Parents win!",
"today 19:40".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any


def plural(n: int, noun: str) -> str:
    """'1 turn', '2 turns': the count and the noun that agrees with it."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def winner_line(winners: Sequence[str], side: str = "Player") -> str:
    """'Ann wins!', 'Parents win!' (a team is a plural), 'Tie: Ann & Bob', 'No winner'.

    ``side`` is the game's word for a side (``playbook.Guide.side``): teams take "win"."""
    if not winners:
        return "No winner"
    if len(winners) > 1:
        return f"Tie: {' & '.join(winners)}"
    return f"{winners[0]} {'win' if side.lower() == 'team' else 'wins'}!"


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

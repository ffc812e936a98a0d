"""The end screen's summary of a game: how many turns, how long, the best word, the record
between these players — read from the engine's score sheet and the game log's list of games.

No Kivy here, so the figures are tested directly.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from kiosk.play.wording import plural, turn_scored


@dataclass(frozen=True)
class EndSummary:
    turns: int
    minutes: int | None
    best: str
    #: Wins of each of these players over every finished game of this game between them
    #: (this one included), and how many such games there were.
    record: dict[str, int] = field(default_factory=dict)
    played: int = 0
    ties: int = 0

    def lines(self) -> list[str]:
        """The summary as short lines for the screen."""
        length = (
            ""
            if self.minutes is None
            else ", under a minute"
            if self.minutes == 0
            else f", {plural(self.minutes, 'minute')}"
        )
        out = [f"{plural(self.turns, 'turn')}{length}"]
        if self.best:
            out.append(self.best)
        if self.played > 1:
            wins = ", ".join(f"{name} {n}" for name, n in self.record.items())
            if self.ties:
                wins += f", {plural(self.ties, 'tie')}"
            out.append(f"Wins in {self.played} games together: {wins}")
        return out


def _moment(event: dict[str, Any]) -> datetime | None:
    try:
        return datetime.fromisoformat(str(event.get("at")))
    except ValueError:
        return None


def summarise(game: Any, past: Iterable[Any], lower_wins: bool = False, unit: str = "point") -> EndSummary:
    """``game``: an engine at its end; ``past``: ``GameSummary`` rows of the game log; ``unit``:
    what the game's score counts (``playbook.Guide.unit``: Tosswords' are tiles)."""
    events = list(game.events)
    turns = sum(1 for e in events if e.get("type") != "challenge")
    times = [t for t in (_moment(e) for e in events) if t is not None]
    minutes = round((times[-1] - times[0]).total_seconds() / 60) if len(times) > 1 else None
    best = ""
    if lower_wins:  # WordSpiel: points are cards left, so the longest word says more
        words = [
            (len(str(e["word"])), str(e["word"]), str(e.get("player", ""))) for e in events if e.get("word")
        ]
        if words:
            _, word, who = max(words)
            best = f"Longest word: {word}" + (f" ({who})" if who else "")
    else:
        scored = [t for t in game.turns if t.points > 0]
        if scored:
            top = max(scored, key=lambda t: t.points)
            best = f"Best turn: {top.player}, {turn_scored(top.summary, top.points, unit)}"
    players = set(game.players)
    outcome = game.outcome()
    record = dict.fromkeys(game.players, 0)
    results = [
        tuple(row.winners)
        for row in past
        if row.game == game.name and set(row.players) == players and row.status == "finished"
    ]
    if outcome is not None:  # this game is recorded when the table leaves the end screen
        results.append(tuple(outcome.winners))
    ties = 0
    for winners in results:
        if len(winners) == 1:
            record[winners[0]] = record.get(winners[0], 0) + 1
        else:
            ties += 1
    return EndSummary(turns, minutes, best, record, len(results), ties)

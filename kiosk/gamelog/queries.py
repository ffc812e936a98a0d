"""The game log's reports: the list of games played, per-player statistics, recent names.

Read-only queries over :mod:`kiosk.gamelog.store`'s tables, apart from the code that writes them,
so the durability rules of the writer stay in one short file. ``read`` runs one SQL
statement and returns its rows, with the store's locking and error translation.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

Read = Callable[..., list[sqlite3.Row]]


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One line of the list of games played, newest first in :meth:`GameLog.games`."""

    id: int
    game: str
    players: tuple[str, ...]
    started: str
    events: int
    status: str  # "playing", "finished" or "abandoned"
    ended: str | None = None
    winners: tuple[str, ...] = ()
    termination: str = ""
    #: Started by the kiosk's demo mode (header ``"demo": true``): never a family's game.
    demo: bool = False


def games(read: Read, limit: int = 50) -> list[GameSummary]:
    """The newest ``limit`` games, newest first."""
    rows = read(
        "SELECT g.id, g.game, g.header, g.started, g.finished, g.abandoned, g.outcome, "
        "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) FROM games g ORDER BY g.id DESC LIMIT ?",
        (int(limit),),
    )
    out = []
    for gid, game, header, started, finished, abandoned, outcome, count in rows:
        result = json.loads(outcome) if outcome else {}
        status = "finished" if finished else "abandoned" if abandoned else "playing"
        head = json.loads(header)
        out.append(
            GameSummary(
                id=int(gid),
                game=game,
                players=tuple(head.get("players", ())),
                started=started,
                events=int(count),
                status=status,
                ended=finished or abandoned,
                winners=tuple(result.get("winners", ())),
                termination=str(result.get("termination", "")),
                demo=head.get("demo") is True,
            )
        )
    return out

def player_stats(read: Read) -> dict[str, dict[str, int | None]]:
    """Per player over finished games: ``{name: {"games", "wins", "best_turn"}}``."""
    rows = read(
        "SELECT p.name, COUNT(*), SUM(p.won), MAX(p.best_turn) FROM players p "
        "JOIN games g ON g.id = p.game_id WHERE g.finished IS NOT NULL GROUP BY p.name ORDER BY p.name"
    )
    return {
        name: {"games": int(n), "wins": int(wins or 0), "best_turn": None if best is None else int(best)}
        for name, n, wins, best in rows
    }

def recent_players(read: Read, limit: int = 12) -> list[str]:
    """Names used most recently first, each once (for quick re-use on the start screen). The
    demo's players are not the family's: its games are left out."""
    rows = read(
        "SELECT name FROM (SELECT p.name, p.game_id, p.seat, ROW_NUMBER() OVER "
        "(PARTITION BY p.name ORDER BY p.game_id DESC) AS nth "
        "FROM players p JOIN games g ON g.id = p.game_id "
        "WHERE json_extract(g.header, '$.demo') IS NOT 1) "
        "WHERE nth = 1 ORDER BY game_id DESC, seat LIMIT ?",
        (int(limit),),
    )
    return [r[0] for r in rows]

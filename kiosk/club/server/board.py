"""Every table's game, rebuilt through its engine from the messages the tables publish.

A table's game *is* its transcript: the header, then the events in order. Messages are
applied strictly in ``seq`` order (a later one waits for the gap before it to fill); a
``seq`` already applied is a duplicate and is dropped. Each game keeps a small summary
(scores, whose turn, last word, last ruling, best turns) recomputed only when that game
changes, so the standings of forty tables are cheap to redraw after every event.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.base import Game
from games.rulings import IllegalEvent
from games.transcript import TranscriptError, new_from_header
from kiosk.play import playbook


@dataclass
class TableGame:
    """One game at one table, as far as its messages in order have arrived."""

    table: str
    key: str
    started: str = ""
    game: Game[Any] | None = None
    applied: int = 0  # the last seq applied (0: only the header, or nothing yet)
    waiting: dict[int, dict[str, Any]] = field(default_factory=dict)
    abandoned: bool = False
    problem: str = ""
    summary: dict[str, Any] = field(default_factory=dict)
    #: The events applied, as they came (``Game.events`` copies them all on every call).
    lines: list[dict[str, Any]] = field(default_factory=list)
    order: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        self.order = _natural(self.key)


class Board:
    """All the club's games. ``ingest`` is called by one thread; ``snapshot`` by any."""

    def __init__(self) -> None:
        self.games: dict[tuple[str, str], TableGame] = {}
        self.version = 0
        self.duplicates = 0
        self.changed = threading.Condition()
        self._lock = threading.RLock()
        self._snapshot: dict[str, Any] | None = None
        self._tables: dict[str, dict[str, Any]] = {}  # table -> its part of the snapshot
        self._stale: set[str] = set()
        self._order: list[str] = []  # the tables, table-2 before table-10

    # ------------------------------------------------------------------ messages in
    def ingest(self, table: str, key: str, message: Mapping[str, Any]) -> bool:
        """Apply one decoded message (``kiosk.club.wire.decode``); False for a duplicate."""
        with self._lock:
            tg = self.games.get((table, key))
            if tg is None:
                tg = self.games[(table, key)] = TableGame(table, key)
            seq = int(message["seq"])
            if seq == 0:
                if tg.game is not None or tg.problem:
                    self.duplicates += 1
                    return False
                tg.started = str(message.get("started", ""))
                try:
                    tg.game = new_from_header(dict(message["header"]))
                except TranscriptError as exc:
                    tg.problem = f"its header cannot be played: {exc.reason}"
            elif seq <= tg.applied or seq in tg.waiting:
                self.duplicates += 1
                return False
            else:
                tg.waiting[seq] = dict(message)
            while tg.game is not None and not tg.problem and tg.applied + 1 in tg.waiting:
                tg.applied += 1
                self._apply(tg, tg.waiting.pop(tg.applied))
            tg.summary = summarise(tg)
            self._snapshot = None
            self._stale.add(table)
        with self.changed:
            self.version += 1
            self.changed.notify_all()
        return True

    @staticmethod
    def _apply(tg: TableGame, message: dict[str, Any]) -> None:
        game = tg.game
        assert game is not None
        if message.get("abandoned"):
            tg.abandoned = True
            return
        n = int(message["n"])
        keep = n if message.get("undo") else n - 1
        while len(tg.lines) > keep:
            game.undo()
            tg.lines.pop()
        if message.get("undo"):
            return
        if len(tg.lines) != n - 1:
            tg.problem = f"message {message['seq']} is event {n} but the game has {len(tg.lines)}"
            return
        try:
            game.apply(message["event"])
        except IllegalEvent as exc:
            tg.problem = f"event {n} is refused by this club server's rules: {exc}"
            return
        tg.lines.append(message["event"])

    # ------------------------------------------------------------------ standings out
    def snapshot(self) -> dict[str, Any]:
        """The standings as plain data: ``version``, ``tables`` and ``leaderboard``."""
        with self._lock:
            if self._snapshot is None:
                self._snapshot = self._build()
            return self._snapshot

    def _build(self) -> dict[str, Any]:
        """Only the tables that changed since the last snapshot are sorted out again."""
        if self._stale:
            by_table: dict[str, list[TableGame]] = {name: [] for name in self._stale}
            for tg in self.games.values():
                if tg.table in by_table:
                    by_table[tg.table].append(tg)
            for name, games in by_table.items():
                games.sort(key=lambda g: (g.started, g.order))
                shown = [g.summary for g in games if g.game is not None or g.problem]
                playing = [s for s in shown if not s.get("abandoned")]
                current = playing[-1] if playing else (shown[-1] if shown else None)
                self._tables[name] = {"table": name, "current": current, "games": shown}
            self._stale.clear()
            self._order = sorted(self._tables, key=_natural)
        tables = [self._tables[name] for name in self._order]
        return {"version": self.version, "tables": tables, "leaderboard": leaderboard(self.games.values())}

    def wait(self, after: int, timeout: float) -> int:
        """Block until the version passes ``after`` (or ``timeout`` s); return the version."""
        with self.changed:
            self.changed.wait_for(lambda: self.version > after, timeout)
            return self.version


def summarise(tg: TableGame) -> dict[str, Any]:
    """What the page shows of one game; recomputed when the game changes."""
    data: dict[str, Any] = {
        "table": tg.table,
        "key": tg.key,
        "started": tg.started,
        "abandoned": tg.abandoned,
        "problem": tg.problem,
        "seq": tg.applied,
        "waiting_for": (tg.applied + 1) if tg.waiting else None,
    }
    game = tg.game
    if game is None:
        return data
    outcome = game.outcome()
    turns = game.turns
    best: dict[str, int] = {}
    for turn in turns:
        if turn.points >= 0:  # a penalty is not a turn to be proud of (as the kiosk's statistics)
            best[turn.player] = max(best.get(turn.player, turn.points), turn.points)
    ruling = next((t.ruling for t in reversed(turns) if t.ruling is not None), None)
    data.update(
        game=game.name,
        title=game.title,
        players=list(game.players),
        scores=game.scores(),
        to_move=game.to_move,
        over=outcome is not None,
        winners=list(outcome.winners) if outcome else [],
        termination=outcome.termination if outcome else "",
        events=len(tg.lines),
        last_word=last_word(game, tg.lines),
        last_turn=turns[-1].summary if turns else "",
        ruling=None
        if ruling is None
        else {
            "verdict": ruling.verdict,
            "legal": ruling.legal,
            "reason": ruling.reason,
            "rule": ruling.rule,
        },
        best=best,
        sheet=[
            {
                "player": t.player,
                "points": t.points,
                "summary": t.summary,
                "verdict": t.ruling.verdict if t.ruling is not None else "",
            }
            for t in turns
        ],
    )
    return data


def last_word(game: Game[Any], lines: list[dict[str, Any]]) -> str:
    """The most recent word played (challenged or not), "" when none yet."""
    for index in range(len(lines) - 1, -1, -1):
        event = lines[index]
        word = playbook.event_word(game.name, event)
        if word:
            return word.upper()
        if game.name == "upwords" and event.get("type") == "play":
            words = playbook.upwords_words(game) if index == len(lines) - 1 else []
            return words[0] if words else ""
    return ""


def leaderboard(games: Any) -> list[dict[str, Any]]:
    """Per player across the club's games: finished games, wins and the best turn.

    Games and wins count finished games only (as the kiosk's own statistics); the best
    turn counts every turn played tonight, finished game or not. Abandoned games count
    for nothing. Players are told apart by name only.
    """
    rows: dict[str, dict[str, Any]] = {}
    for tg in games:
        s = tg.summary
        if tg.abandoned or "players" not in s:
            continue
        for name in s["players"]:
            row = rows.setdefault(name, {"player": name, "games": 0, "wins": 0, "best_turn": None})
            if s["over"]:
                row["games"] += 1
                row["wins"] += int(name in s["winners"])
            points = s["best"].get(name)
            if points is not None and (row["best_turn"] is None or points > row["best_turn"]):
                row["best_turn"] = points
    return sorted(rows.values(), key=lambda r: (-r["wins"], -(r["best_turn"] or 0), r["games"], r["player"]))


_DIGITS = re.compile(r"(\d+)")


def _natural(text: str) -> tuple[Any, ...]:
    """table-2 before table-10."""
    return tuple(int(p) if p.isdigit() else p for p in _DIGITS.split(text))

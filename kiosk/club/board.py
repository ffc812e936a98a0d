"""Every table's game, rebuilt through its engine from the messages the tables publish.

A table's game *is* its transcript: the header, then the events in order. Messages are
applied strictly in ``seq`` order (a later one waits for the gap before it to fill); a
``seq`` already applied is a duplicate and is dropped. Each game keeps a small summary
(scores, whose turn, last word, last ruling, best turns) recomputed only when that game
changes, so the standings of forty tables are cheap to redraw after every event.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.base import Game
from games.rulings import IllegalEvent
from games.transcript import TranscriptError, new_from_header
from kiosk import playbook


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

    @property
    def events(self) -> int:
        return 0 if self.game is None else len(self.game.events)


class Board:
    """All the club's games. ``ingest`` is called by one thread; ``snapshot`` by any."""

    def __init__(self) -> None:
        self.games: dict[tuple[str, str], TableGame] = {}
        self.version = 0
        self.duplicates = 0
        self.changed = threading.Condition()
        self._lock = threading.RLock()
        self._snapshot: dict[str, Any] | None = None

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
        while len(game.events) > keep:
            game.undo()
        if message.get("undo"):
            return
        if len(game.events) != n - 1:
            tg.problem = f"message {message['seq']} is event {n} but the game has {len(game.events)}"
            return
        try:
            game.apply(message["event"])
        except IllegalEvent as exc:
            tg.problem = f"event {n} is refused by this club server's rules: {exc}"

    # ------------------------------------------------------------------ standings out
    def snapshot(self) -> dict[str, Any]:
        """The standings as plain data: ``version``, ``tables`` and ``leaderboard``."""
        with self._lock:
            if self._snapshot is None:
                self._snapshot = self._build()
            return self._snapshot

    def _build(self) -> dict[str, Any]:
        by_table: dict[str, list[TableGame]] = {}
        for tg in self.games.values():
            by_table.setdefault(tg.table, []).append(tg)
        tables = []
        for name in sorted(by_table, key=_natural):
            games = sorted(by_table[name], key=lambda g: (g.started, _natural(g.key)))
            shown = [g.summary for g in games if g.game is not None or g.problem]
            current = next(
                (s for s in reversed(shown) if not s.get("abandoned")), shown[-1] if shown else None
            )
            tables.append({"table": name, "current": current, "games": shown})
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
        events=len(game.events),
        last_word=last_word(game),
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


def last_word(game: Game[Any]) -> str:
    """The most recent word played (challenged or not), "" when none yet."""
    for event in reversed(game.events):
        word = playbook.event_word(game.name, event)
        if word:
            return word.upper()
        if game.name == "upwords" and event.get("type") == "play":
            words = playbook.upwords_words(game) if event == game.peek() else []
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


def _natural(text: str) -> tuple[Any, ...]:
    """table-2 before table-10."""
    import re

    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))

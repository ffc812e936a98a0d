"""The game log is the outbox: what to publish, and what the broker has acknowledged.

The kiosk's SQLite log (:mod:`kiosk.gamelog.store`) stays the one source of truth. This module
keeps, in the same database file but in tables of its own (``club_*``; the store's schema
is not touched), every message it has decided to publish, numbered per game, and when the
broker acknowledged each one. It never trusts memory:

1. :meth:`Outbox.plan` compares each open game in the log with what the outbox already
   holds for it and writes the difference as new messages — the header (retained), each
   new event (the log's JSON line, byte for byte), an undo (the game has fewer events
   than were published), or "abandoned" — in one transaction, fsynced, *before* anything
   is sent. A message once written is never changed, so a resend after a crash is the
   same message with the same ``seq`` and a subscriber drops it.
2. :meth:`Outbox.pending` lists what the broker has not acknowledged, oldest first;
   :meth:`Outbox.acknowledge` records the broker's PUBACKs.
3. :meth:`Outbox.rewind` forgets recent acknowledgements when the broker says it lost
   our session (it restarted without its store): those messages are sent again.

A broker down for an hour, a Wi-Fi drop or a kiosk killed mid-publish therefore loses
nothing; the only duplicates are resends, which carry the ``seq`` already seen.
"""

from __future__ import annotations

import contextlib
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from kiosk.club import wire

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS club_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # One row per game of the log that is published; closed = it can never change again.
    # tbl: the table name the game is published under (kept if the settings change mid-game).
    "CREATE TABLE IF NOT EXISTS club_games (game_id INTEGER PRIMARY KEY, key TEXT NOT NULL, "
    "tbl TEXT NOT NULL, closed INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS club_outbox ("
    " game_id INTEGER NOT NULL, seq INTEGER NOT NULL,"
    " kind TEXT NOT NULL,"  # header, event, undo, abandoned
    " n INTEGER,"  # event: its number in the game; undo: how many events are left
    " body TEXT,"  # event: the log's JSON line (what the subscriber has, to compare with)
    " topic TEXT NOT NULL, payload TEXT NOT NULL, retain INTEGER NOT NULL,"
    " acked TEXT,"  # ISO-8601 UTC time of the broker's PUBACK; NULL until then
    " PRIMARY KEY (game_id, seq)) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS club_outbox_unacked ON club_outbox (game_id, seq) WHERE acked IS NULL",
)

#: After the broker lost our session, messages acknowledged this recently are sent again.
REWIND = timedelta(hours=12)


@dataclass(frozen=True, slots=True)
class Message:
    game_id: int
    seq: int
    topic: str
    payload: str
    retain: bool


@dataclass
class _View:
    """A game as the subscribers will have it once every message so far arrives."""

    key: str
    table: str
    next_seq: int = 1
    bodies: list[str] = field(default_factory=list)
    abandoned: bool = False


class Outbox:
    """The club outbox inside the game log file ``path`` (its own connection and tables).

    ``club`` and ``table`` name the topics of new messages. ``clock`` gives the time stamped
    on acknowledgements (injected in tests).
    """

    def __init__(
        self,
        path: Path,
        club: str,
        table: str,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.path = Path(path)
        self.club = wire.check_name("club", club)
        self.table = wire.check_name("table", table)
        self._clock = clock
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute("PRAGMA synchronous = FULL")
        with self._transaction() as db:
            for statement in _SCHEMA:
                db.execute(statement)
            self.log_id = self._meta(db, "log_id", lambda: secrets.token_hex(4))
            self._first_game = int(self._meta(db, "first_game", lambda: str(_first_game(db))))
        self._views = self._load_views()
        self._seen: int | None = None  # the log's PRAGMA data_version at the last plan

    # ------------------------------------------------------------------ plumbing
    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            db = self._conn
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    @staticmethod
    def _meta(db: sqlite3.Connection, key: str, make: Callable[[], str]) -> str:
        row = db.execute("SELECT value FROM club_meta WHERE key = ?", (key,)).fetchone()
        if row is not None:
            return str(row[0])
        value = make()
        db.execute("INSERT INTO club_meta (key, value) VALUES (?, ?)", (key, value))
        return value

    def _load_views(self) -> dict[int, _View]:
        views: dict[int, _View] = {}
        with self._lock:
            games = self._conn.execute("SELECT game_id, key, tbl FROM club_games WHERE closed = 0").fetchall()
            for game_id, key, table in games:
                view = views[game_id] = _View(key, table)
                rows = self._conn.execute(
                    "SELECT seq, kind, n, body FROM club_outbox WHERE game_id = ? ORDER BY seq", (game_id,)
                ).fetchall()
                for seq, kind, n, body in rows:
                    view.next_seq = seq + 1
                    if kind == "event":
                        del view.bodies[n - 1 :]
                        view.bodies.append(body)
                    elif kind == "undo":
                        del view.bodies[n:]
                    elif kind == "abandoned":
                        view.abandoned = True
        return views

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._conn.close()

    # ------------------------------------------------------------------ planning
    def game_key(self, game_id: int) -> str:
        return f"{self.log_id}-{int(game_id)}"

    def plan(self) -> int:
        """Write what the log has and the outbox lacks as new messages; return how many.

        Nothing is read when no other connection (the kiosk's game log) has written to the
        file since the last plan, so the once-a-second check costs one pragma.
        """
        with self._lock:
            version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
        if version == self._seen:
            return 0
        added = 0
        with self._transaction() as db:
            newest = db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
            rows = db.execute(
                "SELECT id, header, started, finished, abandoned FROM games WHERE id >= ? AND id NOT IN "
                "(SELECT game_id FROM club_games WHERE closed = 1) ORDER BY id",
                (self._first_game,),
            ).fetchall()
            for game_id, header, started, finished, abandoned in rows:
                added += self._plan_game(db, game_id, header, started, bool(abandoned))
                if (finished or abandoned) and game_id < newest:
                    # The kiosk only ever changes its newest game: this one is settled.
                    db.execute("UPDATE club_games SET closed = 1 WHERE game_id = ?", (game_id,))
                    self._views.pop(game_id, None)
        self._seen = version
        return added

    def _plan_game(
        self, db: sqlite3.Connection, game_id: int, header: str, started: str, abandoned: bool
    ) -> int:
        view = self._views.get(game_id)
        added = 0
        if view is None:
            view = self._views[game_id] = _View(self.game_key(game_id), self.table)
            db.execute(
                "INSERT INTO club_games (game_id, key, tbl) VALUES (?, ?, ?)", (game_id, view.key, self.table)
            )
            payload = wire.header_message(view.table, view.key, started, header)
            self._add(db, game_id, 0, "header", None, None, view.key, payload)
            added += 1
        bodies = [
            r[0] for r in db.execute("SELECT body FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
        ]
        same = 0
        for ours, theirs in zip(bodies, view.bodies, strict=False):
            if ours != theirs:
                break
            same += 1
        key = view.key
        if len(view.bodies) > same and len(bodies) == same:
            # Only an undo can say it; a new event at `same + 1` says it by its own `n`.
            self._add(
                db, game_id, view.next_seq, "undo", same, None, key, wire.undo_message(view.next_seq, same)
            )
            added += 1
        del view.bodies[same:]
        for n in range(same + 1, len(bodies) + 1):
            body = bodies[n - 1]
            self._add(
                db, game_id, view.next_seq, "event", n, body, key, wire.event_message(view.next_seq, n, body)
            )
            view.bodies.append(body)
            added += 1
        if abandoned and not view.abandoned:
            self._add(
                db,
                game_id,
                view.next_seq,
                "abandoned",
                None,
                None,
                key,
                wire.abandoned_message(view.next_seq),
            )
            view.abandoned = True
            added += 1
        return added

    def _add(
        self,
        db: sqlite3.Connection,
        game_id: int,
        seq: int,
        kind: str,
        n: int | None,
        body: str | None,
        key: str,
        payload: str,
    ) -> None:
        """Write one message; every message is retained on its own topic (see kiosk.club.wire)."""
        topic = wire.game_topic(self.club, self._views[game_id].table, key, seq)
        db.execute(
            "INSERT INTO club_outbox (game_id, seq, kind, n, body, topic, payload, retain) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, 1)",
            (game_id, seq, kind, n, body, topic, payload),
        )
        view = self._views[game_id]
        view.next_seq = max(view.next_seq, seq + 1)

    # ------------------------------------------------------------------ sending
    def pending(self, limit: int = 100) -> list[Message]:
        """Messages the broker has not acknowledged, each game's in ``seq`` order."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT game_id, seq, topic, payload, retain FROM club_outbox WHERE acked IS NULL "
                "ORDER BY game_id, seq LIMIT ?",
                (int(limit),),
            ).fetchall()
        return [Message(int(g), int(s), t, p, bool(r)) for g, s, t, p, r in rows]

    def acknowledge(self, done: list[tuple[int, int]]) -> None:
        """Record the broker's acknowledgement of ``(game_id, seq)`` messages."""
        if not done:
            return
        stamp = self._clock().astimezone(UTC).isoformat(timespec="milliseconds")
        with self._transaction() as db:
            db.executemany(
                "UPDATE club_outbox SET acked = ? WHERE game_id = ? AND seq = ? AND acked IS NULL",
                [(stamp, g, s) for g, s in done],
            )

    def rewind(self, window: timedelta = REWIND) -> int:
        """Send again every message of each game that had one acknowledged within ``window``.

        Called when the broker answers a reconnect without our session: it restarted
        without its store, so what it acknowledged may never have reached the club server.
        """
        since = (self._clock() - window).astimezone(UTC).isoformat(timespec="milliseconds")
        with self._transaction() as db:
            cur = db.execute(
                "UPDATE club_outbox SET acked = NULL WHERE acked IS NOT NULL AND game_id IN "
                "(SELECT DISTINCT game_id FROM club_outbox WHERE acked >= ?)",
                (since,),
            )
            return int(cur.rowcount)

    def counts(self) -> dict[str, int]:
        """``{"messages", "unacknowledged"}`` for the screen and the tests."""
        with self._lock:
            total, waiting = self._conn.execute(
                "SELECT COUNT(*), COALESCE(SUM(acked IS NULL), 0) FROM club_outbox"
            ).fetchone()
        return {"messages": int(total), "unacknowledged": int(waiting)}


def _first_game(db: sqlite3.Connection) -> int:
    """The first game to publish: the one being played now, else the next one started.

    The games played before club night was switched on stay private to the table.
    """
    row = db.execute(
        "SELECT MIN(id) FROM games WHERE finished IS NULL AND abandoned IS NULL "
        "AND id = (SELECT MAX(id) FROM games)"
    ).fetchone()
    if row[0] is not None:
        return int(row[0])
    newest = db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
    return int(newest) + 1

"""The club server's own SQLite file: every message that arrived, once.

Why its own file (and not only the broker's retained messages or a persistent session):
events are not retained (a broker keeps one retained message per topic), and a persistent
session only holds what arrived while the club server was away. With every message kept
here, keyed by (table, game, seq), a restarted club server rebuilds every table's game
from disk at once, the broker's queue fills in what it missed while it was down, and a
message that arrives twice is stored once (``INSERT OR IGNORE``).

Each message is committed before the MQTT callback returns, i.e. before paho acknowledges
it to the broker, so a club server killed at any moment has lost nothing the broker
thinks it delivered. WAL with ``synchronous=NORMAL``: that survives the process being
killed; a power cut of the club machine may lose the last moments, which the kiosks'
logs still hold (see docs/club.md).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS messages (tbl TEXT NOT NULL, game TEXT NOT NULL, seq INTEGER NOT NULL,"
    " payload TEXT NOT NULL, received TEXT NOT NULL, PRIMARY KEY (tbl, game, seq)) WITHOUT ROWID",
)


class ArchiveError(Exception):
    """The archive belongs to another club, or cannot be opened; the message says which."""


class Archive:
    def __init__(self, path: Path, club: str) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
            for statement in _SCHEMA:
                self._conn.execute(statement)
            self._conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('club', ?)", (club,))
            (owner,) = self._conn.execute("SELECT value FROM meta WHERE key = 'club'").fetchone()
        except (sqlite3.Error, OSError) as exc:
            raise ArchiveError(f"cannot open the club archive {self.path}: {exc}") from None
        if owner != club:
            self._conn.close()
            raise ArchiveError(f"the archive {self.path} belongs to the club {owner!r}, not {club!r}")

    def add(self, table: str, game: str, seq: int, payload: str) -> bool:
        """Keep one message; False when that (table, game, seq) is already here."""
        stamp = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            cur = self._conn.execute(
                "INSERT OR IGNORE INTO messages (tbl, game, seq, payload, received) VALUES (?, ?, ?, ?, ?)",
                (table, game, int(seq), payload, stamp),
            )
            return cur.rowcount == 1

    def messages(self) -> Iterator[tuple[str, str, int, str]]:
        """Every message, each game's in ``seq`` order."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT tbl, game, seq, payload FROM messages ORDER BY tbl, game, seq"
            ).fetchall()
        yield from rows

    def seqs(self) -> dict[tuple[str, str], list[int]]:
        """(table, game) -> the sequence numbers held (for the tests' exactly-once check)."""
        out: dict[tuple[str, str], list[int]] = {}
        with self._lock:
            for tbl, game, seq in self._conn.execute(
                "SELECT tbl, game, seq FROM messages ORDER BY tbl, game, seq"
            ):
                out.setdefault((tbl, game), []).append(int(seq))
        return out

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._conn.close()

"""The game log's tables, and how an older log is brought up to date.

Kept apart from :mod:`kiosk.gamelog.store` so a schema change is one reviewed diff: bump
``SCHEMA_VERSION`` and add a step to ``_STEPS``; an existing log on a Pi is upgraded in
place, inside one transaction, the next time the kiosk starts.
"""

from __future__ import annotations

import sqlite3
import zlib

SCHEMA_VERSION = 2

_V1 = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    game      TEXT NOT NULL,
    header    TEXT NOT NULL,            -- the transcript's first line (JSON)
    started   TEXT NOT NULL,            -- ISO-8601, UTC
    finished  TEXT,                     -- set by finish(); NULL while playing
    abandoned TEXT,                     -- set by abandon()
    outcome   TEXT                      -- JSON {"winners": [...], "termination": "..."}
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,           -- 1, 2, ... within the game
    body    TEXT NOT NULL,              -- the event exactly as a transcript line (JSON)
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS players (
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,         -- 0 moves first
    name      TEXT NOT NULL,
    score     INTEGER,                  -- final standing, set by finish()
    won       INTEGER,                  -- 1 or 0, set by finish()
    best_turn INTEGER,                  -- the most points one turn earned, set by finish()
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS players_by_name ON players (name);
CREATE INDEX IF NOT EXISTS games_open ON games (finished, abandoned);
"""

# Version 2: every row carries a CRC-32 of what it holds, so a salvage can tell an entry that
# reads from an entry that reads *true*. A game also counts its entries (under the same
# checksum), so a salvage knows when entries past the last one that reads are missing.
# Rows written before version 2 keep NULL there and are trusted as before.
_V2 = """
ALTER TABLE games ADD COLUMN entries INTEGER;  -- how many events the game holds (NULL: before v2)
ALTER TABLE games ADD COLUMN crc INTEGER;      -- header_crc(header, entries)
ALTER TABLE events ADD COLUMN crc INTEGER;     -- text_crc(body)
"""

#: version reached -> the SQL that reaches it from the one before.
_STEPS: dict[int, str] = {1: _V1, 2: _V2}


def text_crc(text: str | bytes) -> int:
    """The CRC-32 of the UTF-8 bytes of ``text`` (an event's JSON as stored)."""
    return zlib.crc32(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))


def header_crc(header: str | bytes, entries: int) -> int:
    """A game row's checksum: its header JSON and its count of entries, together."""
    return zlib.crc32(f"\n{entries}".encode(), text_crc(header))


def schema_version(conn: sqlite3.Connection) -> int:
    """0 for an empty (new) file."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if not exists:
        return 0
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def create_schema(conn: sqlite3.Connection, current: int, target: int = SCHEMA_VERSION) -> None:
    """Run every step after ``current`` up to ``target``; the caller holds the transaction."""
    for version in range(current + 1, target + 1):
        for statement in _statements(_STEPS[version]):
            conn.execute(statement)
        if version == 2:
            _checksum_rows(conn)
        conn.execute("DELETE FROM schema_version")
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))


def _checksum_rows(conn: sqlite3.Connection) -> None:
    """Give the rows of a log from before checksums theirs, as they read at the upgrade (which
    runs only on a file that passed SQLite's check): from then on, damage to them shows."""
    rows = conn.execute("SELECT game_id, seq, body FROM events").fetchall()
    conn.executemany(
        "UPDATE events SET crc = ? WHERE game_id = ? AND seq = ?",
        [(text_crc(body), gid, seq) for gid, seq, body in rows],
    )
    for gid, header in conn.execute("SELECT id, header FROM games").fetchall():
        (count,) = conn.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (gid,)).fetchone()
        conn.execute(
            "UPDATE games SET entries = ?, crc = ? WHERE id = ?", (count, header_crc(header, count), gid)
        )


def _statements(script: str) -> list[str]:
    """Split a script into statements (``executescript`` would commit our transaction)."""
    out: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            out.append(pending.strip())
            pending = ""
    return out

"""The game log's tables, and how an older log is brought up to date.

Kept apart from :mod:`kiosk.gamelog.store` so a schema change is one reviewed diff: bump
``SCHEMA_VERSION`` and add a step to ``_STEPS``; an existing log on a Pi is upgraded in
place, inside one transaction, the next time the kiosk starts.
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 1

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

#: version reached -> the SQL that reaches it from the one before.
_STEPS: dict[int, str] = {1: _V1}


def schema_version(conn: sqlite3.Connection) -> int:
    """0 for an empty (new) file."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if not exists:
        return 0
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def create_schema(conn: sqlite3.Connection, current: int) -> None:
    """Run every step after ``current``; the caller holds the transaction."""
    for version in range(current + 1, SCHEMA_VERSION + 1):
        for statement in _statements(_STEPS[version]):
            conn.execute(statement)
        conn.execute("DELETE FROM schema_version")
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))


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

"""The game log: every game's header and events in one SQLite file that survives power cuts.

The log is the one source of truth for the kiosk. Each event is committed and fsynced
(WAL, ``synchronous=FULL``, one transaction per append) *before* :meth:`GameLog.append`
returns, and the kiosk shows an event's effect only after that, so pulling the plug at
any moment loses at most the event being written. At start the game in progress is
rebuilt from the log through its engine (:meth:`GameLog.rebuild`).

>>> with GameLog("/tmp/games.sqlite3") as log:                       # doctest: +SKIP
...     gid = log.start_game(game.header())
...     log.append(gid, {"type": "word", "word": "PURPLE"})
...     log.export(gid)                                            # a transcript

Failures raise :class:`StoreError` with a sentence a player can act on. A damaged file
is never deleted: it is moved aside, whatever can still be read from it is copied into a
fresh log, and :attr:`GameLog.problems` says what happened.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from calibration.durable import fsync_folder
from kiosk.files import paths
from kiosk.gamelog import queries as store_queries
from kiosk.gamelog.errors import (
    BAD_INPUT,
    CORRUPT,
    NEWER,
    NO_SUCH_GAME,
    REPLAY,
    UNWRITABLE,
    StoreError,
    translate,
)
from kiosk.gamelog.queries import GameSummary
from kiosk.gamelog.recover import Salvage, keep_aside, salvage_into
from kiosk.gamelog.schema import SCHEMA_VERSION, create_schema, schema_version

__all__ = ["GameLog", "GameSummary", "StoreError"]

log = logging.getLogger(__name__)


def _now() -> datetime:
    return datetime.now(UTC)


def _to_json(obj: Any, what: str) -> str:
    try:
        return json.dumps(obj, ensure_ascii=False, allow_nan=False, sort_keys=False)
    except (TypeError, ValueError) as exc:
        raise StoreError(f"{what} is not plain JSON data ({exc}); nothing was saved", BAD_INPUT) from None


class GameLog:
    """The kiosk's game log over one SQLite file (created, with its folder, if missing).

    ``path`` defaults to ``kiosk.files.paths.game_log_file()``; ``clock`` returns the time
    stamped on games (injected so tests control it). Safe to use from several threads:
    calls are serialised. A context manager; :meth:`close` may be called twice.
    """

    def __init__(self, path: str | Path | None = None, *, clock: Callable[[], datetime] = _now) -> None:
        self.path = Path(path) if path is not None else paths.game_log_file()
        self._clock = clock
        self._lock = threading.RLock()
        #: When set, every write is refused with this sentence (a read-only copy of the log).
        self.refuse_writes: str | None = None
        #: Plain sentences about what went wrong at open (a damaged log kept aside, ...).
        self.problems: list[str] = []
        #: Where a damaged log was moved, when one was.
        self.kept_aside: Path | None = None
        self._conn: sqlite3.Connection | None = None
        #: What salvage kept from a damaged log (None when the log was healthy).
        self.salvage: Salvage | None = None
        try:
            self._conn = self._open()
        except StoreError as exc:
            if exc.kind != CORRUPT:
                raise
            self._recover(exc)

    # ----------------------------------------------------------------- opening
    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            not_dir = NotADirectoryError(errno.ENOTDIR, "it is a file, not a folder")
            raise translate(not_dir, self.path) from None
        except OSError as exc:
            raise translate(exc, self.path) from None
        new = not self.path.exists()
        conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
            conn.execute("PRAGMA foreign_keys = ON")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"the game log {self.path} cannot use write-ahead logging ({mode})")
            conn.execute("PRAGMA synchronous = FULL")
            # After a checkpoint, shrink the WAL back to 4 MiB: less to rewrite on an SD card.
            conn.execute("PRAGMA journal_size_limit = 4194304")
            ok = conn.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed: {ok}")
            if new:
                fsync_folder(self.path.parent)
            return conn
        except StoreError:
            if conn is not None:
                conn.close()
            raise
        except (sqlite3.Error, OSError) as exc:
            if conn is not None:
                conn.close()
            raise translate(exc, self.path) from None

    def _open(self) -> sqlite3.Connection:
        self._refuse_if_hollow()
        conn = self._connect()
        try:
            version = schema_version(conn)
            if version > SCHEMA_VERSION:
                conn.close()
                raise StoreError(
                    f"the game log {self.path} was written by a newer tablekeeper (schema {version}); "
                    f"update tablekeeper to open it",
                    NEWER,
                )
            if version < SCHEMA_VERSION:
                with _transaction(conn):
                    create_schema(conn, version)
        except (sqlite3.Error, OSError) as exc:
            conn.close()
            raise translate(exc, self.path) from None
        return conn

    def _refuse_if_hollow(self) -> None:
        """An existing file that is empty or has no game tables is a damaged log, not a new one.

        It was truncated (a copy cut short, a card that lost the file's blocks) or is some
        other file; opening it normally would quietly turn it into an empty log. Checked
        read-only, before anything is written, so the file kept aside is exactly as found.
        """
        try:
            size = self.path.stat().st_size
        except OSError:  # not there (a new log), or not reachable: _connect says which
            return
        wal = self.path.with_name(self.path.name + "-wal")
        if size == 0 and not (wal.exists() and wal.stat().st_size > 0):
            raise StoreError(f"the game log {self.path} is damaged: it is empty (0 bytes)", CORRUPT,
                             detail="it is empty (0 bytes)")
        try:
            probe = sqlite3.connect(f"{self.path.as_uri()}?mode=ro", uri=True)
            try:
                hollow = schema_version(probe) == 0
            finally:
                probe.close()
        except sqlite3.Error:
            return  # not readable as a database at all: _connect reports that
        if hollow and size > 0:
            raise StoreError(f"the game log {self.path} is damaged: it holds no game tables", CORRUPT,
                             detail="it holds no game tables")

    def _recover(self, cause: StoreError) -> None:
        try:
            aside = keep_aside(self.path, self._clock())
        except OSError as exc:
            raise translate(exc, self.path) from None
        self.kept_aside = aside
        self._conn = self._open()
        self.salvage = salvage_into(aside, self) if aside is not None else Salvage()
        reason = " ".join(str(cause.detail or cause).replace("*** in database main ***", "").split())
        opening = f"The game log was damaged ({reason}). It was kept as {aside} and a new log was started."
        log.error("%s %s", opening, self.salvage.sentence())
        self.problems.append(f"{opening} {self.salvage.sentence(limit=3)}")

    # ----------------------------------------------------------------- plumbing
    @property
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError("the game log is closed", BAD_INPUT)
        return self._conn

    @contextlib.contextmanager
    def _writing(self, what: str) -> Iterator[sqlite3.Connection]:
        if self.refuse_writes:  # a read-only copy (kiosk.gamelog.fallback): shown, never changed
            raise StoreError(self.refuse_writes, UNWRITABLE)
        with self._lock:
            conn = self._db
            try:
                with _transaction(conn):
                    yield conn
            except StoreError:
                raise
            except (sqlite3.Error, OSError) as exc:
                raise translate(exc, self.path, what) from None

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                cur = self._db.execute(sql, args)
                return cur.fetchall()
            except sqlite3.Error as exc:
                raise translate(exc, self.path) from None

    def _game_row(self, game_id: int) -> tuple[Any, ...]:
        rows = self._read(
            "SELECT header, finished, abandoned, outcome FROM games WHERE id = ?", (int(game_id),)
        )
        if not rows:
            raise StoreError(f"there is no game {game_id} in the log", NO_SUCH_GAME)
        return tuple(rows[0])

    def _stamp(self) -> str:
        return self._clock().astimezone(UTC).isoformat(timespec="seconds")

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.close()
                self._conn = None

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------- writing
    def start_game(self, header: Mapping[str, Any]) -> int:
        """Record a new game (``header`` = ``Game.header()``) and return its id."""
        if not isinstance(header, Mapping) or not isinstance(header.get("game"), str):
            raise StoreError("a game header needs the name of the game; nothing was saved", BAD_INPUT)
        players = header.get("players")
        if not isinstance(players, list | tuple) or not all(isinstance(p, str) for p in players):
            raise StoreError("a game header needs the list of players; nothing was saved", BAD_INPUT)
        body = _to_json(dict(header), "the game header")
        with self._writing("the new game") as conn:
            cur = conn.execute(
                "INSERT INTO games (game, header, started) VALUES (?, ?, ?)",
                (header["game"], body, self._stamp()),
            )
            game_id = int(cur.lastrowid or 0)
            conn.executemany(
                "INSERT INTO players (game_id, seat, name) VALUES (?, ?, ?)",
                [(game_id, seat, name) for seat, name in enumerate(players)],
            )
        return game_id

    def append(self, game_id: int, event: Mapping[str, Any]) -> int:
        """Commit one event durably, then return its number in the game (1, 2, ...)."""
        if not isinstance(event, Mapping) or not isinstance(event.get("type"), str):
            raise StoreError("an event needs a 'type'; nothing was saved", BAD_INPUT)
        body = _to_json(dict(event), "the event")
        with self._writing("the last entry") as conn:
            # Checked inside the transaction: another thread cannot abandon it in between.
            row = conn.execute("SELECT abandoned FROM games WHERE id = ?", (int(game_id),)).fetchone()
            if row is None:
                raise StoreError(f"there is no game {game_id} in the log", NO_SUCH_GAME)
            if row[0]:
                raise StoreError(f"game {game_id} was abandoned; the event was not saved", BAD_INPUT)
            seq = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (int(game_id),)
            ).fetchone()[0]
            conn.execute(
                "INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)", (int(game_id), seq, body)
            )
        return int(seq)

    def drop_last(self, game_id: int) -> dict[str, Any] | None:
        """Undo: delete the newest event of the game and return it (None when there is none)."""
        self._game_row(game_id)
        with self._writing("the undo") as conn:
            row = conn.execute(
                "SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (int(game_id),)
            ).fetchone()
            if row is None:
                return None
            conn.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (int(game_id), row[0]))
            # A game taken back past its end is being played again.
            conn.execute(
                "UPDATE games SET finished = NULL, outcome = NULL WHERE id = ? AND finished IS NOT NULL",
                (int(game_id),),
            )
            conn.execute(
                "UPDATE players SET score = NULL, won = NULL, best_turn = NULL WHERE game_id = ?",
                (int(game_id),),
            )
        return json.loads(row[1])

    def replace_from(self, game_id: int, index: int, events: list[dict[str, Any]]) -> None:
        """A correction: the game's events from number ``index + 1`` on are replaced by ``events``,
        in one transaction (a power cut leaves the old events or the new ones, never a mix)."""
        self._game_row(game_id)
        bodies = [_to_json(dict(e), "the corrected event") for e in events]
        with self._writing("the correction") as conn:
            rows = conn.execute(
                "SELECT seq FROM events WHERE game_id = ? ORDER BY seq", (int(game_id),)
            ).fetchall()
            if not 0 <= index <= len(rows):
                raise StoreError(f"game {game_id} has no event {index + 1}", BAD_INPUT)
            first = rows[index][0] if index < len(rows) else (rows[-1][0] + 1 if rows else 1)
            conn.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?", (int(game_id), first))
            for n, body in enumerate(bodies):
                conn.execute(
                    "INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)",
                    (int(game_id), first + n, body),
                )

    def finish(self, game_id: int, outcome: Any) -> None:
        """Mark the game over. ``outcome``: ``{"winners": [...], "termination": "..."}`` or an Outcome.

        Each player's final score and best turn are worked out by replaying the game, so
        the statistics never disagree with the engine.
        """
        if not isinstance(outcome, Mapping):
            outcome = {
                "winners": list(getattr(outcome, "winners", ())),
                "termination": getattr(outcome, "termination", ""),
            }
        winners = [str(w) for w in outcome.get("winners") or ()]
        body = _to_json({**dict(outcome), "winners": winners}, "the outcome")
        self._game_row(game_id)
        scores: dict[str, int] = {}
        best: dict[str, int] = {}
        try:
            game = self.rebuild(game_id)
            scores = {k: int(v) for k, v in game.scores().items() if isinstance(v, int | float)}
            for turn in game.turns:
                if turn.points >= 0:  # a penalty line is not a "turn" to be proud of
                    best[turn.player] = max(best.get(turn.player, turn.points), turn.points)
        except StoreError as exc:  # stats are a nicety; never refuse to end a game over them
            log.warning("game %s: no scores for the statistics: %s", game_id, exc)
        with self._writing("the end of the game") as conn:
            conn.execute(
                "UPDATE games SET finished = ?, outcome = ? WHERE id = ?", (self._stamp(), body, int(game_id))
            )
            names = conn.execute("SELECT name FROM players WHERE game_id = ?", (int(game_id),)).fetchall()
            for (name,) in names:
                conn.execute(
                    "UPDATE players SET score = ?, won = ?, best_turn = ? WHERE game_id = ? AND name = ?",
                    (scores.get(name), int(name in winners), best.get(name), int(game_id), name),
                )

    def abandon(self, game_id: int) -> None:
        """Give up a game: it stays in the log (and its export) but is no longer in progress."""
        self._game_row(game_id)
        with self._writing("the abandoned game") as conn:
            conn.execute("UPDATE games SET abandoned = ? WHERE id = ?", (self._stamp(), int(game_id)))

    # ----------------------------------------------------------------- reading
    def header(self, game_id: int) -> dict[str, Any]:
        return json.loads(self._game_row(game_id)[0])

    def events(self, game_id: int) -> list[dict[str, Any]]:
        self._game_row(game_id)
        rows = self._read("SELECT body FROM events WHERE game_id = ? ORDER BY seq", (int(game_id),))
        return [json.loads(r[0]) for r in rows]

    def outcome(self, game_id: int) -> dict[str, Any] | None:
        raw = self._game_row(game_id)[3]
        return None if raw is None else json.loads(raw)

    def game_in_progress(self) -> int | None:
        """The newest game neither finished nor abandoned, or None."""
        rows = self._read(
            "SELECT id FROM games WHERE finished IS NULL AND abandoned IS NULL ORDER BY id DESC LIMIT 1"
        )
        return int(rows[0][0]) if rows else None

    def export(self, game_id: int) -> str:
        """The game as a transcript: JSON Lines, exactly what ``tablekeeper replay`` reads."""
        lines = [self.header(game_id), *self.events(game_id)]
        return "".join(json.dumps(obj, ensure_ascii=False) + "\n" for obj in lines)

    def rebuild(self, game_id: int) -> Any:
        """The game as its engine sees it: the header and every event applied in order."""
        from games.rulings import IllegalEvent
        from games.transcript import TranscriptError, new_from_header

        try:
            game = new_from_header(self.header(game_id))
        except TranscriptError as exc:
            raise StoreError(f"game {game_id} cannot be rebuilt: {exc.reason}", REPLAY) from None
        except ImportError as exc:
            raise StoreError(
                f"game {game_id} cannot be rebuilt: its engine is missing ({exc})", REPLAY
            ) from None
        for number, event in enumerate(self.events(game_id), start=1):
            try:
                game.apply(event)
            except IllegalEvent as exc:
                raise StoreError(
                    f"game {game_id} cannot be rebuilt: event {number} "
                    f"({event.get('type')}) is refused: {exc}",
                    REPLAY,
                ) from None
        return game

    def games(self, limit: int = 50) -> list[GameSummary]:
        """The newest ``limit`` games, newest first."""
        return store_queries.games(self._read, limit)

    def player_stats(self) -> dict[str, dict[str, int | None]]:
        """Per player over finished games: ``{name: {"games", "wins", "best_turn"}}``."""
        return store_queries.player_stats(self._read)

    def recent_players(self, limit: int = 12) -> list[str]:
        """Names used most recently first, each once (for quick re-use on the start screen)."""
        return store_queries.recent_players(self._read, limit)

    def integrity(self) -> str:
        """SQLite's own full check: ``"ok"`` for a healthy file (used by doctor and tests)."""
        rows = self._read("PRAGMA integrity_check")
        return "; ".join(str(r[0]) for r in rows)


@contextlib.contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One ``BEGIN IMMEDIATE … COMMIT``; roll back on any error so the log is never half-written."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")  # a COMMIT that fails (disk full) leaves the transaction open
    except BaseException:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise

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

Failures raise :class:`StoreError` with a sentence a player can act on. Opening never
raises over a damaged file: any error reading it (SQLite's, a byte that is not UTF-8, a
checksum that fails) means "damaged". A damaged file is never deleted: it is moved aside with
its side files, whatever still reads *true* is copied into a fresh log
(:mod:`kiosk.gamelog.recover`), and :attr:`GameLog.problems` says what happened. A log that
holds fewer entries than it last acknowledged (:mod:`kiosk.gamelog.ack`) is said too.
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
from kiosk.gamelog.ack import DAMAGED, JOURNAL_LOST, Ack, forget_ack, loss_sentence, read_ack, write_ack
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
from kiosk.gamelog.schema import SCHEMA_VERSION, create_schema, header_crc, schema_version, text_crc
from kiosk.gamelog.walfile import DB_HEADER, page_size_of

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
        #: whether writes record themselves in the -ack file (not while salvage copies rows)
        self._acks = True
        acknowledged = read_ack(self.path)
        try:
            self._conn = self._open()
        except StoreError as exc:
            if exc.kind != CORRUPT:
                raise
            self._recover(exc)
        except Exception as exc:
            log.exception("opening the game log %s", self.path)
            detail = f"{type(exc).__name__}: {exc}"
            self._recover(StoreError(f"the game log {self.path} is damaged ({detail})", CORRUPT, detail))
        self._check_acknowledged(acknowledged)

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
        self._refuse_if_main_lost()
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
            wrong = _unchecked_rows(conn)
        except (sqlite3.Error, OSError) as exc:
            conn.close()
            raise translate(exc, self.path) from None
        except BaseException:
            conn.close()
            raise
        if wrong:
            conn.close()
            raise StoreError(f"the game log {self.path} is damaged: {wrong}", CORRUPT, detail=wrong,
                             plain=True)
        return conn

    def _refuse_if_main_lost(self) -> None:
        """A main file that is empty, cut short or unreadable beside a ``-wal`` is damaged.

        That is what a power cut can leave on an SD card: the committed entries are in the
        WAL, the main file lost its blocks. Checked with plain file reads, before SQLite
        sees the pair: SQLite would take the empty file for a new database and reset the
        WAL, and the games would be gone. Kept aside, the WAL's pages are recovered by hand.
        """
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            wal_size = wal.stat().st_size
        except OSError:
            return
        if wal_size == 0:
            return
        journal = f"its journal ({wal.name}, {wal_size} bytes) was kept with it"
        try:
            with self.path.open("rb") as fh:
                head = fh.read(DB_HEADER)
        except FileNotFoundError:
            detail = f"its main file is missing; {journal}"
        except PermissionError:
            return  # not damage: _connect says whose permission is missing
        except OSError as exc:
            detail = f"its main file cannot be read ({exc.strerror or exc}); {journal}"
        else:
            if not head:
                detail = f"its main file is empty (0 bytes); {journal}"
            elif len(head) < DB_HEADER or not page_size_of(head):
                detail = f"its main file is not a database (header damaged); {journal}"
            else:
                return
        raise StoreError(f"the game log {self.path} is damaged: {detail}", CORRUPT, detail=detail,
                         plain=True)

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
                             detail="it is empty (0 bytes)", plain=True)
        try:
            # resolve(): a relative data folder (`tablekeeper kiosk --data here`) has no file URI
            probe = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                hollow = schema_version(probe) == 0
            finally:
                probe.close()
        except sqlite3.Error:
            return  # not readable as a database at all: _connect reports that
        if hollow and size > 0:
            raise StoreError(f"the game log {self.path} is damaged: it holds no game tables", CORRUPT,
                             detail="it holds no game tables", plain=True)

    def _recover(self, cause: StoreError) -> None:
        try:
            aside = keep_aside(self.path, self._clock())
        except OSError as exc:
            raise translate(exc, self.path) from None
        self.kept_aside = aside
        self._conn = self._open()
        # Thousands of one-row transactions: fsynced once at the end, not each (a power cut
        # meanwhile costs only this copy; the damaged file is kept aside either way).
        self._acks = False
        self._db.execute("PRAGMA synchronous = NORMAL")
        try:
            self.salvage = salvage_into(aside, self) if aside is not None else Salvage()
        except Exception as exc:  # never a restart loop over a salvage
            log.exception("salvage of %s", aside)
            self.salvage = Salvage(unreadable=f"the salvage failed: {type(exc).__name__}: {exc}")
        finally:
            self._acks = True
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA wal_checkpoint(FULL)")
        # SQLite's own words (an integrity check can run to a page of them) go to the journal;
        # the players get a sentence that fits the banner.
        reason = " ".join(str(cause.detail or cause).replace("*** in database main ***", "").split())
        kept = aside.name if aside is not None else "nowhere (it was gone)"
        why = f" ({cause.detail})" if cause.plain and cause.detail else ""
        opening = f"The game log was damaged{why}. It was kept as {kept} beside the new log."
        log.error("%s %s %s SQLite said: %s", opening, self.salvage.sentence(), " ".join(self.salvage.notes),
                  reason)
        self.problems.append(f"{opening} {self.salvage.sentence(limit=3)}")

    def _check_acknowledged(self, ack: Ack | None) -> None:
        """Say so when the log holds fewer entries than it last acknowledged, then forget it."""
        if ack is None:
            return
        if self.salvage is not None:
            held = self.salvage.kept(ack.game)
            earlier = sum(1 for g in self.salvage.saved if g.old_id < ack.game) + sum(
                1 for old in self.salvage.lost_games if old < ack.game)  # those are said already
        else:
            try:
                rows = self._read(
                    "SELECT (SELECT COUNT(*) FROM events WHERE game_id = ?) FROM games WHERE id = ?",
                    (ack.game, ack.game),
                )
                before = self._read("SELECT COUNT(*) FROM games WHERE id < ?", (ack.game,))
            except StoreError as exc:
                log.warning("cannot compare the game log with its last write: %s", exc)
                return
            held = int(rows[0][0]) if rows else None
            earlier = int(before[0][0])
        sentence = loss_sentence(ack, held, DAMAGED if self.salvage is not None else JOURNAL_LOST, earlier)
        if sentence is None:
            return
        log.error("%s", sentence)
        self.problems.append(sentence)
        forget_ack(self.path)  # said once; the next write records the log as it now is

    def _acknowledge(self, game_id: int, entries: int, label: str = "", *, lowering: bool = False) -> None:
        if self._acks and not self.refuse_writes:
            write_ack(self.path, Ack(int(game_id), int(entries), label), lowering=lowering)

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
                "INSERT INTO games (game, header, started, entries, crc) VALUES (?, ?, ?, 0, ?)",
                (header["game"], body, self._stamp(), header_crc(body, 0)),
            )
            game_id = int(cur.lastrowid or 0)
            conn.executemany(
                "INSERT INTO players (game_id, seat, name) VALUES (?, ?, ?)",
                [(game_id, seat, name) for seat, name in enumerate(players)],
            )
        self._acknowledge(game_id, 0, _label(header))
        return game_id

    def append(self, game_id: int, event: Mapping[str, Any]) -> int:
        """Commit one event durably, then return its number in the game (1, 2, ...)."""
        if not isinstance(event, Mapping) or not isinstance(event.get("type"), str):
            raise StoreError("an event needs a 'type'; nothing was saved", BAD_INPUT)
        body = _to_json(dict(event), "the event")
        with self._writing("the last entry") as conn:
            # Checked inside the transaction: another thread cannot abandon it in between.
            row = conn.execute("SELECT abandoned, header FROM games WHERE id = ?", (int(game_id),)).fetchone()
            if row is None:
                raise StoreError(f"there is no game {game_id} in the log", NO_SUCH_GAME)
            if row[0]:
                raise StoreError(f"game {game_id} was abandoned; the event was not saved", BAD_INPUT)
            seq = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (int(game_id),)
            ).fetchone()[0]
            conn.execute(
                "INSERT INTO events (game_id, seq, body, crc) VALUES (?, ?, ?, ?)",
                (int(game_id), seq, body, text_crc(body)),
            )
            _count_entries(conn, int(game_id), row[1], int(seq))
        self._acknowledge(game_id, int(seq), _label_of(row[1]))
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
            # Recorded before the commit: a power cut in between leaves the record short, never long.
            header = conn.execute("SELECT header FROM games WHERE id = ?", (int(game_id),)).fetchone()[0]
            self._acknowledge(game_id, int(row[0]) - 1, _label_of(header), lowering=True)
            conn.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (int(game_id), row[0]))
            _count_entries(conn, int(game_id), header, int(row[0]) - 1)
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
            header = conn.execute("SELECT header FROM games WHERE id = ?", (int(game_id),)).fetchone()[0]
            label = _label_of(header)
            count = first - 1 + len(bodies)
            if count < len(rows):  # before the commit: never more than the log holds
                self._acknowledge(game_id, count, label, lowering=True)
            conn.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?", (int(game_id), first))
            for n, body in enumerate(bodies):
                conn.execute(
                    "INSERT INTO events (game_id, seq, body, crc) VALUES (?, ?, ?, ?)",
                    (int(game_id), first + n, body, text_crc(body)),
                )
            _count_entries(conn, int(game_id), header, count)
        self._acknowledge(game_id, count, label)

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


def _count_entries(conn: sqlite3.Connection, game_id: int, header: str, entries: int) -> None:
    """The game's count of entries, under the header's checksum: a salvage then knows how
    many entries the game had, even when the last of them are lost."""
    conn.execute(
        "UPDATE games SET entries = ?, crc = ? WHERE id = ?", (entries, header_crc(header, entries), game_id)
    )


def _label(header: Mapping[str, Any]) -> str:
    """How a game is named to the players: "upwords: Ann, Bob"."""
    players = header.get("players") or []
    return f"{header.get('game')}: {', '.join(str(p) for p in players)}"


def _label_of(header_json: str) -> str:
    try:
        header = json.loads(header_json)
    except (TypeError, ValueError):
        return ""
    return _label(header) if isinstance(header, dict) else ""


def _unchecked_rows(conn: sqlite3.Connection) -> str:
    """Every row against its checksum, every game's count against its entries: "" when all
    agree, else what does not. Raw bytes are checked, so a byte that is not UTF-8 is a
    mismatch here, not an exception later. A row's columns all named, so a damaged schema
    that SQLite still parses (a column renamed by one flipped byte) fails here too."""
    conn.text_factory = bytes
    try:
        bad_games = bad_entries = 0
        counts = dict(conn.execute("SELECT game_id, COUNT(*) FROM events GROUP BY game_id").fetchall())
        for gid, _game, header, _s, _f, _a, _o, entries, crc in conn.execute(
            "SELECT id, game, header, started, finished, abandoned, outcome, entries, crc FROM games"
        ):
            ok = isinstance(header, bytes) and isinstance(entries, int) and isinstance(crc, int)
            if not ok or header_crc(header, entries) != crc or counts.get(gid, 0) != entries:
                bad_games += 1
        for body, crc in conn.execute("SELECT body, crc FROM events"):
            if not isinstance(body, bytes) or not isinstance(crc, int) or text_crc(body) != crc:
                bad_entries += 1
        conn.execute("SELECT game_id, seat, name, score, won, best_turn FROM players LIMIT 1").fetchall()
    finally:
        conn.text_factory = str
    if not bad_games and not bad_entries:
        return ""
    return (
        f"{bad_games} game(s) and {bad_entries} entries do not match their checksums"
    )


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

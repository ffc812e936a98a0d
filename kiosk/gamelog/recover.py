"""What happens to a damaged game log: keep it aside, never delete it, save only what is true.

The damaged file and its side files (``-wal``, ``-shm``, ``-ack``) are renamed together,
byte for byte, for a person to look at later. Salvage then works on *copies* in a scratch
folder (:mod:`kiosk.gamelog.scratch`): the WAL's committed pages laid over the main file,
the file padded to whole pages, and SQLite's own page-by-page recovery (``sqlite3 .recover``)
of that. Each copy is read **row by row**: a damaged page costs the games and entries stored
on it, not the whole log.

What reads is not yet true. Every row carries a CRC-32 (:mod:`kiosk.gamelog.schema`): an
entry whose checksum fails is dropped and counted, never replayed. Entries follow one another,
so a game keeps its entries up to the first one missing or dropped, and is then replayed
through its engine: a game that does not replay is kept up to the last entry that does.
:class:`Salvage` counts what came back (games whole, games in part and up to which turn,
entries dropped) and :meth:`Salvage.sentence` says it to the players in plain words.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypeGuard

from calibration import durable
from kiosk.gamelog.contract import Log
from kiosk.gamelog.schema import header_crc, text_crc
from kiosk.gamelog.scratch import RECOVERED, bounded, copies_to_read, has_checksums

log = logging.getLogger(__name__)

_SIDE_FILES = ("-wal", "-shm", "-ack")
#: When the events of a game cannot be listed, entries are probed one by one up to this many
#: numbers past the last one that read (a gap longer than this ends the search).
_PROBE_GAP = 64
#: More games than a kiosk plays in decades: a larger id read from a damaged row is noise.
_MAX_ID = 1_000_000
#: More entries than one game ever holds: a larger entry number read from a damaged row is noise.
_MAX_ENTRIES = 5_000
#: The whole salvage (copies, SQLite's recovery, reading them) stops after this long, keeping
#: what it has read: the kiosk must start. A log of a few MB takes a few seconds on a Pi.
SALVAGE_SECONDS = 20.0


class _Budget:
    """The salvage's time: every loop and every SQLite statement stops at ``deadline``."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.hit = False

    def out(self) -> bool:
        if time.monotonic() > self.deadline:
            self.hit = True
        return self.hit


def keep_aside(path: Path, now: datetime) -> Path | None:
    """Rename ``path`` (and its side files) to ``NAME.damaged-STAMP``; return the new name.

    A main file that is missing beside its ``-wal`` is kept as that WAL alone, under the name
    the pair would have had (the salvage reads the WAL by itself).
    """
    tag = f"damaged-{now.strftime('%Y%m%d-%H%M%S')}"
    if path.exists():
        return durable.keep_aside(path, tag, _SIDE_FILES)
    wal = path.with_name(path.name + "-wal")
    if not wal.exists():
        return None
    target, n = path.with_name(f"{path.name}.{tag}"), 1
    while target.with_name(target.name + "-wal").exists():
        n += 1
        target = path.with_name(f"{path.name}.{tag}-{n}")
    for suffix in _SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    durable.fsync_folder(path.parent)
    return target


@dataclass
class GameSaved:
    """One game copied out of a damaged log."""

    label: str
    kept: int
    #: the game's id in the damaged log, and in the new one
    old_id: int = 0
    new_id: int = 0
    #: how many entries the game had: known from its checksummed row, else the highest
    #: entry number seen (then ``unsure``: entries past it may be lost unseen)
    total: int = 0
    unsure: bool = False
    header_rebuilt: bool = False
    #: why the game stops where it does, when it is kept in part
    why: str = ""

    @property
    def whole(self) -> bool:
        return self.kept == self.total and not self.unsure and not self.header_rebuilt


@dataclass
class Salvage:
    """What :func:`salvage_into` kept and what it could not."""

    saved: list[GameSaved] = field(default_factory=list)
    #: games known to exist (by id) whose header could not be read, or failed its checksum
    lost_games: list[int] = field(default_factory=list)
    #: entries known to have existed that did not come back (in kept and in lost games)
    dropped: int = 0
    #: of those, entries that read but failed their checksum (altered by the damage)
    altered: int = 0
    #: the damaged file could not be opened, or no list of games could be made from it
    unreadable: str = ""
    #: how the salvage went (the WAL read by hand, the sqlite3 tool missing, ...): the journal
    notes: list[str] = field(default_factory=list)
    #: the size in bytes of the damaged file and its -wal, and where they are kept
    size: int = 0
    kept_at: Path | None = None
    #: a copy read cleanly and held no game at all (or none of our tables)
    empty: bool = False
    #: the time budget ran out, after this many seconds: what was read by then is kept
    stopped_after: float = 0.0

    def __len__(self) -> int:
        return len(self.saved)

    @property
    def whole(self) -> list[GameSaved]:
        return [g for g in self.saved if g.whole]

    @property
    def partial(self) -> list[GameSaved]:
        return [g for g in self.saved if not g.whole]

    def kept(self, old_id: int) -> int | None:
        """How many entries of the damaged log's game ``old_id`` came back (None: not the game)."""
        return next((g.kept for g in self.saved if g.old_id == old_id), None)

    def sentence(self, limit: int | None = None) -> str:
        """Exactly what was kept and what was not, for the banner and the journal.

        ``limit``: name at most this many partly recovered games (the banner must fit on a
        7-inch screen); the rest are counted, and the journal gets the full list.
        """
        stopped = (
            f" The salvage stopped after {self.stopped_after:.0f} s: what was read so far is kept."
            if self.stopped_after else ""
        )
        if not self.saved and not self.lost_games:
            if self.size and (self.unreadable or not self.empty):
                why = f" ({self.unreadable})" if self.unreadable else ""
                return (
                    f"No game could be recovered: {self.size} bytes of the damaged log could not be "
                    f"read{why}; it is kept at {self.kept_at}.{stopped}"
                )
            return "It held no games." + stopped
        total = len(self.saved) + len(self.lost_games)
        parts = [
            f"Recovered {len(self.saved)} of {total} game(s): {len(self.whole)} whole, "
            f"{len(self.partial)} in part"
        ]
        for game in self.partial[:limit]:
            parts.append(f"{game.label} {_how_far(game)}")
        if limit is not None and len(self.partial) > limit:
            parts.append(f"{len(self.partial) - limit} more game(s) in part (the journal lists them)")
        if self.dropped:
            altered = f" ({self.altered} altered by the damage)" if self.altered else ""
            parts.append(f"{self.dropped} entries dropped{altered}")
        if self.lost_games:
            parts.append(f"not recovered: {len(self.lost_games)} game(s) whose header was damaged")
        return "; ".join(parts) + "." + stopped


def _how_far(game: GameSaved) -> str:
    reach = f"recovered up to turn {game.kept}" if game.kept else "recovered without any turn"
    if game.unsure:
        reach += " (any later turn lost)"
    elif game.total > game.kept:
        reach += f" of {game.total}"
    if game.header_rebuilt:
        reach += ", its setup rebuilt from the player list (game options reset)"
    return reach + (f" ({game.why})" if game.why else "")


# ------------------------------------------------------------------ reading one copy
@dataclass
class _Found:
    """One game as read from one copy of the damaged log, before anything is written."""

    old_id: int
    header: dict[str, Any] | None = None
    rebuilt: bool = False
    finished: object = None
    abandoned: object = None
    outcome: object = None
    #: the entries 1..n that read and match their checksums, in order
    events: list[dict[str, Any]] = field(default_factory=list)
    total: int | None = None
    seen: int = 0
    errors_after: bool = False
    altered: int = 0
    header_altered: bool = False
    why: str = ""
    replayed: Any = None


def _lenient(raw: bytes) -> str:
    """Text as read from a damaged file: a byte that is not UTF-8 must not raise (its row's
    checksum then fails; a row from before checksums keeps the replacement character)."""
    return raw.decode("utf-8", "replace")


def _rows(src: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]] | None:
    try:
        return src.execute(sql, args).fetchall()
    except sqlite3.Error:
        return None
    except (ValueError, OverflowError, MemoryError):  # a damaged row can hold anything
        return None


def _game_ids(src: sqlite3.Connection, budget: _Budget) -> tuple[list[int] | None, bool]:
    """Every game id any table still knows of (games, players, events, the id counter), and
    whether the copy read cleanly as holding no game at all."""
    tables = _rows(src, "SELECT name FROM sqlite_master WHERE type = 'table'")
    if tables is not None and not {"games", "players", "events"} & {str(t[0]) for t in tables}:
        return [], True  # a database, but none of ours: it held no games
    found: set[int] = set()
    readable = False
    scans = 0
    for sql in (
        "SELECT id FROM games",
        "SELECT DISTINCT game_id FROM players",
        "SELECT DISTINCT game_id FROM events",
    ):
        rows = _rows(src, sql)
        if rows is not None:
            readable = True
            scans += 1
            found.update(_ids(r[0] for r in rows))
    if scans == 3 and not found:
        return [], True
    top = _rows(src, "SELECT seq FROM sqlite_sequence WHERE name = 'games'")
    if top and _ids([top[0][0]]) and top[0][0] <= max(found, default=0) + _PROBE_GAP:
        readable = True  # a counter far past every id seen is noise, not thousands of games
        found.update(range(1, int(top[0][0]) + 1))
    if not readable:
        # No table scans: probe ids one by one through the primary key, until a long gap.
        gap, n = 0, 0
        while gap < _PROBE_GAP and not budget.out():
            n += 1
            row = _rows(src, "SELECT id FROM games WHERE id = ?", (n,))
            if row is None or row:
                readable = readable or bool(row)
                found.add(n)
                gap = 0 if row else gap + 1
            else:
                gap += 1
        if not readable:
            return None, False
    return sorted(found), False


def _ids(values: Iterable[Any]) -> list[int]:
    """Values that can be game ids (a damaged row can hand back text or a huge number)."""
    return [v for v in values if isinstance(v, int) and not isinstance(v, bool) and 0 < v <= _MAX_ID]


def _is_header(header: object) -> TypeGuard[dict[str, Any]]:
    players = header.get("players") if isinstance(header, dict) else None
    return (
        isinstance(header, dict)
        and isinstance(header.get("game"), str)
        and isinstance(players, list)
        and all(isinstance(p, str) for p in players)
    )


def _read_game(src: sqlite3.Connection, old_id: int, checked: bool, budget: _Budget) -> _Found | None:
    """The game as this copy holds it (None: no such game, an id the counter had used).

    ``checked``: the copy's tables have checksum columns, so a row without a matching
    checksum is damaged; a log from before checksums is trusted as it reads.
    """
    found = _Found(old_id)
    cols = "game, header, finished, abandoned, outcome" + (", entries, crc" if checked else "")
    row = _rows(src, f"SELECT {cols} FROM games WHERE id = ?", (old_id,))
    if row == [] and _rows(src, "SELECT 1 FROM events WHERE game_id = ? LIMIT 1", (old_id,)) == []:
        return None
    name = None
    if row:
        name, raw, found.finished, found.abandoned, found.outcome, *sums = row[0]
        header: Any = None
        with contextlib.suppress(TypeError, ValueError, RecursionError):
            header = json.loads(raw)
        if checked:
            entries, crc = sums
            good = isinstance(raw, str) and isinstance(entries, int) and isinstance(crc, int)
            if good and header_crc(raw, entries) == crc and _is_header(header):
                found.header, found.total = header, entries
            elif raw is not None:
                found.header_altered = True
        elif _is_header(header):
            found.header = header
    if found.header is None and not checked:
        # A log from before checksums: the players table still names the game's sides.
        players = _rows(src, "SELECT name FROM players WHERE game_id = ? ORDER BY seat", (old_id,))
        if isinstance(name, str) and name and players and all(isinstance(p[0], str) for p in players):
            found.header, found.rebuilt = {"game": name, "players": [str(p[0]) for p in players]}, True
    _read_events(src, found, checked, budget)
    return found


def _read_events(src: sqlite3.Connection, found: _Found, checked: bool, budget: _Budget) -> None:
    """The entries 1..n that read and check, stopping at the first that does not.

    A damaged listing can skip rows (a leaf page with a wrong cell count) or hand back
    noise, so every number is probed by its primary key: up to the top of the listing or the
    count in the game's row, then on until a long run of numbers has no row *or does not
    read* (a damaged page on the way to them fails every number past it), and never past
    ``_MAX_ENTRIES``.
    """
    gid = found.old_id
    listed = _rows(src, "SELECT seq FROM events WHERE game_id = ?", (gid,)) or []
    top = max((v for v in _ids(v for (v,) in listed) if v <= _MAX_ENTRIES), default=0)
    top = max(top, min(found.total or 0, _MAX_ENTRIES))
    cols = "body, crc" if checked else "body, NULL"
    misses = 0
    broken = unread = False
    for seq in range(1, _MAX_ENTRIES + 1):
        if seq > top and misses >= _PROBE_GAP:
            break
        if budget.out():
            unread = True
            break
        row = _rows(src, f"SELECT {cols} FROM events WHERE game_id = ? AND seq = ?", (gid, seq))
        if not row:  # no row ([]), or the way to it does not read (None): either way a miss
            misses += 1
            broken = True
            unread = unread or row is None
            continue
        misses = 0
        found.seen = seq
        body, crc = row[0]
        event: Any = None
        with contextlib.suppress(TypeError, ValueError, RecursionError):
            event = json.loads(body)
        true = isinstance(body, str) and (not checked or (isinstance(crc, int) and text_crc(body) == crc))
        if not true:
            found.altered += 1
        if not true or not isinstance(event, dict) or not isinstance(event.get("type"), str):
            broken = True
            continue
        if not broken:
            found.events.append(event)
    found.errors_after = unread or found.seen > len(found.events)


def _replay(found: _Found) -> None:
    """Keep the entries the game's engine accepts in order; stop at the first it refuses."""
    from games.transcript import new_from_header

    if found.header is None:
        return
    try:
        game = new_from_header(found.header)
    except Exception as exc:  # an engine missing or a header it refuses: kept unchecked, said
        found.why = f"not checked: {exc}"
        return
    for number, event in enumerate(found.events, start=1):
        try:
            game.apply(event)
        except Exception as exc:
            found.why = f"turn {number} does not replay: {exc}"
            del found.events[number - 1 :]
            break
    found.replayed = game


def _read_copy(path: Path, checked: bool, budget: _Budget) -> tuple[dict[int, _Found] | str, bool]:
    """Every game this copy holds, replayed, or why nothing could be read from it; and whether
    it read cleanly as holding no game."""
    try:
        src = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error as exc:
        return str(exc), False
    src.text_factory = _lenient
    bounded(src, budget.deadline)
    try:
        try:
            ids, empty = _game_ids(src, budget)
        except Exception as exc:  # a damaged file can fail in ways no one listed; never crash
            log.warning("listing the games of %s: %s", path, exc)
            return str(exc), False
        if ids is None:
            return "its table of games is unreadable", False
        out: dict[int, _Found] = {}
        for old_id in ids:
            if budget.out():
                break
            try:
                found = _read_game(src, old_id, checked, budget)
            except Exception as exc:
                log.warning("game %s of %s could not be read: %s", old_id, path, exc)
                found = _Found(old_id)
            if found is not None:
                _replay(found)
                out[old_id] = found
        return out, empty
    finally:
        with contextlib.suppress(sqlite3.Error):
            src.close()


def _better(a: _Found | None, b: _Found) -> _Found:
    """Of one game read from two copies, the one that brings back more that is true."""
    if a is None:
        return b
    key_a = (a.header is not None and not a.rebuilt, len(a.events), a.total is not None, a.seen)
    key_b = (b.header is not None and not b.rebuilt, len(b.events), b.total is not None, b.seen)
    return b if key_b > key_a else a


# ------------------------------------------------------------------ writing what is true
def salvage_into(damaged: Path, store: Log, seconds: float | None = None) -> Salvage:
    """Copy every game header and every entry of ``damaged`` that reads true into ``store``.

    Reading stops after ``seconds`` whatever the damage (SQLite itself can loop on a corrupt
    b-tree); what was read by then is written and the sentence says the salvage stopped.
    """
    budget = _Budget(SALVAGE_SECONDS if seconds is None else seconds)
    result = Salvage(kept_at=damaged, size=_size(damaged) + _size(damaged.with_name(damaged.name + "-wal")))
    with tempfile.TemporaryDirectory(prefix="tablekeeper-salvage-") as tmp:
        copies, result.notes = copies_to_read(damaged, Path(tmp), budget.deadline)
        games: dict[int, _Found] = {}
        why_not = ""
        # One answer for every copy: a copy whose schema lost the checksum columns must not
        # pass its rows off as a log from before checksums.
        checked = any(has_checksums(copy, budget.deadline) for copy in copies)
        for copy in copies:
            if budget.out():
                break
            read, empty = _read_copy(copy, checked, budget)
            result.empty = result.empty or (empty and copy.name != RECOVERED)
            if isinstance(read, str):
                why_not = why_not or read
                continue
            for old_id, found in read.items():
                games[old_id] = _better(games.get(old_id), found)
        if not games and why_not and not _anything(copies):
            result.unreadable = why_not
        if budget.out():
            result.stopped_after = budget.seconds
            result.notes.append(
                f"the salvage stopped after {budget.seconds:.0f} s: what was read so far is kept"
            )
    for old_id in sorted(games):
        found = games[old_id]
        try:
            _write_game(found, store, result)
        except Exception as exc:  # a StoreError from the new log, or noise: say so, keep going
            log.warning("game %s of the damaged log could not be saved again: %s", old_id, exc)
            if old_id not in result.lost_games:
                result.lost_games.append(old_id)
    for note in result.notes:
        log.warning("salvage of %s: %s", damaged, note)
    log.warning("salvage of %s: %s", damaged, result.sentence())
    return result


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _anything(copies: list[Path]) -> bool:
    return any(p.exists() and p.stat().st_size > 0 for p in copies)


def _write_game(found: _Found, store: Log, result: Salvage) -> None:
    total = found.total if found.total is not None else found.seen
    result.altered += found.altered
    if found.header is None:
        result.lost_games.append(found.old_id)
        result.dropped += max(total, found.seen)
        return
    header = found.header
    new_id = store.start_game(header)
    kept = 0
    for event in found.events:
        store.append(new_id, event)
        kept += 1
    # A count from a row that checks is the truth; an entry seen past it is a row whose key
    # the damage changed (the checksum covers the entry, not its number).
    total = max(found.total, kept) if found.total is not None else max(total, found.seen, kept)
    result.dropped += total - kept
    players = ", ".join(str(p) for p in header.get("players", []))
    label = f"game {found.old_id} ({header['game']}: {players})"
    unsure = found.total is None and (found.errors_after or found.rebuilt)
    saved = GameSaved(label, kept, found.old_id, new_id, total, unsure, found.rebuilt, found.why)
    result.saved.append(saved)
    game = found.replayed
    if saved.whole and (found.finished or (game is not None and game.is_over())):
        store.finish(new_id, _outcome(found, game))
    elif found.finished or found.abandoned:
        # A game that had ended but came back in part is not resumed as if in progress.
        store.abandon(new_id)


def _outcome(found: _Found, game: Any) -> dict[str, Any]:
    """The engine's own result when the replayed game is over; else the stored one if it reads."""
    if game is not None and game.is_over():
        result = game.outcome()
        return {"winners": list(result.winners), "termination": result.termination}
    stored: Any = None
    with contextlib.suppress(TypeError, ValueError, RecursionError):
        stored = json.loads(found.outcome) if isinstance(found.outcome, str) else None
    players = set(found.header.get("players", [])) if found.header else set()
    winners = stored.get("winners") if isinstance(stored, dict) else None
    if isinstance(stored, dict) and isinstance(winners, list) and set(map(str, winners)) <= players:
        return stored
    return {"winners": []}

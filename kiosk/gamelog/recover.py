"""What happens to a damaged game log: keep it aside, never delete it, save what can be read.

SQLite can usually still read most of a file whose pages are partly damaged (a failing SD
card, a file copied while in use). The damaged file and its WAL are renamed together, so
a person can look at them later, and everything that still reads is copied into the fresh
log **row by row**: a damaged page costs the games and entries stored on it, not the whole
log. A game whose header row is damaged is rebuilt from its name and its players table when
those still read. :class:`Salvage` counts what was kept and what was not, and
:meth:`Salvage.sentence` says it to the players in plain words.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypeGuard

from calibration import durable
from kiosk.gamelog.contract import Log

log = logging.getLogger(__name__)

_SIDE_FILES = ("-wal", "-shm")
#: When the events of a game cannot be listed, entries are probed one by one up to this many
#: numbers past the last one that read (a gap longer than this ends the search).
_PROBE_GAP = 64
#: More games than a kiosk plays in decades: a larger id read from a damaged row is noise.
_MAX_ID = 1_000_000


def keep_aside(path: Path, now: datetime) -> Path | None:
    """Rename ``path`` (and its ``-wal``/``-shm``) to ``NAME.damaged-STAMP``; return the new name."""
    if not path.exists():
        return None
    return durable.keep_aside(path, f"damaged-{now.strftime('%Y%m%d-%H%M%S')}", _SIDE_FILES)


@dataclass
class GameSaved:
    """One game copied out of a damaged log."""

    label: str
    kept: int
    #: the game's id in the damaged log, and in the new one
    old_id: int = 0
    new_id: int = 0
    lost: list[int] = field(default_factory=list)
    #: the number of the last entry that read, when entries after it may be lost too
    #: (their rows gave errors and their count is unknown); None otherwise
    lost_after: int | None = None
    header_rebuilt: bool = False

    @property
    def whole(self) -> bool:
        return not self.lost and self.lost_after is None and not self.header_rebuilt


@dataclass
class Salvage:
    """What :func:`salvage_into` kept and what it could not."""

    saved: list[GameSaved] = field(default_factory=list)
    #: games known to exist (by id) whose header could not be read at all
    lost_games: list[int] = field(default_factory=list)
    #: the damaged file could not be opened, or no list of games could be made from it
    unreadable: str = ""

    def __len__(self) -> int:
        return len(self.saved)

    def sentence(self, limit: int | None = None) -> str:
        """Exactly what was kept and what was not, for the banner and the journal.

        ``limit``: name at most this many partly recovered games (the banner must fit on a
        7-inch screen); the rest are counted, and the journal gets the full list.
        """
        if self.unreadable:
            return f"Nothing could be read from it ({self.unreadable}): no game was recovered."
        if not self.saved and not self.lost_games:
            return "It held no games."
        parts = []
        total = len(self.saved) + len(self.lost_games)
        whole = [g for g in self.saved if g.whole]
        parts.append(f"Recovered {len(self.saved)} of {total} game(s)")
        if self.saved:
            parts[-1] += f" ({len(whole)} complete)"
        partial = [g for g in self.saved if not g.whole]
        for game in partial[:limit]:
            bits = []
            if game.header_rebuilt:
                bits.append("its setup was rebuilt from the player list (game options reset)")
            missing = [f"entries {_numbers(game.lost)}"] if game.lost else []
            if game.lost_after is not None:
                missing.append(f"any entry after {game.lost_after}")
            if missing:
                bits.append(f"{game.kept} entries kept, {' and '.join(missing)} lost")
            parts.append(f"{game.label}: {'; '.join(bits)}")
        if limit is not None and len(partial) > limit:
            parts.append(f"{len(partial) - limit} more game(s) lost some entries (the journal lists them)")
        if self.lost_games:
            parts.append(f"not recovered: {len(self.lost_games)} game(s) whose header could not be read")
        return "; ".join(parts) + "."


def _numbers(values: Iterable[int]) -> str:
    return ", ".join(str(v) for v in values)


def salvage_into(damaged: Path, store: Log) -> Salvage:
    """Copy every game header and every event that still reads from ``damaged`` into ``store``."""
    result = Salvage()
    if damaged.stat().st_size == 0:
        return result
    try:
        src = sqlite3.connect(f"{damaged.as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        log.warning("cannot open the damaged log %s read-only: %s", damaged, exc)
        result.unreadable = str(exc)
        return result
    try:
        try:
            ids = _game_ids(src)
        except Exception as exc:  # a damaged file can fail in ways no one listed; never crash
            log.exception("listing the games of the damaged log")
            ids, result.unreadable = None, str(exc)
        if ids is None:
            result.unreadable = result.unreadable or "its table of games is unreadable"
            return result
        for old_id in ids:
            try:
                _copy_game(src, old_id, store, result)
            except (sqlite3.Error, ValueError, TypeError) as exc:
                log.warning("game %s of the damaged log could not be copied: %s", old_id, exc)
                result.lost_games.append(old_id)
            except Exception as exc:  # a StoreError from the new log, or noise: say so, keep going
                log.warning("game %s of the damaged log could not be saved again: %s", old_id, exc)
                result.lost_games.append(old_id)
    finally:
        with contextlib.suppress(sqlite3.Error):
            src.close()
    log.warning("salvage of %s: %s", damaged, result.sentence())
    return result


def _rows(src: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]] | None:
    try:
        return src.execute(sql, args).fetchall()
    except sqlite3.Error:
        return None


def _game_ids(src: sqlite3.Connection) -> list[int] | None:
    """Every game id any table still knows of (games, players, events, the id counter)."""
    tables = _rows(src, "SELECT name FROM sqlite_master WHERE type = 'table'")
    if tables is not None and not {"games", "players", "events"} & {str(t[0]) for t in tables}:
        return []  # a database, but none of ours: it held no games
    found: set[int] = set()
    readable = False
    for sql in (
        "SELECT id FROM games",
        "SELECT DISTINCT game_id FROM players",
        "SELECT DISTINCT game_id FROM events",
    ):
        rows = _rows(src, sql)
        if rows is not None:
            readable = True
            found.update(_ids(r[0] for r in rows))
    top = _rows(src, "SELECT seq FROM sqlite_sequence WHERE name = 'games'")
    if top and _ids([top[0][0]]):
        readable = True
        found.update(range(1, int(top[0][0]) + 1))
    if not readable:
        # No table scans: probe ids one by one through the primary key, until a long gap.
        gap, n = 0, 0
        while gap < _PROBE_GAP:
            n += 1
            row = _rows(src, "SELECT id FROM games WHERE id = ?", (n,))
            if row is None or row:
                readable = readable or bool(row)
                found.add(n)
                gap = 0 if row else gap + 1
            else:
                gap += 1
        if not readable:
            return None
    return sorted(found)


def _ids(values: Iterable[Any]) -> list[int]:
    """Values that can be game ids (a damaged row can hand back text or a huge number)."""
    return [v for v in values if isinstance(v, int) and 0 < v <= _MAX_ID]


def _is_header(header: object) -> TypeGuard[dict[str, Any]]:
    players = header.get("players") if isinstance(header, dict) else None
    return (
        isinstance(header, dict)
        and isinstance(header.get("game"), str)
        and isinstance(players, list)
        and all(isinstance(p, str) for p in players)
    )


def _copy_game(src: sqlite3.Connection, old_id: int, store: Log, result: Salvage) -> None:
    row = _rows(src, "SELECT game, header, finished, abandoned, outcome FROM games WHERE id = ?", (old_id,))
    if row == []:
        return  # no such game (an id the counter had used): nothing was lost
    header: dict[str, Any] | None = None
    name = finished = abandoned = outcome = None
    if row:
        name, raw, finished, abandoned, outcome = row[0]
        with contextlib.suppress(TypeError, ValueError):
            header = json.loads(raw)
    rebuilt = False
    if not _is_header(header):
        players = _rows(src, "SELECT name FROM players WHERE game_id = ? ORDER BY seat", (old_id,))
        if not isinstance(name, str) or not name or not players:
            result.lost_games.append(old_id)
            return
        header, rebuilt = {"game": str(name), "players": [str(p[0]) for p in players]}, True
    kept, lost, tail = _events(src, old_id)
    new_id = store.start_game(header)
    copied = 0
    for seq, event in kept:
        try:
            store.append(new_id, event)
            copied += 1
        except Exception as exc:  # not an event at all (damaged JSON that still parsed)
            log.warning("entry %s of game %s not saved again: %s", seq, old_id, exc)
            lost.append(seq)
    if finished:
        with contextlib.suppress(TypeError, ValueError):
            outcome = json.loads(outcome) if outcome else None
        store.finish(new_id, outcome if isinstance(outcome, dict) else {"winners": []})
    elif abandoned:
        store.abandon(new_id)
    players = ", ".join(str(p) for p in header.get("players", []))  # type: ignore[assignment]
    label = f"game {old_id} ({header['game']}: {players})"
    result.saved.append(GameSaved(label, copied, old_id, new_id, sorted(lost), tail, rebuilt))


Events = list[tuple[int, dict[str, Any]]]


def _events(src: sqlite3.Connection, game_id: int) -> tuple[Events, list[int], int | None]:
    """(seq, event) for every entry that reads, the numbers of those that do not, and the last
    number that read when entries past it may be lost too (known only when probing)."""
    # A damaged listing can skip rows (a leaf page with a wrong cell count) or hand back
    # noise, so every number is probed by its primary key: up to the top of the listing, then
    # on until a long run of numbers has no row.
    listed = _rows(src, "SELECT seq FROM events WHERE game_id = ?", (game_id,)) or []
    top = max((v for (v,) in listed if isinstance(v, int) and 0 < v <= _MAX_ID), default=0)
    kept: list[tuple[int, dict[str, Any]]] = []
    lost: list[int] = []
    gap = 0
    for seq in itertools.count(1):
        if seq > top and gap >= _PROBE_GAP:
            break
        row = _rows(src, "SELECT body FROM events WHERE game_id = ? AND seq = ?", (game_id, seq))
        event: Any = None
        if row:
            with contextlib.suppress(TypeError, ValueError):
                event = json.loads(row[0][0])
        if isinstance(event, dict):
            kept.append((seq, event))
            gap = 0
            continue
        if row != []:  # an error, or a body that is no longer an event
            lost.append(seq)
        gap += 1
    # Entries are numbered 1, 2, 3 ... without gaps (undo takes only the last), so every
    # number below the last one that read is an entry, lost if it did not read. Past it,
    # errors (or a listing that went further) may be entries, or may be nothing.
    last = kept[-1][0] if kept else 0
    got = {seq for seq, _ in kept}
    tail = last if top > last or any(s > last for s in lost) else None
    lost = [n for n in range(1, last) if n not in got]
    return kept, lost, tail

"""What happens to a damaged game log: keep it aside, never delete it, save what can be read.

SQLite can usually still read most of a file whose pages are partly damaged (a failing SD
card, a file copied while in use). The damaged file and its WAL are renamed together, so
a person can look at them later, and every game whose rows still read cleanly is copied
into the fresh log: the players lose as little as the damage allows.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.store import GameLog

log = logging.getLogger(__name__)

_SIDE_FILES = ("-wal", "-shm")


def keep_aside(path: Path, now: datetime) -> Path | None:
    """Rename ``path`` (and its ``-wal``/``-shm``) to ``NAME.damaged-STAMP``; return the new name."""
    stamp = now.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    if not path.exists():
        return None
    os.replace(path, target)
    for suffix in _SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    return target


def salvage_into(damaged: Path, store: GameLog) -> int:
    """Copy every game that still reads cleanly from ``damaged`` into ``store``; return how many."""
    saved = 0
    try:
        src = sqlite3.connect(f"{damaged.as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        log.warning("cannot open the damaged log %s read-only: %s", damaged, exc)
        return 0
    try:
        try:
            games = src.execute(
                "SELECT id, header, finished, abandoned, outcome FROM games ORDER BY id"
            ).fetchall()
        except sqlite3.Error as exc:
            log.warning("no game can be read from %s: %s", damaged, exc)
            return 0
        for old_id, header, finished, abandoned, outcome in games:
            try:
                events = [
                    json.loads(body)
                    for (body,) in src.execute(
                        "SELECT body FROM events WHERE game_id = ? ORDER BY seq", (old_id,)
                    ).fetchall()
                ]
                new_id = store.start_game(json.loads(header))
                for event in events:
                    store.append(new_id, event)
                if finished:
                    store.finish(new_id, json.loads(outcome) if outcome else {"winners": []})
                elif abandoned:
                    store.abandon(new_id)
                saved += 1
            except (sqlite3.Error, ValueError) as exc:
                log.warning("game %s of the damaged log could not be read: %s", old_id, exc)
    finally:
        with contextlib.suppress(sqlite3.Error):
            src.close()
    return saved

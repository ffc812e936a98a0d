"""The game log when the data folder cannot take it: read-only, full, or not a folder at all.

A Pi's SD card can turn read-only (the kernel does that to a failing card) or fill up. The
kiosk must still start, say so, and show the game in progress. So when the folder cannot
be written (or has almost no space left), the log and its WAL are *copied* into a scratch
folder (RAM on the Pi: the unit's private /tmp, else /dev/shm) and opened there **read-only**:
the game in progress is rebuilt from the copy and shown, every new entry is refused in plain
words (nothing is accepted that a restart would then lose), and the banner says to fix the
folder and restart. With no log at all there is nothing to show: a game may be refereed in
memory, and the banner says it lasts only until the kiosk stops. The original files are only
read, never changed.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import shutil
import tempfile
from pathlib import Path

from kiosk.files import paths
from kiosk.gamelog.store import GameLog, StoreError

log = logging.getLogger(__name__)

#: Below this much free space the data folder counts as full: a game's entries are small,
#: but SQLite needs room for its WAL and a checkpoint, and a card this full fails soon.
MIN_FREE = 2 * 1024 * 1024


def open_game_log(problems: list[str]) -> GameLog:
    """The game log in the data directory, or a scratch copy of it (and a sentence why)."""
    path = paths.game_log_file()
    reason = folder_problem(path.parent)
    if reason is None:
        try:
            store = GameLog(path)
        except StoreError as exc:
            reason = str(exc)
        else:
            problems.extend(store.problems)
            return store
    store, copied = _scratch_log(path)
    if copied:
        tail = (
            "The games are shown read-only, from a copy: nothing new can be kept. Fix the folder, "
            "then restart the kiosk to play on."
        )
        store.refuse_writes = f"Not kept: {reason} The games are read-only until the folder is fixed."
    else:  # nothing to show: a game may still be refereed, in memory, and the banner says so
        tail = "Games are kept only until the kiosk stops."
    message = f"{reason} {tail}"
    log.error("%s", message)
    problems.append(message)
    problems.extend(store.problems)
    return store


def folder_problem(folder: Path) -> str | None:
    """Why ``folder`` cannot keep the game log (read-only, not writable, full), or None."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-"):
            pass
    except FileExistsError:
        return None  # a file where the folder should be: GameLog words that one
    except OSError as exc:
        if exc.errno == errno.EROFS:
            return f"the data folder {folder} is read-only (a failing SD card?)."
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return f"the disk is full: the data folder {folder} has no space left."
        return None  # not writable for another reason: GameLog says which, with the fix
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return None
    if free < MIN_FREE:
        return f"the disk is full: the data folder {folder} has only {free // 1024} KiB free."
    return None


def _scratch_folders() -> list[Path]:
    return [Path(tempfile.gettempdir()), Path("/dev/shm")]


def _scratch_log(path: Path) -> tuple[GameLog, bool]:
    """A log in a scratch folder: a copy of ``path`` (and its WAL) when it can be read."""
    last: Exception | None = None
    for base in _scratch_folders():
        try:
            folder = Path(tempfile.mkdtemp(prefix="tablekeeper-", dir=base))
        except OSError as exc:
            last = exc
            continue
        copied = _copy_log(path, folder / path.name)
        try:
            return GameLog(folder / path.name), copied
        except StoreError as exc:
            last = exc
            shutil.rmtree(folder, ignore_errors=True)
    raise StoreError(f"no folder can hold even a temporary game log ({last})")


def _copy_log(path: Path, target: Path) -> bool:
    """Copy the log and its WAL (committed entries not yet checkpointed live there)."""
    if not path.is_file():
        return False
    try:
        shutil.copyfile(path, target)
        wal = path.with_name(path.name + "-wal")
        if wal.is_file():
            shutil.copyfile(wal, target.with_name(target.name + "-wal"))
    except OSError as exc:
        log.warning("the game log %s could not be copied: %s", path, exc)
        with contextlib.suppress(OSError):
            target.unlink()
        return False
    return True

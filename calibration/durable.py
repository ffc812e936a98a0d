"""Writing a file so that a power cut leaves the old version or the new one, never half, and
keeping a damaged file aside, never deleting it.

Every file tablekeeper keeps is rewritten whole: a temporary file beside the old one, flushed
to the card, renamed over it, then the folder synced so the rename itself survives. That is
the calibration file, the board's learnt look and taught letters, the occupancy model, and
the kiosk's settings, house words, letter points, category tray, kept timer and word-list
cache. A file found damaged (the settings, the letter points, the game log with its SQLite
side files) is renamed aside for a person to look at.

One module for all of them, in ``calibration/`` because that is the lowest layer that writes
files: it imports nothing of ours, and ``vision`` and every part of the kiosk may import it
(docs/architecture.md).
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

log = logging.getLogger(__name__)


def write_atomically(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Replace ``path`` with ``data``; raise OSError (e.g. disk full) with the old file untouched.

    ``sync=False`` skips the two fsyncs: a killed process still leaves the old file or the new
    one, but a power cut may leave the old one. For a record that may lag, never run ahead.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if sync:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if sync:
        fsync_folder(path.parent)


def fsync_folder(folder: Path) -> None:
    """Make a rename or a new file's entry in ``folder`` durable; a folder that cannot be
    opened (not POSIX) is no error, since the file itself is already on the card."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        log.warning("could not sync the folder %s: %s", folder, exc)
    finally:
        os.close(fd)


def keep_aside(path: Path, tag: str, side_files: Iterable[str] = ()) -> Path:
    """Rename ``path`` to ``NAME.TAG`` (``NAME.TAG-2``, ... if taken) and return the new path.

    Each of ``side_files`` (suffixes such as SQLite's ``-wal``) that exists goes along under
    the new name, so a person finds the file whole. Raises OSError (the file is gone, the
    card is read-only); the caller says so in its own words.
    """
    target = path.with_name(f"{path.name}.{tag}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{tag}-{n}")
    os.replace(path, target)
    for suffix in side_files:
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    return target

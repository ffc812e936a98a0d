"""Writing a file so that a power cut leaves the old version or the new one, never half.

The calibration file, the board's learnt look (``board.npz``), the taught letters
(``letters.npz``) and the occupancy model are rewritten whole: a temporary file beside the
old one, flushed to the card, renamed over it, then the folder synced so the rename itself
survives. This lives in ``calibration/``, the bottom of the layers that write these files,
so ``calibration``, ``vision`` and everything above them write the same way with the
standard library alone.

The kiosk's own files (``kiosk/files``, ``kiosk/gamelog``, ``kiosk/play``) may not import
``calibration`` on the map of docs/architecture.md, so :mod:`kiosk.files.durable` holds the
same write for them.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data``; raise OSError (e.g. disk full) with the old file untouched."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
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

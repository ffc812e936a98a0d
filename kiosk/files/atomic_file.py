"""Writing a small file so that a power cut leaves the old version or the new one, never half.

The settings, the house words and the category tray are the players' own work and are
rewritten whole: write a temporary file beside the old one, flush it to the card, rename
it over the old one, then sync the folder so the rename itself survives.
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

"""A folder of cached blobs for the core (the parsed word list): ``games.lexicon.BlobStore`` on disk.

A cache is only an optimisation: a blob that cannot be read is simply not there, and one
that cannot be written (a full disk, a read-only folder) is an OSError the lexicon ignores.
"""

from __future__ import annotations

import os
from pathlib import Path

from calibration.durable import write_atomically
from kiosk.files import paths


class CacheFolder:
    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.folder = Path(folder) if folder is not None else paths.data_dir() / "cache"

    def read(self, name: str) -> bytes | None:
        try:
            return (self.folder / name).read_bytes()
        except OSError:
            return None

    def write(self, name: str, data: bytes) -> None:
        write_atomically(self.folder / name, data)

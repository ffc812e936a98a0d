"""The house words on disk: the file behind ``games.house_words.HouseWords``.

``games/`` decides what a house word means; this adapter only keeps the list in
``kiosk.files.paths.house_words_file()`` (or a path given), written atomically so a power cut
leaves the old list or the new one, and never touched when it is damaged.
"""

from __future__ import annotations

import os
from pathlib import Path

from calibration.durable import write_atomically
from games.house_words import HouseWords, HouseWordsError
from kiosk.files import paths


class HouseWordsFile:
    """A :class:`games.house_words.HouseStorage` in one JSON file."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def read(self) -> bytes | None:
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return None  # no house words yet: reading never creates the file
        except OSError as exc:
            raise HouseWordsError(f"cannot read the house-words file {self.path}: {exc.strerror}") from None

    def write(self, data: bytes) -> None:
        write_atomically(self.path, data)

    def describe(self) -> str:
        return str(self.path)


def open_house_words(path: str | os.PathLike[str] | None = None) -> HouseWords:
    """The house list in ``path`` (default: the data directory's); HouseWordsError if damaged."""
    return HouseWords(HouseWordsFile(path if path is not None else paths.house_words_file())).reload()

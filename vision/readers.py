"""The board reader's contract: what the kiosk and the command line ask of any board reader.

Two readers satisfy it, :class:`vision.upwords_reader.UpwordsReader` (a grid of stacks) and
:class:`vision.street.StreetReader` (Word on the Street's lanes). Whoever holds "the reader of
the calibrated board" (:func:`vision.board_look.reader_for`, the kiosk's live camera, the
``read`` command) is written against :class:`BoardReader`, so each reader may keep its own
extras (the Upwords reader's history of stacks) without the callers guessing at names.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from vision.planes import BoardPlanes
from vision.reading import BoardReading, StreetReading


class BoardReader(Protocol):
    """Reads one calibrated board from a camera's BGR picture."""

    @property
    def rows(self) -> int:
        """The board's rows of cells (spaces, for the street)."""
        ...

    @property
    def cols(self) -> int:
        """The board's columns of cells (letters, for the street)."""
        ...

    @property
    def corners(self) -> np.ndarray:
        """The playing area's outer corners in the picture (TL, TR, BR, BL), 4 x 2."""
        ...

    @property
    def planes(self) -> BoardPlanes:
        """The board's planes in the picture: warping a picture top-down, a cell's place."""
        ...

    def read(self, image: np.ndarray, *, hand_free: bool = False) -> BoardReading | StreetReading:
        """The board as the picture shows it (``ValueError`` for a picture of the wrong size);
        ``hand_free``: the caller knows no hand is in the picture."""
        ...

"""Did a cell the game had empty get a tile? Ask its face as well as its look.

Why: in the kiosk an Upwords board is read against the board the players confirmed, and a play is offered
only when no cell is in doubt. In a light changed since calibration the occupancy model leaves
many empty cells, and some new tiles, within its band (an empty cell beside a new stack at 0.4,
a tile cut half white at 0.7), each of which holds the play back. What the face on the first
plane reads tells them apart where the look cannot: a new tile's letter reads plainly, or its
face at least fits a taught tile closely, an empty cell's board shows none. How far it vouches
depends on the light, the set and the board's print, so a small network weighs both
(:class:`CellDecision`), fitted on ``train``-family games in many lights (``python -m
vision.synthetic.fit_cells``) with its band out of fold (:mod:`vision.synthetic.fitting`), a cell
wrong and sure priced as a wrong play offered (:data:`vision.synthetic.fit_cells.WRONG_COSTS`).

It decides only cells the history has surely empty, only within the occupancy model's band, and
only with a letter reader: a move adds one tile to a cell, whose face sits on the first plane. And
only on Upwords: every Upwords tile has a letter, but a crossword's blank tile shows none, as the
bare board does, so there a face that reads nothing says nothing.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from vision.space_decision import SpaceDecision, logit

CELL_FILE = Path(__file__).with_name("models") / "cells.json"
#: The evidence :func:`cell_evidence` gives for one cell, in order.
FEATURES = (
    "occupancy model (logit)",
    "the first plane's face reads a letter (confidence)",
    "the first plane's face: its ink contrast",
    "the first plane's face: its share cut white",
    "the first plane's face: how closely a taught tile fits it (correlation)",
)


def cell_evidence(chance: float, letter: str | None, confidence: float, visibility: np.ndarray,
                  fit: float = 0.0) -> np.ndarray:
    """The evidence on one cell: its occupancy ``chance``, what the first plane's face reads
    (``letter`` at ``confidence``; None: no letter), how much that face can show
    (:func:`vision.glyphs.face_visibility`: a face cut white reads no letter, tile or not) and how
    closely the taught tile it matches best fits it (``fit``, the letters' second look's
    correlation; 0 where it did not look). A glare can wash a tile's ink until its letter reads
    barely surer than the bare board's print, yet the tile still fits a taught one closely."""
    return np.array([float(logit(chance)), float(confidence) if letter is not None else 0.0,
                     *(float(v) for v in visibility), float(fit)])


class CellDecision(SpaceDecision):
    """The fitted decision over :func:`cell_evidence`."""

    features = FEATURES
    refit = "python -m vision.synthetic.fit_cells"
    file = CELL_FILE


@cache
def cell_decision() -> CellDecision:
    """The fitted decision (:data:`CELL_FILE`), read once."""
    return CellDecision.load()

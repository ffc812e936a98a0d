"""Is a Word on the Street tile in the lane space it most likely is in? Ask its face as well.

Why: the lanes are bare asphalt, so a letter read there is a tile's. The trained occupancy model
judges a lane space by its look against the empty lane and the tile at calibration, and in a
light far dimmer or brighter than calibration's it can leave a tile plainly there at 0.7, which
the reader would ask about; the face then often reads the column's own letter surely. Each
column's likeliest lane space is decided by a small network over both (the space's occupancy,
the column's next likeliest space, what the face reads), fitted on ``train``-family streets in
many lights (``python -m vision.synthetic.fit_lanes``) with its band out of fold
(:mod:`vision.synthetic.fitting`). Without a letter reader the face says nothing and the network
falls back on the occupancy it was fitted to weigh alone.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from vision.letters import LetterRead
from vision.median_strip import LANE_ROWS
from vision.space_decision import SpaceDecision, logit

LANE_FILE = Path(__file__).with_name("models") / "lanes.json"
#: The evidence :func:`lane_evidence` gives for one lane space, in order.
FEATURES = (
    "occupancy model (logit)",
    "the column's next likeliest space (logit)",
    "reads the column's letter (confidence)",
    "reads another letter (confidence)",
    "a letter reader looked",
)


def likeliest_lane(prob: np.ndarray, col: int) -> tuple[int, float]:
    """The row of column ``col``'s likeliest lane space and the column's likeliest other space's
    chance (the median included)."""
    column = np.asarray(prob)[:, col]
    row = max(LANE_ROWS, key=lambda r: column[r])
    return row, float(np.delete(column, row).max())


def lane_evidence(chance: float, next_chance: float, read: LetterRead | None, letter: str) -> np.ndarray:
    """The evidence on one lane space: its occupancy ``chance``, the column's next likeliest
    space's, and what its face reads (``read``; None without a letter reader)."""
    own = float(read.confidence) if read is not None and read.letter == letter else 0.0
    other = float(read.confidence) if read is not None and read.letter not in (None, letter) else 0.0
    return np.array([float(logit(chance)), float(logit(next_chance)), own, other, float(read is not None)])


class LaneModel(SpaceDecision):
    """The lanes' fitted decision over :func:`lane_evidence`."""

    features = FEATURES
    refit = "python -m vision.synthetic.fit_lanes"
    file = LANE_FILE


@cache
def lane_model() -> LaneModel:
    """The fitted model (:data:`LANE_FILE`), read once."""
    return LaneModel.load()

"""Is a Word on the Street tile the game had on the median still there? Weigh the median's look
against what the turn can have done.

Why: the median decision (:mod:`vision.median_strip`) judges each picture alone, fitted on streets
where half the median spaces are bare, so where a tile and the bare strip look alike under a
changed light it asks. In the kiosk the street is read against the game's street before the turn,
and the rules make a tile on the median far likelier to stay than to go: a turn moves it a space
into the lane toward the team on the street (which the lanes see), or pulls it off the street only
with its letter thrice in one word. How far that settles a median space the decision leans on
depends on the light, the set and the camera, so a small network weighs the median decision's
probability and the surest lane's (:class:`MedianKept`), fitted on ``train``-family street games
read as the kiosk reads (``python -m vision.synthetic.fit_median_kept``), its band out of fold
(:mod:`vision.synthetic.fitting`), a tile wrongly kept costing as much as a median space wrong
and sure.

It only ever settles a tile as still on the median, and only where the median decision asked and
the game's street before the turn (or the last reading accepted, its column sure) had it there:
where it is not sure of that, the median decision's doubt stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from vision.median_strip import LANE_ROWS, MEDIAN_ROW
from vision.reading import StreetReading
from vision.space_decision import SpaceDecision, logit

MEDIAN_KEPT_FILE = Path(__file__).with_name("models") / "median_kept.json"
#: The evidence :func:`median_kept_evidence` gives for one column, in order.
FEATURES = (
    "the median decision's probability of its tile (logit)",
    "the surest lane's occupancy (logit)",
)


def median_kept_evidence(median: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """The evidence on each column (17 x len(:data:`FEATURES`)): ``median`` the median decision's
    probabilities (:func:`vision.median_strip.median_probability`), ``prob`` the occupancy model's
    (5 x 17)."""
    lanes = np.asarray(prob, np.float64)[list(LANE_ROWS)].max(axis=0)
    return np.stack([logit(np.asarray(median, np.float64)), logit(lanes)], axis=1)


def on_the_median(previous: StreetReading) -> list[bool]:
    """The columns whose tile ``previous`` (the game's street, or the last reading accepted) surely
    has on the median."""
    return [column.position == 0 and not column.uncertain for column in previous.columns]


class MedianKept(SpaceDecision):
    """The fitted decision over :func:`median_kept_evidence`: its "tile" is the tile still on the
    median."""

    features = FEATURES
    refit = "python -m vision.synthetic.fit_median_kept"
    file = MEDIAN_KEPT_FILE

    def keep(self, prob: np.ndarray, doubts: Sequence[str | None], evidence: np.ndarray,
             had: Sequence[bool]) -> tuple[np.ndarray, list[str | None]]:
        """The street's tile chances (5 x 17) and the median's doubts, with each median space the
        median decision asked (``doubts``) whose tile the history ``had`` there settled as still
        there where this decision is sure of it (its chance 0.8 and over)."""
        out = np.array(prob, np.float64, copy=True)
        left = list(doubts)
        asked = [col for col, doubt in enumerate(left) if doubt is not None and had[col]]
        if not asked:
            return out, left
        for col, p in zip(asked, self.probability(evidence[asked]), strict=True):
            chance, unsure = self.chance(float(p))
            if not unsure and chance >= 0.5:
                out[MEDIAN_ROW, col], left[col] = chance, None
        return out, left


@cache
def median_kept() -> MedianKept:
    """The fitted decision (:data:`MEDIAN_KEPT_FILE`), read once."""
    return MedianKept.load()

"""The band a fitted decision is asked within, chosen out of fold.

Why out of fold: a network's probabilities on the scenes it was fitted on are surer than on any
other; each scene is judged here by a network fitted without it, as a table nobody drew would be,
and the band is where those judgements cost least, a space wrong and sure costing ``cost``
spaces asked (a wrong read spoils a turn's score, a question costs a tap).
"""

from __future__ import annotations

import numpy as np

from vision.small_net import SmallNet

FOLDS = 5
#: the band never narrows past the reader's own confidence threshold (0.6: a probability 0.8)
WIDEST_SURE_BARE, NARROWEST_SURE_TILE = 0.2, 0.8


def out_of_fold(x: np.ndarray, y: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each row's probability from a network fitted without its scene (``groups``: each row's)."""
    fold = groups % FOLDS
    out = np.zeros(len(y))
    for k in range(FOLDS):
        held = fold == k
        out[held] = SmallNet.fit(x[~held], y[~held]).probability(x[held])
    return out


def band(p: np.ndarray, y: np.ndarray, cost: float) -> tuple[float, float]:
    """(sure_bare, sure_tile): each the threshold that costs least on out-of-fold probabilities
    ``p`` (truth ``y``), a space wrong and sure costing ``cost`` spaces asked; never looser than
    the reader's own confidence threshold."""
    tiles, bare, every = np.sort(p[y > 0.5]), np.sort(p[y < 0.5]), np.sort(p)

    def cheapest(candidates: np.ndarray, wrong: np.ndarray, asked: np.ndarray, last: bool) -> float:
        """The cheapest candidate; of equals, the ``last`` (the narrowest band) or the first."""
        total = wrong * cost + asked
        ties = np.flatnonzero(total == total.min())
        return float(candidates[ties[-1] if last else ties[0]])

    # sure bare at or below t: tiles there are wrong; every space above t and below a half is asked
    low = np.concatenate([[0.0], bare[bare < 0.5]])
    sure_bare = cheapest(low, np.searchsorted(tiles, low, side="right"),
                         np.searchsorted(every, 0.5) - np.searchsorted(every, low, side="right"), True)
    # sure tile at or above t: bare spaces there are wrong; every space from a half to below t is asked
    high = np.concatenate([tiles[tiles >= 0.5], [1.0]])
    sure_tile = cheapest(high, len(bare) - np.searchsorted(bare, high, side="left"),
                         np.searchsorted(every, high, side="left") - np.searchsorted(every, 0.5), False)
    return min(sure_bare, WIDEST_SURE_BARE), max(sure_tile, NARROWEST_SURE_TILE)

"""How high is a stack in a picture read alone? A fitted decision on what the planes show.

Why: with no game history, a stack's height comes from the picture only: the plane on which its top
face sits exactly in its cell (:meth:`vision.upwords_reader.UpwordsReader._height_scores`). How far
that plane's lead settles the height depends on how far apart the planes lie in the picture (the
camera's tilt, the tile's thickness against the pitch), on what a nearer stack hides, on whether the
runner-up is the plane just above (a stack read one low lands its face on its own side) and on
whether the face there reads a letter. Set by hand, each of these was a threshold found on the boards
that showed the problem; here a small network weighs them (:class:`HeightDecision`), fitted on
``train``-family pictures of sets of any make under cameras from overhead to 40 degrees
(``python -m vision.synthetic.fit_heights``), its band out of fold
(:mod:`vision.synthetic.fitting`), a height wrong and sure costing as much as a wrong play.

It adds to the planes' lead (:func:`vision.upwords_reader.plane_height`, hand-set): a height is sure
where either is. Priced as the fit prices a wrong height, the decision alone was sure of more
heights under a leaning camera, but of fewer on dense boards seen nearly from overhead, where the
planes barely move; together neither loses a height the other was sure of (and neither was wrong
and sure on fresh scenes).

It decides only pictures read alone, with the set's thickness measured: with history the rules
give the heights (a stack grows by one tile when its top letter changes), and without a measured
thickness no height from one picture is sure (:data:`vision.upwords_reader.UNMEASURED_FLAG`).
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import numpy as np

from vision.space_decision import SpaceDecision

HEIGHT_FILE = Path(__file__).with_name("models") / "heights.json"
#: The evidence :func:`height_evidence` gives for one stack, in order.
FEATURES = (
    "the planes' best height",
    "its lead, as a share of the lead a sure height needs",
    "its face score over the runner-up's",
    "its face score over the plane just above's",
    "its face score over the plane just below's",
    "its face score over the best hidden plane's",
    "its face score",
    "share of the planes a nearer stack hides",
    "how far apart the planes lie (log px a tile)",
    "the focal length is assumed",
    "the letter read on its face (confidence)",
    "the plane just below it beats no lower one",
)
#: A score gap where there is nothing to compare with (no plane above, below or hidden): as wide
#: as any gap the scores show.
NO_RIVAL = 1.0


def height_evidence(scores: np.ndarray, visible: np.ndarray, lead: float, shift_px: float,
                    focal_assumed: bool, letter_conf: float) -> np.ndarray:
    """The evidence on one stack: its planes' face ``scores`` (in units of the tile's grey),
    which of them a nearer stack leaves ``visible``, :func:`vision.upwords_reader.plane_height`'s
    ``lead``, how many pixels a tile of height moves its top (``shift_px``), whether the focal
    length is assumed and how sure the letter read on the best plane's face is.

    Five numbers a stack, a stack at a time: plain Python (numpy's calls would cost a full 8x8 a
    few milliseconds)."""
    s = [x if math.isfinite(x) else 0.0 for x in np.asarray(scores, np.float64).tolist()]
    shown = np.asarray(visible, bool).tolist()
    seen = shown if any(shown) else [True] * len(shown)
    cand = [x if v else -math.inf for x, v in zip(s, seen, strict=True)]
    best = max(range(len(cand)), key=cand.__getitem__)
    top = s[best]

    def over(rivals: list[float]) -> float:
        rivals = [x for x in rivals if math.isfinite(x)]
        return min(max(top - max(rivals), -NO_RIVAL), NO_RIVAL) if rivals else NO_RIVAL

    lower_beaten = best >= 2 and cand[best - 1] < max(cand[:best - 1])
    hidden = [x for x, v in zip(s, seen, strict=True) if not v]
    return np.array([
        best + 1, min(max(lead, 0.0), 4.0), over(cand[:best] + cand[best + 1:]),
        over(cand[best + 1:best + 2]),
        over(cand[best - 1:best] if best else []), over(hidden), top, shown.count(False) / len(shown),
        math.log(max(shift_px, 0.1)), float(focal_assumed), float(letter_conf), float(lower_beaten),
    ], np.float64)


class HeightDecision(SpaceDecision):
    """The fitted decision over :func:`height_evidence`: its "tile" is the planes' best height
    being the stack's (``sure_bare`` is unused: a height is never settled as wrong, only asked)."""

    features = FEATURES
    refit = "python -m vision.synthetic.fit_heights"
    file = HEIGHT_FILE

    def surely_right(self, evidence: np.ndarray) -> float | None:
        """The height's confidence (0.8 and over) where the decision is sure the planes' best
        height is right; None where it asks (the planes' lead alone then says how sure it is)."""
        q = float(self.probability(evidence[None])[0])
        return self.chance(q)[0] if q >= self.sure_tile else None


@cache
def height_decision() -> HeightDecision:
    """The fitted decision (:data:`HEIGHT_FILE`), read once."""
    return HeightDecision.load()

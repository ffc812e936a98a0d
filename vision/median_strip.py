"""Is a Word on the Street tile still on its median letter? Ask the bare median in the same picture.

Why: calibration sees every median space with its tile on it and never bare, so the trained
occupancy model has only the tile's look and the set's tile colour to go on, and on a strip
printed near the tiles' colour, or under a light the calibration never saw, it calls a bare
median a tile or a tile bare. The picture being read holds better evidence: every column whose
tile is surely out in a lane shows its median space bare, in this light. Each median space is
placed between those bare spaces and its own tile at calibration, by the colour of its face's
ground and of its ink (:func:`vision.appearance.face_parts`), and the picture says how well
ground and ink tell the strip from the tiles at all (:func:`median_evidence`).

How much each piece of evidence counts, and how sure the answer must be before it is not asked,
are fitted, not set by hand (:class:`MedianModel`, ``python -m vision.synthetic.fit_median``):
a small network over the evidence on ``train``-family streets in many lights, and the band of
probabilities it is asked within, where the spaces it was fitted on, each judged by a network
fitted without its street, cost least, a space wrong and sure costing 300 asked
(:data:`vision.synthetic.fit_median.WRONG_COSTS`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from vision.space_decision import SpaceDecision, logit

MEDIAN_ROW = 2
LANE_ROWS = (0, 1, 3, 4)
#: A lane tile this sure shows its column's median space bare: an example of the bare strip.
#: Not a decision: it only chooses the examples, whose evidence the fitted model weighs.
SURE_LANE = 0.9
#: Bare examples needed; a space's distance to them is its second nearest, so one wrong example
#: cannot place it.
MIN_EXAMPLES = 2
DOUBT = "the tile on the median is hard to tell from the bare strip"
MEDIAN_FILE = Path(__file__).with_name("models") / "median.json"
#: How many times a separation (strip from tiles, in the bare spaces' own spread) is counted at
#: most: beyond this the strip and the tiles are plainly apart, and a larger figure says no more.
SEPARATION_CAP = 50.0
#: The evidence :func:`median_evidence` gives per median space, in order.
FEATURES = (
    "occupancy model (logit)",
    "surest lane (logit)",
    "bare examples to compare with",
    "bare examples (log)",
    "ground's share x how well the ground separates",
    "ink's share x how well the ink separates",
    "ground's share",
    "ink's share",
    "moved from its tile against the bare spaces",
    "ground separation (log)",
    "ink separation (log)",
    "occupancy model where nothing compares",
    "the model's word on this picture's bare spaces (logit)",
    "occupancy model where it reads the bare spaces bare",
    "ground near neither the bare strip nor its tile (log, in spreads)",
    "ink near neither (log, in spreads)",
    "likeness to its tile at calibration",
    "the bare examples' likeness to their tiles",
    "likeness known",
    "outline against its tile's at calibration (log)",
    "outline against the bare examples' (log)",
)


def median_evidence(prob: np.ndarray, faces_now: np.ndarray, faces_start: np.ndarray,
                    inks_now: np.ndarray | None = None, inks_start: np.ndarray | None = None,
                    likeness: np.ndarray | None = None, outline: np.ndarray | None = None) -> np.ndarray:
    """The evidence on each median space (17 x len(:data:`FEATURES`)).

    ``prob``: the occupancy model's tile probabilities (5 x 17); ``faces_now``: the median
    row's ground colours now, the light undone (17 x 3, L*a*b*); ``faces_start``: the same at
    calibration, each space with its own tile; ``inks_now``, ``inks_start``: the ink colours
    (None for a calibration saved without them: the ink then says nothing); ``likeness``: each
    median space's grey likeness to itself at calibration, its tile there
    (:func:`vision.appearance.likeness`; None for a calibration saved without its greys);
    ``outline``: the log of each space's edge strength at a tile's border against its own at
    calibration (:func:`vision.appearance.outline`; None as ``likeness``)."""
    lanes = np.asarray(prob)[list(LANE_ROWS)].max(axis=0)
    median = np.asarray(prob)[MEDIAN_ROW]
    bare = np.flatnonzero(lanes >= SURE_LANE)
    enough = len(bare) > MIN_EXAMPLES
    ground = _Placing(faces_now, faces_start, bare, enough)
    ink = (_Placing(inks_now, inks_start, bare, enough) if inks_now is not None and inks_start is not None
           else _Placing.nothing())
    moved = np.linalg.norm(faces_now[bare] - faces_start[bare], axis=-1)
    left = float(np.median(moved)) if len(bare) else 0.0
    on_bare = float(np.median(median[bare])) if enough else 0.5
    alike = np.zeros(len(median)) if likeness is None else np.asarray(likeness, np.float64)
    bare_alike = float(np.median(alike[bare])) if enough else 0.0
    edged = np.zeros(len(median)) if outline is None else np.asarray(outline, np.float64)
    bare_edged = float(np.median(edged[bare])) if enough else 0.0
    out = np.zeros((len(median), len(FEATURES)))
    for col in range(len(median)):
        examples = bare[bare != col]
        has = len(examples) >= MIN_EXAMPLES
        by_ground, to_tile, off_ground = ground.place(examples, col) if has else (0.5, 0.0, 0.0)
        by_ink, _, off_ink = ink.place(examples, col) if has else (0.5, 0.0, 0.0)
        model = float(logit(median[col]))
        moved_ratio = min(to_tile / left, 3.0) - 1.0 if has and left > 0 else 0.0
        out[col] = (model, logit(lanes[col]), float(has), np.log1p(len(examples)),
                    (by_ground - 0.5) * ground.log_apart, (by_ink - 0.5) * ink.log_apart,
                    by_ground - 0.5, by_ink - 0.5, moved_ratio, ground.log_apart, ink.log_apart,
                    model * (1.0 - has), logit(on_bare), model * (on_bare < 0.5),
                    ground.neither(off_ground), ink.neither(off_ink),
                    alike[col], bare_alike, float(likeness is not None),
                    edged[col], edged[col] - bare_edged if enough and outline is not None else 0.0)
    return out


class MedianModel(SpaceDecision):
    """The median's fitted decision over :func:`median_evidence`."""

    features = FEATURES
    refit = "python -m vision.synthetic.fit_median"
    file = MEDIAN_FILE


@cache
def median_model() -> MedianModel:
    """The fitted model (:data:`MEDIAN_FILE`), read once."""
    return MedianModel.load()


def median_probability(prob: np.ndarray, faces_now: np.ndarray, faces_start: np.ndarray,
                       inks_now: np.ndarray | None = None, inks_start: np.ndarray | None = None,
                       likeness: np.ndarray | None = None, outline: np.ndarray | None = None,
                       model: MedianModel | None = None) -> np.ndarray:
    """The fitted ``model``'s (by default :func:`median_model`) probability of each median space's
    tile (17), before its band; arguments as :func:`median_evidence`'s."""
    model = model or median_model()
    return model.probability(median_evidence(prob, faces_now, faces_start, inks_now, inks_start, likeness,
                                             outline))


def decide_median(prob: np.ndarray, p: np.ndarray, model: MedianModel | None = None
                  ) -> tuple[np.ndarray, list[str | None]]:
    """The street's tile probabilities (5 x 17) with the median row's ``p``
    (:func:`median_probability`) decided by ``model``'s band, and a doubt (or None) per column. A
    space asked gets 0.55 or 0.45, the side the model leans to: that is the guess the players see."""
    model = model or median_model()
    out = np.array(prob, np.float64, copy=True)
    doubts: list[str | None] = [None] * out.shape[1]
    for col, q in enumerate(p):
        out[MEDIAN_ROW, col], asked = model.chance(float(q))
        doubts[col] = DOUBT if asked else None
    return out, doubts


def settle_median(prob: np.ndarray, faces_now: np.ndarray, faces_start: np.ndarray,
                  inks_now: np.ndarray | None = None, inks_start: np.ndarray | None = None,
                  likeness: np.ndarray | None = None, outline: np.ndarray | None = None,
                  model: MedianModel | None = None) -> tuple[np.ndarray, list[str | None]]:
    """The street's tile probabilities (5 x 17) with the median row decided by the fitted
    ``model`` (by default :func:`median_model`), and a doubt (or None) per column
    (:func:`median_probability`, then :func:`decide_median`)."""
    model = model or median_model()
    p = median_probability(prob, faces_now, faces_start, inks_now, inks_start, likeness, outline, model)
    return decide_median(prob, p, model)


class _Placing:
    """One kind of colour (ground or ink) on the median: how far apart the bare strip and the
    tiles are in this picture, and where a space stands between them."""

    def __init__(self, now: np.ndarray | None, start: np.ndarray | None, bare: np.ndarray,
                 enough: bool) -> None:
        self.now, self.start = now, start
        known = enough and now is not None and start is not None
        self.apart, self.spread = _separation(now[bare], start[bare]) if known else (0.0, 0.0)  # type: ignore[index]
        self.log_apart = float(np.log1p(self.apart))

    @classmethod
    def nothing(cls) -> _Placing:
        """No such colour kept (a calibration saved without inks): it places nothing."""
        return cls(None, None, np.zeros(0, int), False)

    def place(self, examples: np.ndarray, col: int) -> tuple[float, float, float]:
        """How far the space ``col`` is from the bare spaces ``examples`` (the second nearest), as
        a share of that and its distance from its own tile at calibration (0 bare, 1 its tile);
        that distance; and the nearer of the two (a space near neither is something else: glare,
        a shadow). Halfway and nothing where this colour was not kept."""
        if self.now is None or self.start is None:
            return 0.5, 0.0, 0.0
        distances = np.linalg.norm(self.now[examples] - self.now[col], axis=-1)
        to_bare = float(np.sort(distances)[MIN_EXAMPLES - 1])
        to_tile = float(np.linalg.norm(self.now[col] - self.start[col]))
        return to_bare / (to_bare + to_tile + 1e-9), to_tile, min(to_bare, to_tile)

    def neither(self, off: float) -> float:
        """How far (log, in the bare spaces' spreads) a space is from both strip and tile."""
        return float(np.log1p(min(off / self.spread, SEPARATION_CAP))) if self.spread > 0 else 0.0


def _separation(bare_now: np.ndarray, tiles_start: np.ndarray) -> tuple[float, float]:
    """How many times the bare spaces' own spread the bare strip (its spaces now, light undone)
    and the tiles on those spaces at calibration differ by (at most :data:`SEPARATION_CAP`), and
    that spread."""
    middle = np.median(bare_now, axis=0)
    spread = float(np.median(np.linalg.norm(bare_now - middle, axis=1)))
    apart = float(np.linalg.norm(middle - np.median(tiles_start, axis=0)))
    return (min(apart / spread, SEPARATION_CAP) if spread > 0 else SEPARATION_CAP), spread

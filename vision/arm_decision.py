"""Is a change that comes in from outside an arm, or the light? A fitted decision that may clear it.

Why: the arm check (:mod:`vision.arms`) flags a change since calibration that reaches the cells
from beyond the board, as an arm does. A change of light can do that too: a lamp's glare on the
table where the board meets the picture's edge, a soft shadow from a player leaning in, a bright
skin-toned table under a bluer light. What tells the two apart is how the change looks and how
it lies on the board: an arm's silhouette is a sharp step and hides what lay under it, while
light brightens or dims softly and keeps the table's grain; glare is brighter and whiter than
what lies round it, an arm is any colour; an arm crosses the board's frame a few cells wide and
reaches into the cells, a new light on a pale frame changes it all along. No one of these
settles it on every table, so a small network weighs them (:data:`FEATURES`), fitted on
``train``-family renders with and without hands under changed light
(:mod:`vision.synthetic.fit_arms`).

It only ever clears what the rules flagged, and only a change the network is sure is light (at
or below :attr:`ArmDecision.sure_bare`, set out of fold below every arm's probability, with room
for arms the fit never drew): a missed arm can leave a cell read wrong and sure, a false alarm
only makes the kiosk wait. (Where the rules missed a hand and took the light elsewhere for an
arm, clearing that light leaves the hand unflagged, as the rules alone would have left it where
it is: ``python -m bench hands`` counts both as missed.)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.space_decision import SpaceDecision

ARM_FILE = Path(__file__).with_name("models") / "arms.json"

FEATURES = (
    "its size (log cells' area)",
    "share of it on the table",
    "its brightness against the whole picture's change (log)",
    "its brightness against what lies round it (log)",
    "its colour's change (log chromaticity)",
    "its fine texture's change (log)",
    "share of it a lamp's glare explains",
    "share of it cut white",
    "its edge's sharpness (log gradient over step)",
    "its elongation (log)",
    "how far it changed (log median score)",
    "what the rules took for an arm on the board's surround (log cells' area)",
    "what the rules took for an arm over the cells (log cells' area)",
    "how far it reaches into the cells (cells)",
    "share of the surround's outer half changed",
    "share of the table changed",
)

#: The band round a change where what lies round it is measured, in pixels of the small picture
#: (:func:`vision.arms.shrink`): past a glare's or shadow's soft edge, close enough to share its
#: light.
ROUND_PX = (2, 7)


class ArmDecision(SpaceDecision):
    """The chance that a change :mod:`vision.arms` found is an arm, over :func:`arm_evidence`;
    at or below ``sure_bare`` it is light and the picture is cleared (``sure_tile`` is unused:
    the arm check's rules already flagged it)."""

    features = FEATURES
    refit = "python -m vision.synthetic.fit_arms"
    file = ARM_FILE

    def is_light(self, evidence: np.ndarray) -> bool:
        return bool(self.probability(evidence[None])[0] <= self.sure_bare)


@cache
def arm_decision() -> ArmDecision:
    """The fitted decision (:data:`ARM_FILE`), read once."""
    return ArmDecision.load()


def _median(values: np.ndarray, where: np.ndarray, empty: float = 0.0) -> float:
    return float(np.median(values[where])) if where.any() else empty


#: the deepest reach into the cells counted (cells): an arm over a board reaches this far or less
MAX_REACH_CELLS = 5.0


def board_evidence(seen: np.ndarray, changed: np.ndarray, cell_px: int, pad_px: int) -> list[float]:
    """The board's share of the evidence: where what the rules took for an arm lies on the
    board's warp (``seen``: the playing area ``pad_px`` in from each side, cells ``cell_px``
    square), and how much of the surround's outer half ``changed`` (both bool on that warp).
    Why: an arm crosses the surround to reach the cells, a few cells wide; a new light on a pale
    frame changes it along its length and reaches no deeper into the cells than a tile's shadow."""
    into = into_playing_area(seen.shape, pad_px)
    area = float(cell_px * cell_px)
    surround, playing = seen & (into <= 0), seen & (into > 0)
    outer = into <= -pad_px // 2
    return [np.log(surround.sum() / area + 0.05), np.log(playing.sum() / area + 0.05),
            min(float(into[seen].max()) / cell_px, MAX_REACH_CELLS) if seen.any() else 0.0,
            float(changed[outer].mean())]


def into_playing_area(shape: tuple[int, ...], pad_px: int) -> np.ndarray:
    """How far each pixel of a board's warp lies into the playing area from its edge, in pixels
    (0 or less on the surround, ``pad_px`` wide)."""
    h, w = shape[:2]
    ys, xs = np.ogrid[:h, :w]
    down, across = np.minimum(ys - pad_px + 1, h - pad_px - ys), np.minimum(xs - pad_px + 1, w - pad_px - xs)
    return np.minimum(down, across)


def arm_evidence(change: np.ndarray, texture_change: np.ndarray, brightest: np.ndarray, score: np.ndarray,
                 region: np.ndarray, glare: np.ndarray, table: np.ndarray, cell_area: float,
                 board: Sequence[float] = (0.0, 0.0, 0.0, 0.0)) -> np.ndarray:
    """The evidence (:data:`FEATURES`) about the change ``region`` (bool, the small picture).

    ``change``: log chromaticity (R/G, B/G) and log brightness against the calibration picture (3
    channels), ``texture_change``: the fine texture's log ratio, each with the whole picture's
    median taken out; ``brightest``: the brightest colour channel now (0..255); ``score``: the
    arm check's change score (1 its threshold); ``glare``: what a lamp's glare explains;
    ``table``: where the table lies (beyond the board and its surround); ``board``:
    :func:`board_evidence`."""
    region = region.astype(bool)
    area = int(region.sum())
    u8 = region.astype(np.uint8)
    near = cv2.dilate(u8, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ROUND_PX[0] + 1,) * 2)) > 0
    far = cv2.dilate(u8, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ROUND_PX[1] + 1,) * 2)) > 0
    round_it = far & ~near
    light = change[..., 2]
    inside = _median(light, region)
    step = inside - _median(light, round_it, inside)
    edge = (cv2.dilate(u8, np.ones((3, 3), np.uint8)) - cv2.erode(u8, np.ones((3, 3), np.uint8))) > 0
    gradient = cv2.magnitude(cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3),
                             cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3)) * 0.125
    sharpness = np.log((_median(gradient, edge) + 0.01) / (abs(step) + 0.05))
    moments = cv2.moments(u8, binaryImage=True)
    spread = np.array([[moments["mu20"], moments["mu11"]], [moments["mu11"], moments["mu02"]]])
    eigen = np.linalg.eigvalsh(spread + 1e-6 * np.eye(2))
    colour = np.hypot(change[..., 0], change[..., 1])
    return np.array([
        np.log(area / max(cell_area, 1e-6) + 0.05),
        float(table[region].mean()) if area else 0.0,
        inside,
        step,
        np.log(_median(colour, region) + 0.01),
        _median(texture_change, region),
        float(glare[region].mean()) if area else 0.0,
        float((brightest[region] >= 250).mean()) if area else 0.0,
        sharpness,
        0.5 * np.log(max(eigen[1], 1e-6) / max(eigen[0], 1e-6) + 1.0),
        np.log(_median(score, region, 1.0) + 0.01),
        *board,
        float((score[table] > 1.0).mean()) if table.any() else 0.0,
    ], np.float64)

"""Has anything come into the picture since it was last seen clear? A hand must; the light need not.

Why: the arm check (:mod:`vision.arms`) judges each picture alone against the calibration's, and
under a light that has changed since, a picture with no hand in it is now and then taken for one
with an arm, one frame flagged and the next not, as the sensor's noise tips a marginal change.
The kiosk's camera streams, and a stream shows what a single picture cannot: a hand comes in
from beyond the picture's edge and changes the picture where it goes, while a change of light
reaches all of it smoothly. So once the arm check has passed a frame in which nothing moved,
every frame after it that differs from that one by no more than the light (:func:`change_since`)
has no hand in it either, whatever the arm check would say of it alone.

The evidence is the picture shrunk as the arm check shrinks it, in log light per channel: the
change against the clear frame, less its smooth part (the light's field, each block's median so
that a hand over part of it does not move it), and the largest connected region left above a
level. Where the board leaves a band all round the picture, only the picture beyond the playing
area counts (:func:`beyond_the_cells`): an arm reaches the cells across the table and the board's
surround, where a play changes nothing, so a clear frame from before a play still says whether a
hand is in a frame after it, under whatever light the play brought. The level and the bound on
that region's size are fitted on filmed games, for the whole picture
(:mod:`vision.synthetic.fit_stillness`, ``vision/models/stillness.json``) and beyond the cells
(:mod:`vision.synthetic.fit_stillness_beyond`, ``vision/models/stillness_beyond.json``): every
hand that reached the cells in the fit's games is above the bound, with room.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.arms import shrink

STILLNESS_FILE = Path(__file__).with_name("models") / "stillness.json"
#: The decision fitted on the picture beyond the playing area (:func:`beyond_the_cells`).
STILLNESS_BEYOND_FILE = STILLNESS_FILE.with_name("stillness_beyond.json")
#: The levels (log light, after the light's field is taken out) the fit chooses among.
LEVELS = (0.03, 0.04, 0.05, 0.065, 0.08, 0.1, 0.13, 0.17, 0.22, 0.28, 0.36, 0.45, 0.6)
#: Blocks across the picture's longer side over which the light's field is taken (its median in
#: each): a lamp's gradient, a person's soft shadow or a patch of glare spans several, a hand's
#: reach into the picture is about one wide.
LIGHT_BLOCKS = 8

#: The playing area left out is widened by this many cells all round: a stack's top and sides
#: lean over its edge in the picture.
AROUND_CELLS = 1.0
#: ... and what lies beyond it must be at least this many cells wide all along the picture's edge:
#: an arm must then cross that much to reach the cells. A board that (nearly) fills the picture
#: leaves an arm too little to cross, and the whole picture is compared.
BAND_CELLS = 1.0

_LOG_BYTE = np.log(np.arange(256, dtype=np.float32) + 6.0)


def beyond_the_cells(corners: np.ndarray, rows: int, cols: int, image_size: tuple[int, int],
                     shape: tuple[int, ...]) -> np.ndarray | None:
    """Where, in a :func:`log_picture` of ``shape`` taken from a frame of ``image_size`` (w, h),
    an arm must be on its way to the cells: everything beyond the playing area (the board's
    ``corners`` in the frame), :data:`AROUND_CELLS` widened (bool); None where that leaves less
    than :data:`BAND_CELLS` anywhere along the picture's edge."""
    scale = shape[1] / image_size[0]
    quad = np.asarray(corners, np.float64).reshape(4, 2) * scale
    inside = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 1)
    cell = np.sqrt(cv2.contourArea(quad.astype(np.float32)) / (rows * cols))
    reach = max(1, round(AROUND_CELLS * cell))
    near = cv2.dilate(inside, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1)))
    beyond = near == 0
    # how far each pixel lies from the widened playing area; along the picture's edge, the band
    depth = cv2.distanceTransform(beyond.astype(np.uint8), cv2.DIST_L2, 3)
    edge = np.concatenate([depth[0], depth[-1], depth[:, 0], depth[:, -1]])
    return beyond if float(edge.min()) >= BAND_CELLS * cell else None


def log_picture(image: np.ndarray) -> np.ndarray:
    """A camera frame as the evidence compares it: shrunk (:func:`vision.arms.shrink`), log light
    per channel."""
    return _LOG_BYTE[shrink(image)[0]]


def _light_field(diff: np.ndarray) -> np.ndarray:
    """The smooth part of a change (h x w x channels): each block's median, spread smoothly."""
    h, w = diff.shape[:2]
    block = max(2, max(h, w) // LIGHT_BLOCKS)
    by, bx = max(1, h // block), max(1, w // block)
    cut = diff[: by * block, : bx * block].reshape(by, block, bx, block, -1)
    medians = np.median(cut, axis=(1, 3)).astype(np.float32)
    return cv2.resize(medians, (w, h), interpolation=cv2.INTER_LINEAR).reshape(diff.shape)


def residual(clear: np.ndarray, now: np.ndarray) -> np.ndarray:
    """Per pixel of two :func:`log_picture` s, how far ``now`` changed from ``clear`` beyond the
    light's field (the largest channel's)."""
    diff = now - clear
    left = np.abs(diff - _light_field(diff)).max(axis=2)
    return cv2.GaussianBlur(left, (3, 3), 0)


def change_since(clear: np.ndarray, now: np.ndarray, levels: tuple[float, ...] = LEVELS,
                 beyond: np.ndarray | None = None) -> np.ndarray:
    """The evidence: for each level, the largest connected region of :func:`residual` above it,
    as a share of the picture (``beyond``: only there, :func:`beyond_the_cells`)."""
    left = residual(clear, now)
    if beyond is not None:
        left = np.where(beyond, left, 0.0)
    out = np.zeros(len(levels))
    for i, level in enumerate(levels):
        mask = (left > level).astype(np.uint8)
        if not mask.any():
            break  # higher levels find nothing either
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        out[i] = stats[1:, cv2.CC_STAT_AREA].max() / mask.size if count > 1 else 0.0
    return out


@dataclass(frozen=True)
class StillnessDecision:
    """Nothing came in when the change's largest region above ``level`` is under ``bound``
    (a share of the picture); ``beyond_the_cells``: fitted on the picture beyond the playing area
    alone; ``info``: what it was fitted on."""

    level: float
    bound: float
    info: dict[str, Any] = field(default_factory=dict)
    beyond_the_cells: bool = False

    def nothing_came_in(self, clear: np.ndarray, now: np.ndarray, beyond: np.ndarray | None = None) -> bool:
        """Whether ``now`` differs from the ``clear`` frame (both :func:`log_picture`) by the light
        alone (not when the camera's picture changed size: nothing is known then). ``beyond``:
        the picture beyond the playing area (:func:`beyond_the_cells`), where a decision fitted
        there looks (without it, such a decision knows nothing); a decision fitted on the whole
        picture looks at all of it."""
        if clear.shape != now.shape:
            return False
        if self.beyond_the_cells and (beyond is None or beyond.shape != now.shape[:2]):
            return False  # fitted beyond the cells: the whole picture is no evidence it knows
        where = beyond if self.beyond_the_cells else None
        return bool(change_since(clear, now, (self.level,), where)[0] < self.bound)

    def save(self, path: Path | str) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=1) + "\n")

    @classmethod
    def load(cls, path: Path | str = STILLNESS_FILE) -> StillnessDecision:
        data = json.loads(Path(path).read_text())
        return cls(float(data["level"]), float(data["bound"]), dict(data.get("info", {})),
                   bool(data.get("beyond_the_cells", False)))


@cache
def stillness_decision() -> StillnessDecision:
    """The fitted decision on the whole picture (:data:`STILLNESS_FILE`), read once."""
    return StillnessDecision.load()


@cache
def stillness_beyond_decision() -> StillnessDecision:
    """The fitted decision beyond the playing area (:data:`STILLNESS_BEYOND_FILE`), read once."""
    return StillnessDecision.load(STILLNESS_BEYOND_FILE)

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
level. The level and the bound on that region's size are fitted (:mod:`vision.synthetic.fit_stillness`
on filmed games, kept in ``vision/models/stillness.json``): every hand that reached the cells in
the fit's games is above the bound, with room.
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
#: The levels (log light, after the light's field is taken out) the fit chooses among.
LEVELS = (0.03, 0.04, 0.05, 0.065, 0.08, 0.1, 0.13, 0.17, 0.22)
#: Blocks across the picture's longer side over which the light's field is taken (its median in
#: each): a lamp's gradient, a person's soft shadow or a patch of glare spans several, a hand's
#: reach into the picture is about one wide.
LIGHT_BLOCKS = 8

_LOG_BYTE = np.log(np.arange(256, dtype=np.float32) + 6.0)


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


def change_since(clear: np.ndarray, now: np.ndarray, levels: tuple[float, ...] = LEVELS) -> np.ndarray:
    """The evidence: for each level, the largest connected region of :func:`residual` above it,
    as a share of the picture."""
    left = residual(clear, now)
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
    (a share of the picture); ``info``: what it was fitted on."""

    level: float
    bound: float
    info: dict[str, Any] = field(default_factory=dict)

    def nothing_came_in(self, clear: np.ndarray, now: np.ndarray) -> bool:
        """Whether ``now`` differs from the ``clear`` frame (both :func:`log_picture`) by the light
        alone (not when the camera's picture changed size: nothing is known then)."""
        if clear.shape != now.shape:
            return False
        return bool(change_since(clear, now, (self.level,))[0] < self.bound)

    def save(self, path: Path | str) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=1) + "\n")

    @classmethod
    def load(cls, path: Path | str = STILLNESS_FILE) -> StillnessDecision:
        data = json.loads(Path(path).read_text())
        return cls(float(data["level"]), float(data["bound"]), dict(data.get("info", {})))


@cache
def stillness_decision() -> StillnessDecision:
    """The fitted decision (:data:`STILLNESS_FILE`), read once."""
    return StillnessDecision.load()

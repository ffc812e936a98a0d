"""A Pi camera on held controls, over a rendered board in a room whose light can change.

Why: steering the held exposure and colour gains (:mod:`vision.hold_keeper`) must be checked
against a camera that answers them the way a real one does, and there is no Pi camera off a Pi.
The sensor is linear in light, exposure and analogue gain; the colour gains scale red and blue
against green; then the picture is gamma-encoded (:data:`GAMMA`), so a picture's log value moves
by 1 / 2.2 of the log of exposure, as a Raspberry Pi's tone curve does near mid-grey. New
controls take effect :data:`DELAY` frames after they are set, as libcamera's do.

At the values the camera held at calibration (:attr:`HeldCamera.calibrated`) its pictures are
the renderer's own: the rendered light is what the camera made of the room then. A change of
the room's light is a new :class:`~vision.synthetic.effects.Effects` (:attr:`HeldCamera.room`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from calibration.camera_hold import CameraHold
from vision.camera_sources import CameraLost, SyntheticSource
from vision.synthetic.effects import Effects, lit, sensor
from vision.synthetic.render import Rendered

#: The picture's gamma (sRGB's is about 2.2).
GAMMA = 2.2
#: Frames between setting controls and the pictures showing them.
DELAY = 2
#: What a Camera Module 3 might hold in a lit room (picamera2's metadata names).
CALIBRATED = CameraHold("picamera2", {"ExposureTime": 12_000.0, "AnalogueGain": 2.0,
                                      "ColourGains": (1.9, 1.6), "LensPosition": 3.0})


class HeldCamera(SyntheticSource):
    """A camera held at :attr:`calibrated`'s values until told others (``apply_hold``), filming
    ``board`` (a clean render: no light, noise or hand) in the ``room``'s light; ``gamma``: its
    tone curve's (cameras differ, and the steering does not know it).

    ``board`` and ``room`` may be replaced between frames (a play; the light changing).
    """

    def __init__(self, board: Rendered, room: Effects, seed: int = 0,
                 calibrated: CameraHold = CALIBRATED, gamma: float = GAMMA) -> None:
        super().__init__(self._draw, name="held camera over a rendered board")
        self.board, self.room, self.calibrated, self.gamma = board, room, calibrated, gamma
        self._rng = np.random.default_rng([seed, 0xCA3])
        self._held = calibrated
        self._queued: list[tuple[int, CameraHold]] = []
        self._lit: tuple[Rendered, Effects, np.ndarray] | None = None

    def hold(self) -> CameraHold:
        """The values in force (picamera2's metadata reports them)."""
        return self._held

    def apply_hold(self, hold: CameraHold) -> bool:
        if hold.driver != "picamera2":
            return False
        self._queued.append((self.frame_number + DELAY, hold))
        return True

    def release_hold(self) -> None:
        raise CameraLost("the held camera has no automatic controls")

    def gains(self) -> np.ndarray:
        """The picture's multiplier per channel (B, G, R) against calibration's, after gamma."""
        now, then = self._held.values, self.calibrated.values

        def product(values: object) -> float:
            assert isinstance(values, dict)
            return float(values["ExposureTime"]) * float(values.get("AnalogueGain", 1.0))

        overall = product(now) / product(then)
        red, blue = (n / t for n, t in zip(now["ColourGains"], then["ColourGains"], strict=True))  # type: ignore[arg-type]
        return np.array([overall * blue, overall, overall * red], np.float32) ** (1.0 / self.gamma)

    def _draw(self, frame_number: int) -> np.ndarray:
        while self._queued and self._queued[0][0] <= frame_number:
            self._held = self._queued.pop(0)[1]
        fx = replace(self.room, hand=None, noise_seed=None)
        if self._lit is None or self._lit[0] is not self.board or self._lit[1] != fx:
            self._lit = (self.board, fx, lit(self.board.image, fx))
        exposed = self._lit[2] * self.gains()[None, None, :]
        return sensor(exposed, replace(self.room, noise_seed=int(self._rng.integers(0, 2**31 - 1))))

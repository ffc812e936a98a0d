"""Keeping the camera's held controls right when the room's light changes for good.

The camera's exposure, gain and white balance are held at calibration's values
(:mod:`calibration.camera_hold`) so that a board covered by light tiles does not re-expose the
picture. But a room's light does change for good — evening falls, a lamp is switched on — and
then every picture is darker or warmer than the board's learnt look, and stays so. The reader
copes with that, at a cost: more cells in doubt.

The board's surround (its frame and the table beside it) is never covered by tiles, so how it
looks against the calibration picture is the light's change alone
(:func:`vision.appearance.surround_gains`). :class:`HoldKeeper` watches that change on steady
pictures; once it has stayed beyond the tolerance for :attr:`KeeperPolicy.lasting` seconds (a
passing cloud or someone's shadow does not), it steers the held values back to the look of
calibration (:func:`vision.camera_controls.steer_hold`), measures the result and steers again,
learning from each step how strongly this camera's pictures answer its exposure. The camera's
own automatic controls are not used for this: they would meter on the tiles, which is what
holding them avoids.

Pure logic with the time injected: the kiosk feeds it (``kiosk.camera.held_light``), tests feed
numbers or rendered pictures.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from calibration.camera_hold import CameraHold
from vision.camera_controls import steer_hold


@dataclass(frozen=True)
class KeeperPolicy:
    """When the light counts as changed for good, and how the keeper steers.

    ``brightness``, ``colour``: the log change of the surround's overall light and of its red or
    blue against green beyond which the light has changed (the reader copes with far more, x0.6 to
    x1.6, but doubts more cells the further the light is from calibration's); ``lasting``: seconds
    it must stay changed on every look; ``look_every``: seconds between looks while waiting;
    ``settle_frames``: steady pictures after a change of the controls before its effect is
    measured (a Pi camera applies new controls a few frames late); ``steps``: the most steering
    steps in one go; ``response``: the first guess at how far a picture's log value moves per log
    of exposure (a gamma-encoded picture: about 1 / 2.2); ``retry``: seconds before trying again
    after steering could not bring the light back (doubled each time, up to ``retry_most``)."""

    brightness: float = math.log(1.15)
    colour: float = math.log(1.08)
    lasting: float = 120.0
    look_every: float = 1.0
    settle_frames: int = 6
    steps: int = 5
    response: float = 0.45
    retry: float = 600.0
    retry_most: float = 3600.0


@dataclass(frozen=True)
class HoldChange:
    """What the keeper asks for: put the camera on ``hold``; ``final``: steering is over, so the
    hold is the one to keep in the calibration (``settled`` False: the light could not be brought
    within tolerance, and this is the nearest the steps came)."""

    hold: CameraHold
    final: bool = False
    settled: bool = True


def departure(change: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """The overall log change and the larger of red's and blue's against green, of a change in
    log gain per channel (B, G, R)."""
    b, g, r = (float(v) for v in change)
    return (b + g + r) / 3.0, max(abs(r - g), abs(b - g))


class HoldKeeper:
    """Watches the light's change on steady pictures and steers the held controls after a lasting one.

    ``look(change, now)`` once per steady picture (``change``: the surround's log gain per channel
    against calibration, None when it could not be measured); it returns a :class:`HoldChange`
    when the camera should be put on other values, else None.
    """

    def __init__(self, hold: CameraHold, policy: KeeperPolicy | None = None) -> None:
        self.hold = hold
        self.policy = policy or KeeperPolicy()
        self.response = self.policy.response
        self._since: float | None = None
        self._last_look = -math.inf
        self._not_before = -math.inf
        self._retry = self.policy.retry
        # while steering: steady pictures still to wait, and the overall change the step took on
        self._waiting: int | None = None
        self._asked = 0.0
        self._steps = 0
        self._best: tuple[float, CameraHold] | None = None
        self._started = -math.inf

    @property
    def steering(self) -> bool:
        return self._waiting is not None

    def due(self, now: float) -> bool:
        """Whether :meth:`look` would use a picture now (the caller may skip measuring one)."""
        return self.steering or now - self._last_look >= self.policy.look_every

    def _outside(self, change: Sequence[float], scale: float = 1.0) -> bool:
        overall, colour = departure(change)
        return abs(overall) > self.policy.brightness * scale or colour > self.policy.colour * scale

    def _badness(self, change: Sequence[float]) -> float:
        overall, colour = departure(change)
        return max(abs(overall) / self.policy.brightness, colour / self.policy.colour)

    def look(self, change: Sequence[float] | np.ndarray | None, now: float) -> HoldChange | None:
        if change is None or not np.all(np.isfinite(np.asarray(change, float))):
            return None
        if self.steering:
            return self._steer(change)
        if not self.due(now):
            return None
        self._last_look = now
        if not self._outside(change):
            self._since = None
            return None
        if self._since is None:
            self._since = now
        if now - self._since < self.policy.lasting or now < self._not_before:
            return None
        self._steps, self._best, self._started = 0, None, now
        return self._step(change)

    def _step(self, change: Sequence[float]) -> HoldChange:
        """Steer once from ``change`` and wait for its effect."""
        self._steps += 1
        self._asked = departure(change)[0]
        self.hold = steer_hold(self.hold, change, self.response)
        self._waiting = self.policy.settle_frames
        return HoldChange(self.hold)

    def _steer(self, change: Sequence[float]) -> HoldChange | None:
        assert self._waiting is not None
        self._waiting -= 1
        if self._waiting > 0:
            return None
        badness = self._badness(change)
        if self._best is None or badness < self._best[0]:
            self._best = (badness, self.hold)
        asked = self._asked
        moved = asked - departure(change)[0]
        if abs(asked) > 0.02 and abs(moved) > 0.01 and moved * asked > 0:
            # the step took all of ``asked`` on at the response assumed and moved the picture by
            # ``moved``: the camera's own response is the assumed one scaled by their ratio
            self.response = float(np.clip(self.response * moved / asked, 0.15, 2.0))
        if not self._outside(change, 0.5) or self._steps >= self.policy.steps:
            return self._finish(settled=not self._outside(change))
        return self._step(change)

    def _finish(self, settled: bool) -> HoldChange:
        assert self._best is not None
        self._waiting, self._since = None, None
        if settled:
            self._retry = self.policy.retry
        else:  # the camera could not follow (a limit reached, or the surround itself changed)
            self.hold = self._best[1]
            self._not_before = self._started + self._retry
            self._retry = min(2 * self._retry, self.policy.retry_most)
        return HoldChange(self.hold, final=True, settled=settled)

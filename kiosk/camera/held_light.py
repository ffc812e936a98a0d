"""The kiosk's side of keeping the held camera controls right for the room's light.

:class:`vision.hold_keeper.HoldKeeper` decides; this measures the light on the board's surround
in steady pictures, puts the camera on the values the keeper asks for, and keeps the final ones
in the calibration file, so the next start holds them. Everything it does is logged in plain
words; a calibration file it cannot write is logged and the camera keeps the new values until
the kiosk stops (nothing else in the file is touched).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from calibration.camera_hold import CameraHold
from calibration.file import Calibration, CalibrationError, load_calibration, save_calibration
from vision.hold_keeper import HoldChange, HoldKeeper, KeeperPolicy, departure

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)


class HeldLight:
    """Feeds the keeper, steers the camera and keeps the result.

    ``measure(frame)``: the light's log gain per channel (B, G, R) on the surround against the
    calibration picture, or None; ``apply(hold)``: put the camera on it (False: it did not take
    it); ``keep(hold)``: store it for the next start.
    """

    def __init__(self, keeper: HoldKeeper, measure: Callable[[np.ndarray], np.ndarray | None],
                 apply: Callable[[CameraHold], bool], keep: Callable[[CameraHold], None]) -> None:
        self.keeper, self.measure, self.apply, self.keep = keeper, measure, apply, keep
        self._calibrated = keeper.hold
        #: The camera refused steered values once: it is not steered again until the kiosk restarts.
        self.refused = False

    @property
    def hold(self) -> CameraHold:
        """The values the camera should be on now (a camera opened again is put on them)."""
        return self._calibrated if self.refused else self.keeper.hold

    def look(self, frame: np.ndarray, now: float) -> HoldChange | None:
        """One steady picture with no hand over the board; the change asked for, if any."""
        if self.refused or not self.keeper.due(now):
            return None
        change = self.measure(frame)
        was_steering = self.keeper.steering
        asked = self.keeper.look(change, now)
        if asked is None:
            return None
        if not was_steering:
            overall, colour = departure(change) if change is not None else (0.0, 0.0)
            log.info("the room's light has stayed %s since calibration (surround x%.2f, colour off by "
                     "%.0f %%): steering the camera's held exposure and white balance back",
                     "darker" if overall < 0 else "brighter", math.exp(overall), 100 * colour)
        if not self.apply(asked.hold):  # nothing is kept of values the camera never took
            log.warning("the camera does not take held controls; its light is not steered until the kiosk "
                        "restarts")
            self.refused = True
            return None
        if asked.final:
            if asked.settled:
                log.info("the camera's held controls now give calibration's look again: %s",
                         _values(asked.hold))
            else:
                log.warning("the camera could not be brought back to calibration's look (the nearest: %s); "
                            "calibrate again if the board reads worse than before", _values(asked.hold))
            self.keep(asked.hold)
        return asked


def _values(hold: CameraHold) -> str:
    def number(v: float | tuple[float, ...]) -> str:
        return f"{v:.4g}" if isinstance(v, float) else "(" + ", ".join(f"{x:.4g}" for x in v) + ")"

    return ", ".join(f"{name} {number(v)}" for name, v in hold.values.items())


def keep_in(cal_path: Path, cal: Calibration) -> Callable[[CameraHold], None]:
    """Store a steered hold in the calibration file ``cal`` was read from, unless the file now
    describes another calibration (the board was calibrated again meanwhile: its hold wins)."""

    def keep(hold: CameraHold) -> None:
        try:
            now = load_calibration(cal_path)
            if now.corners != cal.corners or now.camera_hold is None or now.camera_hold.driver != hold.driver:
                log.info("the calibration changed meanwhile; the steered camera controls are not kept")
                return
            save_calibration(replace(now, camera_hold=hold), cal_path)
        except CalibrationError as exc:
            log.warning("could not keep the steered camera controls (%s); they hold until the kiosk stops",
                        exc)

    return keep


def held_light(cal: Calibration, cal_path: Path, measure: Callable[[np.ndarray], np.ndarray | None],
               apply: Callable[[CameraHold], bool], policy: KeeperPolicy | None = None) -> HeldLight | None:
    """The keeper for a calibration that holds the camera's controls; None when it holds none
    (a calibration made from a photo file: the camera's automatic controls stay on)."""
    if cal.camera_hold is None:
        return None
    return HeldLight(HoldKeeper(cal.camera_hold, policy), measure, apply, keep_in(cal_path, cal))

"""Every way the camera can fail, as "camera unavailable: <reason>" and the one fix that helps.

The camera is a helper, never a reason for the kiosk to stop: whatever goes wrong while
importing the camera stack (picamera2 built for another numpy — "numpy.dtype size changed"
— a missing OpenCV library, ...), opening it, or reading from it, the kiosk says so and
referees by touch. Two parts:

- :func:`explain` turns any exception into a plain reason and the fix (shared with
  ``tablekeeper doctor``, so the screen and doctor say the same thing);
- :class:`TimedSource` puts a time limit on each frame: ``Picamera2.capture_array`` waits
  forever for a camera that died mid-request, which would hang the reader thread for good
  without the watchdog (which watches the UI loop) ever noticing.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from calibration.camera_hold import CameraHold
    from kiosk.camera.lane import Lane
    from vision.camera_sources import CameraSource

log = logging.getLogger(__name__)

#: A frame slower than this means the camera stopped answering (frames come every ~0.1 s).
READ_TIMEOUT = 5.0

REINSTALL = (
    "re-run the installer: sudo systemd/install-pi.sh  (it installs numpy<2 and OpenCV 4.11 "
    "in the kiosk's Python, matching the numpy 1.24 that Raspberry Pi OS builds picamera2 for)"
)
_NUMPY_MISMATCH = (
    "numpy.dtype size changed",
    "_array_api not found",
    "numpy.core.multiarray failed to import",
    "compiled using numpy 1.x cannot be run",
    "module compiled against api version",
    "numpy.core._multiarray_umath",
)


def explain(exc: BaseException) -> tuple[str, str]:
    """(reason, fix) for a camera failure; the reason is short enough for the banner."""
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    low = str(exc).lower()
    if any(marker in low for marker in _NUMPY_MISMATCH):
        return f"picamera2 and numpy do not match ({_first_line(exc)})", REINSTALL
    if isinstance(exc, ModuleNotFoundError) and exc.name in ("picamera2", "libcamera", "simplejpeg"):
        return (
            f"{exc.name} is not installed",
            "sudo apt install python3-picamera2  (the kiosk's Python must see the system packages: "
            "re-run sudo systemd/install-pi.sh)",
        )
    if isinstance(exc, ImportError) and ("libGL" in str(exc) or "libgthread" in str(exc)):
        return f"OpenCV cannot load ({_first_line(exc)})", "sudo apt install libgl1 libglib2.0-0"
    if isinstance(exc, ImportError):
        return f"the camera software does not load ({_first_line(exc)})", REINSTALL
    if isinstance(exc, TimeoutError):
        return (
            str(exc) or "the camera stopped answering",
            "check the camera's ribbon cable (power off first), then: sudo systemctl restart tablekeeper",
        )
    return (
        _first_line(exc) or text,
        "tablekeeper doctor  (it tries the camera and says what is wrong)",
    )


def sentence(exc: BaseException) -> str:
    """What the banner says: the reason, that play goes on, and the fix."""
    reason, fix = explain(exc)
    return f"Camera unavailable: {reason}. The kiosk referees by touch. Fix: {fix}"


def import_failure(module: str = "picamera2") -> BaseException | None:
    """Why ``module`` does not import (the real exception), or None when it does.

    The camera layer reports a picamera2 that fails to import as "not installed"; this
    finds the true cause (a numpy mismatch raises ImportError or ValueError inside it).
    """
    import importlib

    try:
        importlib.import_module(module)
    except Exception as exc:
        return exc
    return None


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0].strip() if lines else type(exc).__name__


class TimedSource:
    """A camera source whose ``read`` gives up after ``timeout`` seconds.

    Reads run on a :class:`~kiosk.camera.lane.Lane` (the kiosk's one picture lane unless
    another is given). A read that times out raises the source's own ``CameraLost`` (so
    ``ResilientCamera`` drops the source and retries a fresh one with its back-off); while
    that read stays stuck every further read, of this source or a fresh one, is refused at
    once without a new thread, so retries never pile up stuck threads.
    """

    def __init__(
        self, source: CameraSource, timeout: float = READ_TIMEOUT, lost: type[Exception] = RuntimeError,
        lane: Lane | None = None,
    ) -> None:
        from kiosk.camera.lane import CAPTURE

        self.source = source
        self.timeout = timeout
        self._lost = lost
        self._lane = CAPTURE if lane is None else lane

    def read(self) -> np.ndarray:
        from kiosk.camera.lane import DidNotAnswer, StillStuck

        try:
            return self._lane.call(self.source.read, self.timeout, "a picture request")
        except StillStuck as exc:
            raise self._lost(str(exc)) from None
        except DidNotAnswer:
            raise self._lost(f"no picture for {self.timeout:g} s: the camera stopped answering") from None
        except Exception as exc:
            if isinstance(exc, self._lost):
                raise
            raise self._lost(explain(exc)[0]) from exc  # a ValueError from a driver, ...

    def close(self) -> None:
        """Release the camera; a driver that hangs here too (or is stuck reading) is left behind."""
        from kiosk.camera.lane import DidNotAnswer

        try:
            self._lane.call(self.source.close, self.timeout, "closing the camera")
        except DidNotAnswer as exc:
            log.error("closing the camera: %s; left behind", exc)
        except Exception:
            log.exception("closing the camera")

    def describe(self) -> str:
        return self.source.describe()

    def apply_hold(self, hold: CameraHold) -> bool:
        """Put the camera on held values (False when it has none to hold), within the deadline."""
        apply = getattr(self.source, "apply_hold", None)
        if apply is None:
            return False
        return bool(self._lane.call(lambda: apply(hold), self.timeout, "setting the camera's controls"))

    def __enter__(self) -> TimedSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

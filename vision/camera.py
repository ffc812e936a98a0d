"""The kiosk's camera: choosing a source, and riding out a camera that drops away.

A referee must not stop refereeing because a USB cable wobbled. :class:`ResilientCamera`
wraps any :class:`~vision.camera_sources.CameraSource` factory: while the camera works,
``read()`` returns frames and ``status`` is ``"ok"``; when it fails, ``read()`` returns
``None``, ``status`` says ``"lost: <why, in plain words>"`` (shown on the kiosk, which
carries on by touch), and the camera is reopened with a growing pause between tries (0.5 s,
1 s, 2 s ... at most 10 s) measured on an injected clock, so tests and the UI loop decide
what time it is. Nothing here sleeps.

Example::

    import time
    from vision.camera import ResilientCamera, open_camera

    camera = ResilientCamera(lambda: open_camera("auto").require(), clock=time.monotonic)
    frame = camera.read()          # a BGR frame, or None while the camera is lost
    print(camera.status)           # "ok" or "lost: no camera at /dev/video0 (unplugged ...)"
    camera.close()

:func:`open_camera` picks the source: ``"auto"`` is the Pi camera on a Raspberry Pi, else the
first USB camera that opens, else nothing, with the reason.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

import numpy as np

from calibration.camera_hold import CameraHold
from vision.camera_sources import (
    DEFAULT_SIZE,
    CameraLost,
    CameraSource,
    OpenCVCaptureSource,
    Picamera2Source,
    ReplaySource,
    SyntheticSource,
)

__all__ = [
    "CameraChoice",
    "CameraLost",
    "CameraSource",
    "OpenCVCaptureSource",
    "Picamera2Source",
    "ReplaySource",
    "ResilientCamera",
    "SyntheticSource",
    "is_raspberry_pi",
    "open_camera",
]

log = logging.getLogger(__name__)

#: Pauses (seconds) before each successive retry of a lost camera; the last repeats.
BACKOFF: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0, 10.0)


class ResilientCamera:
    """A camera that reports being lost instead of failing, and comes back by itself.

    ``factory``: opens the source (raises :class:`CameraLost` or ``OSError`` when it cannot);
    ``clock``: seconds, monotonic (``time.monotonic`` in the kiosk, a number in tests);
    ``backoff``: the pauses between reopening tries. The first try is made at once.
    """

    def __init__(self, factory: Callable[[], CameraSource], clock: Callable[[], float],
                 backoff: Sequence[float] = BACKOFF) -> None:
        if not backoff or any(b < 0 for b in backoff):
            raise ValueError("backoff needs at least one pause, none negative")
        self._factory = factory
        self._clock = clock
        self._backoff = tuple(backoff)
        self._source: CameraSource | None = None
        self._failures = 0
        self._next_try = clock()
        self._status = "lost: not opened yet"
        self._closed = False
        self.frames = 0
        # The kiosk reads on a worker thread and closes from the UI thread: never mid-read.
        self._lock = threading.RLock()
        self._try_open()

    # -- public ---------------------------------------------------------------------------------
    @property
    def status(self) -> str:
        """``"ok"``, ``"lost: <reason>"`` or ``"closed"``."""
        return "closed" if self._closed else self._status

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def next_try(self) -> float | None:
        """When (on the clock) the lost camera will be tried again; None when it is not lost."""
        return None if self._source is not None or self._closed else self._next_try

    def describe(self) -> str:
        return self._source.describe() if self._source is not None else "no camera"

    def apply_hold(self, hold: CameraHold) -> bool:
        """Put the open camera on held exposure, white balance and focus; False when none is open,
        it has nothing to hold, or its driver refused (the refusal is logged, the camera kept)."""
        with self._lock:
            apply = getattr(self._source, "apply_hold", None)
            if apply is None:
                return False
            try:
                return bool(apply(hold))
            except Exception as exc:  # a driver's refusal, of whatever kind
                log.warning("the camera refused its held controls: %s", exc)
                return False

    def read(self) -> np.ndarray | None:
        """One frame, or None while the camera is lost (then see ``status``)."""
        with self._lock:
            return self._read()

    def _read(self) -> np.ndarray | None:
        if self._closed:
            return None
        if self._source is None:
            if self._clock() < self._next_try:
                return None
            if not self._try_open():
                return None
        assert self._source is not None
        try:
            frame = self._source.read()
        except CameraLost as exc:
            self._lose(str(exc))
            return None
        except (OSError, RuntimeError) as exc:  # driver failures reach us under many names
            self._lose(f"the camera failed ({exc})")
            return None
        self._failures = 0
        self._status = "ok"
        self.frames += 1
        return frame

    def close(self) -> None:
        """Release the camera; safe to call twice, and from another thread than the reader's."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._drop()

    def __enter__(self) -> ResilientCamera:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ResilientCamera {self.status}>"

    # -- inside ---------------------------------------------------------------------------------
    def _try_open(self) -> bool:
        try:
            self._source = self._factory()
        except (CameraLost, OSError, RuntimeError) as exc:
            self._source = None
            self._schedule(str(exc) or type(exc).__name__)
            return False
        self._status = "ok"
        return True

    def _lose(self, reason: str) -> None:
        log.warning("camera lost: %s", reason)
        self._drop()
        self._schedule(reason)

    def _schedule(self, reason: str) -> None:
        pause = self._backoff[min(self._failures, len(self._backoff) - 1)]
        self._failures += 1
        self._next_try = self._clock() + pause
        self._status = f"lost: {reason}"

    def _drop(self) -> None:
        source, self._source = self._source, None
        if source is not None:
            try:
                source.close()
            except Exception:  # a dying driver may fail to close; the camera is gone either way
                log.exception("closing the lost camera")


# ------------------------------------------------------------------ choosing a source
class CameraChoice(NamedTuple):
    """What :func:`open_camera` found: the source, or None and the reason."""

    source: CameraSource | None
    reason: str

    def require(self) -> CameraSource:
        """The source, or :class:`CameraLost` with the reason (for ResilientCamera factories)."""
        if self.source is None:
            raise CameraLost(self.reason)
        return self.source


def is_raspberry_pi(model_file: str | os.PathLike[str] = "/proc/device-tree/model") -> bool:
    try:
        return "raspberry pi" in Path(model_file).read_text("utf-8", "replace").lower()
    except OSError:
        return False


def _video_devices(dev: Path) -> list[str]:
    def number(p: Path) -> int:
        digits = p.name[len("video"):]
        return int(digits) if digits.isdigit() else 10**6

    return [str(p) for p in sorted(dev.glob("video*"), key=number)]


def open_camera(kind: str = "auto", size: tuple[int, int] = DEFAULT_SIZE, dev: str | os.PathLike[str] = "/dev"
                ) -> CameraChoice:
    """Open the camera the settings name (``[camera] source``).

    ``kind``: ``"auto"`` (the Pi camera on a Pi, else the first USB camera that opens),
    ``"picamera2"``, ``"usb"`` (the first USB camera), ``"usb:N"`` or a device path
    (``/dev/video2``), ``"none"``, or the path of a recording (folder of pictures or video).
    Never raises for a missing camera: the reason comes back instead.
    """
    kind = (kind or "auto").strip()
    low = kind.lower()
    if low == "none":
        return CameraChoice(None, "the camera is switched off in the settings")
    if low == "picamera2":
        return _try(lambda: Picamera2Source(size))
    if low.startswith("usb:") and low[4:].isdigit():
        return _try(lambda: OpenCVCaptureSource(int(low[4:]), size))
    if kind.startswith("/dev/"):
        return _try(lambda: OpenCVCaptureSource(kind, size))
    if low in ("auto", "usb"):
        reasons = []
        if low == "auto" and is_raspberry_pi():
            choice = _try(lambda: Picamera2Source(size))
            if choice.source is not None:
                return choice
            reasons.append(choice.reason)
        devices = _video_devices(Path(dev))
        for device in devices:
            choice = _try(partial(OpenCVCaptureSource, device, size))
            if choice.source is not None:
                return choice
        reasons.append("no USB camera opens" if devices else f"no USB camera ({dev}/video* is empty)")
        if low == "auto" and not is_raspberry_pi():
            reasons.insert(0, "not a Raspberry Pi")
        return CameraChoice(None, "; ".join(reasons))
    if Path(kind).exists():
        return _try(lambda: ReplaySource(kind))
    return CameraChoice(None, f"camera source {kind!r} is not auto, picamera2, usb, usb:N, none, "
                              "a /dev/video device or a recording that exists")


def _try(opener: Callable[[], CameraSource]) -> CameraChoice:
    try:
        source = opener()
    except (CameraLost, OSError, RuntimeError) as exc:
        return CameraChoice(None, str(exc))
    return CameraChoice(source, "")

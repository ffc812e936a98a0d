"""The places frames come from: the Pi camera, a USB camera, a recording, or a renderer.

Every source has the same small shape (:class:`CameraSource`): ``read()`` returns one BGR
frame (``uint8``, height x width x 3) or raises :class:`CameraLost` with a plain reason;
``close()`` releases the device and is safe to call twice; ``describe()`` says in a few
words what it is; each is a context manager. The kiosk never talks to a driver directly, so
it runs (and is tested) on a laptop with a recording in place of the camera, the way
gpiozero's devices run on mock pins. :class:`vision.camera.ResilientCamera` wraps any of
them to survive a camera that drops out.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import ClassVar, Protocol, Self, runtime_checkable

import cv2
import numpy as np

from calibration.camera_hold import CameraHold
from vision.camera_controls import (
    V4L2_PROPERTIES,
    picamera2_automatic,
    picamera2_controls,
    picamera2_hold,
    v4l2_apply,
    v4l2_hold,
)

#: Picture files a replay folder may hold (what cv2.imread reads).
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})
DEFAULT_SIZE = (1024, 768)


class CameraLost(RuntimeError):
    """The source gave no picture; the message says why in plain words."""


@runtime_checkable
class CameraSource(Protocol):
    """Anything frames can be read from."""

    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...

    def describe(self) -> str: ...

    def __enter__(self) -> CameraSource: ...

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...


class _Source:
    """Context manager and twice-safe close for every source."""

    closed = False

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._release()

    def _release(self) -> None:
        """Free the device; called once."""

    def _check_open(self) -> None:
        if self.closed:
            raise CameraLost(f"{self.describe()} is closed")

    def describe(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{self.describe()}{' (closed)' if self.closed else ''}>"


def _bgr(frame: np.ndarray) -> np.ndarray:
    """Frames as 3-channel BGR uint8 whatever the file held (grey, alpha)."""
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame


class Picamera2Source(_Source):
    """The Raspberry Pi camera through picamera2 (only importable on a Pi).

    The main stream is configured as ``RGB888``, which libcamera lays out B, G, R in memory:
    numpy sees it as BGR, exactly what OpenCV wants, with no conversion per frame. Cameras
    with autofocus (Camera Module 3) are put in continuous autofocus until :meth:`hold` holds
    the lens (and exposure and white balance) where it settled at calibration.

    Example::

        with Picamera2Source(size=(1024, 768)) as cam:
            frame = cam.read()
    """

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, camera_num: int = 0) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraLost("picamera2 is not installed (it comes with Raspberry Pi OS: "
                             "sudo apt install python3-picamera2)") from exc
        self.size = size
        self.camera_num = camera_num
        try:
            self._cam = Picamera2(camera_num)
        except (IndexError, RuntimeError, OSError) as exc:
            raise CameraLost(f"no Pi camera {camera_num} ({exc}); check the ribbon cable") from exc
        try:
            config = self._cam.create_video_configuration(main={"size": tuple(size), "format": "RGB888"})
            self._cam.configure(config)
            self._cam.start()
            if "AfMode" in self._cam.camera_controls:
                from libcamera import controls

                self._cam.set_controls({"AfMode": controls.AfModeEnum.Continuous})
        except Exception as exc:  # libcamera raises many kinds; all mean "this camera is unusable"
            self._cam.close()
            raise CameraLost(f"the Pi camera would not start ({exc})") from exc

    def hold(self) -> CameraHold:
        """Hold exposure, gain, white balance and focus where the automatic controls have
        settled (call after a few pictures); the values, for the calibration."""
        self._check_open()
        held = picamera2_hold(self._cam.capture_metadata())
        self.apply_hold(held)
        return held

    def apply_hold(self, hold: CameraHold) -> bool:
        """Put the camera on held values (a hold for another driver changes nothing)."""
        self._check_open()
        controls = picamera2_controls(hold, self._cam.camera_controls)
        if controls:
            self._cam.set_controls(controls)
        return bool(controls)

    def release_hold(self) -> None:
        """Automatic exposure, white balance and focus again (before settling anew)."""
        self._check_open()
        self._cam.set_controls(picamera2_automatic(self._cam.camera_controls))

    def read(self) -> np.ndarray:
        self._check_open()
        try:
            frame = self._cam.capture_array("main")
        except Exception as exc:  # a timed-out or dead request: the camera is lost
            raise CameraLost(f"the Pi camera stopped giving pictures ({exc})") from exc
        return _bgr(frame)

    def _release(self) -> None:
        try:
            self._cam.stop()
        finally:
            self._cam.close()

    def describe(self) -> str:
        return f"Pi camera {self.camera_num} at {self.size[0]}x{self.size[1]}"


class OpenCVCaptureSource(_Source):
    """A USB (UVC) camera, or anything else cv2.VideoCapture opens, by index or device path."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] | None = DEFAULT_SIZE) -> None:
        self.device = device
        self._cap = cv2.VideoCapture(device)
        if not self._cap.isOpened():
            self._cap.release()
            self.closed = True
            raise CameraLost(f"no camera at {self._name()} (unplugged, or in use by another program?)")
        if size is not None:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def _name(self) -> str:
        return f"/dev/video{self.device}" if isinstance(self.device, int) else str(self.device)

    def hold(self) -> CameraHold | None:
        """Hold the camera's exposure, gain, white balance and focus where they are now (V4L2
        cameras; None for anything else OpenCV opens)."""
        self._check_open()
        held = v4l2_hold(self._cap)
        if held is not None:
            self.apply_hold(held)
        return held

    def apply_hold(self, hold: CameraHold) -> bool:
        self._check_open()
        return hold.driver == "v4l2" and bool(v4l2_apply(self._cap, hold))

    def release_hold(self) -> None:
        self._check_open()
        for _prop, auto, _manual in V4L2_PROPERTIES.values():
            if auto is not None:
                self._cap.set(auto, 3 if auto == cv2.CAP_PROP_AUTO_EXPOSURE else 1)

    def read(self) -> np.ndarray:
        self._check_open()
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraLost(f"the camera at {self._name()} gave no picture (unplugged?)")
        return _bgr(frame)

    def _release(self) -> None:
        self._cap.release()

    def describe(self) -> str:
        return f"USB camera {self._name()}"


class ReplaySource(_Source):
    """Frames from a folder of pictures (in name order) or a video file, looped by default.

    For demos, tests and bug reports: a game recorded once is refereed again. A folder is
    listed afresh when it is read from the start, so pictures added meanwhile join in, and a
    folder that disappears (a USB stick pulled) is a lost camera rather than a crash.
    """

    VIDEO_SUFFIXES: ClassVar[frozenset[str]] = frozenset({".mp4", ".avi", ".mkv", ".mov", ".mjpeg", ".webm"})

    def __init__(self, path: str | os.PathLike[str], loop: bool = True) -> None:
        self.path = Path(path)
        self.loop = loop
        self._cap: cv2.VideoCapture | None = None
        self._files: list[Path] = []
        self._index = 0
        if not self.path.exists():
            raise CameraLost(f"there is no recording at {self.path}")
        self.is_video = self.path.is_file()
        if self.is_video:
            self._open_video()
        else:
            self._list()

    def _open_video(self) -> None:
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            cap.release()
            raise CameraLost(f"{self.path} is not a video OpenCV can play")
        self._cap = cap

    def _list(self) -> None:
        try:
            files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        except FileNotFoundError:
            raise CameraLost(f"the folder {self.path} is gone") from None
        except NotADirectoryError:
            raise CameraLost(f"{self.path} is neither a folder of pictures nor a video") from None
        except OSError as exc:
            raise CameraLost(f"cannot read the folder {self.path}: {exc.strerror or exc}") from None
        if not files:
            raise CameraLost(f"the folder {self.path} holds no pictures")
        self._files = files
        self._index = 0

    def read(self) -> np.ndarray:
        self._check_open()
        return self._read_video() if self.is_video else self._read_picture()

    def _read_picture(self) -> np.ndarray:
        if self._index >= len(self._files):
            if not self.loop:
                raise CameraLost(f"the end of the recording in {self.path}")
            self._index = 0
        if self._index == 0:
            self._list()  # each pass lists the folder afresh
        path = self._files[self._index]
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            if not self.path.is_dir():
                raise CameraLost(f"the folder {self.path} is gone")
            raise CameraLost(f"{path.name} in {self.path} is not a picture OpenCV can read")
        self._index += 1
        return _bgr(frame)

    def _read_video(self) -> np.ndarray:
        assert self._cap is not None
        ok, frame = self._cap.read()
        if not ok and self.loop:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._cap.read()
            if not ok:  # some containers cannot seek: open afresh
                self._cap.release()
                self._open_video()
                ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraLost(f"the end of the recording {self.path}" if not self.loop
                             else f"the recording {self.path} gives no pictures")
        return _bgr(frame)

    def _release(self) -> None:
        if self._cap is not None:
            self._cap.release()

    def describe(self) -> str:
        kind = "video" if self.is_video else "pictures"
        return f"replay of {kind} {self.path}"


class SyntheticSource(_Source):
    """Frames drawn by a function of the frame number (``vision.synthetic.render`` for the demo and tests)."""

    def __init__(self, render: Callable[[int], np.ndarray], name: str = "synthetic camera") -> None:
        self.render = render
        self.name = name
        self.frame_number = 0

    def read(self) -> np.ndarray:
        self._check_open()
        frame = self.render(self.frame_number)
        self.frame_number += 1
        if frame is None:
            raise CameraLost(f"{self.name} drew nothing")
        return _bgr(np.asarray(frame))

    def describe(self) -> str:
        return self.name

"""A camera source whose picture request never returns: what a Pi camera that died in the
middle of a request does to its caller (shared by the camera fault tests)."""

from __future__ import annotations

import threading

import numpy as np

from vision.camera_sources import CameraLost


class HangingSource:
    """A camera whose frame request never completes (a Pi camera that died mid-request)."""

    def __init__(self, frames_before: int = 2) -> None:
        self.frames_before = frames_before
        self.release = threading.Event()
        self.closed = False

    def read(self) -> np.ndarray:
        if self.frames_before > 0:
            self.frames_before -= 1
            return np.zeros((48, 64, 3), np.uint8)
        self.release.wait()  # capture_array blocks here for ever
        raise CameraLost("released")

    def close(self) -> None:
        self.closed = True

    def describe(self) -> str:
        return "a camera that hangs"

"""Opening the camera the settings name, within :data:`~kiosk.camera.lane.OPEN_DEADLINE`.

Everything that may touch picamera2 (``open_camera`` imports it and calls ``Picamera2()``;
finding why it failed imports it again) runs on the one opening lane, so an import or a
constructor that never returns costs the caller the deadline, never the kiosk's start, and
leaves one stuck worker however often the camera is retried. Used by the kiosk's start,
its reopening of a lost camera, the calibration photo and ``tablekeeper doctor``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.camera.lane import OPEN_DEADLINE, OPENING

if TYPE_CHECKING:
    from vision.camera import CameraChoice


def open_in_time(source: str, size: tuple[int, int] | None = None,
                 deadline: float = OPEN_DEADLINE) -> CameraChoice:
    """The camera ``source`` names (``[camera] source``), or None and the reason.

    Raises :class:`~kiosk.camera.lane.DidNotAnswer` when the camera's software does not
    answer in time (or an earlier try is still stuck), and the real import error when
    picamera2 is there but fails to import (a numpy mismatch), so the caller can name it.
    """
    return OPENING.call(lambda: _open(source, size), deadline, "opening the camera", abandon=_close)


def _open(source: str, size: tuple[int, int] | None) -> CameraChoice:
    from kiosk.camera.faults import import_failure
    from vision.camera import open_camera

    choice = open_camera(source) if size is None else open_camera(source, size=size)
    if choice.source is None and "picamera2" in choice.reason:
        cause = import_failure("picamera2")
        if cause is not None:
            raise cause
    return choice


def _close(choice: CameraChoice) -> None:
    """A camera that opened after its caller gave up is released, so the next try can have it."""
    if choice.source is not None:
        choice.source.close()

"""doctor's camera check: open the camera the settings name, exactly as the kiosk does.

Kept apart from :mod:`kiosk.doctor.checks` (one job a module). Every failure — the camera
software that will not import (a numpy mismatch), a camera that will not open, a frame
that never comes, an import or ``Picamera2()`` that never returns ("did not answer") — is
"camera unavailable: <reason>" with the fix from
:mod:`kiosk.camera.faults`, the same words the kiosk's banner uses.
"""

from __future__ import annotations

import shutil
import subprocess

from kiosk.doctor.checks import Context, Result


def check_camera(ctx: Context) -> Result:
    name = "camera"
    from kiosk.camera.faults import explain

    try:
        from vision.camera import open_camera
    except ModuleNotFoundError as exc:
        if exc.name not in ("vision", "vision.camera"):
            reason, fix = explain(exc)
            return Result.warn(name, f"camera unavailable: {reason}; the kiosk referees by touch", fix)
        open_camera = None
    except Exception as exc:  # numpy.dtype size changed (a ValueError), a library that will not load
        reason, fix = explain(exc)
        return Result.warn(name, f"camera unavailable: {reason}; the kiosk referees by touch", fix)
    if open_camera is not None:
        setting = str(ctx.settings.section("camera").get("source", "auto"))
        return _camera_through_vision(name, setting)
    videos = sorted(p.name for p in ctx.dev.glob("video*"))
    if ctx.on_pi and shutil.which("rpicam-hello"):
        done = subprocess.run(
            ["rpicam-hello", "--list-cameras"], capture_output=True, text=True, timeout=30, check=False
        )
        if "Available cameras" in done.stdout and ": " in done.stdout.split("Available cameras", 1)[1]:
            return Result.ok(name, done.stdout.strip().splitlines()[-1].strip())
    if videos:
        return Result.ok(name, f"video devices: {', '.join(videos)}")
    return Result.warn(
        name,
        "no camera found; the kiosk referees by touch",
        "connect the camera (ribbon cable or USB), then: tablekeeper doctor",
    )


def _camera_through_vision(name: str, source_setting: str) -> Result:
    """Open the camera the settings name as the kiosk does (within its deadline), and read one frame."""
    from kiosk.camera.faults import TimedSource, explain
    from kiosk.camera.opening import open_in_time

    try:
        source, reason = open_in_time(source_setting)
    except Exception as exc:  # a driver can fail in many ways, or not answer; doctor reports, never hangs
        reason, fix = explain(exc)
        return Result.warn(name, f"camera unavailable: {reason}; the kiosk referees by touch", fix)
    if source is None:
        return Result.warn(
            name,
            f"camera unavailable: {reason or 'none found'}; the kiosk referees by touch",
            "connect the camera (ribbon cable or USB), then: tablekeeper doctor",
        )
    timed = TimedSource(source)  # a camera that hangs must not hang doctor
    try:
        described = timed.describe()
        frame = timed.read()
    except Exception as exc:  # same: report it
        reason, fix = explain(exc)
        timed.close()
        return Result.warn(name, f"camera unavailable: {reason}; the kiosk referees by touch", fix)
    timed.close()
    if frame is None:
        return Result.warn(
            name,
            f"{described}: opened, but gave no picture (lost)",
            "check the cable; then: tablekeeper doctor",
        )
    shape = getattr(frame, "shape", ())
    return Result.ok(name, f"{described}: {shape[1] if len(shape) > 1 else '?'}x{shape[0] if shape else '?'}")

"""Every camera failure is "camera unavailable: <reason>" with the right fix; nothing crashes or hangs.

The numpy mismatch is produced for real: Debian's ``python3-bottleneck`` is a C extension
built against Debian's numpy 1.24, exactly like apt's picamera2/simplejpeg on a Pi; imported
by the project's Python (numpy 2, as pip installs it for opencv-python 4.12+) it fails the
way picamera2 does. A ``picamera2`` package planted on the path imports it, so the kiosk's
own camera opening meets the real error. A camera that hangs is a source whose ``read``
never returns, as ``Picamera2.capture_array`` does when the camera dies mid-request.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hanging_camera import HangingSource

from kiosk.camera.faults import REINSTALL, TimedSource, explain, sentence
from vision.camera import CameraLost

ROOT = Path(__file__).resolve().parents[1]
APT_EXTENSION = Path("/usr/lib/python3/dist-packages/bottleneck")


def _calibrated(data: Path, source: str) -> Path:
    from calibration.file import Calibration, save_calibration

    data.mkdir(parents=True, exist_ok=True)
    corners = ((100.0, 80.0), (540.0, 80.0), (540.0, 420.0), (100.0, 420.0))
    save_calibration(Calibration("upwords", 8, 8, corners, (640, 480)), data / "calibration.json")
    cfg = data / "tablekeeper.toml"
    cfg.write_text(f'[camera]\nsource = "{source}"\n')
    return cfg


def _planted_picamera2(tmp_path: Path) -> Path:
    """A ``picamera2`` that, like apt's, needs a numpy-1.24-built extension; on the path alone."""
    if not APT_EXTENSION.is_dir():
        pytest.skip("needs python3-bottleneck (built for numpy 1.24): apt install python3-bottleneck")
    import numpy

    if int(numpy.__version__.split(".")[0]) < 2:
        pytest.skip("this Python has numpy 1.x: the mismatch cannot happen here")
    site = tmp_path / "site"
    (site / "picamera2").mkdir(parents=True)
    (site / "bottleneck").symlink_to(APT_EXTENSION)
    (site / "picamera2" / "__init__.py").write_text("import bottleneck  # compiled for numpy 1.24\n")
    return site


OPEN = r"""
import json, sys
from pathlib import Path
from kiosk.files import settings
from kiosk.camera.live import LiveCamera
camera, problem = LiveCamera.open(settings.load(Path(sys.argv[1])))
print(json.dumps([camera is None, problem]))
"""


def test_picamera2_built_for_another_numpy_is_camera_unavailable_with_the_reinstall_fix(
    tmp_path: Path,
) -> None:
    site = _planted_picamera2(tmp_path)
    data = tmp_path / "data"
    cfg = _calibrated(data, "picamera2")
    env = {**os.environ, "PYTHONPATH": f"{site}:{ROOT}", "TABLEKEEPER_DATA": str(data),
           "TABLEKEEPER_CONFIG": str(cfg)}
    done = subprocess.run([sys.executable, "-c", OPEN, str(cfg)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    no_camera, problem = json.loads(done.stdout.splitlines()[-1])
    assert no_camera
    assert problem.startswith("Camera unavailable: picamera2 and numpy do not match (")
    assert problem.endswith(f"The kiosk referees by touch. Fix: {REINSTALL}")

    script = Path(sys.executable).with_name("tablekeeper")
    done = subprocess.run([str(script), "doctor", "--json"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=180, check=False)
    camera = {r["name"]: r for r in json.loads(done.stdout)}["camera"]
    assert camera["status"] == "warn"
    assert camera["detail"].startswith("camera unavailable: picamera2 and numpy")
    assert camera["fix"] == REINSTALL


def test_the_numpy_messages_of_every_direction_get_the_reinstall_fix() -> None:
    # numpy 2 under a numpy-1 extension, and numpy 1.24 under a wheel built for numpy 2
    # (the message apt's picamera2 users see: simplejpeg from pip, numpy from apt).
    for exc in (
        ImportError("numpy.core.multiarray failed to import"),
        ValueError("numpy.dtype size changed, may indicate binary incompatibility. "
                   "Expected 96 from C header, got 88 from PyObject"),
        AttributeError("_ARRAY_API not found"),
    ):
        reason, fix = explain(exc)
        assert reason.startswith("picamera2 and numpy do not match") and fix == REINSTALL


def test_a_camera_that_is_not_there_is_camera_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kiosk.camera.live import LiveCamera
    from kiosk.files import settings

    data = tmp_path / "data"
    cfg = _calibrated(data, "/dev/video97")
    monkeypatch.setenv("TABLEKEEPER_DATA", str(data))
    camera, problem = LiveCamera.open(settings.load(cfg))
    assert camera is None
    assert problem.startswith("Camera unavailable: no camera at /dev/video97")
    assert "The kiosk referees by touch" in problem


def test_a_driver_error_of_any_kind_is_a_lost_camera_not_a_dead_thread() -> None:
    class Broken(HangingSource):
        def read(self) -> np.ndarray:
            raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")

    timed = TimedSource(Broken(), timeout=1.0, lost=CameraLost)
    with pytest.raises(CameraLost, match="picamera2 and numpy do not match"):
        timed.read()


def test_the_banner_sentence_names_reason_and_fix() -> None:
    text = sentence(ModuleNotFoundError("No module named 'picamera2'", name="picamera2"))
    assert text.startswith("Camera unavailable: picamera2 is not installed. The kiosk referees by touch.")
    assert "sudo apt install python3-picamera2" in text

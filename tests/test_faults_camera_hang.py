"""A camera stack that never answers: the kiosk starts anyway, and retries never pile up threads.

The hang is real: a ``picamera2`` package planted on a subprocess's path whose import sleeps
for an hour (a libcamera that never answers), or whose ``Picamera2()`` does. The kiosk's own
camera opening (``LiveCamera.open``, as ``build_app`` calls it) runs in that process, is
retried, and its thread count is read there; ``tablekeeper doctor`` runs against it too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hanging_camera import HangingSource

from kiosk.camera.faults import TimedSource
from kiosk.camera.lane import OPEN_DEADLINE, DidNotAnswer, Lane, StillStuck
from vision.camera import CameraLost, ResilientCamera

ROOT = Path(__file__).resolve().parents[1]
MARGIN = 3.0  # seconds on top of the deadline: Python's start and the calibration's imports

HUNG_IMPORT = "import time\ntime.sleep(3600)  # a libcamera that never answers\n"
HUNG_CONSTRUCTOR = (
    "import time\n\n\nclass Picamera2:\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        time.sleep(3600)  # the camera's pipeline never answers\n"
)

RETRIES = r"""
import json, sys, threading, time
from pathlib import Path
from kiosk.files import settings
from kiosk.camera.live import LiveCamera
from kiosk.camera.opening import open_in_time
loaded = settings.load(Path(sys.argv[1]))
before = threading.active_count()
started = time.monotonic()
camera, problem = LiveCamera.open(loaded)
first = time.monotonic() - started
tries = []
for _ in range(int(sys.argv[2])):
    started = time.monotonic()
    again, said = LiveCamera.open(loaded)
    tries.append([time.monotonic() - started, said, threading.active_count()])
started = time.monotonic()
try:
    open_in_time("picamera2")
    direct = "opened"
except Exception as exc:
    direct = f"{type(exc).__name__}: {exc}"
print(json.dumps({"before": before, "first": first, "camera": camera is not None, "problem": problem,
                  "tries": tries, "direct": direct, "direct_seconds": time.monotonic() - started,
                  "threads": [t.name for t in threading.enumerate()]}))
"""


def _calibrated(data: Path) -> Path:
    from calibration.file import Calibration, save_calibration

    data.mkdir(parents=True, exist_ok=True)
    corners = ((100.0, 80.0), (540.0, 80.0), (540.0, 420.0), (100.0, 420.0))
    save_calibration(Calibration("upwords", 8, 8, corners, (640, 480)), data / "calibration.json")
    cfg = data / "tablekeeper.toml"
    cfg.write_text('[camera]\nsource = "picamera2"\n')
    return cfg


def _planted(tmp_path: Path, body: str) -> Path:
    site = tmp_path / "site"
    (site / "picamera2").mkdir(parents=True)
    (site / "picamera2" / "__init__.py").write_text(body)
    return site


def _env(site: Path, data: Path, cfg: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": f"{site}:{ROOT}", "TABLEKEEPER_DATA": str(data),
            "TABLEKEEPER_CONFIG": str(cfg)}


@pytest.mark.parametrize("body", [HUNG_IMPORT, HUNG_CONSTRUCTOR], ids=["import", "constructor"])
def test_a_camera_that_never_answers_costs_the_deadline_once_and_one_stuck_thread(
    tmp_path: Path, body: str
) -> None:
    site = _planted(tmp_path, body)
    data = tmp_path / "data"
    cfg = _calibrated(data)
    retries = 6
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", RETRIES, str(cfg), str(retries)], cwd=ROOT,
                          env=_env(site, data, cfg), capture_output=True, text=True, timeout=120, check=False)
    wall = time.monotonic() - started
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert not found["camera"]
    assert OPEN_DEADLINE - 0.5 < found["first"] < OPEN_DEADLINE + MARGIN, found["first"]
    assert found["problem"].startswith(
        f"Camera unavailable: did not answer (opening the camera took over {OPEN_DEADLINE:g} s). "
        "The kiosk referees by touch. Fix: ")
    # Every retry is refused at once while the first try is stuck; no thread is added.
    assert len(found["tries"]) == retries
    for seconds, said, threads in found["tries"]:
        assert seconds < 0.5, seconds
        assert said.startswith("Camera unavailable: did not answer (opening the camera has been stuck for ")
        assert threads <= found["before"] + 1, found["threads"]
    assert found["threads"].count("camera-open") == 1, found["threads"]
    assert found["direct"].startswith("StillStuck: did not answer (opening the camera has been stuck")
    assert found["direct_seconds"] < 0.5
    assert wall < 60  # the hour-long sleep is on a daemon thread: the process still exits


@pytest.mark.parametrize("body", [HUNG_IMPORT, HUNG_CONSTRUCTOR], ids=["import", "constructor"])
def test_doctor_says_the_camera_did_not_answer_and_does_not_hang(tmp_path: Path, body: str) -> None:
    site = _planted(tmp_path, body)
    data = tmp_path / "data"
    cfg = _calibrated(data)
    script = Path(sys.executable).with_name("tablekeeper")
    started = time.monotonic()
    done = subprocess.run([str(script), "doctor", "--json"], cwd=tmp_path, env=_env(site, data, cfg),
                          capture_output=True, text=True, timeout=120, check=False)
    seconds = time.monotonic() - started
    camera = {r["name"]: r for r in json.loads(done.stdout)}["camera"]
    assert camera["status"] == "warn"
    assert camera["detail"] == (f"camera unavailable: did not answer (opening the camera took over "
                                f"{OPEN_DEADLINE:g} s); the kiosk referees by touch")
    assert "restart tablekeeper" in camera["fix"]
    assert seconds < 60, seconds


def test_a_hung_picture_request_leaves_one_stuck_worker_however_often_the_camera_is_retried() -> None:
    lane = Lane("camera-read-test")
    sources: list[HangingSource] = []

    def factory() -> TimedSource:
        sources.append(HangingSource())
        return TimedSource(sources[-1], timeout=0.3, lost=CameraLost, lane=lane)

    now = [0.0]
    camera = ResilientCamera(factory, clock=lambda: now[0])
    try:
        assert camera.read() is not None and camera.read() is not None
        before = threading.active_count()
        started = time.monotonic()
        assert camera.read() is None  # the third read hangs: given up after 0.3 s
        assert time.monotonic() - started < 2.0
        assert camera.status == "lost: no picture for 0.3 s: the camera stopped answering"
        for _ in range(8):  # each back-off: a fresh source, refused at once, no new thread
            now[0] += 20.0
            started = time.monotonic()
            assert camera.read() is None
            assert time.monotonic() - started < 0.2
            assert camera.status.startswith("lost: did not answer (a picture request has been stuck for ")
            assert threading.active_count() == before
        assert len(sources) == 9
        assert [t.name for t in threading.enumerate()].count("camera-read-test") == 1
        sources[0].release.set()  # the stuck request ends at last: the lane is free again
        time.sleep(0.2)
        now[0] += 20.0
        assert camera.read() is not None and camera.status == "ok"
        assert threading.active_count() == before
    finally:
        camera.close()
        for source in sources:
            source.release.set()


def test_a_slow_call_is_waited_for_but_a_stuck_one_refuses_at_once() -> None:
    lane = Lane("lane-test")
    gate = threading.Event()
    answers: list[object] = []

    def slow() -> str:
        gate.wait(5)
        return "late"

    with pytest.raises(DidNotAnswer, match=r"did not answer \(a slow call took over 0.2 s\)"):
        lane.call(slow, 0.2, "a slow call", abandon=answers.append)
    assert lane.stuck == "a slow call"
    with pytest.raises(StillStuck):
        lane.call(lambda: "never run", 5.0, "another call")
    gate.set()
    deadline = time.monotonic() + 2
    while not answers and time.monotonic() < deadline:
        time.sleep(0.01)
    assert lane.stuck == ""
    assert answers == ["late"]  # what came too late is handed back to be released
    assert lane.call(lambda: 42, 1.0, "a quick call") == 42
    with pytest.raises(ValueError, match="bad"):
        lane.call(lambda: int("bad"), 1.0, "a failing call")

"""The camera's automatic controls held at calibration's values (calibration.camera_hold,
vision.camera_controls): the values kept in the calibration file, what a Pi camera is told, and
sources with nothing to hold. The Pi camera itself is exercised on a Pi only."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.camera_hold import CameraHold, HoldError
from calibration.file import Calibration, CalibrationError, load_calibration, save_calibration
from vision.camera import is_raspberry_pi
from vision.camera_controls import (
    AF_CONTINUOUS,
    AF_MANUAL,
    SETTLE_FRAMES,
    picamera2_automatic,
    picamera2_controls,
    picamera2_hold,
    settled_photo,
)
from vision.camera_sources import OpenCVCaptureSource, Picamera2Source, ReplaySource

#: What picamera2's capture_metadata() reports on a Camera Module 3 (a subset of its keys).
METADATA = {"ExposureTime": 16_654, "AnalogueGain": 2.25, "DigitalGain": 1.01, "ColourGains": (1.93, 1.64),
            "LensPosition": 3.2, "Lux": 212.4, "SensorTimestamp": 123456789}
#: Picamera2.camera_controls maps each control the camera has to its (min, max, default).
MODULE_3 = {"ExposureTime": (14, 1_000_000, None), "AnalogueGain": (1.0, 16.0, None),
            "ColourGains": (0.0, 32.0, None), "AeEnable": (False, True, None),
            "AwbEnable": (False, True, None), "AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
#: A camera without autofocus (Camera Module 2, the HQ camera).
FIXED_FOCUS = {k: v for k, v in MODULE_3.items() if k not in ("AfMode", "LensPosition")}


def _calibration(**changes) -> Calibration:
    return Calibration(kind="upwords", rows=8, cols=8, corners=((10, 10), (300, 12), (305, 300), (8, 298)),
                       image_size=(320, 320), **changes)


def test_the_settled_values_are_held_and_other_readings_left_out() -> None:
    hold = picamera2_hold(METADATA)
    assert hold.values == {"ExposureTime": 16_654.0, "AnalogueGain": 2.25, "ColourGains": (1.93, 1.64),
                           "LensPosition": 3.2}
    assert picamera2_controls(hold, MODULE_3) == {
        "AeEnable": False, "ExposureTime": 16_654, "AnalogueGain": 2.25,
        "AwbEnable": False, "ColourGains": (1.93, 1.64), "AfMode": AF_MANUAL, "LensPosition": 3.2}


def test_a_camera_is_told_only_of_the_controls_it_has() -> None:
    controls = picamera2_controls(picamera2_hold(METADATA), FIXED_FOCUS)
    assert "AfMode" not in controls and "LensPosition" not in controls
    assert controls["AeEnable"] is False and controls["AwbEnable"] is False
    assert picamera2_controls(CameraHold("v4l2", {"exposure": 150}), MODULE_3) == {}
    assert picamera2_automatic(MODULE_3) == {"AeEnable": True, "AwbEnable": True, "AfMode": AF_CONTINUOUS}
    assert picamera2_automatic(FIXED_FOCUS) == {"AeEnable": True, "AwbEnable": True}


def test_the_hold_is_kept_in_the_calibration_file(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    save_calibration(_calibration(camera_hold=picamera2_hold(METADATA)), path)
    assert json.loads(path.read_text())["camera_hold"]["values"]["ColourGains"] == [1.93, 1.64]
    assert load_calibration(path).camera_hold == picamera2_hold(METADATA)
    save_calibration(_calibration(), path)  # a calibration from a photo file holds nothing
    assert load_calibration(path).camera_hold is None


@pytest.mark.parametrize(("hold", "words"), [
    ({"driver": "gphoto", "values": {}}, "driver 'gphoto'"),
    ({"driver": "picamera2", "values": {"Brightness": 0.1}}, "has no control for"),
    ({"driver": "picamera2", "values": {"ExposureTime": math.nan}}, "NaN is not a number"),
    ({"driver": "picamera2", "values": {"ExposureTime": 1e12}}, "ExposureTime must be"),
    ({"driver": "picamera2", "values": {"ColourGains": [1.9]}}, "ColourGains must be 2 number"),
    ({"driver": "picamera2", "values": {"AnalogueGain": True}}, "AnalogueGain must be"),
    ({"driver": "v4l2", "values": []}, "not an object"),
    ("held", "not an object"),
])
def test_a_damaged_hold_is_a_plain_calibration_error(tmp_path: Path, hold, words: str) -> None:
    path = tmp_path / "calibration.json"
    save_calibration(_calibration(), path)
    data = json.loads(path.read_text())
    data["camera_hold"] = hold
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match=words):
        load_calibration(path)
    with pytest.raises(HoldError):  # and the same values given in code
        CameraHold.from_dict(hold)


def test_a_recording_has_nothing_to_hold(tmp_path: Path) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((40, 60, 3), 40 * i, np.uint8))
    with ReplaySource(tmp_path) as source:
        frame, hold = settled_photo(source)
    assert hold is None and frame.shape == (40, 60, 3)
    # the replay went round the folder: settling took its pictures, one more was the photo
    assert int(frame[0, 0, 0]) == 40 * (SETTLE_FRAMES % 3)


def test_a_video_file_opened_by_opencv_is_no_v4l2_camera(tmp_path: Path) -> None:
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    for i in range(12):
        writer.write(np.full((48, 64, 3), 10 * i, np.uint8))
    writer.release()
    with OpenCVCaptureSource(str(video), size=None) as source:
        frame, hold = settled_photo(source)
        assert hold is None and frame.shape[:2] == (48, 64)
        assert source.apply_hold(CameraHold("v4l2", {"exposure": 150})) is False


@pytest.mark.skipif(not is_raspberry_pi() or importlib.util.find_spec("picamera2") is None,
                    reason="needs a Raspberry Pi with picamera2 and a camera")
def test_the_pi_camera_holds_what_it_settled_on() -> None:  # pragma: no cover - runs on the Pi only
    with Picamera2Source(size=(640, 480)) as cam:
        _frame, hold = settled_photo(cam)
        assert hold is not None and "ExposureTime" in hold.values
        for _ in range(4):
            cam.read()
        now = cam._cam.capture_metadata()
        assert now["ExposureTime"] == pytest.approx(hold.values["ExposureTime"], rel=0.05)
        cam.release_hold()

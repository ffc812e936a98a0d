"""Camera sources and the lost-camera retry, on real files written by OpenCV (no mocks of OpenCV)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cv2
import numpy as np
import pytest
from waiting import wait_for

from vision.camera import (
    BACKOFF,
    CameraChoice,
    CameraLost,
    CameraSource,
    OpenCVCaptureSource,
    Picamera2Source,
    ReplaySource,
    ResilientCamera,
    SyntheticSource,
    is_raspberry_pi,
    open_camera,
)


def frame(value: int, size=(64, 48)) -> np.ndarray:
    """A frame whose content says which it is: a flat grey level plus a white square."""
    img = np.full((size[1], size[0], 3), value, np.uint8)
    cv2.rectangle(img, (4, 4), (20, 20), (255, 255, 255), -1)
    return img


@pytest.fixture
def pictures(tmp_path: Path) -> Path:
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, value in enumerate((40, 100, 160)):
        assert cv2.imwrite(str(folder / f"frame{i:03d}.png"), frame(value))
    (folder / "notes.txt").write_text("not a picture, ignored")
    return folder


@pytest.fixture
def video(tmp_path: Path) -> Path:
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    assert writer.isOpened(), "OpenCV cannot write MJPG here"
    for value in (30, 90, 150, 210):
        writer.write(frame(value))
    writer.release()
    return path


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def level(img: np.ndarray) -> int:
    return int(np.median(img[30:, 30:]))


# ------------------------------------------------------------------ replay
def test_replay_of_a_folder_reads_pictures_in_order_and_loops(pictures: Path) -> None:
    with ReplaySource(pictures) as cam:
        assert isinstance(cam, CameraSource)
        levels = [level(cam.read()) for _ in range(7)]
        assert levels == [40, 100, 160, 40, 100, 160, 40]
        assert cam.describe() == f"replay of pictures {pictures}"
    assert cam.closed


def test_replay_without_loop_ends_plainly(pictures: Path) -> None:
    cam = ReplaySource(pictures, loop=False)
    for _ in range(3):
        cam.read()
    with pytest.raises(CameraLost, match="end of the recording"):
        cam.read()
    cam.close()


def test_grey_pictures_come_out_as_bgr(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "g.png"), np.full((10, 12), 77, np.uint8))
    img = ReplaySource(tmp_path).read()
    assert img.shape == (10, 12, 3) and img.dtype == np.uint8 and int(img[0, 0, 2]) == 77


def test_replay_of_a_video_file_loops(video: Path) -> None:
    with ReplaySource(video) as cam:
        levels = [level(cam.read()) for _ in range(9)]
    expected = [30, 90, 150, 210, 30, 90, 150, 210, 30]
    assert all(abs(a - b) <= 6 for a, b in zip(levels, expected, strict=True)), levels
    assert cam.is_video


def test_video_file_through_opencv_capture(video: Path) -> None:
    """OpenCVCaptureSource is a thin VideoCapture: a file stands in for a USB camera."""
    with OpenCVCaptureSource(str(video), size=None) as cam:
        assert abs(level(cam.read()) - 30) <= 6
        for _ in range(3):
            cam.read()
        with pytest.raises(CameraLost, match="gave no picture"):  # a failed read is a lost camera
            cam.read()


@pytest.mark.parametrize(("make", "words"), [
    (lambda p: p / "nowhere", "there is no recording at"),
    (lambda p: p, "holds no pictures"),
])
def test_replay_of_nothing_says_so(tmp_path: Path, make, words) -> None:
    with pytest.raises(CameraLost, match=words):
        ReplaySource(make(tmp_path))


def test_a_file_that_is_not_a_video(tmp_path: Path) -> None:
    bad = tmp_path / "x.avi"
    bad.write_bytes(b"definitely not a video")
    with pytest.raises(CameraLost, match="not a video OpenCV can play"):
        ReplaySource(bad)


def test_missing_usb_camera_is_a_plain_lost(tmp_path: Path) -> None:
    with pytest.raises(CameraLost, match=r"no camera at .*video63"):
        OpenCVCaptureSource(str(tmp_path / "video63"))


# ------------------------------------------------------------------ close and context
def test_close_twice_and_read_after_close(pictures: Path) -> None:
    sources = [ReplaySource(pictures), SyntheticSource(lambda n: frame(n))]
    for cam in sources:
        cam.read()
        cam.close()
        cam.close()
        with pytest.raises(CameraLost, match="closed"):
            cam.read()
        assert "(closed)" in repr(cam)


def test_synthetic_source_draws_with_the_renderer() -> None:
    render = pytest.importorskip("vision.synthetic.render")
    shots = SyntheticSource(lambda n: render.render_upwords({(0, 0): ("A", 1)}, seed=n).image, "demo board")
    first, second = shots.read(), shots.read()
    assert first.shape == (768, 1024, 3) and shots.frame_number == 2
    assert not np.array_equal(first, second)  # a different seed, different noise
    assert shots.describe() == "demo board"


# ------------------------------------------------------------------ lost and found
def test_a_folder_that_vanishes_is_lost_and_found_again(pictures: Path) -> None:
    clock = Clock()
    opened = []

    def factory() -> ReplaySource:
        opened.append(clock.now)
        return ReplaySource(pictures)

    cam = ResilientCamera(factory, clock)
    assert cam.status == "ok" and cam.read() is not None
    away = pictures.with_name("unplugged")
    pictures.rename(away)
    cam.read()  # the second picture: now gone
    assert cam.status == f"lost: the folder {pictures} is gone"
    assert cam.read() is None and cam.next_try == clock.now + BACKOFF[0]
    clock.now += BACKOFF[0]
    assert cam.read() is None  # tried again, still gone
    assert cam.status == f"lost: there is no recording at {pictures}"
    assert cam.next_try == clock.now + BACKOFF[1]
    clock.now += BACKOFF[1] / 2
    assert cam.read() is None and len(opened) == 2  # not yet time: no retry
    away.rename(pictures)
    assert cam.read() is None and len(opened) == 2  # back, but it waits for its turn
    clock.now += BACKOFF[1] / 2
    got = cam.read()
    assert got is not None and level(got) == 40 and cam.status == "ok" and cam.next_try is None
    assert len(opened) == 3
    cam.close()


def test_backoff_grows_to_its_ceiling_and_resets_after_a_good_frame(tmp_path: Path) -> None:
    clock = Clock()
    folder = tmp_path / "later"
    cam = ResilientCamera(lambda: ReplaySource(folder), clock)
    pauses = []
    for _ in range(len(BACKOFF) + 2):
        assert cam.next_try is not None
        pauses.append(cam.next_try - clock.now)
        clock.now = cam.next_try
        assert cam.read() is None
    assert pauses == [*BACKOFF, BACKOFF[-1], BACKOFF[-1]]
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), frame(50))
    clock.now = cam.next_try
    assert cam.read() is not None and cam.ok
    folder.joinpath("a.png").unlink()
    folder.rmdir()
    cam.read()
    assert cam.status.startswith("lost: ") and cam.next_try == clock.now + BACKOFF[0]


def test_resilient_camera_close_twice_and_context(pictures: Path) -> None:
    inner: list[ReplaySource] = []

    def factory() -> ReplaySource:
        inner.append(ReplaySource(pictures))
        return inner[-1]

    with ResilientCamera(factory, Clock()) as cam:
        assert cam.read() is not None and cam.describe().startswith("replay of pictures")
    assert cam.status == "closed" and inner[0].closed
    cam.close()
    assert cam.read() is None and cam.status == "closed"


def test_a_bad_backoff_is_refused(pictures: Path) -> None:
    with pytest.raises(ValueError, match="backoff"):
        ResilientCamera(lambda: ReplaySource(pictures), Clock(), backoff=())


# ------------------------------------------------------------------ choosing a source
def test_open_camera_off_a_pi_without_usb_says_why(tmp_path: Path) -> None:
    if is_raspberry_pi():
        pytest.skip("on a Raspberry Pi the Pi camera is tried first")
    choice = open_camera("auto", dev=tmp_path)
    assert choice.source is None
    assert choice.reason == f"not a Raspberry Pi; no USB camera ({tmp_path}/video* is empty)"
    with pytest.raises(CameraLost, match="not a Raspberry Pi"):
        choice.require()


def test_open_camera_names(pictures: Path, tmp_path: Path) -> None:
    assert open_camera("none") == CameraChoice(None, "the camera is switched off in the settings")
    replay = open_camera(str(pictures))
    assert isinstance(replay.source, ReplaySource) and replay.reason == ""
    replay.source.close()
    assert "is not auto, picamera2" in open_camera("teapot").reason
    assert open_camera("usb:63").source is None
    fake_dev = tmp_path / "dev"
    fake_dev.mkdir()
    (fake_dev / "video0").write_text("not a device")
    usb = open_camera("usb", dev=fake_dev)
    assert usb.source is None and usb.reason == "no USB camera opens"


def test_is_raspberry_pi_reads_the_device_tree_model(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert is_raspberry_pi(model)
    model.write_bytes(b"QEMU Virtual Machine\x00")
    assert not is_raspberry_pi(model)
    assert not is_raspberry_pi(tmp_path / "absent")


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None, reason="picamera2 is installed here")
def test_picamera2_off_a_pi_is_a_plain_lost() -> None:
    with pytest.raises(CameraLost, match="picamera2 is not installed"):
        Picamera2Source()


@pytest.mark.skipif(not is_raspberry_pi() or importlib.util.find_spec("picamera2") is None,
                    reason="needs a Raspberry Pi with picamera2 and a camera")
def test_the_pi_camera_gives_bgr_frames() -> None:  # pragma: no cover - runs on the Pi only
    with Picamera2Source(size=(640, 480)) as cam:
        img = cam.read()
        assert img.shape[:2] == (480, 640) and img.shape[2] in (3, 4)
    cam.close()


def test_closing_from_another_thread_while_reading(pictures: Path) -> None:
    """The kiosk reads on a worker thread and closes from the UI thread."""
    import threading

    cam = ResilientCamera(lambda: ReplaySource(pictures), Clock())
    results: list[object] = []
    errors: list[BaseException] = []

    def reader() -> None:
        try:
            while cam.status != "closed":
                results.append(cam.read())
            results.append(cam.read())
        except BaseException as exc:  # any failure in the thread fails the test
            errors.append(exc)

    worker = threading.Thread(target=reader)
    worker.start()
    wait_for(lambda: len(results) >= 20 or errors, lambda: f"20 reads on the worker thread ({len(results)})",
             every=0.001)
    cam.close()
    worker.join(10)
    assert not errors and not worker.is_alive()
    assert results[-1] is None and cam.status == "closed"
    assert any(r is not None for r in results)

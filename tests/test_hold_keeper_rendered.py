"""Steering the held camera controls on rendered pictures: the light measured on a real render's
surround, a camera on held controls that answers them (vision.synthetic.held_camera), and the
kiosk's camera worker keeping the steered values in a real calibration file."""

from __future__ import annotations

import logging
import math
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from gui.faults import remount_read_only, tmpfs
from polling import wait_until

from bench.bench_plays import _boards, _judge
from calibration.camera_hold import CameraHold
from calibration.file import Calibration, load_calibration, save_calibration
from kiosk.camera.held_light import held_light
from kiosk.camera.live import LiveCamera, stacks_read
from kiosk.camera.view import history
from vision.arms import surround_light
from vision.camera import ResilientCamera
from vision.hold_keeper import HoldKeeper, KeeperPolicy, departure
from vision.stability import BoardWatcher, SteadinessGate
from vision.synthetic.held_camera import CALIBRATED, HeldCamera
from vision.synthetic.scenes import grid_scene
from vision.synthetic.train import taught_grid_reader
from vision.upwords_reader import UpwordsReader

#: Evening: the room at 0.6 of its light, warmer (more red, less blue).
EVENING = {"brightness": 0.6, "white_balance": (0.85, 1.0, 1.2)}


@pytest.fixture(scope="module")
def game():
    s = grid_scene(4242, "train", "upwords8", n_frames=3, hand_chance=0.0, sequence=True, clean_frames=True)
    return s, taught_grid_reader(s)


def _evening(s) -> object:
    cal = s.calibration_effects
    return replace(cal, brightness=cal.brightness * EVENING["brightness"],
                   white_balance=tuple(a * b for a, b in zip(cal.white_balance, EVENING["white_balance"],
                                                             strict=True)))


def _measure(reader: UpwordsReader):
    scene = reader.appearance.scene

    def measure(frame: np.ndarray) -> np.ndarray | None:
        light = surround_light(frame, reader.corners, reader.rows, reader.cols, scene)
        return None if light is None else light.gains

    return measure


def test_the_surround_reads_the_light_as_it_changed_and_steering_brings_it_back(game) -> None:
    s, reader = game
    measure = _measure(reader)
    camera = HeldCamera(s.clean_start, s.calibration_effects, seed=1)
    assert max(map(abs, departure(measure(camera.read())))) < 0.03  # calibration's own light
    camera.room = _evening(s)
    overall, colour = departure(measure(camera.read()))
    assert overall == pytest.approx(math.log(0.6), abs=0.05) and colour > math.log(1.2)
    policy = KeeperPolicy(lasting=1.0, look_every=0.0)
    keeper = HoldKeeper(camera.hold(), policy)
    asked, now = [], 0.0
    while not (asked and asked[-1].final) and now < 10:
        change = keeper.look(measure(camera.read()), now)
        if change is not None:
            camera.apply_hold(change.hold)
            asked.append(change)
        now += 0.1
    assert asked and asked[-1].final and asked[-1].settled, asked
    for _ in range(3):
        after = departure(measure(camera.read()))
    assert abs(after[0]) <= policy.brightness / 2 and after[1] <= policy.colour / 2
    held = camera.hold().values
    assert held["ExposureTime"] > CALIBRATED.values["ExposureTime"]  # a darker room: a longer exposure
    red, blue = held["ColourGains"]
    assert red < CALIBRATED.values["ColourGains"][0] and blue > CALIBRATED.values["ColourGains"][1]
    # and the play is offered exactly, read as the kiosk reads (the board before it as history)
    before, placed = _boards(s)[1]
    camera.board = s.frames[1]
    tally: Counter = Counter()
    _judge(tally, before, placed, reader.read(camera.read(), previous=history(before)))
    assert tally == Counter(exact=1)


def _calibration(s, path: Path) -> Calibration:
    shot = s.calibration
    h, w = shot.image.shape[:2]
    cal = Calibration(kind="upwords", rows=8, cols=8, corners=tuple(map(tuple, shot.corners.tolist())),
                      image_size=(w, h), camera_hold=CALIBRATED, tile_face=0.8)
    save_calibration(cal, path)
    return cal


def _live(s, reader: UpwordsReader, camera: HeldCamera, cal: Calibration, path: Path, policy: KeeperPolicy
          ) -> LiveCamera:
    gate = SteadinessGate(lambda f: reader.planes.warp(f, 8, 8, 16), 8, 8)
    resilient = ResilientCamera(lambda: camera, clock=time.monotonic)
    held = held_light(cal, path, _measure(reader), resilient.apply_hold, policy)
    return LiveCamera(resilient, BoardWatcher(gate, stacks_read(reader)), "upwords", period=0.02, held=held)



def test_the_kiosk_steers_after_a_lasting_change_and_keeps_the_values_in_the_calibration(
        game, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    s, reader = game
    path = tmp_path / "calibration.json"
    cal = _calibration(s, path)
    camera = HeldCamera(s.clean_start, _evening(s), seed=2)
    live = _live(s, reader, camera, cal, path, KeeperPolicy(lasting=1.0, look_every=0.1))
    with caplog.at_level(logging.INFO, logger="kiosk.camera.held_light"):
        live.start()
        try:
            kept = wait_until(lambda: load_calibration(path).camera_hold != CALIBRATED, 90)
        finally:
            live.close()
    assert kept, caplog.text
    stored = load_calibration(path)
    assert stored.camera_hold == camera.hold()  # what the camera is on is what the next start holds
    assert stored.camera_hold.values["ExposureTime"] > CALIBRATED.values["ExposureTime"]
    assert replace(stored, camera_hold=CALIBRATED) == cal  # nothing else in the file was touched
    assert "stayed darker since calibration" in caplog.text
    assert "give calibration's look again" in caplog.text


def test_a_calibration_made_again_meanwhile_is_not_overwritten(game, tmp_path: Path) -> None:
    s, reader = game
    path = tmp_path / "calibration.json"
    cal = _calibration(s, path)
    keeper = held_light(cal, path, _measure(reader), lambda hold: True)
    assert keeper is not None
    recalibrated = replace(cal, corners=tuple((x + 3, y) for x, y in cal.corners))
    save_calibration(recalibrated, path)
    keeper.keep(CameraHold("picamera2", {"ExposureTime": 20_000.0}))
    assert load_calibration(path) == recalibrated
    assert held_light(replace(cal, camera_hold=None), path, _measure(reader), lambda hold: True) is None


def test_a_calibration_file_that_cannot_be_written_loses_nothing(game, tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    s, reader = game
    with tmpfs(tmp_path / "card", "1m") as card:
        path = card / "calibration.json"
        cal = _calibration(s, path)
        keeper = held_light(cal, path, _measure(reader), lambda hold: True)
        assert keeper is not None
        remount_read_only(card)  # what the kernel does to a failing SD card
        keeper.keep(CameraHold("picamera2", {"ExposureTime": 20_000.0}))  # logged, not raised
        assert load_calibration(path) == cal
    assert "could not keep the steered camera controls" in caplog.text


def test_a_camera_that_does_not_take_held_controls_is_not_steered_and_nothing_is_kept(
        game, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    s, reader = game
    path = tmp_path / "calibration.json"
    cal = _calibration(s, path)
    camera = HeldCamera(s.clean_start, _evening(s), seed=3)
    at_once = KeeperPolicy(lasting=0.0, look_every=0.0)
    keeper = held_light(cal, path, _measure(reader), lambda hold: False, at_once)
    assert keeper is not None
    asked = [keeper.look(camera.read(), k / 10) for k in range(30)]
    assert asked == [None] * 30 and keeper.refused and keeper.hold == CALIBRATED
    assert load_calibration(path) == cal
    assert "does not take held controls" in caplog.text

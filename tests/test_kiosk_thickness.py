"""The set's tile thickness measured from the game where the teaching photo could not: a rendered
board of stacks the game knows, a real calibration file, the kiosk's camera worker."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest
from polling import wait_until

from calibration.file import Calibration, load_calibration, save_calibration
from kiosk.camera.live import LiveCamera, stacks_read
from kiosk.camera.thickness import ThicknessFromPlays
from vision.camera import ResilientCamera
from vision.camera_sources import SyntheticSource
from vision.stability import BoardWatcher, SteadinessGate
from vision.synthetic.scenes import Scene, grid_scene
from vision.synthetic.train import taught_grid_reader
from vision.upwords_reader import UpwordsReader


@pytest.fixture(scope="module")
def near_overhead() -> Scene:
    """A set of another make under a camera about 14 degrees from overhead (a scene of the training
    range): its teaching photo's one-high tiles measure nothing; its board has stacks up to 5."""
    return grid_scene(2, "train", "upwords8", n_frames=2, hand_chance=0.0, any_set=True, min_tilt=12.0,
                      max_tilt=22.0)


def _stacks(s: Scene) -> dict[tuple[int, int], int]:
    heights = s.frames[0].heights
    return {(r, c): h for r, row in enumerate(heights) for c, h in enumerate(row) if h}


def _calibration(s: Scene, path: Path) -> Calibration:
    shot = s.calibration
    h, w = shot.image.shape[:2]
    cal = Calibration(kind="upwords", rows=8, cols=8, corners=tuple(map(tuple, shot.corners.tolist())),
                      image_size=(w, h), tile_face=round(s.face_frac, 3))
    save_calibration(cal, path)
    return cal


def _truth(s: Scene) -> float:
    return s.thickness_mm / s.calibration.cell_mm[0]


def test_a_confirmed_board_of_stacks_measures_the_thickness_and_the_calibration_keeps_it(
        near_overhead: Scene, tmp_path: Path) -> None:
    s = near_overhead
    path = tmp_path / "calibration.json"
    cal = _calibration(s, path)
    reader = taught_grid_reader(s)
    assert not reader.geometry.measured  # the teaching photo measured nothing
    learner = ThicknessFromPlays(path, reader)
    assert learner.look(s.frames[0].image) is None  # no board confirmed yet
    learner.confirmed(_stacks(s))
    found = learner.look(s.frames[0].image)
    assert found is not None and found.ratio == pytest.approx(_truth(s), abs=0.02)
    g = reader.geometry
    assert g.measured and g.thickness_mm / g.pitch_mm == pytest.approx(found.ratio, abs=1e-3)
    stored = load_calibration(path)
    assert stored.tile_height == found.ratio
    assert stored.corners == cal.corners and stored.tile_face == cal.tile_face  # nothing else touched
    # the reader now weighs heights from one picture with the measured thickness
    reader.read(s.frames[1].image)
    assert reader.height_evidence
    learner.confirmed(_stacks(s))  # measured once: never again
    assert learner.look(s.frames[0].image) is None


def test_a_board_of_one_high_tiles_is_not_tried(near_overhead: Scene, tmp_path: Path) -> None:
    s = near_overhead
    path = tmp_path / "calibration.json"
    _calibration(s, path)
    learner = ThicknessFromPlays(path, taught_grid_reader(s))
    learner.confirmed(dict.fromkeys(_stacks(s), 1))
    assert learner.look(s.frames[0].image) is None
    assert load_calibration(path).tile_height is None


def test_a_calibration_that_cannot_be_kept_is_said_and_the_reader_keeps_the_measure(
        near_overhead: Scene, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    s = near_overhead
    reader = taught_grid_reader(s)
    learner = ThicknessFromPlays(tmp_path / "gone" / "calibration.json", reader)
    learner.confirmed(_stacks(s))
    with caplog.at_level(logging.WARNING, logger="kiosk.camera.thickness"):
        found = learner.look(s.frames[0].image)
    assert found is not None and reader.geometry.measured
    assert "could not be kept" in caplog.text



def test_the_kiosk_s_camera_worker_measures_on_a_steady_picture_of_the_confirmed_board(
        near_overhead: Scene, tmp_path: Path) -> None:
    s = near_overhead
    path = tmp_path / "calibration.json"
    _calibration(s, path)
    reader: UpwordsReader = taught_grid_reader(s)
    gate = SteadinessGate(lambda f: reader.planes.warp(f, 8, 8, 16), 8, 8)
    camera = ResilientCamera(lambda: SyntheticSource(lambda _: s.frames[0].image), clock=time.monotonic)
    learner = ThicknessFromPlays(path, reader)
    live = LiveCamera(camera, BoardWatcher(gate, stacks_read(reader)), "upwords", period=0.02,
                      thickness=learner)
    learner.confirmed(_stacks(s))
    live.start()
    try:
        kept = wait_until(lambda: load_calibration(path).tile_height is not None, 60)
    finally:
        live.close()
    assert kept
    assert load_calibration(path).tile_height == pytest.approx(_truth(s), abs=0.02)
    assert reader.geometry.measured


def _play(*spec: tuple[int, int, str]) -> dict:
    return {"type": "play", "tiles": [{"row": r, "col": c, "letter": ch} for r, c, ch in spec]}


def test_each_board_the_players_confirm_is_handed_on_once_it_has_a_stack(near_overhead: Scene,
                                                                           tmp_path: Path) -> None:
    from games.upwords import Upwords

    s = near_overhead
    reader = taught_grid_reader(s)
    learner = ThicknessFromPlays(tmp_path / "calibration.json", reader)
    camera = ResilientCamera(lambda: SyntheticSource(lambda _: s.frames[0].image), clock=time.monotonic)
    gate = SteadinessGate(lambda f: reader.planes.warp(f, 8, 8, 16), 8, 8)
    live = LiveCamera(camera, BoardWatcher(gate, stacks_read(reader)), "upwords", thickness=learner)
    game = Upwords(["Ann", "Bob"])
    game.apply(_play(*[(3, 1 + i, ch) for i, ch in enumerate("MOOD")]))
    live.sync(game)
    assert learner.waiting is None  # one-high tiles tell no more than the teaching photo
    game.apply(_play(*[(4 + i, 4, ch) for i, ch in enumerate("EAR")]))
    game.apply(_play((4, 3, "N"), (4, 5, "T")))
    game.apply(_play((3, 1, "W")))  # WOOD: a W on the M
    live.sync(game)
    assert learner.waiting is not None and learner.waiting[(3, 1)] == 2
    assert learner.waiting == {(r, c): game.board.height(r, c) for r in range(8) for c in range(8)
                               if game.board.height(r, c)}
    live.close()

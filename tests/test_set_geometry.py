"""The set's tile thickness measured from a teaching photo (vision.set_geometry), on renders of
sets of other makes than the default one; seeds from the training range."""

from __future__ import annotations

import numpy as np
import pytest

from vision.planes import BoardPlanes
from vision.set_geometry import _where_the_faces_sit, measure_tile_height
from vision.synthetic.scenes import grid_scene


def _measured(seed: int, min_tilt: float, max_tilt: float):
    s = grid_scene(seed, "train", "upwords8", n_frames=0, hand_chance=0.0, any_set=True, min_tilt=min_tilt,
                   max_tilt=max_tilt)
    cal = s.calibration
    tilt = BoardPlanes.from_corners(cal.corners, cal.rows, cal.cols, cal.image_size).tilt_deg
    found = measure_tile_height(s.teaching.image, cal.corners, cal.rows, cal.cols, s.face_frac,
                                s.teaching_layout.keys())
    return found, s.thickness_mm / cal.cell_mm[0], tilt


@pytest.mark.parametrize("seed", [6, 14, 13])  # thin, middling and thick sets
def test_a_leaning_camera_measures_the_thickness_against_the_pitch(seed: int) -> None:
    found, truth, tilt = _measured(seed, 28.0, 40.0)
    assert tilt >= 28.0
    assert found is not None, f"not measured at {tilt:.0f} degrees"
    # a tenth of the thinnest set's thickness (2 mm on 26 mm cells is 0.077 of the pitch)
    assert found.ratio == pytest.approx(truth, abs=0.02)


@pytest.mark.parametrize("seed", [2, 4])
def test_a_camera_nearly_overhead_measures_nothing(seed: int) -> None:
    found, _, tilt = _measured(seed, 0.0, 8.0)
    assert tilt < 9.0 and found is None


def test_too_few_tiles_measure_nothing() -> None:
    s = grid_scene(1, "train", "upwords8", n_frames=0, hand_chance=0.0, any_set=True, min_tilt=30.0,
                   max_tilt=40.0)
    cal = s.calibration
    few = list(s.teaching_layout)[:3]
    assert measure_tile_height(s.teaching.image, cal.corners, cal.rows, cal.cols, s.face_frac, few) is None


def test_a_steep_camera_measures_the_faces_plane_not_a_far_one_that_centres_the_ink_too() -> None:
    # at 39 degrees the ink also sits centred on a plane about half as thick again as the tiles,
    # where the face's square holds the tile's side: the measure must find the faces
    found, truth, tilt = _measured(7605, 20.0, 40.0)
    assert tilt > 35.0
    assert found is not None and found.ratio == pytest.approx(truth, abs=0.02)


def _slides(truth: float, also_centred: float | None = None, twin: float | None = None):
    """Each tried plane's tiles' own ratios: the faces at ``truth``; near ``also_centred`` the
    ink follows the plane (no information) and crosses zero; ``twin``: a second true-looking
    crossing."""
    def own(ratio: float) -> np.ndarray:
        value = truth
        if also_centred is not None and abs(ratio - also_centred) < 0.05:
            value = ratio + 0.2 * (also_centred - ratio) + 0.001
        if twin is not None and ratio > (truth + twin) / 2:
            value = twin
        return np.full(8, value)
    return own


def test_the_faces_are_where_the_slide_falls_as_the_plane_rises() -> None:
    assert _where_the_faces_sit(_slides(0.15)) == pytest.approx(0.15, abs=1e-6)
    assert _where_the_faces_sit(_slides(0.12, also_centred=0.30)) == pytest.approx(0.12, abs=1e-6)
    assert _where_the_faces_sit(_slides(0.12, twin=0.30)) is None  # two places: nothing measured
    assert _where_the_faces_sit(lambda ratio: np.full(8, ratio)) is None  # ink that only follows


@pytest.mark.parametrize("seed", [2, 6, 8])
def test_a_confirmed_board_s_stacks_measure_what_the_teaching_photo_cannot(seed: int) -> None:
    # at 13-17 degrees a one-high face barely moves across the thicknesses a set can have, but a
    # stack of h moves h times as far: a picture of a board whose stacks the game knows measures
    s = grid_scene(seed, "train", "upwords8", n_frames=2, hand_chance=0.0, any_set=True, min_tilt=12.0,
                   max_tilt=22.0)
    cal = s.calibration
    assert BoardPlanes.from_corners(cal.corners, cal.rows, cal.cols, cal.image_size).tilt_deg < 18.0
    one_high = measure_tile_height(s.teaching.image, cal.corners, cal.rows, cal.cols, s.face_frac,
                                   s.teaching_layout.keys())
    assert one_high is None
    board = s.frames[0]
    stacks = {(r, c): h for r, row in enumerate(board.heights) for c, h in enumerate(row) if h}
    assert max(stacks.values()) >= 4
    found = measure_tile_height(board.image, cal.corners, cal.rows, cal.cols, s.face_frac, stacks)
    assert found is not None
    assert found.ratio == pytest.approx(s.thickness_mm / cal.cell_mm[0], abs=0.02)
    # the same picture taken for one-high tiles measures nothing, or not this
    flat = measure_tile_height(board.image, cal.corners, cal.rows, cal.cols, s.face_frac, stacks.keys())
    assert flat is None or abs(flat.ratio - found.ratio) > 0.02

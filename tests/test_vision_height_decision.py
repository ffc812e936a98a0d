"""The Upwords height decision: in a picture read alone, a stack's height from its planes is sure
where the fitted decision says so; never where the set's thickness was never measured, and never
consulted where the game's history gives the heights."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.height_decision import FEATURES, HEIGHT_FILE, NO_RIVAL, height_decision, height_evidence
from vision.occupancy_model import MODEL_FILE
from vision.reading import BoardReading
from vision.synthetic.fit_cells import history
from vision.synthetic.fitting import fingerprint
from vision.synthetic.scenes import Scene, grid_scene
from vision.synthetic.train import taught_grid_reader
from vision.upwords_reader import UNMEASURED_FLAG, TileGeometry


def _named(evidence: np.ndarray) -> dict[str, float]:
    return {name: round(float(v), 3) for name, v in zip(FEATURES, evidence, strict=True)}


def test_the_evidence_is_how_the_best_plane_stands_against_the_others() -> None:
    scores = np.array([0.2, 1.1, 0.5, 0.3, 0.1])
    named = _named(height_evidence(scores, np.ones(5, bool), 2.5, 4.0, False, 0.9))
    assert named[FEATURES[0]] == 2 and named[FEATURES[1]] == 2.5
    assert named[FEATURES[2]] == named[FEATURES[3]] == 0.6  # the runner-up is the plane above
    assert named[FEATURES[4]] == 0.9 and named[FEATURES[5]] == NO_RIVAL  # nothing hidden
    assert named[FEATURES[6]] == 1.1 and named[FEATURES[7]] == 0.0
    assert named[FEATURES[8]] == round(float(np.log(4.0)), 3) and named[FEATURES[10]] == 0.9
    assert named[FEATURES[11]] == 0.0
    # a nearer stack hides the two highest planes, one of which scores better than the best seen;
    # and the plane just below the best beats no lower one
    visible = np.array([True, False, True, False, False])
    named = _named(height_evidence(np.array([0.6, 0.3, 0.9, 1.0, 0.2]), visible, 0.0, 2.0, True, 0.0))
    assert named[FEATURES[0]] == 3 and named[FEATURES[3]] == NO_RIVAL  # the plane above is hidden
    assert named[FEATURES[5]] == -0.1 and named[FEATURES[7]] == 0.6
    assert named[FEATURES[9]] == 1.0 and named[FEATURES[11]] == 1.0


def test_the_versioned_decision_says_what_it_was_fitted_on() -> None:
    model = height_decision()
    facts = model.info
    assert facts["family"] == "train" and facts["seeds"] >= 100
    assert facts["evidence_from"] == {MODEL_FILE.name: fingerprint(MODEL_FILE)}
    assert facts["spaces"] - facts["tiles"] > 500  # best planes that were wrong: the evidence against
    judged = facts["out_of_fold"]  # each seed's pictures by a network fitted without them
    assert judged["wrong_and_sure"] <= facts["spaces"] / 1000
    assert json.loads(HEIGHT_FILE.read_text())["features"] == list(FEATURES)
    assert 0.8 <= model.sure_tile < 1.0


def _steep_set(seed: int) -> Scene:
    """A ``held_out``-family 8x8 of a set of another make (a development scene, looked at while
    building), the camera leaning 20-40 degrees."""
    return grid_scene(seed, "held_out", "upwords8", n_frames=2, hand_chance=0.0, any_set=True, min_tilt=20.0,
                      max_tilt=40.0)


def _heights(s: Scene, reader, previous: BoardReading | None = None) -> tuple[int, int, int]:
    """(right and sure, in doubt, wrong and sure) over every tile of the scene's pictures."""
    right = doubt = wrong = 0
    for frame in s.frames:
        for cell in reader.read(frame.image, previous=previous).cells:
            truth = frame.heights[cell.row][cell.col]
            if truth:
                doubt += cell.uncertain
                right += not cell.uncertain and cell.height == truth
                wrong += not cell.uncertain and cell.height != truth
    return right, doubt, wrong


@pytest.mark.slow
def test_a_leaning_camera_s_picture_read_alone_is_sure_of_most_heights_and_wrong_on_none() -> None:
    s = _steep_set(8011)
    reader = taught_grid_reader(s)
    assert reader.geometry.measured
    right, doubt, wrong = _heights(s, reader)
    assert wrong == 0 and right >= 0.9 * (right + doubt)
    assert reader.height_evidence  # weighed by the decision
    reader.height_decision = None  # the planes' lead alone, as before the fit: far more asked
    ruled, _, ruled_wrong = _heights(s, reader)
    assert ruled_wrong == 0 and ruled < right - 0.15 * (right + doubt)


@pytest.mark.slow
def test_a_thickness_never_measured_leaves_every_height_from_one_picture_in_doubt() -> None:
    s = _steep_set(8011)
    reader = taught_grid_reader(s, geometry=TileGeometry.from_shape(s.face_frac, None, 5, measured=False))
    right, doubt, wrong = _heights(s, reader)
    assert right == wrong == 0 and doubt > 40
    assert not reader.height_evidence
    assert any(UNMEASURED_FLAG in cell.flags for cell in reader.read(s.frames[0].image).cells)


@pytest.mark.slow
def test_with_the_game_s_history_the_decision_is_not_asked() -> None:
    s = _steep_set(8011)
    reader = taught_grid_reader(s)
    reader.read(s.frames[0].image, previous=history(s.frames[0], s.rows, s.cols))
    assert not reader.height_evidence

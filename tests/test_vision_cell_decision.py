"""The Upwords cell decision: a cell the history has empty, in doubt by its look, decided with its face."""

from __future__ import annotations

import json

import numpy as np
import pytest
from decisions import plays_offered

from bench.bench_plays import _boards
from kiosk.camera.view import history
from vision.cell_decision import CELL_FILE, FEATURES, cell_decision, cell_evidence
from vision.occupancy_model import MODEL_FILE
from vision.synthetic.fitting import fingerprint
from vision.synthetic.scenes import grid_scene
from vision.synthetic.train import taught_grid_reader
from vision.upwords_reader import play_from_reading

#: a face that shows its letter, or the bare board, plainly: (ink contrast, share cut white)
SEEN = np.array([0.3, 0.0])
#: a face a lamp's glare cut white all over, its ink with it
CUT_WHITE = np.array([0.01, 0.95])


def _feature(name: str) -> int:
    return FEATURES.index(name)


def test_the_evidence_is_the_look_the_letter_read_and_how_much_the_face_shows() -> None:
    read = cell_evidence(0.7, "M", 0.98, SEEN)
    assert read[_feature("occupancy model (logit)")] == pytest.approx(np.log(0.7 / 0.3))
    assert read[_feature("the first plane's face reads a letter (confidence)")] == pytest.approx(0.98)
    assert read[_feature("the first plane's face: its ink contrast")] == pytest.approx(0.3)
    cut = cell_evidence(0.4, None, 0.05, CUT_WHITE)
    assert cut[1] == 0.0  # no letter, however sure of it
    assert cut[_feature("the first plane's face: its share cut white")] == 0.95
    fit = "the first plane's face: how closely a taught tile fits it (correlation)"
    assert read[_feature(fit)] == 0.0  # the second look did not look
    assert cell_evidence(0.4, "L", 0.25, SEEN, fit=0.93)[_feature(fit)] == pytest.approx(0.93)


def test_the_versioned_decision_says_what_it_was_fitted_on_and_weighs_the_face() -> None:
    model = cell_decision()
    facts = model.info
    assert facts["family"] == "train" and facts["games"] >= 50
    assert facts["evidence_from"] == {MODEL_FILE.name: fingerprint(MODEL_FILE)}
    judged = facts["out_of_fold"]  # each seed's games by a network fitted without them
    assert judged["wrong_and_sure"] <= judged["wrong_at_half"] and judged["asked"] < facts["spaces"] / 4
    assert judged["wrong_and_sure"] < facts["spaces"] / 400
    assert json.loads(CELL_FILE.read_text())["features"] == list(FEATURES)

    def decided(chance: float, letter: str | None, confidence: float, fit: float, seen: np.ndarray = SEEN
                ) -> tuple[float, bool]:
        evidence = cell_evidence(chance, letter, confidence, seen, fit)
        return model.chance(float(model.probability(evidence[None])[0]))

    # a new tile the look half believes in: its face reading a letter plainly settles it
    assert decided(0.7, "M", 1.0, fit=0.95) >= (0.8, False)
    # an empty cell beside a new stack that looks a little like a tile: no letter on it, empty
    assert decided(0.35, None, 0.0, fit=0.0) <= (0.2, False)
    # the board's print read as a letter, unsurely, and fitting no taught tile closely: empty
    assert decided(0.35, "E", 0.2, fit=0.5) <= (0.2, False)
    # a glare washed a new tile's ink: its letter reads barely, yet its face fits a taught tile
    assert decided(0.44, "L", 0.25, fit=0.96, seen=np.array([0.14, 0.0])) >= (0.8, False)
    # a letter at half sure on a face that fits no taught tile closely: asked, not settled
    assert decided(0.75, "F", 0.55, fit=0.7)[1]


@pytest.fixture(scope="module")
def a_game_in_a_changing_light():
    """A ``train``-family 10x10 game on a skin-toned table, the light changed picture to picture:
    a development game (looked at while building, not a figure)."""
    s = grid_scene(7100, "train", "upwords10", n_frames=14, hand_chance=0.0, sequence=True, light_change=True)
    return s, taught_grid_reader(s)


@pytest.mark.slow
def test_in_a_changing_light_plays_held_back_by_empty_cells_are_offered(a_game_in_a_changing_light) -> None:
    """The occupancy model leaves empty cells beside the plays in doubt in this light; their faces
    show no letter and the decision settles them, so more plays are offered, none wrong."""
    s, reader = a_game_in_a_changing_light
    offered = plays_offered(s, reader, "cell_decision")
    assert offered[True] >= offered[False] + 3


@pytest.mark.slow
def test_a_picture_read_alone_is_not_decided(a_game_in_a_changing_light) -> None:
    """Without the game's history nothing says a cell was empty (it may hold a stack whose face
    sits higher): the decision is not asked, and the read is the look's alone."""
    s, reader = a_game_in_a_changing_light
    frame = s.frames[-1]
    with_decision = reader.read(frame.image)
    assert reader.cell_evidence == {}
    reader.cell_decision, decision = None, reader.cell_decision
    try:
        assert reader.read(frame.image) == with_decision
    finally:
        reader.cell_decision = decision


@pytest.mark.slow
def test_letters_taught_before_the_second_look_leave_cells_to_their_look(a_game_in_a_changing_light) -> None:
    """Letters taught before the second look match no face against the taught tiles, so every
    face, a tile's as the bare board's, would fit none: the decision is not asked."""
    s, reader = a_game_in_a_changing_light
    classifier = reader.letters.classifier
    matcher, classifier.matcher = classifier.matcher, None
    try:
        before = history(_boards(s)[-1][0])
        without_matching = reader.read(s.frames[-1].image, previous=before)
        assert reader.cell_evidence
        decision, reader.cell_decision = reader.cell_decision, None
        try:
            assert reader.read(s.frames[-1].image, previous=before) == without_matching
        finally:
            reader.cell_decision = decision
    finally:
        classifier.matcher = matcher


@pytest.mark.slow
def test_on_a_set_lettered_unlike_the_training_tiles_read_at_half_sure_are_asked() -> None:
    """A held-out set (serif letters, dark red on dark wood, thick tiles), its light changed
    picture to picture: some new tiles' letters read at about half sure. Fitted on the train
    family's letters alone, the decision settled them as empty (a wrong play offered here);
    fitted on tiles of a wider make, it asks. No play is offered wrong, and a cell it settles
    wrongly is at most a tile whose face read no letter at all (a limit of this evidence,
    docs/reading.md). A development game (looked at while building, not a figure)."""
    s = grid_scene(7200, "held_out", "upwords10", n_frames=14, hand_chance=0.0, sequence=True,
                   light_change=True)
    reader = taught_grid_reader(s)
    asked = 0
    for frame, (before, placed) in zip(s.frames, _boards(s), strict=True):
        reading = reader.read(frame.image, previous=history(before))
        for (r, c), evidence in reader.cell_evidence.items():
            cell = reading.cell(r, c)
            asked += cell.uncertain
            if not cell.uncertain and cell.empty != (frame.heights[r][c] == 0):
                assert evidence[_feature("the first plane's face reads a letter (confidence)")] == 0.0
        proposal = play_from_reading(before, reading)
        assert not proposal.ok or set(proposal.tiles) == placed
    assert asked >= 2

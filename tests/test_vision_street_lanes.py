"""The street's lanes: each column's likeliest lane space decided from its occupancy and its face."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.letters import LetterRead
from vision.street import FaceReads
from vision.street_lanes import FEATURES, LANE_FILE, lane_evidence, lane_model, likeliest_lane
from vision.synthetic.scenes import street_scene
from vision.synthetic.train import learn_scene, taught_street_reader


def _feature(name: str) -> int:
    return FEATURES.index(name)


def test_the_face_is_evidence_only_when_a_letter_reader_looked() -> None:
    own = lane_evidence(0.7, 0.01, LetterRead("M", 0.98), "M")
    assert own[_feature("reads the column's letter (confidence)")] == pytest.approx(0.98)
    assert own[_feature("reads another letter (confidence)")] == 0.0
    assert own[_feature("occupancy model (logit)")] == pytest.approx(np.log(0.7 / 0.3))
    other = lane_evidence(0.7, 0.01, LetterRead("W", 0.9), "M")
    assert other[_feature("reads another letter (confidence)")] == pytest.approx(0.9)
    assert other[_feature("reads the column's letter (confidence)")] == 0.0
    nothing = lane_evidence(0.7, 0.01, LetterRead(None, 0.0), "M")
    assert nothing[_feature("a letter reader looked")] == 1.0 and not nothing[2:4].any()
    blind = lane_evidence(0.7, 0.01, None, "M")
    assert not blind[2:].any()


def test_the_likeliest_lane_and_the_columns_next_likeliest_space() -> None:
    prob = np.full((5, 17), 0.01)
    prob[:, 3] = (0.02, 0.6, 0.7, 0.1, 0.05)  # the median likelier than any lane
    assert likeliest_lane(prob, 3) == (1, pytest.approx(0.7))
    prob[:, 4] = (0.02, 0.03, 0.01, 0.01, 0.9)
    assert likeliest_lane(prob, 4) == (4, pytest.approx(0.03))


def test_the_versioned_model_says_what_it_was_fitted_on_and_weighs_the_face() -> None:
    model = lane_model()
    facts = model.info
    assert facts["family"] == "train" and facts["streets"] >= 100 and facts["wrong_costs"] >= 100
    judged = facts["out_of_fold"]  # each street by a network fitted without it
    assert judged["wrong_and_sure"] < facts["spaces"] / 5000 and judged["asked"] < facts["spaces"] / 20
    assert json.loads(LANE_FILE.read_text())["features"] == list(FEATURES)

    def decided(chance: float, read: LetterRead | None) -> tuple[float, bool]:
        return model.chance(float(model.probability(lane_evidence(chance, 0.005, read, "M")[None, :])[0]))

    # a tile the occupancy model half believes in: its face reading its letter surely settles it
    assert decided(0.72, LetterRead("M", 1.0)) >= (0.8, False)
    # the same look with a face that reads nothing: asked
    assert decided(0.72, LetterRead(None, 0.0))[1]
    # plain asphalt stays bare whatever the reader, and a plain tile stays a tile
    assert decided(0.003, LetterRead(None, 0.0)) <= (0.2, False) and decided(0.003, None) <= (0.2, False)
    assert decided(0.97, LetterRead("M", 1.0)) >= (0.8, False) and decided(0.97, None) >= (0.8, False)


@pytest.mark.slow
def test_in_a_dim_light_a_lane_tile_half_seen_is_read_by_its_face() -> None:
    """A game on a skin-toned table, the light changed picture to picture (a third dimmer, a
    soft shadow): the faces of two lane tiles read their letters in this light, which takes a
    look left in doubt (0.7) for a tile, surely; the street is read right, nothing asked."""
    from vision.synthetic.scenes import game_words

    scene = street_scene(1090005, "train", n_frames=13, hand_chance=0.0, light_change=True, sequence=True,
                         words=game_words())
    reader = taught_street_reader(scene, learn_scene(scene))
    frame = scene.frames[12]
    faces = FaceReads(reader, reader.warp(frame.image))
    model = lane_model()
    columns = {"M": 8, "W": 15}
    for letter, col in columns.items():
        row = frame.positions[letter] + 2
        evidence = lane_evidence(0.7, 0.01, faces.read(row, col, letter), letter)
        assert model.chance(float(model.probability(evidence[None])[0])) >= (0.8, False), letter
    reading = reader.read(frame.image)
    on_street = {letter: (at if at is not None and abs(at) <= 2 else None)
                 for letter, at in frame.positions.items()}
    assert reading.positions == on_street
    assert not [column.letter for column in reading.columns if column.uncertain]

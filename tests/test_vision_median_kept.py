"""The street's kept-median decision: a tile the game had on the median, which the picture alone
leaves in doubt, kept there where the fitted decision is sure; a tile a turn moved never kept."""

from __future__ import annotations

import json

import numpy as np
import pytest

from games.word_on_the_street import LETTERS
from vision.median_kept import (
    FEATURES,
    MEDIAN_KEPT_FILE,
    median_kept,
    median_kept_evidence,
    on_the_median,
)
from vision.median_strip import DOUBT, MEDIAN_FILE, MEDIAN_ROW
from vision.occupancy_model import MODEL_FILE
from vision.reading import StreetReading
from vision.space_decision import logit
from vision.synthetic.fitting import fingerprint


def _street(median: float, lane: float, lane_row: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """One column's occupancy (5 x 17, the others empty) and the median decision's probabilities."""
    prob = np.full((5, 17), 0.01)
    prob[lane_row, 4] = lane
    return prob, np.full(17, median)


def test_the_evidence_is_the_median_decision_and_the_surest_lane() -> None:
    prob, median = _street(0.55, 0.3, lane_row=3)
    evidence = median_kept_evidence(median, prob)
    assert evidence.shape == (17, len(FEATURES))
    assert evidence[4] == pytest.approx([logit(0.55), logit(0.3)])
    assert evidence[5] == pytest.approx([logit(0.55), logit(0.01)])


def test_the_game_s_street_is_a_reading_of_sure_tiles_and_the_median_s_are_had() -> None:
    positions = {**dict.fromkeys(LETTERS, 0), "B": -1, "C": 3, "D": -3}
    street = StreetReading.from_positions(dict(reversed(list(positions.items()))))  # any order given
    assert [c.letter for c in street.columns] == list(LETTERS)
    assert street.positions == {**positions, "C": None, "D": None}
    assert not street.uncertain_columns()
    assert on_the_median(street) == [letter not in "BCD" for letter in LETTERS]


def test_the_versioned_decision_says_what_it_was_fitted_on() -> None:
    facts = median_kept().info
    assert facts["family"] == "train" and facts["streets"] >= 50
    assert facts["evidence_from"] == {MODEL_FILE.name: fingerprint(MODEL_FILE),
                                      MEDIAN_FILE.name: fingerprint(MEDIAN_FILE)}
    judged = facts["out_of_fold"]  # each seed's games by a network fitted without them
    assert judged["wrong_and_sure"] == 0
    assert facts["spaces"] - facts["tiles"] > 300  # tiles a turn moved or pulled off: the evidence against
    assert json.loads(MEDIAN_KEPT_FILE.read_text())["features"] == list(FEATURES)


@pytest.mark.parametrize(("median", "lane", "kept"), [
    (0.55, 0.001, True),  # the median decision leans to the tile, no lane shows it: still there
    (0.9, 0.01, True),
    (0.2, 0.01, False),  # leans to the bare strip: a word with its letter thrice may have taken it
    (0.55, 0.99, False),  # the lane toward the team surely shows it: it moved
    (0.001, 0.01, False),  # the median surely bare: pulled off by a word with its letter thrice
])
def test_it_keeps_a_doubted_tile_no_lane_shows_and_never_one_that_left(median: float, lane: float,
                                                                       kept: bool) -> None:
    model = median_kept()
    prob, p = _street(median, lane)
    doubts = [None] * 17
    doubts[4] = DOUBT
    settled, left = model.keep(prob, doubts, median_kept_evidence(p, prob), [True] * 17)
    assert (left[4] is None) == kept
    assert (settled[MEDIAN_ROW, 4] >= 0.8) == kept
    # a column the median decision did not ask, or the history did not have there: untouched
    assert left[:4] == [None] * 4 and settled[MEDIAN_ROW, 3] == prob[MEDIAN_ROW, 3]
    _, unhad = model.keep(prob, doubts, median_kept_evidence(p, prob), [False] * 17)
    assert unhad[4] == DOUBT


@pytest.mark.slow
@pytest.mark.parametrize(("family", "seed", "turn"), [("train", 7500, 0), ("held_out", 7500, 0)])
def test_a_rendered_turn_read_with_the_game_s_street_keeps_the_median_tiles_it_had(
        family: str, seed: int, turn: int) -> None:
    """A game on a skin-toned table, the light changed since calibration, read as the kiosk reads it
    once the stream has shown nothing came in (``hand_free``: the arm check alone may take such a
    light for an arm): the picture alone leaves
    median tiles in doubt (tile or bare strip?). Read with the game's street before the turn, the
    tiles still there are kept and the turn is offered, its moves exactly the game's, by the rules
    alone (no dictionary); and every column kept is one the game had on the median."""
    from bench.bench_hands import _street_reader
    from bench.bench_turns import turns
    from games.wots_moves import seen_moves
    from kiosk.camera.view import street_by_rules
    from vision.synthetic.scenes import game_words, street_scene

    scene = street_scene(seed, family, n_frames=turn + 1, hand_chance=0.0, light_change=True, sequence=True,
                         words=game_words())
    before, frame, after, team = list(turns(scene))[turn]
    reader = _street_reader(scene, True)
    alone = reader.read(frame.image, hand_free=True)
    read = reader.read(frame.image, previous=StreetReading.from_positions(before), hand_free=True)
    asked = {c.letter for c in alone.columns if DOUBT in c.flags}
    still_asked = {c.letter for c in read.columns if DOUBT in c.flags}
    assert asked and still_asked < asked
    assert all(before[letter] == 0 and after[letter] == 0 for letter in asked - still_asked)
    assert street_by_rules(before, alone, team)[1]  # asked without the game's street
    seen, doubted = street_by_rules(before, read, team)
    assert not doubted
    assert seen_moves(before, seen, team) == seen_moves(before, after)

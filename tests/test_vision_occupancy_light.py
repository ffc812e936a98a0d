"""The occupancy model in the light a real table has, and on boards printed as real ones are.

A light that cuts tiles white leaves their brightness and colour, the light undone, much like the
board's; only their structure still tells (docs/reading.md, "Occupancy"). The model weighs how near
each cell is to cut white, is trained half in changed light, and asks within a band fitted out of
fold, so such a tile is asked about, never read surely as empty.
"""

from __future__ import annotations

import numpy as np
import pytest

from bench.bench_generalise import grid_readers, judge_cell
from vision.appearance import board_looks
from vision.median_kept import median_kept
from vision.median_strip import MEDIAN_FILE, median_model
from vision.occupancy_model import (
    KINDS,
    MODEL_FILE,
    PICTURE_FEATURES,
    default_model,
    features,
    light_change,
)
from vision.street_lanes import lane_model
from vision.synthetic.fitting import fingerprint
from vision.synthetic.scenes import grid_scene, street_scene
from vision.synthetic.style import BoardStyle
from vision.synthetic.textures import PX_PER_MM, _ink_on, upwords_board
from vision.synthetic.train import learn_scene, taught_street_reader


@pytest.fixture(scope="module")
def white_tiles_in_a_bright_light():
    """A ``held_out`` 15x15 of white tiles on a light board, the light up to twice calibration's
    with a lamp's glare: a development scene of ``bench hands --light-change`` on which a model
    trained in calibration's light alone read 13 tiles surely as empty (a regression check, not a
    figure)."""
    return grid_scene(126003, "held_out", "grid15", n_frames=6, hand_chance=0.5, sequence=True,
                      light_change=True)


def test_tiles_cut_white_are_never_read_surely_as_empty(white_tiles_in_a_bright_light) -> None:
    s = white_tiles_in_a_bright_light
    reader = grid_readers(s, True)
    tiles = silent = 0
    for frame in s.frames:
        reading = reader.read(frame.image)
        for cell in reading.cells:
            if frame.heights[cell.row][cell.col]:
                tiles += 1
                silent += not cell.uncertain and not judge_cell(
                    cell, frame.heights[cell.row][cell.col], frame.letters[cell.row][cell.col])[1]
    assert tiles >= 40 and silent == 0


def test_the_picture_says_where_a_cell_is_cut_white(white_tiles_in_a_bright_light) -> None:
    """The last picture's tiles are cut white and the light measured far up: what the model weighs
    beside its comparisons (:data:`PICTURE_FEATURES`)."""
    s = white_tiles_in_a_bright_light
    frame = s.frames[-1]
    appearance = learn_scene(s)
    looks = board_looks(frame.image, frame.corners, frame.rows, frame.cols, s.face_frac)
    light = light_change(looks, appearance)
    picture = features(looks, appearance, light)["picture"]
    assert picture.shape[-1] == len(PICTURE_FEATURES)
    tiles = np.array(frame.heights) > 0
    cut = PICTURE_FEATURES.index("cut_white")
    assert np.median(picture[tiles][:, cut]) > 0.9 > np.median(picture[~tiles][:, cut])
    assert np.median(picture[..., PICTURE_FEATURES.index("light_gain")]) > np.log(1.3)


def test_every_reader_takes_the_fitted_band(white_tiles_in_a_bright_light) -> None:
    """The grids' and the street's readers take each cell sure or asked by its model's band, fitted
    out of fold; the street's median and lanes weigh that chance as evidence."""
    s = white_tiles_in_a_bright_light
    frame = s.frames[-1]
    appearance = learn_scene(s)
    looks = board_looks(frame.image, frame.corners, frame.rows, frame.cols, s.face_frac)
    light = light_change(looks, appearance)
    model = default_model()
    feats = features(looks, appearance, light)
    seen_empty = feats["kind"] == KINDS.index("empty")
    cell = model.models["empty"]
    raw = cell.probability(feats["empty"][seen_empty], feats["picture"][seen_empty])
    taken = model.probability(looks, appearance, light)[seen_empty]
    assert np.allclose(taken, cell.chance(raw))
    assert not np.allclose(taken, raw)


def test_bonus_squares_are_printed_and_a_crossword_board_has_its_star() -> None:
    """Real crossword boards print words on their bonus squares and a star in the middle: a tile
    over them changes the square's structure less than over a flat colour, and the training
    boards must show it."""
    premium = ((60, 60, 200), (200, 120, 60))
    style = BoardStyle(board=(20, 20, 20), floor=(15, 15, 15), premium=premium)
    board = upwords_board(15, 15, 19.0, 12.0, np.random.default_rng(3), False, style)
    cell, margin = 19.0 * PX_PER_MM, 12.0 * PX_PER_MM
    middle = slice(int(margin + 7.3 * cell), int(margin + 7.7 * cell))
    centre = board[middle, middle].reshape(-1, 3).astype(int)
    star = np.abs(centre - np.array(_ink_on(premium[0]))).sum(axis=-1) < 30
    assert 0.2 < star.mean() < 0.9  # the star's ink, on the square's colour
    for colour in premium:  # every bonus colour carries its printed words
        square = np.all(np.abs(board.astype(int) - np.array(colour)) < 12, axis=-1).sum()
        ink = np.all(np.abs(board.astype(int) - np.array(_ink_on(colour))) < 12, axis=-1).sum()
        assert square > 0 and 0.005 * square < ink < square


def test_the_street_reads_with_the_model_its_decisions_were_fitted_on() -> None:
    """The street's median and lanes weigh the occupancy model's chances (the lanes the median's
    too): a decision fitted on one model's evidence is not valid on another's, so each names the
    files its evidence came from, and they are today's. After ``python -m vision.synthetic.train``
    this fails until ``fit_median`` and then ``fit_lanes`` and ``fit_median_kept`` are rerun."""
    s = street_scene(5, "train", n_frames=1)
    assert taught_street_reader(s, learn_scene(s)).model is default_model()
    occupancy = fingerprint(MODEL_FILE)
    assert median_model().info["evidence_from"] == {MODEL_FILE.name: occupancy}
    assert lane_model().info["evidence_from"] == {MODEL_FILE.name: occupancy,
                                                  MEDIAN_FILE.name: fingerprint(MEDIAN_FILE)}
    assert median_kept().info["evidence_from"] == lane_model().info["evidence_from"]

"""Word on the Street's median: a tile on its letter or the bare strip, judged against the bare
median the same picture shows (:mod:`vision.median_strip`)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from doubt import assert_right_or_asked

from vision.appearance import BoardAppearance
from vision.learn_board import learn_street
from vision.median_strip import DOUBT, MEDIAN_ROW, settle_median
from vision.street import StreetGeometry, StreetReader
from vision.synthetic.scenes import street_scene

TILE = np.array([85.0, 0.0, 10.0])
STRIP = np.array([62.0, 6.0, 14.0])  # a beige strip, close to the tiles' cream


def _street(lane_tiles: dict[int, int], median: dict[int, float]) -> np.ndarray:
    """Tile probabilities: lane tiles (column -> row) sure, the median's as given, the rest 0."""
    prob = np.zeros((5, 17))
    for col, row in lane_tiles.items():
        prob[row, col] = 0.99
    for col, p in median.items():
        prob[MEDIAN_ROW, col] = p
    return prob


def test_a_bare_median_taken_for_a_tile_is_settled_by_the_bare_spaces_beside_it() -> None:
    start = np.tile(TILE, (17, 1))
    now = start.copy()
    now[[0, 1, 2, 5]] = STRIP  # 0 and 1: tiles out in lanes; 2 and 5: captured, the strip bare
    now[5] += 1.5
    prob = _street({0: 0, 1: 4}, {2: 0.85, 5: 0.7, 3: 0.9})
    settled, doubts = settle_median(prob, now, start)
    assert settled[MEDIAN_ROW, 2] < 0.1 and settled[MEDIAN_ROW, 5] < 0.1  # bare: captured, surely
    assert settled[MEDIAN_ROW, 3] >= 0.9  # column 3 still looks like its own tile
    assert doubts == [None] * 17


def test_a_tile_the_model_called_bare_is_kept_when_it_looks_like_itself() -> None:
    start = np.tile(TILE, (17, 1))
    start[15] = (40.0, 0.0, 4.0)  # a bold W: its face mostly ink at calibration too
    now = start.copy()
    now[[0, 1]] = STRIP
    now[15] += (3.0, 0.5, 0.5)
    settled, _ = settle_median(_street({0: 1, 1: 3}, {15: 0.06}), now, start)
    assert settled[MEDIAN_ROW, 15] >= 0.9


def test_in_between_and_against_the_model_is_a_doubt_not_a_guess() -> None:
    start = np.tile(TILE, (17, 1))
    now = start.copy()
    now[[0, 1]] = STRIP
    now[7] = (TILE + STRIP) / 2 + (0.0, 0.0, 1.0)  # halfway, a little nearer the strip
    settled, doubts = settle_median(_street({0: 1, 1: 3}, {7: 0.9}), now, start)
    assert 0.2 < settled[MEDIAN_ROW, 7] < 0.8
    assert doubts[7] == DOUBT and doubts.count(None) == 16


def test_one_tile_out_is_not_enough_to_know_the_bare_strip() -> None:
    """With one bare example the strip is not known: the model decides alone, and is believed
    only where it is sure (0.9 either way); in between the space is asked, guessed its way
    (fresh train seed 153007, picture 4, below)."""
    start = np.tile(TILE, (17, 1))
    now = start.copy()
    now[[0, 2]] = STRIP
    prob = _street({0: 1}, {2: 0.85, 3: 0.95, 4: 0.15})
    settled, doubts = settle_median(prob, now, start)
    assert doubts[2] == DOUBT and settled[MEDIAN_ROW, 2] == 0.55
    assert doubts[4] == DOUBT and settled[MEDIAN_ROW, 4] == 0.45
    untouched = [c for c in range(17) if c not in (2, 4)]
    np.testing.assert_array_equal(settled[:, untouched], prob[:, untouched])  # 3 sure, the rest 0
    assert [doubts[c] for c in untouched] == [None] * 15


@pytest.mark.slow
def test_a_street_with_hardly_a_tile_in_its_lanes_is_right_or_asked() -> None:
    """Fresh ``bench hands --seeds 153000``, train seed 153007, picture 4: every tile captured or
    on its letter but one, on a pale tan strip with blue printed letters. With one bare example
    the median was left to the model, which read seven bare spaces as their tiles (0.70-0.88):
    the captured N, S and T surely on the median."""
    from bench.bench_hands import _street_reader

    scene = street_scene(153007, "train", n_frames=6, hand_chance=0.5)
    frame = scene.frames[4]
    assert not frame.hand and [frame.positions[x] for x in "NST"] == [3, 3, -3]
    _right_or_asked(_street_reader(scene, True).read(frame.image).columns, frame, asked=14)


def test_a_strip_the_tiles_colour_cannot_overrule_the_model() -> None:
    """A tan strip under tan tiles: the bare spaces differ among themselves (their printed letters,
    the light) more than from the tiles, so which one a space is nearer says nothing."""
    rng = np.random.default_rng(3)
    start = np.tile(TILE, (17, 1)) + rng.normal(0.0, 1.0, (17, 3))
    now = start.copy()
    now[[0, 1, 2, 3, 4, 6]] = TILE + np.array([-2.5, 0.3, 1.0]) + rng.normal(0.0, 3.0, (6, 3))  # bare, tan
    now[5] = TILE + np.array([-1.0, 0.0, 0.5])  # its tile, in a slightly other light: close to the bare ones
    prob = _street({0: 0, 1: 4, 2: 1, 3: 3, 4: 0, 6: 4}, {5: 0.97})
    settled, doubts = settle_median(prob, now, start)
    np.testing.assert_array_equal(settled, prob)
    assert doubts == [None] * 17
    # the same spaces on a strip of another colour: the comparison is heard
    now[[0, 1, 2, 3, 4, 6]] += (-20.0, 5.0, 5.0)
    now[5] = now[0]
    assert settle_median(prob, now, start)[0][MEDIAN_ROW, 5] < 0.1


def test_a_model_that_takes_the_bare_strip_for_tiles_is_not_believed_on_the_median() -> None:
    """A strip of the tiles' colour, the model sure of a tile on every median space, the six this
    picture shows bare (their tiles out in lanes) among them: its word on column 5, whose tile is
    in no lane, says nothing. Where it reads the bare spaces as bare, it is believed."""
    rng = np.random.default_rng(3)
    start = np.tile(TILE, (17, 1)) + rng.normal(0.0, 1.0, (17, 3))
    now = start + rng.normal(0.0, 2.0, (17, 3))
    lanes = {0: 0, 1: 4, 2: 1, 3: 3, 4: 0, 6: 4}
    fooled = _street(lanes, {col: 0.95 for col in range(17)})
    settled, doubts = settle_median(fooled, now, start)
    assert 0.5 <= settled[MEDIAN_ROW, 5] < 0.6 and doubts[5] == DOUBT
    asked = [col for col, doubt in enumerate(doubts) if doubt]
    assert asked == [col for col in range(17) if col not in lanes]
    np.testing.assert_array_equal(settled[[0, 1, 3, 4]], fooled[[0, 1, 3, 4]])  # the lanes untouched
    trusted = _street(lanes, {5: 0.95, 7: 0.9})
    settled, doubts = settle_median(trusted, now, start)
    np.testing.assert_array_equal(settled, trusted)
    assert doubts == [None] * 17


@pytest.mark.slow
def test_captured_tiles_on_a_strip_of_the_tiles_colour_the_model_took_for_tiles_are_asked() -> None:
    """Fresh in-domain `bench generalise --seeds 367000`, seed 367004, picture 0: a tan strip under
    tan tiles, the model sure of a tile on all nine spaces the picture showed bare; captured H, L
    and M were read surely on their letters. Every column is right or asked."""
    scene = street_scene(367004, "train", n_frames=5)
    frame = scene.frames[0]
    assert not frame.hand
    columns = {c.letter: c for c in _reader(scene).read(frame.image).columns}
    _right_or_asked(columns.values(), frame, asked=None)
    for letter in "HLM":
        assert _truth(frame, letter) is None and columns[letter].uncertain, columns[letter]


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="the reader asks about all 17 columns of this picture")
def test_a_street_of_the_tiles_colour_is_not_asked_about_every_column() -> None:
    """The street above (in-domain seed 367004, picture 0): the reader is right or asks on every
    column, but it asks about all 17 (7 "hard to tell from the bare strip", 10 "two spaces of this
    column look occupied"), so a check of right-or-asked proves nothing there. When it asks about
    fewer, this passes, and the test above gets its ceiling."""
    scene = street_scene(367004, "train", n_frames=5)
    reading = _reader(scene).read(scene.frames[0].image)
    assert len(reading.uncertain_columns()) < len(reading.columns)


def test_a_space_that_moved_as_far_as_a_bare_one_is_in_doubt() -> None:
    """A tan strip under tan tiles: a captured tile's bare space is nearer its tile's old look than
    the other bare spaces are (their printed letters differ), but it moved as far from that look
    as the bare spaces moved from their own tiles': it may have lost its tile."""
    start = np.tile(TILE, (17, 1))
    now = start.copy()
    now[[0, 1, 2, 3]] = TILE + np.array([6.0, 0.0, 0.0])  # bare: each moved 6 from its tile
    now[[0, 1]] += np.array([0.0, 2.0, 0.0])  # and the printed letters differ a little
    now[[2, 3]] += np.array([0.0, -2.0, 0.0])
    now[9] = TILE + np.array([0.0, 5.0, 0.0])  # moved 5 from its tile: nearer it than any bare one
    now[10] = TILE + np.array([0.0, 1.0, 0.0])  # a tile in place, a little light drift
    prob = _street({0: 0, 1: 4, 2: 1, 3: 3}, {9: 0.86, 10: 0.9})
    settled, doubts = settle_median(prob, now, start)
    assert 0.45 < settled[MEDIAN_ROW, 9] <= 0.55 and doubts[9] == DOUBT
    assert settled[MEDIAN_ROW, 10] >= 0.9 and doubts[10] is None


def _reader(scene, appearance=None) -> StreetReader:
    """The street's reader as calibration makes it: the learnt appearance unless one is given."""
    cal = scene.calibration
    if appearance is None:
        appearance = learn_street(cal.image, cal.corners, scene.face_frac)
    geometry = StreetGeometry(cal.cell_mm[0], cal.cell_mm[1], cal.cell_mm[0] * scene.face_frac,
                              scene.thickness_mm)
    return StreetReader(cal.corners, cal.image_size, geometry=geometry, appearance=appearance)


def _truth(frame, letter: str) -> int | None:
    """Where the letter's tile is on the street (-2..2), None when captured (off the street)."""
    truth = frame.positions[letter]
    return truth if truth is not None and -2 <= truth <= 2 else None


def _right_or_asked(columns, frame, asked: int | None) -> None:
    """Every column where the picture has its tile, or asked; no more asked than ``asked`` allows
    (None: the reader asks about every column of this picture, and no ceiling can be set: see
    test_a_street_of_the_tiles_colour_is_not_asked_about_every_column)."""
    if asked is None:
        for column in columns:
            assert column.position == _truth(frame, column.letter) or column.uncertain, column
        return
    assert_right_or_asked(columns, lambda column: column.position == _truth(frame, column.letter),
                          measured=asked)


INK = np.array([20.0, 30.0, 20.0])  # the tile's letter: dark red
PRINTED = np.array([25.0, 10.0, -30.0])  # the strip's printed letters: dark blue


def _in_between(ink_of_7: np.ndarray) -> tuple[np.ndarray, ...]:
    """A street whose space 7 is halfway between its tile and the bare strip by its ground (a light
    the calibration did not see), a little nearer the tile; its ink as given."""
    start = np.tile(TILE, (17, 1))
    now = start.copy()
    now[[0, 1, 2]] = STRIP + np.array([[0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [0.0, 0.5, 0.0]])
    now[7] = (TILE + STRIP) / 2 + (1.0, 0.0, 0.0)
    inks_start = np.tile(INK, (17, 1))
    inks_now = inks_start.copy()
    inks_now[[0, 1, 2]] = PRINTED
    inks_now[7] = ink_of_7
    return start, now, inks_start, inks_now


def test_a_space_its_ground_leaves_in_between_is_settled_by_its_ink() -> None:
    """Stop 27: tiles on their median letters in a much changed light (a tan tile on an orange
    strip, a white one under a colour cast) were as far from their own calibration look as from
    the bare strip, and were flagged; the tile's letter and the strip's printed one differ."""
    start, now, inks_start, inks_now = _in_between(INK + np.array([2.0, -1.0, 1.0]))
    prob = _street({0: 1, 1: 3, 2: 4}, {7: 0.3})
    assert settle_median(prob, now, start)[1][7] == DOUBT  # the ground alone: in doubt
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert settled[MEDIAN_ROW, 7] >= 0.9 and doubts[7] is None


def test_an_ink_that_leans_against_the_ground_settles_nothing() -> None:
    """A clear ink heard against the ground's lean would have read a captured tile's bare space as
    the tile, surely (held-out seed 157009): only an ink leaning the ground's way settles."""
    start, now, inks_start, inks_now = _in_between(PRINTED + np.array([1.0, 0.0, 0.0]))  # the ink: bare
    prob = _street({0: 1, 1: 3, 2: 4}, {7: 0.3})
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert 0.2 < settled[MEDIAN_ROW, 7] < 0.8 and doubts[7] == DOUBT


def test_a_ground_like_the_bare_strip_with_its_tiles_ink_is_a_doubt() -> None:
    """A tile in a shadow across half the street takes the ground of the bare strip in the light,
    but its letter is still its tile's: asked, not read as captured (fresh held-out seed 175004)."""
    start, now, inks_start, inks_now = _in_between(INK + np.array([2.0, -1.0, 1.0]))
    now[7] = STRIP + np.array([0.3, 0.0, 0.2])  # its ground: the bare strip's
    prob = _street({0: 1, 1: 3, 2: 4}, {7: 0.3})
    settled, doubts = settle_median(prob, now, start)
    assert settled[MEDIAN_ROW, 7] < 0.1 and doubts[7] is None  # the ground alone: surely bare
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert 0.2 < settled[MEDIAN_ROW, 7] < 0.5 and doubts[7] == DOUBT  # asked, guessed bare
    # a ground a fifth of the way to its tile, as the tiles asked this way had (0.18-0.29; the bare
    # spaces' 0.02-0.07): still asked, guessed on its letter (fresh in-domain seed 205002)
    ground = now[7].copy()
    now[7] = STRIP + (TILE - STRIP) * 0.2
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert 0.5 <= settled[MEDIAN_ROW, 7] < 0.8 and doubts[7] == DOUBT
    now[7] = ground
    # a bare space whose ink is the strip's printed letter stays surely bare
    inks_now[7] = PRINTED
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert settled[MEDIAN_ROW, 7] < 0.1 and doubts[7] is None


def test_in_between_is_a_doubt_where_the_median_alone_decides() -> None:
    """A space halfway between its tile and the bare strip, the ink no help, the model sure it is
    bare (0.01) and no lane holding the column's tile: a light across the street that the model
    misjudged read an H on its letter surely as captured (fresh held-out seed 175011). Where a
    lane holds the tile surely, the median does not decide and is left as it was."""
    start, now, inks_start, inks_now = _in_between(INK + np.array([2.0, -1.0, 1.0]))
    inks_now[7] = (INK + PRINTED) / 2  # no help
    settled, doubts = settle_median(_street({0: 1, 1: 3, 2: 4}, {7: 0.01}), now, start, inks_now, inks_start)
    # in doubt; its ground is too near halfway to call, so the model's 0.01 is the guess
    assert 0.2 < settled[MEDIAN_ROW, 7] < 0.5 and doubts[7] == DOUBT
    # the model leaning the ground's way is no surer
    settled, doubts = settle_median(_street({0: 1, 1: 3, 2: 4}, {7: 0.6}), now, start, inks_now, inks_start)
    assert 0.5 <= settled[MEDIAN_ROW, 7] < 0.8 and doubts[7] == DOUBT
    settled, doubts = settle_median(_street({0: 1, 1: 3, 2: 4, 7: 0}, {7: 0.6}), now, start, inks_now,
                                    inks_start)
    assert settled[MEDIAN_ROW, 7] == 0.6 and doubts[7] is None


def test_on_a_strip_of_the_tiles_colour_an_ink_against_the_model_is_a_doubt() -> None:
    """Where the ground cannot tell the strip from the tiles, the model alone decides, and a
    captured K was read surely on its letter (fresh in-domain seed 173010): its ink was the
    strip's printed letter. The ink does not overrule the model there; it asks, and the guess
    shown is the ink's side (fresh held-out seed 203010: three tiles guessed captured)."""
    start = np.tile(TILE, (17, 1))
    rng = np.random.default_rng(3)
    now = start + rng.normal(0.0, 2.0, start.shape)  # the bare strip's ground: the tiles' colour
    inks_start = np.tile(INK, (17, 1))
    inks_now = inks_start.copy()
    inks_now[[0, 1, 2, 9]] = PRINTED  # three tiles out in lanes, and space 9 bare (captured)
    prob = _street({0: 1, 1: 3, 2: 4}, {9: 0.87, 10: 0.9, 11: 0.2})
    settled, doubts = settle_median(prob, now, start)
    assert doubts == [None] * 17  # the ground alone: nothing to go on
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert doubts[9] == DOUBT and settled[MEDIAN_ROW, 9] < 0.5  # asked, guessed bare as its ink says
    assert doubts[10] is None and settled[MEDIAN_ROW, 10] == 0.9  # its ink its own: as the model read it
    assert doubts[11] == DOUBT and settled[MEDIAN_ROW, 11] >= 0.5  # the model says gone, the ink its tile


def test_in_between_the_guess_is_the_side_the_ground_leans_to() -> None:
    """A space whose ground leans to its tile (about two thirds of the way) while the model calls
    it bare: still a doubt, but the players are shown the tile on its letter."""
    start = np.tile(TILE, (17, 1))
    now = start.copy()
    now[[0, 1]] = STRIP
    now[7] = TILE + (STRIP - TILE) * 0.35  # two thirds of the way to its tile
    settled, doubts = settle_median(_street({0: 1, 1: 3}, {7: 0.1}), now, start)
    assert 0.5 <= settled[MEDIAN_ROW, 7] < 0.8 and doubts[7] == DOUBT
    now[7] = TILE + (STRIP - TILE) * 0.65  # and two thirds of the way to the bare strip
    settled, doubts = settle_median(_street({0: 1, 1: 3}, {7: 0.9}), now, start)
    assert 0.2 < settled[MEDIAN_ROW, 7] < 0.5 and doubts[7] == DOUBT
    # halfway, the ground says nothing: the model's guess (a captured W, fresh seed 187006)
    now[7] = TILE + (STRIP - TILE) * 0.5
    for model, guessed_on in ((0.02, False), (0.9, True)):
        settled, doubts = settle_median(_street({0: 1, 1: 3}, {7: model}), now, start)
        assert (settled[MEDIAN_ROW, 7] >= 0.5) == guessed_on and doubts[7] == DOUBT


@pytest.mark.slow
def test_tiles_on_a_pale_strip_the_model_called_bare_are_guessed_on_their_letters() -> None:
    """Fresh held-out seed 181003, picture 2 (`bench generalise --seeds 171000`): white tiles on a
    pale grey strip, the model sure (0.11, 0.17) that C and M had left their letters, their grounds
    leaning to the tile (0.63, 0.68). They are in doubt and guessed on their letters."""
    scene = street_scene(181003, "held_out", n_frames=5)
    frame = scene.frames[2]
    assert not frame.hand
    reader = _reader(scene)
    columns = {c.letter: c for c in reader.read(frame.image).columns}
    for letter in "CM":
        assert frame.positions[letter] == 0
        assert columns[letter].position == 0, columns[letter]
    _right_or_asked(columns.values(), frame, asked=3)


@pytest.mark.slow
def test_a_captured_tile_on_a_strip_of_the_tiles_colour_is_never_read_surely_on_it() -> None:
    """Fresh in-domain `bench generalise --seeds 173000`, seed 173010, picture 3: a captured K read
    surely on its letter (0.74) on a strip of the tiles' colour. Every column is right or asked."""
    scene = street_scene(173010, "train", n_frames=5)
    frame = scene.frames[3]
    assert not frame.hand
    reader = _reader(scene)
    columns = {c.letter: c for c in reader.read(frame.image).columns}
    _right_or_asked(columns.values(), frame, asked=8)
    assert _truth(frame, "K") is None and columns["K"].position is None, columns["K"]  # the guess, too


@pytest.mark.slow
def test_tiles_on_a_strip_of_their_colour_the_model_called_bare_are_guessed_by_their_ink() -> None:
    """Fresh held-out seed 203010 (`bench generalise --seeds 193000`): on a strip of the tiles'
    colour the model called C and H (picture 3) and M (picture 4) bare, 0.16-0.28; their inks
    were their tiles' (0.80-0.90). They were asked, but guessed captured."""
    scene = street_scene(203010, "held_out", n_frames=5)
    reader = _reader(scene)
    for at, letters, asked in ((3, "CH", 3), (4, "M", 2)):
        frame = scene.frames[at]
        assert not frame.hand
        columns = {c.letter: c for c in reader.read(frame.image).columns}
        for letter in letters:
            assert frame.positions[letter] == 0 and columns[letter].position == 0, columns[letter]
        _right_or_asked(columns.values(), frame, asked=asked)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "at"), [(175004, 4), (175011, 3)])
def test_tiles_in_a_shadow_or_a_light_across_the_street_are_never_read_surely_gone(seed, at) -> None:
    """Fresh held-out streets of `bench generalise --seeds 165000`: a shadow over the right half of
    the street (four tiles on their letters read surely as captured) and a light that brightens
    along it (an H read surely as captured). Every column is now right or in doubt."""
    scene = street_scene(seed, "held_out", n_frames=5)
    frame = scene.frames[at]
    assert not frame.hand
    reader = _reader(scene)
    _right_or_asked(reader.read(frame.image).columns, frame, asked=0)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "family", "at", "letter"), [
    (143001, "train", 0, "T"),  # a tan tile on an orange strip, the light far brighter than at calibration
    (151002, "held_out", 1, "F"),  # a white tile under a warm cast the light's estimate over-undid
])
def test_a_tile_on_its_median_letter_in_a_changed_light_is_read_there(seed, family, at, letter) -> None:
    """Development streets (`bench generalise --seeds 143000` and `141000`, fresh then) where a
    tile on its median letter was flagged "hard to tell from the bare strip": its ink settles it."""
    scene = street_scene(seed, family, n_frames=5)
    frame = scene.frames[at]
    assert frame.positions[letter] == 0 and not frame.hand
    reader = _reader(scene)
    column = next(c for c in reader.read(frame.image).columns if c.letter == letter)
    assert column.position == 0 and not column.uncertain


@pytest.mark.slow
def test_a_tile_on_a_strip_of_its_own_colour_is_not_read_as_gone() -> None:
    """In-domain seed 125004 (`bench generalise --seeds 125000`): a tan strip under tan tiles; the H
    on its letter was nearer the bare spaces than its own calibration look and read surely as
    captured."""
    scene = street_scene(125004, "train", n_frames=5)
    frame = scene.frames[4]
    assert frame.positions["H"] == 0 and not frame.hand
    reader = _reader(scene)
    assert_right_or_asked(reader.read(frame.image), lambda column: column.position == 0, at={"H"},
                          measured=10)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "family"), [(61011, "train"), (61009, "train"), (61007, "train"),
                                              (71004, "held_out")])
def test_streets_the_model_alone_misread_are_read_right(seed: int, family: str) -> None:
    """Rendered streets where the trained model alone was wrong (a bold W and M on their letters
    read as gone; bare beige and grey medians read as tiles, some with confidence): with the
    bare median of the same picture every column is right."""
    scene = street_scene(seed, family, n_frames=4, hand_chance=0.0)
    cal = scene.calibration
    learnt = learn_street(cal.image, cal.corners, scene.face_frac)
    assert learnt.faces is not None and learnt.faces.shape == (5, 17, 3)
    wrong = {}
    for name, appearance in (("model alone", dataclasses.replace(learnt, faces=None)), ("settled", learnt)):
        reader = _reader(scene, appearance)
        wrong[name] = 0
        for frame in scene.frames:
            for column in reader.read(frame.image).columns:
                wrong[name] += column.position != _truth(frame, column.letter)
    assert wrong["model alone"] >= 3
    assert wrong["settled"] == 0


def test_the_start_faces_survive_a_save_and_load(tmp_path) -> None:
    scene = street_scene(5, "train", n_frames=1, hand_chance=0.0)
    cal = scene.calibration
    learnt = learn_street(cal.image, cal.corners, scene.face_frac)
    learnt.save(tmp_path / "board.npz")
    loaded = BoardAppearance.load(tmp_path / "board.npz")
    np.testing.assert_allclose(loaded.faces, learnt.faces)
    np.testing.assert_allclose(loaded.inks, learnt.inks)
    # the median's faces are the tiles': light; the lanes' the street's: darker
    assert loaded.faces[MEDIAN_ROW, :, 0].mean() > loaded.faces[0, :, 0].mean()
    # a face's ink is darker than its ground where a letter is (the median's tiles)
    assert (loaded.inks[MEDIAN_ROW, :, 0] < loaded.faces[MEDIAN_ROW, :, 0] - 10).all()


def test_a_calibration_saved_before_the_inks_still_reads(tmp_path) -> None:
    """Stop 26's calibrations have no inks: the median is settled by the ground alone."""
    scene = street_scene(5, "train", n_frames=2, hand_chance=0.0)
    cal = scene.calibration
    learnt = dataclasses.replace(learn_street(cal.image, cal.corners, scene.face_frac), inks=None)
    learnt.save(tmp_path / "board.npz")
    loaded = BoardAppearance.load(tmp_path / "board.npz")
    assert loaded.inks is None and loaded.faces is not None
    reader = _reader(scene, loaded)
    assert len(reader.read(scene.frames[1].image).columns) == 17


@pytest.mark.slow
def test_tiles_whose_ground_looks_bare_but_ink_is_theirs_are_guessed_on_their_letters() -> None:
    """Fresh in-domain seed 205002 (`bench generalise --seeds 205000`): G (picture 0) and B
    (picture 3) on their letters, their grounds leaning to the bare strip (0.29, 0.27) but their
    inks their tiles' (0.79). They were asked, and guessed captured."""
    scene = street_scene(205002, "train", n_frames=5)
    reader = _reader(scene)
    for at, letter, asked in ((0, "G", 2), (3, "B", 1)):
        frame = scene.frames[at]
        assert not frame.hand and frame.positions[letter] == 0
        columns = {c.letter: c for c in reader.read(frame.image).columns}
        assert columns[letter].position == 0, columns[letter]
        _right_or_asked(columns.values(), frame, asked=asked)


def test_a_weak_ground_gives_way_to_a_clear_ink_against_it() -> None:
    """On a strip a shade off the tiles' colour (the grounds 2.5 times the bare spaces' spread
    apart) a captured tile's bare space looked like its tile (0.75 of the way) while its printed
    letter was plainly not the tile's (fresh in-domain seed 211007): asked, guessed bare as its
    ink says. Where the grounds are far apart, the same ink is not heard over them."""
    rng = np.random.default_rng(5)
    start = np.tile(TILE, (17, 1))
    near = TILE + np.array([-3.0, 1.0, 1.5])  # the bare strip: 3.5 from the tiles, spread about 1
    now = start + rng.normal(0.0, 0.3, start.shape)
    now[[0, 1, 2, 9]] = near + rng.normal(0.0, 0.6, (4, 3))
    now[9] = start[9] + (near - TILE) * 0.25  # captured, but its ground three quarters its tile's
    inks_start = np.tile(INK, (17, 1))
    inks_now = inks_start + rng.normal(0.0, 0.3, inks_start.shape)
    inks_now[[0, 1, 2, 9]] = PRINTED + rng.normal(0.0, 0.6, (4, 3))
    prob = _street({0: 1, 1: 3, 2: 4}, {9: 0.9, 10: 0.9})
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert doubts[9] == DOUBT and settled[MEDIAN_ROW, 9] < 0.5, (settled[MEDIAN_ROW, 9], doubts[9])
    assert doubts[10] is None and settled[MEDIAN_ROW, 10] >= 0.9  # ground and ink both its tile's
    far = TILE + (near - TILE) * 6.0  # the same strip, but the grounds far apart
    now[[0, 1, 2]] = far + rng.normal(0.0, 0.6, (3, 3))
    now[9] = start[9] + (far - TILE) * 0.1  # ground clearly its tile's
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert doubts[9] is None and settled[MEDIAN_ROW, 9] >= 0.9


@pytest.mark.slow
def test_a_captured_tile_on_a_strip_a_shade_off_the_tiles_colour_is_never_read_surely_on_it() -> None:
    """Fresh in-domain seed 211007 (`bench generalise --seeds 211000`), picture 4: a captured B
    read surely on its letter (0.92). Every column is now right or asked, the B guessed bare."""
    scene = street_scene(211007, "train", n_frames=5)
    frame = scene.frames[4]
    assert not frame.hand and _truth(frame, "B") is None
    columns = {c.letter: c for c in _reader(scene).read(frame.image).columns}
    _right_or_asked(columns.values(), frame, asked=4)
    assert columns["B"].position is None, columns["B"]


@pytest.mark.slow
def test_an_ink_barely_clearer_than_a_weak_ground_does_not_unseat_sure_tiles() -> None:
    """Fresh in-domain seed 225008 (`bench generalise --seeds 225000`), picture 4: grounds 4.1 of
    their spreads apart, inks 5.5. The ink's share was noise there: L, N and W on their letters,
    the model and the ground sure of them, had inks of 0.17-0.23 and were asked, guessed
    captured. The inks must tell the strip from the tiles twice as clearly as the grounds."""
    scene = street_scene(225008, "train", n_frames=5)
    frame = scene.frames[4]
    assert not frame.hand
    columns = {c.letter: c for c in _reader(scene).read(frame.image).columns}
    for letter in "LNW":
        assert frame.positions[letter] == 0
        assert columns[letter].position == 0 and not columns[letter].uncertain, columns[letter]
    _right_or_asked(columns.values(), frame, asked=2)


@pytest.mark.slow
def test_a_space_asked_with_its_ground_halfway_is_guessed_by_a_clear_ink() -> None:
    """Fresh train seed 261001 (`bench generalise --seeds 261000`), picture 3: a W on its letter,
    a little off it, on a strip whose ground is near the tiles' (2.9 spreads apart). Its ground was
    halfway (0.46), too near to call, and the model leant bare (0.45): asked and guessed captured.
    Its ink leant to the tile (0.68), and the inks tell strip from tiles clearly (8.9 spreads): the
    guess is now the ink's, the space still asked."""
    scene = street_scene(261001, "train", n_frames=5)
    frame = scene.frames[3]
    assert not frame.hand and frame.positions["W"] == 0
    columns = {c.letter: c for c in _reader(scene).read(frame.image).columns}
    assert columns["W"].position == 0 and columns["W"].uncertain, columns["W"]
    _right_or_asked(columns.values(), frame, asked=2)


def test_an_ink_that_tells_strip_from_tiles_poorly_does_not_guess() -> None:
    """Captured B and R spaces of held-out seed 157009 had inks leaning to their tiles (0.68-0.71)
    where the inks told strip from tiles by only 2.5-3 spreads: the ink guesses only where they
    are :data:`INK_GUESS_APART` apart or more."""
    from vision.median_strip import INK_GUESS_APART, _separation

    start, now, inks_start, inks_now = _in_between(INK * 0.68 + PRINTED * 0.32)
    prob = _street({0: 1, 1: 3, 2: 4}, {7: 0.3})
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert doubts[7] == DOUBT and settled[MEDIAN_ROW, 7] >= 0.5  # clear inks: the ink's guess, the tile
    # the bare spaces' printed letters spread so wide the inks are barely apart
    inks_now[[0, 1, 2]] = PRINTED + np.array([[0.0, 0.0, 0.0], [14.0, 0.0, 0.0], [0.0, 14.0, 0.0]])
    assert _separation(inks_now[[0, 1, 2]], inks_start[[0, 1, 2]]) < INK_GUESS_APART
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert doubts[7] == DOUBT and settled[MEDIAN_ROW, 7] < 0.5  # the ground too near halfway: the model's


def test_an_ink_far_less_telling_than_the_ground_does_not_guess() -> None:
    """Held-out seed 181003, picture 2: grounds 58 spreads apart, inks 8.5; a C on its letter, its
    ground leaning to the tile (0.63), had an ink leaning bare (0.27). The ink guesses only where
    the inks are :data:`INK_GUESS_OF_GROUND` as far apart as the grounds."""
    from vision.median_strip import INK_GUESS_APART, INK_GUESS_OF_GROUND, _separation

    start, now, inks_start, inks_now = _in_between(INK * 0.27 + PRINTED * 0.73)
    inks_now[[0, 1, 2]] = PRINTED + np.array([[0.0, 0.0, 0.0], [6.0, 0.0, 0.0], [0.0, 6.0, 0.0]])
    now[7] = STRIP + (TILE - STRIP) * 0.63  # the ground leans to the tile
    grounds = _separation(now[[0, 1, 2]], start[[0, 1, 2]])
    inks = _separation(inks_now[[0, 1, 2]], inks_start[[0, 1, 2]])
    assert INK_GUESS_APART <= inks < INK_GUESS_OF_GROUND * grounds
    prob = _street({0: 1, 1: 3, 2: 4}, {7: 0.3})
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert doubts[7] == DOUBT and settled[MEDIAN_ROW, 7] >= 0.5, settled[MEDIAN_ROW, 7]


def test_a_ground_that_only_just_says_bare_is_sure_only_with_the_ink_agreeing() -> None:
    """Held-out seed 301011, picture 0: under a shadow the light's change did not undo, two tiles
    on their letters had grounds near the bare strip's (0.24, 0.26 of the way to their tiles) and
    inks in between (0.46, 0.48); they were read surely as captured. A ground over
    :data:`BARELY_BARE` is surely bare only where the ink leans bare too; otherwise asked, its
    guess bare."""
    from vision.median_strip import BARELY_BARE, CLEAR_SHARE, _share

    start, now, inks_start, inks_now = _in_between(INK * 0.46 + PRINTED * 0.54)
    now[7] = STRIP + (TILE - STRIP) * 0.3  # the ground just on the bare side of the line
    prob = _street({0: 1, 1: 3, 2: 4}, {7: 0.3})
    assert BARELY_BARE < _share(now, start, np.array([0, 1, 2]), 7)[0] <= CLEAR_SHARE
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert doubts[7] == DOUBT and settled[MEDIAN_ROW, 7] < 0.5  # asked, guessed bare
    inks_now[7] = INK * 0.2 + PRINTED * 0.8  # the ink leans bare: surely bare
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert doubts[7] is None and settled[MEDIAN_ROW, 7] < 0.1
    now[7] = STRIP + (TILE - STRIP) * 0.1  # a ground clearly bare needs no ink to agree
    inks_now[7] = INK * 0.46 + PRINTED * 0.54
    settled, doubts = settle_median(prob, now, start, inks_now, inks_start)
    assert doubts[7] is None and settled[MEDIAN_ROW, 7] < 0.1


@pytest.mark.slow
def test_tiles_in_a_shadow_the_light_does_not_undo_are_not_read_surely_captured() -> None:
    """Fresh held-out seed 301011 (`bench generalise --seeds 291000`), picture 0: a game's first
    picture, a shadow over the middle of the street; the N and P on their letters were read surely
    as captured (0.83, 0.84). Every column is now right or asked: since stop 38 they were asked
    (:data:`vision.median_strip.BARELY_BARE`), and since stop 39 the lanes' own light, which
    follows the shadow, is kept, and they are read on their letters."""
    scene = street_scene(301011, "held_out", n_frames=5)
    frame = scene.frames[0]
    assert not frame.hand and frame.positions["N"] == 0 and frame.positions["P"] == 0
    columns = {c.letter: c for c in _reader(scene).read(frame.image).columns}
    assert all(columns[letter].position == 0 or columns[letter].uncertain for letter in "NP")
    _right_or_asked(columns.values(), frame, asked=1)


@pytest.mark.slow
def test_a_tile_in_a_shadow_over_one_end_of_the_street_is_read_on_its_letter() -> None:
    """Fresh held-out seed 305003 (`bench generalise --seeds 295000`), picture 0: a shadow over the
    street's right end. The lanes' light went from +0.13 to -0.42 along the street; their median
    differed from the surround's one gain, which was taken everywhere, and left the S on its letter
    in the shadow as dark as the bare strip: read surely as captured. The surround beside the
    lanes saw the same shadow, so the lanes' own light is kept, and the S is read on its letter."""
    scene = street_scene(305003, "held_out", n_frames=5)
    frame = scene.frames[0]
    assert not frame.hand and frame.positions["S"] == 0
    columns = {c.letter: c for c in _reader(scene).read(frame.image).columns}
    assert columns["S"].position == 0
    _right_or_asked(columns.values(), frame, asked=0)

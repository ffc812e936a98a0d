"""Upwords reader on rendered boards: occupancy, letters, stack heights (geometry and history),
a whole game read turn by turn through the engine, hands, contradictions, 10x10."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from doubt import assert_right_or_asked

from games.transcript import replay, split_lines
from games.upwords_board import Board
from vision.reading import BoardReading
from vision.synthetic.render import Effects, Hand, Pose, UpwordsSpec, render_upwords, upwords_cells
from vision.synthetic.teach import UPWORDS_ALPHABET, teaching_samples
from vision.upwords_reader import PARTLY_HIDDEN_FLAG, TileGeometry, UpwordsReader, play_from_reading

FIGURES = Path(__file__).parent / "transcripts" / "upwords-figures.jsonl"


def _random_cells(rng: np.random.Generator, n: int, size: int = 8) -> dict[tuple[int, int], tuple[str, int]]:
    cells = {}
    for _ in range(n):
        r, c = (int(v) for v in rng.integers(0, size, 2))
        letter = UPWORDS_ALPHABET[int(rng.integers(0, len(UPWORDS_ALPHABET)))]
        cells[(r, c)] = (letter, int(rng.integers(1, 6)))
    return cells


@pytest.fixture(scope="module")
def letters():
    """The classifier taught from rendered teaching photos (never from the test boards)."""
    mod = pytest.importorskip("vision.letters", reason="the letter classifier (vision/letters.py) is missing")
    images, labels = teaching_samples()
    classifier = mod.LetterClassifier()
    classifier.fit(images, labels)
    return mod.LetterReader(classifier, 0.3)


# -- the planes above the board -----------------------------------------------------------------
@pytest.mark.parametrize(("tilt", "focal"), [(12.0, 800.0), (25.0, 950.0), (40.0, 1100.0)])
def test_the_camera_is_recovered_from_the_four_corners(tilt: float, focal: float) -> None:
    """Focal length from the corners alone, then the top of a 5-stack lands where the camera put it."""
    from vision.planes import BoardPlanes

    shot = render_upwords({}, pose=Pose(tilt_deg=tilt, yaw_deg=7, roll_deg=2, focal_px=focal), seed=1)
    planes = BoardPlanes.from_corners(shot.corners, 8, 8, shot.image_size)
    assert planes.focal_source == "estimated"
    assert planes.K[0, 0] == pytest.approx(focal, rel=0.02)
    assert planes.tilt_deg == pytest.approx(tilt, abs=0.5)
    top = np.array([[3 * 22.0, 5 * 22.0, -5 * 3.6], [7 * 22.0, 1 * 22.0, -3 * 3.6]])
    assert np.abs(planes.project(top) - shot.camera.project(top)).max() < 0.5


def test_straight_overhead_the_focal_length_is_assumed_and_said_so() -> None:
    from vision.planes import BoardPlanes

    shot = render_upwords({}, pose=Pose(tilt_deg=0), seed=1)
    assert BoardPlanes.from_corners(shot.corners, 8, 8, shot.image_size).focal_source == "assumed"
    lens = BoardPlanes.from_corners(shot.corners, 8, 8, shot.image_size, camera_matrix=shot.camera.K)
    assert lens.focal_source == "lens"
    top = np.array([[0.0, 0.0, -18.0]])
    assert np.abs(lens.project(top) - shot.camera.project(top)).max() < 0.5


# -- occupancy and geometry (no letters needed) ---------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
def test_occupancy_is_exact_across_poses_and_lighting(seed: int) -> None:
    rng = np.random.default_rng(seed)
    cells = _random_cells(rng, int(rng.integers(5, 30)))
    pose = Pose.random(rng)
    shot = render_upwords(cells, pose=pose, effects=Effects.random(rng, pose.image_size), seed=seed)
    reading = UpwordsReader(shot.corners, shot.image_size).read(shot.image)
    for r in range(8):
        for c in range(8):
            cell = reading.cell(r, c)
            if "hidden behind a taller stack" in cell.flags:
                assert cell.uncertain
                continue
            assert (cell.height > 0) == (shot.heights[r][c] > 0), (r, c)


def test_geometry_alone_reads_stack_heights_under_a_tilted_camera() -> None:
    """No history: every height 1..5 in a row, camera at 35 degrees."""
    cells = {(5, c): ("ABCDE"[c - 1], c) for c in range(1, 6)}
    shot = render_upwords(cells, pose=Pose(tilt_deg=35, yaw_deg=5), seed=3,
                          effects=Effects(noise_sigma=2, jpeg_quality=90))
    reading = UpwordsReader(shot.corners, shot.image_size).read(shot.image)
    assert [reading.cell(5, c).height for c in range(1, 6)] == [1, 2, 3, 4, 5]
    assert all(reading.cell(5, c).height_confidence > 0.5 for c in range(1, 6))


def test_overhead_geometry_admits_it_cannot_tell_heights() -> None:
    shot = render_upwords({(2, 2): ("A", 3)}, pose=Pose(tilt_deg=0), seed=1)
    reading = UpwordsReader(shot.corners, shot.image_size).read(shot.image)
    cell = reading.cell(2, 2)
    assert cell.height > 0 and cell.uncertain
    assert any("overhead" in note for note in reading.notes)


def test_a_cell_behind_a_tall_stack_is_reported_hidden_not_guessed() -> None:
    # a 5-stack in row 5, the empty cell behind it (row 4) seen from a low camera
    shot = render_upwords({(5, 3): ("O", 5)}, pose=Pose(tilt_deg=40), seed=2)
    reading = UpwordsReader(shot.corners, shot.image_size).read(shot.image)
    assert_right_or_asked(reading, lambda behind: behind.height == 0, at={(4, 3)}, measured=1)
    assert reading.cell(5, 3).height == 5


def test_cells_under_a_hand_are_uncertain() -> None:
    cells = {(3, c): ("MOOD"[c - 1], 1) for c in range(1, 5)}
    shot = render_upwords(cells, pose=Pose(tilt_deg=20), seed=4,
                          effects=Effects(hand=Hand(tip=(470, 360), angle_deg=10, width_px=120)))
    reading = UpwordsReader(shot.corners, shot.image_size).read(shot.image)
    flagged = {(c.row, c.col) for c in reading.cells if "under a hand or arm" in c.flags}
    assert flagged and all(reading.cell(r, c).uncertain for r, c in flagged)
    assert (0, 0) not in flagged and (7, 7) not in flagged


def test_ten_by_ten_board() -> None:
    spec = UpwordsSpec(rows=10, cols=10)
    cells = {(0, 0): ("A", 1), (9, 9): ("B", 2), (4, 5): ("C", 1), (5, 4): ("D", 1)}
    shot = render_upwords(cells, spec=spec, pose=Pose(tilt_deg=28), seed=6)
    reading = UpwordsReader(shot.corners, shot.image_size, rows=10, cols=10).read(shot.image)
    occupied = {(c.row, c.col) for c in reading.cells if c.height}
    assert occupied == set(cells)


def test_wrong_image_is_refused_in_plain_words() -> None:
    shot = render_upwords({}, seed=1)
    reader = UpwordsReader(shot.corners, shot.image_size)
    with pytest.raises(ValueError, match="for 1024x768 pictures, not 512x384"):
        reader.read(shot.image[::2, ::2].copy())
    with pytest.raises(ValueError, match="colour"):
        reader.read(shot.image[..., 0].copy())


# -- letters and history ----------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_letters_on_random_boards(letters, seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    cells = _random_cells(rng, 20)
    pose = Pose.random(rng, max_tilt=35)
    shot = render_upwords(cells, pose=pose, effects=Effects.random(rng, pose.image_size), seed=seed)
    reading = UpwordsReader(shot.corners, shot.image_size, letters=letters).read(shot.image)
    read = [(reading.cell(r, c).letter, shot.letters[r][c]) for (r, c) in cells
            if reading.cell(r, c).height == shot.heights[r][c]]
    right = sum(a == b for a, b in read)
    assert right >= len(read) - 1 and len(read) >= len(cells) * 0.6


@pytest.mark.parametrize("tilt", [0.0, 18.0, 38.0])
def test_the_rule_sheet_game_read_turn_by_turn_with_heights(letters, tilt: float) -> None:
    """Figures 1-6: each steady picture, read with the previous reading, gives the engine's
    board (letters and heights) and the very play of the transcript."""
    lines = [x for x in split_lines(FIGURES.read_text()) if x.strip() and not x.lstrip().startswith("#")]
    header, plays = lines[0], lines[1:]
    pose = Pose(tilt_deg=tilt, yaw_deg=6.0)
    room = Effects(light_gradient=0.25, light_angle_deg=30, noise_sigma=2.5, jpeg_quality=88)
    game = replay([header])
    start = render_upwords({}, pose=pose, effects=room, seed=99)  # the kiosk reads the empty board first
    reader = UpwordsReader(start.corners, start.image_size, letters=letters)
    previous: BoardReading = reader.read(start.image)
    assert not any(c.height for c in previous.cells) and not previous.uncertain_cells()
    for n in range(len(plays)):
        before = game.board
        game = replay([header, *plays[: n + 1]])
        after = game.board
        shot = render_upwords(upwords_cells(after), pose=pose, effects=room, seed=n)
        reading = reader.read(shot.image, previous=previous)
        assert reading.letters == [list(row) for row in after.tops()], f"turn {n + 1}"
        assert reading.heights == [list(row) for row in after.heights()], f"turn {n + 1}"
        play = play_from_reading(before, reading)
        expected = game.events[-1]["tiles"]
        assert play.ok, play.reason
        assert sorted(p.to_dict().items() for p in play.tiles) == sorted(t.items() for t in expected)
        previous = reading
    assert previous.cell(3, 1).height == 2  # W on M
    assert previous.cell(6, 4).height == 3  # R, then P, then N


def test_history_flags_a_height_that_fell_and_a_stack_that_vanished(letters) -> None:
    pose = Pose(tilt_deg=35)
    first = render_upwords({(3, 3): ("O", 3), (3, 4): ("N", 1)}, pose=pose, seed=1)
    reader = UpwordsReader(first.corners, first.image_size, letters=letters)
    before = reader.read(first.image)
    assert before.cell(3, 3).height == 3
    before = replace(before, cells=tuple(replace(c, flags=()) for c in before.cells))
    # the same O now only 2 high (a tile knocked out from under it), the N gone
    later = render_upwords({(3, 3): ("O", 2)}, pose=pose, seed=1)
    reading = reader.read(later.image, previous=before)
    o, n = reading.cell(3, 3), reading.cell(3, 4)
    assert o.uncertain and any("fell" in f or "history says 3" in f for f in o.flags)
    assert n.uncertain and any("has gone" in f for f in n.flags)


def test_only_the_changed_cells_are_re_read(letters) -> None:
    pose = Pose(tilt_deg=25)
    a = render_upwords({(3, 3): ("O", 1)}, pose=pose, seed=2)
    reader = UpwordsReader(a.corners, a.image_size, letters=letters)
    first = reader.read(a.image)
    b = render_upwords({(3, 3): ("O", 1), (3, 4): ("N", 1)}, pose=pose, seed=2)
    second = reader.read(b.image, previous=first, only=[(3, 4)])
    assert second.cell(3, 4).letter == "N" and second.cell(3, 3) is first.cell(3, 3)


def test_umlauts_and_qu_are_taught_and_read() -> None:
    """A German set (Ä, Ö, Ü) and the Qu tile: taught from a teaching photo, read on a board."""
    mod = pytest.importorskip("vision.letters", reason="vision/letters.py is missing")
    alphabet = (*UPWORDS_ALPHABET, "Ä", "Ö", "Ü")
    images, labels = teaching_samples(alphabet=alphabet)
    classifier = mod.LetterClassifier()
    classifier.fit(images, labels)
    reader_letters = mod.LetterReader(classifier, 0.3)
    word = {(3, 1): ("Ä", 1), (3, 2): ("R", 1), (3, 3): ("G", 1), (3, 4): ("E", 1), (3, 5): ("R", 1),
            (4, 3): ("Ü", 1), (5, 3): ("Qu", 1), (2, 5): ("Ö", 1)}
    room = Effects(noise_sigma=2, jpeg_quality=90)
    shot = render_upwords(word, pose=Pose(tilt_deg=25), seed=8, effects=room)
    reading = UpwordsReader(shot.corners, shot.image_size, letters=reader_letters).read(shot.image)
    assert {rc: reading.cell(*rc).letter for rc in word} == {rc: v[0] for rc, v in word.items()}


# -- real photos ---------------------------------------------------------------------------------
REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
SCRABBLE = TileGeometry(pitch_mm=19.0, tile_mm=17.0, thickness_mm=4.0, max_height=1)  # squares, flat tiles


def _words(*placed: tuple[int, int, str, str]) -> dict[tuple[int, int], str]:
    """Tiles read by eye: (row, col, "across" or "down", word)."""
    tiles = {}
    for row, col, way, word in placed:
        for i, letter in enumerate(word):
            tiles[(row, col + i) if way == "across" else (row + i, col)] = letter
    return tiles


#: Two phone photos of one real Scrabble game (15x15), read by eye: the grid's outer corners
#: (TL, TR, BR, BL, pixels) and the words on the board.
PHOTOS = {
    "IMG_20151016_165522.jpg": ([(690, 1190), (1700, 1190), (1797, 2283), (640, 2283)],
                                _words((7, 3, "across", "BENDS"), (5, 6, "down", "WIDER"))),
    "IMG_20151016_165902.jpg": ([(500, 997), (1757, 893), (2047, 2220), (517, 2363)],
                                _words((7, 3, "across", "BENDS"), (5, 6, "down", "WIDER"),
                                       (5, 6, "across", "WIPE"), (9, 4, "across", "HURT"),
                                       (9, 7, "down", "TEAMED"), (13, 4, "across", "MODE"),
                                       (12, 7, "across", "MALES"), (9, 11, "across", "TOP"),
                                       (9, 11, "down", "THESE"), (9, 13, "down", "PART"))),
}


@pytest.fixture(scope="module")
def real_crops_classifier():
    """A classifier taught on the labelled webcam crops: *other* real tiles than the photos'."""
    if not (REAL / "real-tile-crops").is_dir():
        pytest.skip("../shared/data (real photos and crops) is not beside the repository")
    mod = pytest.importorskip("vision.letters", reason="the letter classifier (vision/letters.py) is missing")
    return mod.LetterClassifier.from_folder(REAL / "real-tile-crops")


@pytest.mark.parametrize(("name", "at_least"), [("IMG_20151016_165522.jpg", 9),
                                                ("IMG_20151016_165902.jpg", 33)])  # of 9 and of 36
def test_real_photo_tiles_are_cut_from_the_right_cells_and_read(real_crops_classifier, name: str,
                                                                at_least: int) -> None:
    """Real phone photos at an angle: the reader's own plane warp and face crops (centred on each
    letter, since Scrabble tiles are not held by walls), read by a classifier taught on other tiles."""
    import cv2

    path = REAL / "real-scrabble-photos" / name
    if not path.is_file():
        pytest.skip(f"{path} is not there")
    corners, tiles = PHOTOS[name]
    photo = cv2.imread(str(path))
    h, w = photo.shape[:2]
    reader = UpwordsReader(np.array(corners, float), (w, h), rows=15, cols=15, cell_px=48, geometry=SCRABBLE,
                           loose_tiles=True)
    plane = reader.warp_planes(photo)[1]
    reads = {rc: real_crops_classifier.classify(reader.face_crop(plane, *rc)).letter for rc in tiles}
    right = sum(reads[rc] == letter for rc, letter in tiles.items())
    assert right >= at_least, {rc: (tiles[rc], reads[rc]) for rc in tiles if reads[rc] != tiles[rc]}


def test_an_unreadable_top_is_flagged_and_not_taken_for_a_new_tile(letters) -> None:
    pose = Pose(tilt_deg=30)
    first = render_upwords({(3, 3): ("O", 1)}, pose=pose, seed=5)
    reader = UpwordsReader(first.corners, first.image_size, letters=letters)
    before = reader.read(first.image)
    assert before.cell(3, 3).letter == "O" and not before.cell(3, 3).uncertain
    smudged = render_upwords({(3, 3): ("", 1)}, pose=pose, seed=5)  # a tile whose letter cannot be seen
    cell = reader.read(smudged.image, previous=before).cell(3, 3)
    assert cell.letter is None and cell.height == 1 and cell.uncertain
    assert "no letter can be read on this tile" in cell.flags


def _read_as(board: Board, doubts: dict[tuple[int, int], tuple[str, ...]]) -> BoardReading:
    """The camera's reading of ``board``, every cell sure but ``doubts``'s, which carry those flags
    (none: merely unsure) and read as empty."""
    from kiosk.camera.view import history

    cells = tuple(replace(c, letter=None, height=0, confidence=0.3, flags=doubts[(c.row, c.col)])
                  if (c.row, c.col) in doubts else c for c in history(board).cells)
    return replace(history(board), cells=cells)


@pytest.mark.parametrize(("doubts", "offered"), [
    ({(0, 4): (PARTLY_HIDDEN_FLAG,)}, True),  # behind a nearer stack, off the play's row
    ({(0, 4): (PARTLY_HIDDEN_FLAG, "the stack of 1 (A) has gone")}, True),  # hidden: the read is no evidence
    ({(0, 4): ()}, True),  # merely unsure, off the play's row
    ({(0, 4): (PARTLY_HIDDEN_FLAG, "a hand or arm is over the board")}, False),  # a hand: the play may go on
    ({(0, 4): ("the stack of 1 (A) has gone",)}, False),  # seen whole, surely gone: the players look
    ({(3, 6): (PARTLY_HIDDEN_FLAG,)}, False),  # next on the play's row: it may have taken a tile
    ({(0, 4): (PARTLY_HIDDEN_FLAG,), (1, 4): ()}, True),
])
def test_the_rules_leave_a_doubtful_cell_off_the_play_s_line_as_it_was(
        doubts: dict[tuple[int, int], tuple[str, ...]], offered: bool) -> None:
    """Rule sheet: all letters played on a turn are in the same row or column and make one word.
    MOODS is played (an S after MOOD); the camera doubts a cell the play cannot reach, or one it
    can, or sees something the rules forbid where nothing hides it."""
    from games.upwords_board import Placement

    before = Board.from_text("4A3/8/8/1MOOD3/8/8/8/8")
    after = before.place([Placement(3, 5, "S")])
    reading = _read_as(after, doubts)
    play = play_from_reading(before, reading)
    assert play.ok == offered
    if offered:
        assert play.tiles == (Placement(3, 5, "S"),)
        assert not play_from_reading(before, reading, settle=False).ok  # the baseline asks


@pytest.mark.slow
def test_a_rendered_play_is_offered_though_a_cell_behind_a_nearer_stack_is_in_doubt() -> None:
    """A held-out 8x8 game under one camera: from its ninth play on, a cell near the far edge is
    partly hidden behind a nearer stack and read in doubt. Where a play's tiles lie off its row
    and column the play is offered, exactly the tiles placed; where the play reaches it (it took
    tiles in two plays), it is asked."""
    from bench.bench_plays import PLAYS, _boards
    from kiosk.camera.view import history
    from vision.synthetic.scenes import grid_scene
    from vision.synthetic.train import taught_grid_reader

    scene = grid_scene(1460005, "held_out", "upwords8", n_frames=PLAYS, hand_chance=0.0, sequence=True)
    reader = taught_grid_reader(scene)
    offered = {}
    for n, (frame, (before, placed)) in enumerate(zip(scene.frames, _boards(scene), strict=True)):
        if n < 8:
            continue
        reading = reader.read(frame.image, previous=history(before))
        assert {(c.row, c.col) for c in reading.uncertain_cells()} == {(0, 4)}, f"play {n}"
        assert not play_from_reading(before, reading, settle=False).ok
        play = play_from_reading(before, reading)
        in_line = all(p.row == 0 for p in placed) or all(p.col == 4 for p in placed)
        assert play.ok or in_line, f"play {n}"
        offered[n] = play.ok and set(play.tiles) == placed
    assert offered == {8: True, 9: False, 10: False, 11: True, 12: True, 13: True}

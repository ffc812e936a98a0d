"""The marker-free board finder on real photos (two sets) and on renders of our own boards.

Truth: ``real-scrabble-game/*.json`` carry the playing grid's corners. The eight
``real-scrabble-photos`` have no labels; their corners below were checked by eye once, on 4x
crops of each corner with a 15x15 grid drawn over the photo — the grid an early version of
the finder proposed, accepted because its lines sat on the cell boundaries at every corner
(the corner is where the outermost cell boundaries meet, the same convention as the game's
labels). They are therefore not independent of the finder to better than ~1 %: the
independent check is the 22 labelled photos of the real game, held out while developing.
Two of them (``165954``, ``170032``) were re-marked without the finder's output in sight,
because that first check had put some of their corners 5-11 px off the boundary: the
boundary of each side was measured on 3x-6x crops as the edge of the outermost plain cells
(half-way between the cell's grey and the light line beside it, sampled along short
profiles near both ends of the side), moved outwards by half a line's width (0.045 of a
cell, measured on the sharper photo: the light lines between cells are ~7 px of a ~77 px
pitch), a straight line fitted through each side's points, and the corners put where the
lines meet. The test is "within 1 % of the board's size", the size being the square root
of the grid's area.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.board_finder import NoBoardFound, board_evidence, find_board
from vision.synthetic.effects import Effects
from vision.synthetic.render import Pose, UpwordsSpec, render_street, render_upwords
from vision.synthetic.style import BoardStyle, random_style

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
if not DATA.exists():
    DATA = Path("/work/shared/data")
PHOTOS = DATA / "real-scrabble-photos"
GAME = DATA / "real-scrabble-game"

#: Playing-grid corners (TL, TR, BR, BL, full-resolution pixels), checked by eye.
EYE_CORNERS = {
    "IMG_20141025_163953.jpg": [[610.3, 1273.6], [1790.4, 1238.1], [2052.5, 2493.4], [452.0, 2546.8]],
    "IMG_20151016_165308.jpg": [[826.3, 791.8], [2069.2, 1092.8], [1728.2, 2525.3], [197.2, 2016.6]],
    "IMG_20151016_165522.jpg": [[701.4, 1195.1], [1684.8, 1191.4], [1793.2, 2259.7], [631.1, 2292.3]],
    "IMG_20151016_165902.jpg": [[513.7, 1019.9], [1726.8, 898.9], [2044.2, 2211.2], [532.6, 2384.9]],
    "IMG_20151016_165954.jpg": [[622.9, 1239.8], [1705.6, 1203.6], [1832.0, 2422.7], [607.0, 2478.8]],
    "IMG_20151016_170032.jpg": [[863.4, 673.3], [2125.8, 591.6], [2224.3, 1697.1], [1019.5, 1932.3]],
    "IMG_20151016_170324.jpg": [[508.1, 1224.4], [1489.1, 1101.0], [1900.2, 1960.2], [626.4, 2198.0]],
    "IMG_20151016_170737.jpg": [[985.7, 946.3], [2134.2, 1264.5], [1759.3, 2299.5], [389.3, 1756.4]],
}

needs_data = pytest.mark.skipif(not PHOTOS.exists(), reason="the shared real photos are not here")


def relative_error(found: np.ndarray, truth: np.ndarray, turns: tuple[int, ...] = (0,)) -> float:
    """Worst corner distance over the board's size, for the best of the allowed corner turns."""
    truth = np.asarray(truth, np.float64)
    size = float(np.sqrt(cv2.contourArea(truth.astype(np.float32))))
    return min(float(np.linalg.norm(np.roll(found, -k, axis=0) - truth, axis=1).max()) for k in turns) / size


@needs_data
@pytest.mark.parametrize("name", sorted(EYE_CORNERS))
def test_real_photos_on_carpet_and_table(name: str) -> None:
    image = cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR)
    found = find_board(image, 15, 15)
    assert relative_error(found.corners, EYE_CORNERS[name]) < 0.01
    assert found.confidence > 0.5


@needs_data
@pytest.mark.parametrize("name", sorted(p.stem for p in GAME.glob("board-*.json")) if GAME.exists() else [])
def test_real_game_held_out(name: str) -> None:
    """The 22 photos of the real game were not used to develop the finder."""
    truth = json.loads((GAME / f"{name}.json").read_text())["corners"]
    image = cv2.imread(str(GAME / f"{name}.jpg"), cv2.IMREAD_COLOR)
    found = find_board(image, 15, 15)
    assert relative_error(found.corners, truth) < 0.01


def _pose(seed: int) -> Pose:
    rng = np.random.default_rng(seed)
    return Pose.random(rng, max_tilt=40, yaw_deg=float(rng.uniform(-40, 40)),
                       roll_deg=float(rng.uniform(-20, 20)))


def _cells(seed: int, size: int) -> dict[tuple[int, int], tuple[str, int]]:
    rng = np.random.default_rng(seed + 1000)
    return {(r, c): ("ABCDEFGH"[(r * 3 + c) % 8], 1 + (r + c) % 3)
            for r in range(size) for c in range(size) if rng.random() < 0.3}


@pytest.mark.parametrize("seed", [11, 12, 13, 14, 15, 16])
@pytest.mark.parametrize("size", [8, 10])
def test_upwords_renders_tilted_turned_on_tables(seed: int, size: int) -> None:
    """Held-out seeds (development used 0-5): tilt up to 40 degrees, turned up to 40, each its own table."""
    spec = UpwordsSpec(rows=size, cols=size)
    shot = render_upwords(_cells(seed, size), spec=spec, pose=_pose(seed), seed=seed)
    found = find_board(shot.image, size, size)
    # A square grid looks the same turned by a quarter: the finder names corners as the picture shows them.
    assert relative_error(found.corners, shot.corners, (0, 1, 2, 3)) < 0.01


def _street(seed: int, **kwargs: object) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    positions = {letter: int(rng.integers(-2, 3)) for letter in "BCDFGHKLMNPRSTVWY"}
    shot = render_street(positions, pose=_pose(seed), seed=seed, **kwargs)  # type: ignore[arg-type]
    found = find_board(shot.image, 5, 17, lines=(5, 1))
    return found.corners, shot.corners


#: Street render seeds: 11-20 and 100-119 were used to develop the street's outline fit
#: (vision.street_outline); 21-30 (the earlier held-out set) and 300-339 were first run with
#: the fit finished, and all 50 are within 1 % (worst 0.56 %); see docs/calibration.md.
@pytest.mark.parametrize("seed", [*range(21, 31), *range(300, 306)])
def test_street_renders(seed: int) -> None:
    found, truth = _street(seed)
    assert relative_error(found, truth, (0, 2)) < 0.01


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(306, 340))
def test_street_renders_more_held_out(seed: int) -> None:
    found, truth = _street(seed)
    assert relative_error(found, truth, (0, 2)) < 0.01


@pytest.mark.parametrize("seed", [200, 207, 208, 215])
def test_street_in_other_rooms_and_board_colours(seed: int) -> None:
    """Random light, blur, noise, JPEG, board colours and table, markers on every other board:
    the four of the development seeds where the lanes alone had slid a lane (8-12 %)."""
    rng = np.random.default_rng(seed)
    positions = {letter: int(rng.integers(-2, 3)) for letter in "BCDFGHKLMNPRSTVWY"}
    pose = _pose(seed)
    effects = Effects.random(rng, pose.image_size)
    style = random_style(rng)
    shot = render_street(positions, pose=pose, seed=seed, effects=effects, style=style,
                         markers=bool(seed % 2))
    found = find_board(shot.image, 5, 17, lines=(5, 1))
    assert relative_error(found.corners, shot.corners, (0, 2)) < 0.01


@pytest.mark.parametrize("seed", [13, 15])
def test_a_street_lighter_than_its_pavement(seed: int) -> None:
    """Colours swapped (a light street on dark paving): the outline fit finds which side is lighter.
    The lanes alone were 16 % off on seed 13 (a lane) and 1.35 % on 15."""
    rng = np.random.default_rng(seed)
    positions = {letter: int(rng.integers(-2, 3)) for letter in "BCDFGHKLMNPRSTVWY"}
    style = BoardStyle(asphalt=(185, 188, 190), pavement=(70, 72, 76), dashes=(40, 40, 40))
    shot = render_street(positions, pose=_pose(seed), seed=seed, style=style)
    found = find_board(shot.image, 5, 17, lines=(5, 1))
    assert relative_error(found.corners, shot.corners, (0, 2)) < 0.01


def test_street_outline_leaves_a_plain_picture_alone() -> None:
    """No street in the picture: the outline fit keeps the corners it was given."""
    from vision.street_outline import refine_street

    quad = np.array([[100, 100], [700, 100], [700, 280], [100, 280]], np.float64)
    flat = np.full((480, 800, 3), 128, np.uint8)
    assert np.array_equal(refine_street(flat, quad), quad)


def test_street_lanes_vouch_for_given_corners() -> None:
    shot = render_street({"B": -2, "K": 1}, pose=Pose(tilt_deg=25), seed=3)
    confidence, _seen = board_evidence(shot.image, shot.corners, 5, 17)
    assert confidence > 0.6


def test_no_board_in_a_plain_or_noisy_picture() -> None:
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 255, (600, 800, 3), dtype=np.uint8)
    for image in (np.full((600, 800, 3), 128, np.uint8), noise, np.zeros((1, 1, 3), np.uint8)):
        with pytest.raises(NoBoardFound, match="no board found"):
            find_board(image, 15, 15)


def test_an_empty_table_is_no_board() -> None:
    """A render's bare table (the board cropped away) has wood grain, not a grid."""
    shot = render_upwords({}, pose=Pose(tilt_deg=0, fill=0.3), seed=5)
    table = np.ascontiguousarray(shot.image[:, :200])
    with pytest.raises(NoBoardFound):
        find_board(table, 8, 8)


@needs_data
def test_corners_that_enclose_carpet_are_not_a_board() -> None:
    image = cv2.imread(str(PHOTOS / "IMG_20151016_165522.jpg"), cv2.IMREAD_COLOR)
    board = np.array(EYE_CORNERS["IMG_20151016_165522.jpg"])
    carpet = np.array([[100, 2500], [600, 2500], [600, 3000], [100, 3000]], np.float64)
    assert board_evidence(image, board, 15, 15)[0] > 0.6
    assert board_evidence(image, carpet, 15, 15)[0] < 0.35

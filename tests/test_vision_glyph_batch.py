"""A whole board's glyph features, and its loose tiles' letter centres, worked out at once
equal each cell's own, to the bit.

Why it matters: the batch paths (:mod:`vision.glyph_batch`, :func:`vision.occupancy.glyph_centres`)
are what reads use; the cell-by-cell path (:mod:`vision.glyphs`) is what the letters were
taught with. Any difference would read a letter differently depending on the board around it.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import glyph_batch
from vision.glyph_batch import features_and_bare_many
from vision.glyphs import features_and_bare
from vision.letters import load_labelled_folder
from vision.occupancy import glyph_centre, glyph_centres
from vision.synthetic.scenes import grid_scene
from vision.upwords_reader import UpwordsReader

CROPS = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-tile-crops"

FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN)


def _tile(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A rendered tile face: a letter somewhere near the middle, and what a crop catches round it
    (the tile's own edge as a ring, a neighbour's edge, a point value, noise, blur)."""
    h, w = size
    paper, ink = (int(rng.integers(150, 250)), int(rng.integers(0, 90)))
    if rng.random() < 0.3:  # light letters on a dark tile
        paper, ink = ink, paper
    face = np.full((h * 4, w * 4), paper, np.uint8)
    letter = chr(ord("A") + int(rng.integers(0, 26)))
    font = FONTS[int(rng.integers(0, len(FONTS)))]
    scale = float(rng.uniform(2.0, 3.6))
    (tw, th), _ = cv2.getTextSize(letter, font, scale, 6)
    x = int(w * 2 - tw / 2 + rng.integers(-8, 9))
    y = int(h * 2 + th / 2 + rng.integers(-8, 9))
    cv2.putText(face, letter, (x, y), font, scale, ink, int(rng.integers(3, 9)), cv2.LINE_AA)
    if rng.random() < 0.6:  # the tile's edge round the cut
        inset = int(rng.integers(2, 10))
        cv2.rectangle(face, (inset, inset), (w * 4 - inset, h * 4 - inset), ink, int(rng.integers(2, 6)))
    if rng.random() < 0.3:  # a neighbour's edge at the side
        cv2.line(face, (w * 4 - 3, 0), (w * 4 - 3, h * 4), ink, 4)
    if rng.random() < 0.4:  # the point value in a corner
        cv2.putText(face, str(int(rng.integers(1, 10))), (w * 3, h * 4 - 8), font, 0.9, ink, 2)
    small = cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.4:
        small = cv2.GaussianBlur(small, (0, 0), float(rng.uniform(0.4, 1.2)))
    noise = rng.normal(0, float(rng.uniform(0, 12)), small.shape)
    return np.clip(small + noise, 0, 255).astype(np.uint8)


def _same(one: tuple, other: tuple) -> bool:
    (views_a, bare_a), (views_b, bare_b) = one, other
    if bare_a != bare_b or (views_a is None) != (views_b is None):
        return False
    return views_a is None or all(np.array_equal(a, b) for a, b in zip(views_a, views_b, strict=True))


def _assert_all_equal(crops: list[np.ndarray]) -> None:
    alone = [features_and_bare(crop) for crop in crops]
    together = features_and_bare_many(crops)
    differ = [i for i, (a, b) in enumerate(zip(alone, together, strict=True)) if not _same(a, b)]
    assert not differ, f"{len(differ)} of {len(crops)} crops differ, first {differ[:5]}"


def test_rendered_tiles_of_many_sizes_and_looks_give_the_same_features() -> None:
    rng = np.random.default_rng(2311)
    sizes = [(32, 32), (32, 31), (31, 32), (24, 24), (41, 38)]
    crops = [_tile(rng, sizes[int(rng.integers(0, len(sizes)))]) for _ in range(600)]
    assert sum(features_and_bare(c)[0] is not None for c in crops) > 500  # letters, not blanks
    _assert_all_equal(crops)


def test_a_full_boards_crops_give_the_same_features_as_one_by_one() -> None:
    """The crops a read cuts: a full held-out 15x15 board of loose tiles and a dense Upwords
    board with stacks (development seeds)."""
    crops: list[np.ndarray] = []
    for kind in ("grid15", "upwords10"):
        scene = grid_scene(123901, "held_out", kind, n_frames=1, sequence=False, hand_chance=0.0, fill=1.0)
        cal = scene.calibration
        reader = UpwordsReader(cal.corners, cal.image_size, rows=cal.rows, cols=cal.cols,
                               loose_tiles=kind == "grid15")
        warps = reader.warp_planes(scene.frames[0].image)
        crops += [reader.face_crop(warps[k], r, c) for k in (1, 2) if k < len(warps)
                  for r in range(cal.rows) for c in range(cal.cols)]
    assert len(crops) > 400
    _assert_all_equal(crops)


def test_loose_tiles_letters_are_found_at_once_where_they_are_found_alone() -> None:
    """The windows a read searches for each loose tile's letter (two held-out 15x15 boards,
    half-full and full, development seeds), and windows of a rendered tile with two equal
    pieces starting on rows of either parity."""
    windows: list[np.ndarray] = []
    letter_px = 0.0
    for fill in (0.5, 1.0):
        scene = grid_scene(123902, "held_out", "grid15", n_frames=1, sequence=False, hand_chance=0.0,
                           fill=fill)
        cal = scene.calibration
        reader = UpwordsReader(cal.corners, cal.image_size, rows=cal.rows, cols=cal.cols, loose_tiles=True)
        plane = reader.warp_planes(scene.frames[0].image)[1]
        pad, half = reader.pad_cells * reader.cell_px, 0.5 * reader.face_frac * reader.cell_px * 1.04
        letter_px = 0.62 * 2 * half / 1.04
        for r in range(cal.rows):
            for c in range(cal.cols):
                cy, cx = pad + (r + 0.5) * reader.cell_px, pad + (c + 0.5) * reader.cell_px
                windows.append(plane[max(round(cy - 1.45 * half), 0): round(cy + 1.45 * half),
                                     max(round(cx - 1.45 * half), 0): round(cx + 1.45 * half)])
    twins = np.full((32, 32), 220, np.uint8)  # equally far from the middle: the first found wins
    twins[9:25, 9:12] = 20  # starts a row lower than the right one, which is as far away
    twins[8:24, 21:24] = 20
    windows += [twins] * 5
    alone = [glyph_centre(window, letter_px) for window in windows]
    assert sum(found is not None for found in alone) > 200
    assert glyph_centres(windows, letter_px) == alone


@pytest.mark.skipif(not CROPS.is_dir(), reason="../shared/data/real-tile-crops is not beside the repo")
def test_real_tile_crops_give_the_same_features() -> None:
    images, _ = load_labelled_folder(CROPS)
    assert len(images) > 1000
    _assert_all_equal(images)


def test_blank_inked_tiny_colour_and_odd_crops_are_answered_as_alone() -> None:
    rng = np.random.default_rng(7)
    blank = np.full((32, 32), 200, np.uint8)
    inked = np.zeros((32, 32), np.uint8)
    tiny = np.full((6, 30), 90, np.uint8)
    colour = cv2.cvtColor(_tile(rng, (32, 32)), cv2.COLOR_GRAY2BGR)
    floaty = _tile(rng, (32, 32)).astype(np.float32)
    lone_size = _tile(rng, (29, 33))  # fewer of its size than make a batch
    nothing = np.zeros((0, 0), np.uint8)
    crops = [blank] * 5 + [inked] * 5 + [tiny, floaty, lone_size] + [colour] * 5 + [nothing]
    _assert_all_equal(crops)


def test_two_equal_pieces_are_ordered_as_alone() -> None:
    """Of two central pieces of equal size the first numbered is the letter, and which is first
    depends on how OpenCV pairs rows: each crop must start on an even row of the sheet.

    Here the bar on the right is numbered first alone (it starts a row higher) and is the
    letter; the bar on the left touches the edge and is dropped. Numbered the other way, both
    would be kept."""
    crop = np.full((32, 32), 220, np.uint8)
    crop[1:31, 20:22] = 20  # 60 pixels, starts on row 1
    crop[2:32, 6:8] = 20  # 60 pixels, starts on row 2, touches the bottom edge
    _assert_all_equal([crop] * 6)


def test_a_crop_with_two_ring_sized_pieces_is_judged_as_alone() -> None:
    """Two pieces as large as the tile's edge in one crop (the edge, and a long stroke reaching
    the cut): each is judged on its own ink. Counted together, the stroke's ink in the middle
    of the edge's box would make the edge a letter, and the biggest."""
    crop = np.full((33, 33), 220, np.uint8)
    crop[0:3, :] = 20  # the tile's edge: the top, the left, a corner of the bottom
    crop[:, 0:3] = 20
    crop[30:33, 0:7] = 20
    cv2.line(crop, (9, 29), (32, 7), 20, 2)  # a stroke reaching the right edge, across the middle
    _assert_all_equal([crop] * 6)


def test_the_hog_halves_on_two_threads_equal_one_strip(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(11)
    crops = [_tile(rng, (32, 32)) for _ in range(80)]
    split = features_and_bare_many(crops)
    monkeypatch.setattr(glyph_batch, "_SPLIT_FROM", 10_000)
    whole = features_and_bare_many(crops)
    assert all(_same(a, b) for a, b in zip(split, whole, strict=True))

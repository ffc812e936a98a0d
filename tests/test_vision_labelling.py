"""Labelling ink with 16-bit labels where they fit (vision/labelling.py): the same pieces as
OpenCV's 32-bit labels, and never more pieces than 16 bits can number."""

from __future__ import annotations

import cv2
import numpy as np

from vision.labelling import MOST_16_BIT, fits_16_bits, most_pieces, pieces_with_stats
from vision.occupancy import glyph_centre, glyph_centres


def _isolated_dots(height: int, width: int) -> np.ndarray:
    """Every other pixel of every other row: the most 8-connected pieces a picture can hold."""
    dots = np.zeros((height, width), np.uint8)
    dots[::2, ::2] = 255
    return dots


def test_the_bound_is_reached_by_isolated_dots_and_never_passed() -> None:
    for height, width in ((7, 9), (8, 8), (31, 2)):
        count, *_ = cv2.connectedComponentsWithStats(_isolated_dots(height, width), connectivity=8)
        assert count - 1 == most_pieces(height, width)
    rng = np.random.default_rng(3)
    for _ in range(20):  # random ink never holds more
        noise = (rng.random((40, 50)) < rng.uniform(0.1, 0.6)).astype(np.uint8) * 255
        count, *_ = cv2.connectedComponentsWithStats(noise, connectivity=8)
        assert count - 1 <= most_pieces(40, 50)


def test_16_bit_labels_give_the_same_pieces_as_32_bit_ones() -> None:
    rng = np.random.default_rng(5)
    ink = cv2.GaussianBlur(rng.uniform(0, 255, (600, 45)).astype(np.uint8), (0, 0), 1.2)
    binary = np.where(ink > 128, 255, 0).astype(np.uint8)
    assert fits_16_bits(*binary.shape)
    count, labels, stats, centroids = pieces_with_stats(binary)
    want = cv2.connectedComponentsWithStats(binary, connectivity=8)
    assert labels.dtype == np.uint16 and count == want[0] > 100
    assert np.array_equal(labels, want[1])
    assert np.array_equal(stats, want[2])
    assert np.array_equal(centroids, want[3])


def test_a_picture_that_could_hold_more_pieces_is_labelled_in_32_bits() -> None:
    dots = _isolated_dots(600, 600)  # 90,000 pieces
    assert not fits_16_bits(600, 600)
    count, labels, _, _ = pieces_with_stats(dots)
    assert count - 1 == 300 * 300 > MOST_16_BIT
    assert labels.dtype == np.int32 and labels.max() == count - 1


def test_windows_on_more_than_one_sheet_find_the_same_centres_as_alone() -> None:
    """Windows of one size are labelled in sheets no bigger than 16-bit labels allow: a board's
    worth more than fills one, and each window's letter is found as it is alone."""
    rng = np.random.default_rng(8)
    windows = []
    for _ in range(300):
        window = np.full((45, 46), 200, np.uint8)
        x, y = rng.integers(8, 26, 2)
        cv2.putText(window, "ABCDEFGHKMPQRW"[rng.integers(14)], (int(x), int(y) + 14),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.6, 30, 2)
        window[rng.random(window.shape) < 0.02] = 40  # specks: pieces of their own
        windows.append(window)
    assert len(windows) * most_pieces(46, 47) > MOST_16_BIT
    alone = [glyph_centre(window, 16.0) for window in windows]
    assert sum(found is not None for found in alone) > 250
    assert glyph_centres(windows, 16.0) == alone

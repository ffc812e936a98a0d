"""vision/grid.py: a board photographed under perspective comes back cell-aligned."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.grid import BoardGeometry, board_homography, cell_image, iter_cells, warp_board


def _scene(rows: int, cols: int, cam_corners: np.ndarray, size=(640, 480), cell=30):
    """A top-down board whose cell (r, c) has its own grey value, pictured by a tilted camera."""
    top = np.zeros((rows * cell, cols * cell, 3), np.uint8)
    values = np.arange(rows * cols).reshape(rows, cols) * (200 // (rows * cols)) + 40
    for r in range(rows):
        for c in range(cols):
            top[r * cell:(r + 1) * cell, c * cell:(c + 1) * cell] = int(values[r, c])
    src = np.float32([[0, 0], [cols * cell, 0], [cols * cell, rows * cell], [0, rows * cell]])
    h = cv2.getPerspectiveTransform(src, np.float32(cam_corners))
    frame = cv2.warpPerspective(top, h, size, flags=cv2.INTER_LINEAR, borderValue=(255, 0, 255))
    return frame, values


TILTED = np.float32([[150, 60], [520, 90], [600, 430], [70, 400]])


@pytest.mark.parametrize(("rows", "cols"), [(8, 8), (10, 10), (5, 17), (15, 15)])
def test_cells_come_back_in_place(rows, cols):
    frame, values = _scene(rows, cols, TILTED)
    geometry = BoardGeometry(rows, cols, cell_px=24, margin_cells=0.5)
    top = warp_board(frame, TILTED.tolist(), geometry)
    assert top.shape[1::-1] == geometry.size
    seen = np.zeros((rows, cols))
    for r, c, cell in iter_cells(top, geometry, inset=0.2):
        seen[r, c] = np.median(cell[..., 0])
    assert np.abs(seen - values).max() <= 3


def test_margin_shows_what_lies_outside_the_board():
    frame, _ = _scene(8, 8, TILTED)
    geometry = BoardGeometry(8, 8, cell_px=20, margin_cells=1)
    top = warp_board(frame, TILTED, geometry)
    # the magenta floor around the board appears in the margin, never inside a cell
    assert tuple(top[5, top.shape[1] // 2]) == (255, 0, 255)
    assert not np.any(np.all(cell_image(top, 0, 0, geometry) == (255, 0, 255), axis=-1))


def test_corner_order_matters():
    """Corners given clockwise from the top-left: swapping them mirrors the board."""
    frame, values = _scene(4, 4, TILTED)
    geometry = BoardGeometry(4, 4, cell_px=24)
    mirrored = TILTED[[1, 0, 3, 2]]
    top = warp_board(frame, mirrored, geometry)
    assert abs(float(np.median(cell_image(top, 0, 0, geometry, 0.2)[..., 0])) - values[0, 3]) <= 3


def test_bad_corners_and_cells_are_refused_plainly():
    geometry = BoardGeometry(8, 8)
    with pytest.raises(ValueError, match="four"):
        board_homography([[0, 0], [1, 1]], geometry)
    with pytest.raises(ValueError, match="board shape"):
        board_homography([[0, 0], [100, 100], [100, 0], [0, 100]], geometry)  # crossed
    with pytest.raises(ValueError, match="board shape"):
        board_homography([[0, 0], [50, 0], [100, 0], [150, 0]], geometry)  # in a line
    with pytest.raises(IndexError, match="outside"):
        geometry.cell_rect(8, 0)
    with pytest.raises(ValueError, match="warp it"):
        cell_image(np.zeros((10, 10), np.uint8), 0, 0, geometry)
    with pytest.raises(ValueError, match="empty"):
        warp_board(np.zeros((0, 0, 3), np.uint8), TILTED, geometry)
    with pytest.raises(ValueError, match="1 to 100"):
        BoardGeometry(0, 8)

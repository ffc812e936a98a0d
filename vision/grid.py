"""A flat letter grid seen from above: warp a camera frame to a cell-aligned top-down image.

This is the generic, game-free part of board reading: any rows x cols grid (an 8x8 or
10x10 Upwords board, a 15x15 crossword board, the 5x17 Word on the Street street) is
warped once per frame with one homography, and cells are then plain array slices. The
game readers (``vision/upwords_reader.py``, ``vision/street.py``) add heights and lanes on
top; they use ``vision/planes.py`` for the tilted stack geometry.

Example::

    geometry = BoardGeometry(rows=8, cols=8, cell_px=40)
    top = warp_board(frame, calibration.corners, geometry)
    for row, col, cell in iter_cells(top, geometry):
        read = reader.read(cell)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class BoardGeometry:
    """The top-down image's layout: ``rows`` x ``cols`` square cells of ``cell_px`` pixels,
    with ``margin_cells`` cells of border kept on every side (to see tiles that stick out)."""

    rows: int
    cols: int
    cell_px: int = 40
    margin_cells: float = 0.0

    def __post_init__(self) -> None:
        if not (1 <= self.rows <= 100 and 1 <= self.cols <= 100):
            raise ValueError(f"a board grid must be 1 to 100 cells each way, not {self.rows}x{self.cols}")
        if self.cell_px < 4:
            raise ValueError(f"a cell must be at least 4 pixels wide, not {self.cell_px}")
        if not 0 <= self.margin_cells <= 5:
            raise ValueError(f"the margin must be 0 to 5 cells, not {self.margin_cells}")

    @property
    def margin_px(self) -> int:
        return round(self.margin_cells * self.cell_px)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the warped image in pixels."""
        return (self.cols * self.cell_px + 2 * self.margin_px, self.rows * self.cell_px + 2 * self.margin_px)

    def cell_rect(self, row: int, col: int, inset: float = 0.0) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) of a cell in the warped image, shrunk by ``inset`` of a cell on each side."""
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise IndexError(f"cell ({row}, {col}) is outside a {self.rows}x{self.cols} board")
        if not 0 <= inset < 0.5:
            raise ValueError(f"inset must be in [0, 0.5), not {inset}")
        pad = round(inset * self.cell_px)
        x0 = self.margin_px + col * self.cell_px + pad
        y0 = self.margin_px + row * self.cell_px + pad
        return x0, y0, x0 + self.cell_px - 2 * pad, y0 + self.cell_px - 2 * pad


def board_homography(corners: Sequence[Sequence[float]], geometry: BoardGeometry) -> np.ndarray:
    """The 3x3 homography from the camera image to the top-down image.

    ``corners`` are the playing area's outer corners in the camera image, TL, TR, BR, BL.
    """
    src = np.asarray(corners, dtype=np.float32)
    if src.shape != (4, 2) or not np.all(np.isfinite(src)):
        raise ValueError("corners must be four (x, y) points: top-left, top-right, bottom-right, bottom-left")
    if abs(cv2.contourArea(src)) < 16 or not cv2.isContourConvex(src):
        raise ValueError("the four corners do not make a board shape (crossed, repeated or in a line)")
    m = geometry.margin_px
    w, h = geometry.cols * geometry.cell_px, geometry.rows * geometry.cell_px
    dst = np.float32([[m, m], [m + w, m], [m + w, m + h], [m, m + h]])
    return cv2.getPerspectiveTransform(src, dst)


def warp_board(image: np.ndarray, corners: Sequence[Sequence[float]], geometry: BoardGeometry) -> np.ndarray:
    """The board seen from straight above, cell (r, c) at ``geometry.cell_rect(r, c)``."""
    if image is None or image.size == 0:
        raise ValueError("there is no picture to warp (empty frame)")
    return cv2.warpPerspective(
        image, board_homography(corners, geometry), geometry.size,
        flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE,
    )


def cell_image(
    warped: np.ndarray, row: int, col: int, geometry: BoardGeometry, inset: float = 0.1
) -> np.ndarray:
    """One cell of a warped board (a view, not a copy), with ``inset`` of a cell trimmed off
    each side so grid lines and neighbours stay out of the letter reader's way."""
    if warped.shape[1::-1] != geometry.size:
        raise ValueError(f"the image is {warped.shape[1]}x{warped.shape[0]}, the board geometry wants "
                         f"{geometry.size[0]}x{geometry.size[1]}: warp it with warp_board first")
    x0, y0, x1, y1 = geometry.cell_rect(row, col, inset)
    return warped[y0:y1, x0:x1]


def iter_cells(
    warped: np.ndarray, geometry: BoardGeometry, inset: float = 0.1
) -> Iterator[tuple[int, int, np.ndarray]]:
    """(row, col, cell image) for every cell, row by row from the top-left."""
    for row in range(geometry.rows):
        for col in range(geometry.cols):
            yield row, col, cell_image(warped, row, col, geometry, inset)

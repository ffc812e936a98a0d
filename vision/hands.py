"""Is a hand over the board? Skin-coloured pixels that the calibration did not see there.

Why not the skin colour alone: a red or pink premium square, a wooden tile or a tan one is as
warm as a hand. The calibration's start picture shows what of the board itself looks like
skin, and teaching gave the tiles' colour; what is left is a hand, an arm or a sleeve-less
elbow, and the reader refuses to judge the cells under it (the kiosk waits for a steady frame).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.appearance import LOOK_CELL_PX, BoardAppearance, to_lab
from vision.occupancy import cell_fraction, skin_mask

#: A hand (with its arm) covers at least this many cells' area.
MIN_HAND_CELLS = 1.5
#: A pixel this close (L*a*b*) to the tile colour is a tile, not skin.
TILE_COLOUR_DISTANCE = 14.0


def reference_skin(warped: np.ndarray) -> np.ndarray:
    """The skin-coloured pixels of a start picture's board warp, widened by 2 px so the same
    board seen a pixel off does not count as a new hand."""
    return cv2.dilate(skin_mask(warped, wide=True).astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)


def new_skin(warped: np.ndarray, appearance: BoardAppearance | None) -> np.ndarray:
    """Skin-coloured pixels of a board warp that are neither the board's own (as calibrated)
    nor the tiles' colour."""
    skin = skin_mask(warped, wide=appearance is not None)
    if appearance is None or not skin.any():
        return skin
    if appearance.skin is not None and appearance.skin.shape == skin.shape:
        skin &= ~appearance.skin
    if np.isfinite(appearance.tile_lab).all() and skin.any():
        ys, xs = np.nonzero(skin)
        lab = to_lab(warped[ys, xs][None])[0]
        tile = np.linalg.norm(lab - appearance.tile_lab[None, :], axis=1) <= TILE_COLOUR_DISTANCE
        skin[ys[tile], xs[tile]] = False
    return _large_parts(skin)


def _large_parts(mask: np.ndarray) -> np.ndarray:
    """Only the skin-coloured regions bigger than one and a half cells: a hand with its arm is
    several cells across, while a red square the light has warmed since calibration is one."""
    if not mask.any():
        return mask
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    big = np.zeros(n, bool)
    big[1:] = stats[1:, cv2.CC_STAT_AREA] >= MIN_HAND_CELLS * LOOK_CELL_PX**2
    return big[labels]


def hand_cells(warped: np.ndarray, rows: int, cols: int, appearance: BoardAppearance | None) -> np.ndarray:
    """Share of each cell (rows x cols) covered by new skin, on a :func:`vision.appearance.board_warp`."""
    return cell_fraction(new_skin(warped, appearance), rows, cols, LOOK_CELL_PX, LOOK_CELL_PX // 4)

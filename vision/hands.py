"""Is a hand over the board? Skin-coloured pixels that the calibration did not see there.

Why not the skin colour alone: a red or pink premium square, a wooden tile or a tan one is as
warm as a hand. The calibration's start picture shows what of the board itself looks like
skin, and teaching gave the tiles' colour; what is left is a hand, an arm or a sleeve-less
elbow, and the reader refuses to judge the cells under it (the kiosk waits for a steady frame).

Calibrations that kept their picture use :mod:`vision.arms` instead, which sees an arm of any
colour by where it comes from; the skin check stays for older calibrations and for the
calibration screen, which has no reference yet.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.appearance import LOOK_CELL_PX, BoardAppearance, to_lab
from vision.arms import UNDER_HAND, arm_cells, parts_at_least
from vision.occupancy import cell_fraction, skin_mask

#: The flags a reader gives: the cells under the hand, and every other cell of the picture (an
#: arm's outline is never exact, a tile it hides may have moved: nothing in a picture with a
#: hand in it is certain; the kiosk waits for the hand to go).
UNDER_HAND_FLAG = "under a hand or arm"
HAND_OVER_BOARD_FLAG = "a hand or arm is over the board"


def hand_flags(under: float, any_hand: bool) -> list[str]:
    """The hand's flag for a cell ``under`` that share under a hand, in a picture with
    (``any_hand``) or without a hand over the board."""
    if under > UNDER_HAND:
        return [UNDER_HAND_FLAG]
    return [HAND_OVER_BOARD_FLAG] if any_hand else []


def hand_over_board(image: np.ndarray, corners: np.ndarray, rows: int, cols: int,
                    appearance: BoardAppearance) -> bool:
    """Whether a hand or arm covers any cell of the board in a camera picture (the calibration
    must have kept its picture: ``appearance.scene``)."""
    if appearance.scene is None:
        raise ValueError("this calibration kept no picture to find hands against")
    arm = arm_cells(image, corners, rows, cols, appearance.scene, appearance.tile_lab)
    return bool((arm > UNDER_HAND).any())


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
    return parts_at_least(mask, MIN_HAND_CELLS * LOOK_CELL_PX**2)


def hand_cells(warped: np.ndarray, rows: int, cols: int, appearance: BoardAppearance | None,
               image: np.ndarray | None = None, corners: np.ndarray | None = None,
               stacks: Sequence[np.ndarray] = (), small: tuple[np.ndarray, float] | None = None
               ) -> np.ndarray:
    """Share of each cell (rows x cols) under a hand.

    When the calibration kept its picture and the camera ``image`` with the playing area's
    ``corners`` is given: any arm reaching in from outside, whatever its colour
    (:mod:`vision.arms`). Measured on randomised renders with a hand in half the pictures, that
    finds every hand over a cell with no false alarm, where new skin (below) also took tan tiles
    on pink squares for hands (6 false alarms in 76 pictures without a hand). Otherwise
    (calibrations from before the picture was kept, the calibration screen): new skin on
    ``warped``, a :func:`vision.appearance.board_warp`. ``stacks``: the image outlines of the
    tallest stacks the border cells can hold, and ``small``, ``image`` shrunk when the caller has
    it (:func:`vision.arms.arm_cells`).
    """
    if appearance is not None and appearance.scene is not None and image is not None and corners is not None:
        return arm_cells(image, corners, rows, cols, appearance.scene, appearance.tile_lab, stacks, small)
    return cell_fraction(new_skin(warped, appearance), rows, cols, LOOK_CELL_PX, LOOK_CELL_PX // 4)

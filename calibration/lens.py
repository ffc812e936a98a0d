"""Lens calibration from photos of a printed ChArUco board (optional).

Why: the Upwords reader finds a stack's height from how its top face shifts between planes,
which needs the camera's focal length. Without a lens calibration the reader estimates it
from the board's own perspective (good when the camera is tilted, unobservable straight
overhead). A few photos of a ChArUco board (a chessboard whose white squares carry ArUco
markers, so any partial view is still identified) give the focal length, principal point
and distortion properly.

The ChArUco board uses the DICT_5X5_100 dictionary, deliberately not the corner markers'
DICT_4X4_50, so corner markers left on the table never confuse it (and vice versa).

Example::

    lens, rms, used = calibrate_lens([cv2.imread(p) for p in paths])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.file import CalibrationError, Lens

SQUARES = (7, 5)  # columns, rows of chessboard squares
SQUARE_MM = 30.0
MARKER_MM = 22.0
DICTIONARY = cv2.aruco.DICT_5X5_100
#: Fewer chessboard corners than this in a photo and the view is not used.
MIN_CORNERS = 8
MIN_VIEWS = 3


@dataclass(frozen=True)
class LensResult:
    """The calibrated lens, its RMS reprojection error (pixels), and which photos counted."""

    lens: Lens
    rms: float
    used: tuple[int, ...]
    image_size: tuple[int, int]


def charuco_board(squares: tuple[int, int] = SQUARES, square_mm: float = SQUARE_MM,
                  marker_mm: float = MARKER_MM) -> cv2.aruco.CharucoBoard:
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    return cv2.aruco.CharucoBoard(squares, square_mm, marker_mm, dictionary)


def charuco_sheet(dpi: int = 300, board: cv2.aruco.CharucoBoard | None = None) -> np.ndarray:
    """The board as a grey image at ``dpi`` with a white margin (print at actual size)."""
    board = board or charuco_board()
    cols, rows = board.getChessboardSize()
    sq = board.getSquareLength()
    w, h = round(cols * sq / 25.4 * dpi), round(rows * sq / 25.4 * dpi)
    margin = round(10 / 25.4 * dpi)
    return board.generateImage((w + 2 * margin, h + 2 * margin), marginSize=margin, borderBits=1)


def write_charuco_sheet(path: str | Path, dpi: int = 300) -> Path:
    from PIL import Image

    path = Path(path)
    if path.suffix.lower() not in (".png", ".pdf"):
        raise CalibrationError(f"{path.name}: write the sheet as .png or .pdf")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        extra = {"resolution": dpi} if path.suffix.lower() == ".pdf" else {}
        Image.fromarray(charuco_sheet(dpi)).save(path, dpi=(dpi, dpi), **extra)
    except OSError as exc:
        raise CalibrationError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def board_corners(image: np.ndarray, board: cv2.aruco.CharucoBoard | None = None
                  ) -> tuple[np.ndarray, np.ndarray] | None:
    """(object points, image points) of the chessboard corners seen in one photo, or None."""
    board = board or charuco_board()
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _, _ = cv2.aruco.CharucoDetector(board).detectBoard(gray)
    if ids is None or len(ids) < MIN_CORNERS:
        return None
    obj, img = board.matchImagePoints(corners, ids)
    if obj is None or len(obj) < MIN_CORNERS:
        return None
    return obj.reshape(-1, 3).astype(np.float32), img.reshape(-1, 2).astype(np.float32)


def calibrate_lens(images: Sequence[np.ndarray], board: cv2.aruco.CharucoBoard | None = None,
                   distortion: bool = True) -> LensResult:
    """Calibrate from photos of the ChArUco board taken with the kiosk's camera.

    Needs at least three usable views (the board at different tilts fills the lens best).
    ``distortion=False`` fits the focal length and centre only (for very few views).
    """
    if not images:
        raise CalibrationError("no photos of the lens board given")
    sizes = {(im.shape[1], im.shape[0]) for im in images}
    if len(sizes) != 1:
        raise CalibrationError("the lens photos must all be the same size (the same camera mode)")
    size = sizes.pop()
    obj_pts, img_pts, used = [], [], []
    for i, image in enumerate(images):
        found = board_corners(image, board)
        if found is not None:
            obj_pts.append(found[0])
            img_pts.append(found[1])
            used.append(i)
    if len(used) < MIN_VIEWS:
        raise CalibrationError(f"the lens board was found in {len(used)} of {len(images)} photos; "
                               f"at least {MIN_VIEWS} are needed (fill the picture with the board, "
                               "tilted a different way each time)")
    flags = 0 if distortion else (cv2.CALIB_FIX_K1 | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3
                                  | cv2.CALIB_ZERO_TANGENT_DIST)
    rms, K, dist, _, _ = cv2.calibrateCamera(obj_pts, img_pts, size, None, None, flags=flags)
    if not np.isfinite(rms) or K[0, 0] <= 0 or K[1, 1] <= 0:
        raise CalibrationError("the lens calibration did not converge: take more varied photos")
    return LensResult(Lens.from_arrays(K, dist), float(rms), tuple(used), size)

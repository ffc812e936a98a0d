"""Corner markers: the printable sheet, and finding the board in a photo by them.

Why markers: clicking four corners on a 7" touchscreen is fiddly and a board that is nudged
needs it again. Four ArUco markers (dictionary DICT_4X4_50, ids 0..3) stuck at the playing
area's corners let ``tablekeeper calibrate board`` find the board by itself, under any camera
tilt or rotation, and say exactly which marker it cannot see.

Placement (also in docs/calibration.md): marker 0 goes at the playing area's top-left corner,
1 top-right, 2 bottom-right, 3 bottom-left ("top" is the side away from the players who sit
at the bottom, as the board is read). Each marker lies **upright** (its label readable the
same way as the board) just outside the playing area, with its **inner corner** (the one
marked with a dot on the sheet, pointing at the board) touching the playing area's corner.
The board corner is therefore, in each marker's own frame: marker 0 its bottom-right corner,
1 its bottom-left, 2 its top-left, 3 its top-right. Because ArUco reports a marker's corners
in the marker's own orientation, this holds whichever way the camera looks at the table.

Boards with the markers printed elsewhere (in the margin, say) describe them with a
:class:`MarkerLayout` (every marker corner in millimetres from the playing area's top-left);
then all sixteen marker corners fit one homography and the playing area's corners follow.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.file import CalibrationError

DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)
CORNER_NAMES = {0: "top left", 1: "top right", 2: "bottom right", 3: "bottom left"}
#: Which of the marker's own corners (TL, TR, BR, BL of the marker) touches the board corner.
INNER_CORNER = {0: 2, 1: 3, 2: 0, 3: 1}
#: (column, row) of each marker on the sheet: laid out as on the board.
SHEET_CELL = {0: (0, 0), 1: (1, 0), 2: (1, 1), 3: (0, 1)}
DPI = 300
A4_MM = (210.0, 297.0)


class MarkersNotFound(CalibrationError):
    """Some corner markers are not in the picture; ``found`` and ``missing`` say which."""

    def __init__(self, found: tuple[int, ...], missing: tuple[int, ...]) -> None:
        self.found, self.missing = found, missing
        hidden = ", ".join(f"marker {i} ({CORNER_NAMES[i]})" for i in missing)
        verb = "is" if len(missing) == 1 else "are"
        if not found:
            text = ("no corner markers found in the picture: print them with "
                    "`tablekeeper calibrate markers`, lay them at the board's corners, "
                    "and make sure the camera sees the whole board")
        else:
            text = f"found markers {', '.join(map(str, found))}: {hidden} {verb} hidden"
        super().__init__(text)


@dataclass(frozen=True)
class MarkerLayout:
    """Where each marker's four corners are on the board (mm from the playing area's top-left,
    x to the right, y towards the players), and the playing area's size in mm."""

    area_mm: tuple[float, float]
    markers: Mapping[int, np.ndarray]

    def board_points(self, marker_id: int) -> np.ndarray:
        return np.asarray(self.markers[marker_id], np.float64).reshape(4, 2)


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary(), params)


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Every corner marker (ids 0..3) in the picture: id -> its 4 corners (marker's TL, TR, BR, BL).

    A marker id seen twice is an error (two sheets printed and both on the table?).
    """
    if image is None or image.size == 0:
        raise CalibrationError("the picture is empty")
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _rejected = _detector().detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        i = int(marker_id)
        if i not in MARKER_IDS:
            continue
        if i in found:
            raise CalibrationError(f"marker {i} ({CORNER_NAMES[i]}) is in the picture twice: "
                                   "use one sheet of markers per board")
        found[i] = quad.reshape(4, 2).astype(np.float64)
    return found


def find_board(image: np.ndarray, layout: MarkerLayout | None = None) -> np.ndarray:
    """The playing area's corners (4x2 float, TL, TR, BR, BL, image pixels) from the markers.

    Raises :class:`MarkersNotFound` naming the hidden markers, or :class:`CalibrationError` when
    the markers are placed wrongly (swapped, so the outline is not a board).
    """
    found = find_markers(image)
    missing = tuple(i for i in MARKER_IDS if i not in found)
    if missing:
        raise MarkersNotFound(tuple(sorted(found)), missing)
    if layout is None:
        corners = np.array([found[i][INNER_CORNER[i]] for i in MARKER_IDS], np.float64)
    else:
        src = np.vstack([layout.board_points(i) for i in MARKER_IDS])
        dst = np.vstack([found[i] for i in MARKER_IDS])
        H, _ = cv2.findHomography(src, dst, 0)
        w, h = layout.area_mm
        area = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64)
        corners = cv2.perspectiveTransform(area, H)[0]
    _check_order(corners)
    return corners


def _check_order(corners: np.ndarray) -> None:
    crosses = []
    for i in range(4):
        a, b, c = corners[i], corners[(i + 1) % 4], corners[(i + 2) % 4]
        crosses.append((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]))
    if not all(x > 0 for x in crosses):
        raise CalibrationError("the markers do not outline the board: check that marker 0 is top left, "
                               "1 top right, 2 bottom right and 3 bottom left, each at its own corner")


# ------------------------------------------------------------------ the printable sheet
def _mm(v: float, dpi: int) -> int:
    return round(v * dpi / 25.4)


def marker_sheet(size_mm: float = 30.0, dpi: int = DPI) -> np.ndarray:
    """An A4 page (grey, uint8) with markers 0..3, each labelled with its corner.

    Each marker is ``size_mm`` wide when printed at ``dpi`` ("actual size", no fit-to-page);
    a 100 mm ruler on the page lets the players check. The dot beside each marker marks its
    inner corner, which touches the board's corner.
    """
    if not 10.0 <= size_mm <= 80.0:
        raise CalibrationError(f"markers of {size_mm:g} mm do not fit the sheet; choose 10 to 80 mm")
    page_w, page_h = _mm(A4_MM[0], dpi), _mm(A4_MM[1], dpi)
    page = np.full((page_h, page_w), 255, np.uint8)
    side = _mm(size_mm, dpi)
    # Four cells, two by two, in the order the markers lie on the board.
    cell_w, cell_h = page_w // 2, (page_h - _mm(50, dpi)) // 2
    font, scale, thick = cv2.FONT_HERSHEY_SIMPLEX, dpi / 150, max(2, dpi // 100)
    for marker_id in MARKER_IDS:
        col, row = SHEET_CELL[marker_id]
        x = col * cell_w + (cell_w - side) // 2
        y = _mm(25, dpi) + row * cell_h + (cell_h - side) // 2
        page[y:y + side, x:x + side] = cv2.aruco.generateImageMarker(dictionary(), marker_id, side)
        cv2.rectangle(page, (x - 1, y - 1), (x + side, y + side), 200, 1)  # a faint cutting line
        quad = [(x, y), (x + side, y), (x + side, y + side), (x, y + side)]
        ix, iy = quad[INNER_CORNER[marker_id]]
        dx, dy = (1 if ix > x else -1), (1 if iy > y else -1)
        cv2.circle(page, (ix + dx * _mm(3, dpi), iy + dy * _mm(3, dpi)), _mm(1.5, dpi), 0, -1)
        label = f"{marker_id}: {CORNER_NAMES[marker_id].upper()}"
        (tw, _th), _ = cv2.getTextSize(label, font, scale, thick)
        cv2.putText(page, label, (x + (side - tw) // 2, y - _mm(6, dpi)), font, scale, 0, thick, cv2.LINE_AA)
        hint = "dot = board corner"
        (hw, _), _ = cv2.getTextSize(hint, font, scale * 0.6, max(1, thick // 2))
        cv2.putText(page, hint, (x + (side - hw) // 2, y + side + _mm(9, dpi)), font, scale * 0.6, 0,
                    max(1, thick // 2), cv2.LINE_AA)
    # A 100 mm ruler and the instructions at the foot of the page.
    y0 = page_h - _mm(30, dpi)
    x0 = _mm(20, dpi)
    cv2.line(page, (x0, y0), (x0 + _mm(100, dpi), y0), 0, max(2, dpi // 100))
    for k in range(11):
        xk = x0 + _mm(10 * k, dpi)
        cv2.line(page, (xk, y0 - _mm(3 if k % 5 else 5, dpi)), (xk, y0), 0, max(1, dpi // 150))
    notes = [f"This line is 100 mm. Markers are {size_mm:g} mm. "
             f"Print at actual size ({dpi} dpi), no scaling.",
             "Cut out; lay each upright at its corner of the playing area, dot touching the corner."]
    for k, text in enumerate(notes):
        cv2.putText(page, text, (x0, y0 + _mm(8 + 7 * k, dpi)), font, scale * 0.55, 0, max(1, thick // 2),
                    cv2.LINE_AA)
    return page


def write_marker_sheet(path: str | Path, size_mm: float = 30.0, dpi: int = DPI) -> Path:
    """Write the sheet as PNG (or PDF) with its resolution recorded, so it prints at true size."""
    from PIL import Image

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".png", ".pdf", ".tif", ".tiff"):
        raise CalibrationError(f"{path.name}: write the sheet as .png or .pdf (the formats that keep "
                               "the print size)")
    page = marker_sheet(size_mm, dpi)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(page).save(path, dpi=(dpi, dpi), **({"resolution": dpi} if suffix == ".pdf" else {}))
    except OSError as exc:
        raise CalibrationError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path

"""The board's learnt look in a calibration: learning it, storing it beside the calibration,
and building the readers from it.

Calibration already sees the board in a known state, so it keeps what that looks like
(:mod:`vision.learn_board`): ``calibrate board --start-position`` records every cell of the
board empty (Upwords, crossword grids) or the Word on the Street start position; teaching the
letters from a photo adds the tile colour and the tile face's size. The references live in
``board.npz`` beside the calibration file (``appearance_file``), and
:func:`reader_for` is the one place that turns a calibration into a board reader.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from calibration.file import Calibration, CalibrationError, save_calibration
from vision.appearance import BoardAppearance, board_looks, board_warp, tile_colour, to_lab, warp_board
from vision.arms import reference_scene
from vision.hands import reference_skin
from vision.learn_board import learn_street, occupied_mask, with_tiles
from vision.readers import BoardReader
from vision.set_geometry import TileHeight, measure_tile_height

if TYPE_CHECKING:
    from vision.upwords_reader import LetterReaderLike

APPEARANCE_FILE = "board.npz"

#: Tile thickness (mm) when the calibration has none: Upwords, Word on the Street, a crossword tile.
DEFAULT_THICKNESS = {"upwords": 3.6, "wots": 4.0, "grid": 4.0}
#: Tile face / cell pitch when nothing was measured.
DEFAULT_FACE = {"upwords": 19.5 / 22.0, "wots": 25.0 / 30.0, "grid": 0.9}


def face_fraction(cal: Calibration) -> float:
    return cal.tile_face or DEFAULT_FACE[cal.kind]


def thickness(cal: Calibration) -> float:
    return cal.tile_thickness_mm or DEFAULT_THICKNESS[cal.kind]


#: The pitch the stacking readers work in (mm): any unit would do, only ratios to it matter.
READER_PITCH_MM = 22.0


def stack_thickness(cal: Calibration) -> tuple[float, bool]:
    """The tile thickness a stacking reader uses (mm of :data:`READER_PITCH_MM`), and whether it
    was measured from a picture. A thickness given in millimetres is measured against a pitch the
    reader only assumes, so it counts as unmeasured: heights from one picture stay in doubt."""
    if cal.tile_height:
        return cal.tile_height * READER_PITCH_MM, True
    return thickness(cal), False


def learn_start_position(cal: Calibration, image: np.ndarray) -> BoardAppearance:
    """The references from a photo of the board before play: empty (Upwords, grids), or every
    tile on its own median letter (Word on the Street, which also gives the tile colour)."""
    corners = cal.corners_for(image.shape[1], image.shape[0])
    if cal.kind == "wots":
        return learn_street(image, corners, face_fraction(cal))
    warped = board_warp(image, corners, cal.rows, cal.cols)
    empty = board_looks(image, corners, cal.rows, cal.cols, face_fraction(cal), warped)
    return BoardAppearance(tile_lab=np.full(3, np.nan, np.float32), empty=empty,
                           empty_known=np.ones((cal.rows, cal.cols), bool), skin=reference_skin(warped),
                           scene=reference_scene(image))


def measure_face(cal: Calibration, image: np.ndarray, cells: Iterable[tuple[int, int]],
                 tile_lab: np.ndarray) -> float | None:
    """The tile face's size as a fraction of the cell pitch, from tiles on known cells: the
    tile-coloured square around each cell's centre (letters filled in), median over the cells."""
    cell_px, pad = 40, 24
    corners = cal.corners_for(image.shape[1], image.shape[0])
    warped = warp_board(image, corners, cal.rows, cal.cols, cell_px, pad)
    close = np.linalg.norm(to_lab(warped) - tile_lab[None, None, :], axis=2) < 16.0
    mask = cv2.morphologyEx(close.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    sizes = []
    for r, c in cells:
        cy, cx = pad + (r + 0.5) * cell_px, pad + (c + 0.5) * cell_px
        y0, x0 = int(cy - 0.8 * cell_px), int(cx - 0.8 * cell_px)
        window = mask[max(y0, 0):int(cy + 0.8 * cell_px), max(x0, 0):int(cx + 0.8 * cell_px)]
        _, labels, stats, _ = cv2.connectedComponentsWithStats(window)
        label = labels[window.shape[0] // 2, window.shape[1] // 2]
        if label == 0:
            continue
        w, h = stats[label, cv2.CC_STAT_WIDTH], stats[label, cv2.CC_STAT_HEIGHT]
        if max(w, h) < 1.5 * cell_px:  # one tile, not a row of touching tiles
            sizes.append(min(w, h) / cell_px)
    if len(sizes) < 3:
        return None
    face = float(np.median(sizes))
    # Beyond this range the "tile" found is not one tile (a stand's edge, tiles touching, a
    # side face seen at a steep angle): better the set's default than a wrong measure.
    return face if 0.6 <= face <= 0.95 else None


def add_tiles(cal: Calibration, appearance: BoardAppearance | None, image: np.ndarray,
              cells: Iterable[tuple[int, int]]) -> tuple[BoardAppearance, float | None, TileHeight | None]:
    """The references with the tile colour taught from a photo of tiles on known ``cells``, and
    the tile face's size and thickness measured from them (None when they could not be)."""
    cells = list(cells)
    corners = cal.corners_for(image.shape[1], image.shape[0])
    looks = board_looks(image, corners, cal.rows, cal.cols, face_fraction(cal))
    as_seen = tile_colour(looks, occupied_mask(cal.rows, cal.cols, cells))  # under this photo's light
    if appearance is None:
        appearance = BoardAppearance(tile_lab=as_seen)
    else:
        appearance = with_tiles(appearance, looks, cells, image, corners)
    face = measure_face(cal, image, cells, as_seen)
    height = None
    if cal.kind == "upwords":  # only stacks have heights to read
        lens = np.asarray(cal.lens.camera_matrix) if cal.lens is not None else None
        height = measure_tile_height(image, corners, cal.rows, cal.cols, face or face_fraction(cal), cells,
                                     lens)
    return appearance, face, height


def save_appearance(cal: Calibration, calibration_path: str | Path, appearance: BoardAppearance,
                    **changes: Any) -> Calibration:
    """Write ``board.npz`` beside the calibration and record it (with ``changes``) there."""
    calibration_path = Path(calibration_path)
    target = calibration_path.parent / APPEARANCE_FILE
    try:
        appearance.save(target)
    except OSError as exc:
        raise CalibrationError(f"cannot write {target}: {exc.strerror or exc}") from None
    updated = replace(cal, appearance_file=APPEARANCE_FILE, **changes)
    save_calibration(updated, calibration_path)
    return updated


def load_appearance(cal: Calibration, calibration_path: str | Path) -> BoardAppearance | None:
    """The learnt references, or None when the board was calibrated without a start position.

    A damaged file is a :class:`CalibrationError` in plain words (the reader must not silently
    fall back to rules that do not fit this board)."""
    path = cal.appearance_path(calibration_path)
    if path is None:
        return None
    if not path.is_file():
        raise CalibrationError(f"the board's learnt look ({path}) is missing; run "
                               "`tablekeeper calibrate board --start-position` again")
    try:
        appearance = BoardAppearance.load(path)
    except ValueError as exc:
        raise CalibrationError(str(exc)) from None
    if appearance.empty is not None and appearance.empty.shape != (cal.rows, cal.cols):
        raise CalibrationError(f"the board's learnt look ({path}) is for another grid; run "
                               "`tablekeeper calibrate board --start-position` again")
    return appearance


def reader_for(cal: Calibration, corners: np.ndarray, image_size: tuple[int, int], *,
               letters: LetterReaderLike | None = None, appearance: BoardAppearance | None = None,
               camera_matrix: np.ndarray | None = None, threshold: float | None = None) -> BoardReader:
    """The board reader for a calibration: the set's tile geometry, its learnt references, and
    for a crossword-style grid loose flat tiles (no stacks)."""
    extra: dict[str, Any] = {} if threshold is None else {"threshold": threshold}
    if cal.kind == "wots":
        from vision.street import StreetGeometry, StreetReader

        base = StreetGeometry()
        lanes = StreetGeometry(base.pitch_mm, base.lane_mm, base.pitch_mm * face_fraction(cal),
                               thickness(cal))
        return StreetReader(corners, image_size, letters=letters, geometry=lanes,
                            camera_matrix=camera_matrix, appearance=appearance, **extra)
    from vision.upwords_reader import TileGeometry, UpwordsReader

    grid = cal.kind == "grid"
    thick, measured = stack_thickness(cal)
    tiles = TileGeometry.from_shape(face_fraction(cal), thick, 1 if grid else 5, READER_PITCH_MM, measured)
    return UpwordsReader(corners, image_size, rows=cal.rows, cols=cal.cols, letters=letters,
                         geometry=tiles, camera_matrix=camera_matrix, loose_tiles=grid,
                         appearance=appearance, **extra)

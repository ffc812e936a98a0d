"""Learn a board's references from the pictures calibration already takes.

* A grid board (Upwords, a crossword-style board) is calibrated **empty**: every cell's empty
  look is kept. The tile colour comes from the teaching picture (tiles laid out in a known
  order), or from any picture whose occupied cells are known.
* Word on the Street is calibrated in its **start position**: every tile on its own letter of
  the median, every lane empty. The lanes give the empty looks, the median the tiles' looks in
  place and the tile colour.

The result is a :class:`vision.appearance.BoardAppearance`, stored beside the calibration.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from vision.appearance import (
    BoardAppearance,
    CellLooks,
    board_looks,
    board_warp,
    cell_greys,
    face_parts,
    teaching_light,
    tile_colour,
)
from vision.arms import reference_scene
from vision.hands import reference_skin

STREET_ROWS, STREET_COLS, MEDIAN_ROW = 5, 17, 2


def occupied_mask(rows: int, cols: int, cells: Iterable[tuple[int, int]]) -> np.ndarray:
    mask = np.zeros((rows, cols), bool)
    for r, c in cells:
        mask[r, c] = True
    return mask


def learn_grid(empty_image: np.ndarray, corners: np.ndarray, rows: int, cols: int, face_frac: float,
               tiles_image: np.ndarray | None = None, tile_cells: Iterable[tuple[int, int]] = ()
               ) -> BoardAppearance:
    """References of a grid board from a picture of it empty and a picture with known tiles."""
    warped = board_warp(empty_image, corners, rows, cols)
    empty = board_looks(empty_image, corners, rows, cols, face_frac, warped)
    known = np.ones((rows, cols), bool)
    if tiles_image is None:
        raise ValueError("the tile colour needs a picture with tiles on known cells (the teaching picture)")
    looks = board_looks(tiles_image, corners, rows, cols, face_frac)
    tiles = occupied_mask(rows, cols, tile_cells)
    light = teaching_light(empty_image, tiles_image, corners, rows, cols, looks, empty, tiles)
    return BoardAppearance(tile_lab=tile_colour(looks, tiles, light),
                           empty=empty, empty_known=known, skin=reference_skin(warped),
                           scene=reference_scene(empty_image))


def with_tiles(appearance: BoardAppearance, looks: CellLooks, tile_cells: Iterable[tuple[int, int]],
               image: np.ndarray, corners: np.ndarray) -> BoardAppearance:
    """The same references with the tile colour learnt from ``looks`` (of ``image``, the board's
    corners in it at ``corners``) at ``tile_cells``, brought to the calibration's light (not
    possible for a calibration saved before it kept its picture: then as the picture shows it)."""
    rows, cols = looks.shape
    tiles = occupied_mask(rows, cols, tile_cells)
    light = None
    if appearance.scene is not None:
        light = teaching_light(appearance.scene, image, corners, rows, cols, looks, appearance.empty, tiles)
    return BoardAppearance(tile_lab=tile_colour(looks, tiles, light),
                           empty=appearance.empty, empty_known=appearance.empty_known,
                           tile=appearance.tile, tile_known=appearance.tile_known, skin=appearance.skin,
                           scene=appearance.scene, faces=appearance.faces, inks=appearance.inks,
                           greys=appearance.greys)


def learn_street(start_image: np.ndarray, corners: np.ndarray, face_frac: float) -> BoardAppearance:
    """References of the Word on the Street board from a picture of the start position."""
    warped = board_warp(start_image, corners, STREET_ROWS, STREET_COLS)
    looks = board_looks(start_image, corners, STREET_ROWS, STREET_COLS, face_frac, warped)
    median = np.zeros((STREET_ROWS, STREET_COLS), bool)
    median[MEDIAN_ROW] = True
    faces, inks = face_parts(warped, STREET_ROWS, STREET_COLS, face_frac)
    return BoardAppearance(tile_lab=tile_colour(looks, median), empty=looks, empty_known=~median,
                           tile=looks, tile_known=median, skin=reference_skin(warped),
                           scene=reference_scene(start_image), faces=faces, inks=inks,
                           greys=cell_greys(warped, STREET_ROWS, STREET_COLS))

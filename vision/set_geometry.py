"""The set's tile thickness, measured from a picture of tiles lying on known cells.

Why measure it: the reader tells a stack's height by which plane above the board its top face
sits on (:mod:`vision.planes`), and the planes are one tile thickness apart. Sets differ (tiles
2-5 mm thick on cells 18-26 mm apart), and a thickness assumed or taken with a ruler against a
pitch the reader assumes puts the planes in the wrong places: whole stacks read one too high
or too low, and sure. Only the ratio of thickness to pitch matters, and the teaching photo
(every tile one high, on cells the players named) shows it: a tile's top face lies one
thickness above the board, and the warp of the plane at exactly that height is where the faces
sit squarely in their cells.

So the ratio is the plane height at which the taught letters sit in the middle of their cells:
warped on a plane below the faces, a letter slides away from the camera, above them towards it,
and the slide (median over the taught tiles) says how far to move the plane. That holds only
near the faces: on a plane far from them the face's square holds the tile's side or the board,
whose dark pixels pass for ink and can centre it again. So every plane a set can have is tried,
the faces are where the ink's slide turns from away to towards the camera, and a picture that
shows more than one such place measures nothing.

A camera straight overhead barely separates the planes: then nothing is measured, and
a height from a single picture stays in doubt (the game's history settles it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from vision.planes import BoardPlanes

#: The thicknesses a set can have, as a share of the cell pitch (1.1-8.8 mm on a 22 mm pitch).
LOWEST, HIGHEST = 0.05, 0.40
#: Pixels per cell of the warped planes (enough to see a face slide by a tenth of a cell).
CELL_PX = 40
#: A measure needs the top face of a one-high tile to move at least this far (pixels per cell
#: of :data:`CELL_PX`, at the median taught cell) over the heights tried: less, and the camera
#: is too near overhead for the planes to tell the heights apart.
MIN_TRAVEL_PX = 6.0
#: ... and this many taught tiles, whose own best heights agree within :data:`MAX_SPREAD`
#: (median absolute deviation, share of the pitch).
MIN_TILES = 5
MAX_SPREAD = 0.03
#: The planes tried (share of the pitch apart), then refinements of the best one (each moves
#: it by what the ink's slide says is left, and must end where it points).
SCAN_STEP = 0.01
ROUNDS = 3
#: Near the faces the ink's slide falls as fast as the tried plane rises (1.0); a place where
#: it falls at less than half that is not where the faces sit.
FACES_FALL = 0.5


@dataclass(frozen=True)
class TileHeight:
    """A measured tile thickness as a share of the cell pitch, and what it rests on."""

    ratio: float
    tiles: int
    spread: float          # the taught tiles' own best ratios: median absolute deviation
    travel_px: float       # how far a face slides from the thinnest set to the thickest (px per 40 px cell)

    def thickness_mm(self, pitch_mm: float) -> float:
        return self.ratio * pitch_mm


def measure_tile_height(image: np.ndarray, corners: np.ndarray, rows: int, cols: int, face_frac: float,
                        cells: Iterable[tuple[int, int]] | Mapping[tuple[int, int], int],
                        camera_matrix: np.ndarray | None = None) -> TileHeight | None:
    """The thickness of the tiles on ``cells``: one high each, or as high as a mapping of cells to
    stack heights says (a picture of a game whose board the players confirmed: a stack of h tiles
    has its face h thicknesses up, so it slides h times as far and a camera nearer overhead still
    tells the thickness). None when the picture cannot tell it (camera nearly overhead, too few
    tiles, the tiles disagreeing)."""
    stacks = dict(cells) if isinstance(cells, Mapping) else dict.fromkeys(cells, 1)
    stacks = {cell: int(h) for cell, h in stacks.items() if h >= 1}
    if len(stacks) < MIN_TILES:
        return None
    cells = sorted(stacks)
    h, w = image.shape[:2]
    pitch = 22.0  # any unit: only the ratio is measured
    planes = BoardPlanes.from_corners(np.asarray(corners, np.float64), rows, cols, (w, h), (pitch, pitch),
                                      camera_matrix)
    rr, cc = np.array(cells).T
    tall = np.array([stacks[cell] for cell in cells], np.float64)
    # how far a face slides from the thinnest set to the thickest, at the median cell: the
    # planes' power to tell heights apart here
    slide = _slide_px(planes, rr, cc, pitch, HIGHEST * tall) - _slide_px(planes, rr, cc, pitch, LOWEST * tall)
    travel = float(np.median(slide))
    if travel < MIN_TRAVEL_PX:
        return None
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    toward = _away_from_camera(planes, rr, cc, pitch)
    per_ratio = _slide_px(planes, rr, cc, pitch, 0.1 * tall) / 0.1  # the slide per unit of the ratio

    def own_ratios(ratio: float) -> np.ndarray:
        """Each tile's ratio as its ink's slide on its plane at ``ratio`` says (NaN: no ink found)."""
        offsets = np.full((len(cells), 2), math.nan)
        for height in sorted(set(tall.tolist())):
            warped = planes.warp(gray, rows, cols, CELL_PX, -ratio * height * pitch, pad_cells=0.5)
            for i in np.flatnonzero(tall == height):
                offsets[i] = _ink_offset(warped, *cells[i], face_frac)
        # ink lying beyond the cell's centre, away from the camera: the plane is below the faces
        return ratio + (offsets * toward.T).sum(axis=1) / per_ratio

    start = _where_the_faces_sit(own_ratios)
    if start is None:
        return None
    ratio, own = start, np.zeros(len(cells))
    for _ in range(ROUNDS):
        own = own_ratios(ratio)
        ok = np.isfinite(own)
        if ok.sum() < MIN_TILES:
            return None
        ratio = float(np.clip(np.median(own[ok]), LOWEST, HIGHEST))
    if abs(ratio - start) > SCAN_STEP:  # the refinement left the crossing it started from
        return None
    own = own[np.isfinite(own)]
    spread = float(np.median(np.abs(own - ratio)))
    if spread > MAX_SPREAD or not LOWEST < ratio < HIGHEST:
        return None
    return TileHeight(round(ratio, 4), len(own), round(spread, 4), round(travel, 1))


def _where_the_faces_sit(own_ratios: Callable[[float], np.ndarray]) -> float | None:
    """The plane where the taught letters' ink, median over the tiles, crosses from beyond their
    cells' centres (away from the camera) to short of them, and does so as the faces do: near
    them the tiles' own ratio stays put as the tried plane moves, so the slide falls as fast as
    the plane rises. Where it falls at less than :data:`FACES_FALL` of that, the ink merely
    follows the plane (a side or the board centred by chance). None when no plane, or more
    than one, is such a place."""
    tried = np.arange(LOWEST, HIGHEST + SCAN_STEP / 2, SCAN_STEP)
    beyond = []
    for ratio in tried:
        own = own_ratios(float(ratio))
        ok = np.isfinite(own)
        beyond.append(float(np.median(own[ok])) - ratio if ok.sum() >= MIN_TILES else math.nan)
    found = []
    for i in range(len(tried) - 1):
        if not beyond[i] > 0 >= beyond[i + 1]:
            continue
        lo, hi = max(i - 1, 0), min(i + 2, len(tried) - 1)
        fall = (beyond[lo] - beyond[hi]) / (tried[hi] - tried[lo])
        if fall >= FACES_FALL:
            found.append(tried[i] + SCAN_STEP * beyond[i] / (beyond[i] - beyond[i + 1]))
    return float(found[0]) if len(found) == 1 else None


def _ink_offset(warped: np.ndarray, r: int, c: int, face_frac: float) -> tuple[float, float]:
    """Where the letter's ink lies in the face's square on this plane, from the square's centre
    (pixels, x and y): the minority of its pixels, split at Otsu's threshold."""
    pad = 0.5 * CELL_PX
    cy, cx = pad + (r + 0.5) * CELL_PX, pad + (c + 0.5) * CELL_PX
    half = 0.42 * face_frac * CELL_PX
    y0, y1, x0, x1 = (round(v) for v in (cy - half, cy + half, cx - half, cx + half))
    crop = warped[max(y0, 0):y1, max(x0, 0):x1]
    if crop.size < 16:
        return math.nan, math.nan
    _, split = cv2.threshold(crop, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink = split if split.mean() < 0.5 else 1 - split
    ys, xs = np.nonzero(ink)
    if len(xs) < 8:
        return math.nan, math.nan
    return float(xs.mean() + max(x0, 0) - cx + 0.5), float(ys.mean() + max(y0, 0) - cy + 0.5)


def _away_from_camera(planes: BoardPlanes, rr: np.ndarray, cc: np.ndarray, pitch: float) -> np.ndarray:
    """Per cell, the unit direction (x, y on the board) pointing away from the camera's foot."""
    camera_xy = (-planes.R.T @ planes.t)[:2]
    v = np.stack([(cc + 0.5) * pitch - camera_xy[0], (rr + 0.5) * pitch - camera_xy[1]])
    return v / np.maximum(np.hypot(*v), 1e-9)


def _slide_px(planes: BoardPlanes, rr: np.ndarray, cc: np.ndarray, pitch: float,
              ratio: float | np.ndarray) -> np.ndarray:
    """Per cell, how far (warped pixels) a face ``ratio`` pitches above the board (one number, or
    one per cell) lands from its cell when warped on the board plane. The slide grows along one
    line away from the camera, so its differences are distances too."""
    centres = np.column_stack([(cc + 0.5) * pitch, (rr + 0.5) * pitch])
    up = np.broadcast_to(np.asarray(ratio, np.float64), (len(centres),))
    seen = planes.project(np.column_stack([centres, -up * pitch]))
    back = cv2.perspectiveTransform(seen[None].astype(np.float64), np.linalg.inv(planes.homography(0.0)))[0]
    return np.hypot(*(back - centres).T) * CELL_PX / pitch

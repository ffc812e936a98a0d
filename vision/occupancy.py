"""Is there a tile in this cell, and where exactly is its top face? Cheap per-cell features.

Why these features: a tile's top face is a light, evenly coloured square with a dark letter
in the middle; an empty Upwords cell or a Word on the Street lane is a darker, flat surface;
the median strip is strongly coloured. Lighting gradients and shadows scale brightness, so
every feature is a *ratio or difference within the cell's own neighbourhood* rather than an
absolute level. All features for every cell come from one integral image per warped plane,
so a whole board costs a few box sums, not a loop over pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.labelling import MOST_16_BIT, most_pieces, pieces_with_stats


@lru_cache(maxsize=32)
def _layout(rows: int, cols: int, cell_px: float, face_frac: float, pad_px: float,
            shape: tuple[int, int]) -> tuple[np.ndarray, ...]:
    """Integral-image corner indices of every box the features use, for every cell.

    Boxes per cell, in order: rim outer, rim inner, centre, around outer, around inner, and
    the N, E, S, W strips. Returns (y0, y1, x0, x1, area), each of shape (9, rows, cols).
    Cached: the layout depends only on the geometry, so a frame pays for lookups only.
    """
    rr, cc = np.mgrid[0:rows, 0:cols]
    cy = pad_px + (rr + 0.5) * cell_px
    cx = pad_px + (cc + 0.5) * cell_px
    half = face_frac * cell_px / 2
    boxes = [(0.0, 0.0, f * half, f * half) for f in (0.93, 0.66, 0.5, 1.28, 1.07)]
    for dy, dx in ((-1, 0), (0, 1), (1, 0), (0, -1)):
        # a strip 0.8 of the face long, from 1.04 to 1.24 half-sizes out
        hy, hx = (0.10 * half, 0.8 * half) if dy else (0.8 * half, 0.10 * half)
        boxes.append((dy * 1.14 * half, dx * 1.14 * half, hy, hx))
    h, w = shape
    corners = []
    for oy, ox, hy, hx in boxes:
        corners.append((np.clip(np.round(cy + oy - hy).astype(np.intp), 0, h),
                        np.clip(np.round(cy + oy + hy).astype(np.intp), 0, h),
                        np.clip(np.round(cx + ox - hx).astype(np.intp), 0, w),
                        np.clip(np.round(cx + ox + hx).astype(np.intp), 0, w)))
    y0, y1, x0, x1 = (np.stack([b[k] for b in corners]) for k in range(4))
    area = np.maximum((y1 - y0) * (x1 - x0), 1).astype(np.float64)
    return y0, y1, x0, x1, area


@dataclass(frozen=True, slots=True)
class FaceFeatures:
    """Per-cell measurements of a candidate tile face on one warped plane (arrays of rows x cols).

    ``rim``: mean brightness of the face's letter-free rim (an annulus just inside its edge);
    ``rim_spread``: how uneven that rim is (std) — a face that slid half onto a side or the floor
    is uneven; ``centre``/``centre_std``: the middle, where the letter is; ``around``: just
    outside the face (the gaps, walls, floor or the stack's own sides).
    """

    rim: np.ndarray
    rim_spread: np.ndarray
    centre: np.ndarray
    centre_std: np.ndarray
    around: np.ndarray
    outside: np.ndarray  # (4, ...) strips just outside the north, east, south and west edges


def face_features(warped: np.ndarray, rows: int, cols: int, cell_px: float, face_frac: float,
                  pad_px: float) -> FaceFeatures:
    """Measure every cell of a warped plane (BGR or gray).

    ``face_frac`` is the tile face's size as a fraction of the cell pitch; ``pad_px`` is the
    margin that was warped around the grid.
    """
    src = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY) if warped.ndim == 3 else warped
    ii, ii2 = cv2.integral2(src, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
    y0, y1, x0, x1, area = _layout(rows, cols, float(cell_px), float(face_frac), float(pad_px), src.shape[:2])
    s1 = ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]
    s2 = ii2[y1, x1] - ii2[y0, x1] - ii2[y1, x0] + ii2[y0, x0]
    n_rim = np.maximum(area[0] - area[1], 1)
    rim = (s1[0] - s1[1]) / n_rim
    rim_spread = np.sqrt(np.maximum((s2[0] - s2[1]) / n_rim - rim * rim, 0))
    centre = s1[2] / area[2]
    centre_std = np.sqrt(np.maximum(s2[2] / area[2] - centre * centre, 0))
    around = (s1[3] - s1[4]) / np.maximum(area[3] - area[4], 1)
    outside = s1[5:9] / area[5:9]
    return FaceFeatures(rim=rim, rim_spread=rim_spread, centre=centre, centre_std=centre_std,
                        around=around, outside=outside)


def skin_mask(image_bgr: np.ndarray, wide: bool = False) -> np.ndarray:
    """Pixels that look like a hand or arm (boolean), for refusing to read what is under one.

    Skin is warm (hue red-orange), moderately saturated and not dark, with a high red
    chroma (Cr); cream and beige tiles are warm too but paler, which the saturation and Cr
    bounds exclude. Wood tables match, so callers look at the mask only over the board.
    ``wide`` also takes darker skin (lower Cr and brightness), which tan and wooden tiles
    share: only for callers that rule those out by other means (:mod:`vision.hands`).
    """
    hsv = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2HSV)
    ycrcb = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2YCrCb)
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    cr, cb = ycrcb[..., 1], ycrcb[..., 2]
    lowest_val, lowest_cr = (50, 138) if wide else (100, 148)
    warm = ((hue <= 20) | (hue >= 170)) & (sat > 75) & (val > lowest_val)
    return warm & (cr > lowest_cr) & (cr < 180) & (cb > 77) & (cb < 127)


@lru_cache(maxsize=32)
def _cell_edges(rows: int, cols: int, cell_px: float, pad_px: float,
                shape: tuple[int, int]) -> tuple[np.ndarray, ...]:
    h, w = shape
    ys = np.clip(np.round(pad_px + np.arange(rows + 1) * cell_px).astype(np.intp), 0, h)
    xs = np.clip(np.round(pad_px + np.arange(cols + 1) * cell_px).astype(np.intp), 0, w)
    ya, xa = np.meshgrid(ys[:-1], xs[:-1], indexing="ij")
    yb, xb = np.meshgrid(ys[1:], xs[1:], indexing="ij")
    return ya, xa, yb, xb, np.maximum((yb - ya) * (xb - xa), 1).astype(np.float64)


def cell_fraction(mask: np.ndarray, rows: int, cols: int, cell_px: float, pad_px: float) -> np.ndarray:
    """Fraction of each cell (rows x cols) covered by a boolean mask of a warped plane."""
    ii = cv2.integral(mask.view(np.uint8) if mask.dtype == bool else mask.astype(np.uint8), sdepth=cv2.CV_64F)
    ya, xa, yb, xb, area = _cell_edges(rows, cols, float(cell_px), float(pad_px), mask.shape[:2])
    return (ii[yb, xb] - ii[ya, xb] - ii[yb, xa] + ii[ya, xa]) / area


#: Dark ink made white, split from the tile at Otsu's threshold.
_INK_OTSU = cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU


def glyph_centre(window: np.ndarray, letter_px: float) -> tuple[float, float] | None:
    """Where the letter is in a window around a cell: the centre of the dark glyph nearest the
    window's centre (with the parts beside it, so Qu and Ä count whole), or None.

    For boards whose tiles are not held by walls (a Scrabble-like grid, the street's lanes) a
    tile sits a little off its cell; cutting the face around its letter instead of around the
    cell keeps the letter whole. ``letter_px`` is the expected letter height in pixels.
    """
    gray = cv2.cvtColor(window, cv2.COLOR_BGR2GRAY) if window.ndim == 3 else window
    _, ink = cv2.threshold(gray, 0, 255, _INK_OTSU)
    _, _, stats_array, centres_array = cv2.connectedComponentsWithStats(ink)
    # few pieces: plain Python on their figures is quicker
    return _centre_of_pieces(stats_array[1:].tolist(), centres_array[1:].tolist(), gray.shape, letter_px)


def glyph_centres(windows: list[np.ndarray], letter_px: float) -> list[tuple[float, float] | None]:
    """:func:`glyph_centre` of many grey windows, the same to the bit: the windows of one size
    are labelled in one picture (a full board's letters asked it 225 times, 6 ms of the read).

    Each window starts on an even row of that picture, a row and a column of background apart,
    so the pieces are numbered window by window in the order they are alone (OpenCV labels two
    rows at a time); a piece's centre is worked back from its exact sum of rows."""
    out: list[tuple[float, float] | None] = [None] * len(windows)
    by_shape: dict[tuple[int, ...], list[int]] = {}
    for i, window in enumerate(windows):
        by_shape.setdefault(window.shape, []).append(i)
    for shape, group in by_shape.items():
        h, w = shape[:2]
        if len(group) < 4 or len(shape) != 2 or min(h, w) == 0:
            for i in group:
                out[i] = glyph_centre(windows[i], letter_px)
            continue
        pitch = h + 1 + (h + 1) % 2
        # as many windows a sheet as 16-bit labels can number (vision.labelling)
        per_sheet = max(1, MOST_16_BIT // most_pieces(pitch, w + 1))
        for first in range(0, len(group), per_sheet):
            members = group[first: first + per_sheet]
            sheet = np.zeros((len(members), pitch, w + 1), np.uint8)
            for slot, i in enumerate(members):
                _, sheet[slot, :h, :w] = cv2.threshold(windows[i], 0, 255, _INK_OTSU)
            _, _, stats, centres = pieces_with_stats(sheet.reshape(-1, w + 1))
            stats, centres = stats[1:].astype(np.int64), centres[1:]
            owner = stats[:, 1] // pitch
            stats[:, 1] -= owner * pitch
            area = stats[:, 4]
            centres[:, 1] = (np.rint(centres[:, 1] * area) - area * owner * pitch) / area
            cuts = np.searchsorted(owner, np.arange(len(members) + 1)).tolist()
            stats_list, centres_list = stats.tolist(), centres.tolist()
            for slot, i in enumerate(members):
                a, b = cuts[slot], cuts[slot + 1]
                out[i] = _centre_of_pieces(stats_list[a:b], centres_list[a:b], (h, w), letter_px)
    return out


def _centre_of_pieces(stats: list[list[int]], centres: list[list[float]], shape: tuple[int, ...],
                      letter_px: float) -> tuple[float, float] | None:
    """:func:`glyph_centre` from a window's ink pieces (x, y, width, height, area; centre x, y)."""
    h, w = shape[:2]
    best, best_d = None, 0.7 * letter_px
    for i, (x, y, bw, bh, area) in enumerate(stats):
        if not (0.35 * letter_px <= bh <= 1.4 * letter_px) or area < 12:
            continue
        if x == 0 or y == 0 or x + bw >= w or y + bh >= h:  # the tile's edge or a neighbour's letter
            continue
        d = math.hypot(centres[i][0] - w / 2, centres[i][1] - h / 2)
        if d < best_d:
            best, best_d = i, d
    if best is None:
        return None
    x, y, bw, bh, _ = stats[best]
    x0, y0, x1, y1 = x, y, x + bw, y + bh
    for i, (xi, yi, bwi, bhi, area) in enumerate(stats):  # the other parts of the same letter(s)
        if i == best or area < 6 or xi == 0 or yi == 0 or xi + bwi >= w or yi + bhi >= h:
            continue
        dots = (yi + bhi <= y0 + 0.1 * letter_px and yi >= y0 - 0.4 * letter_px
                and xi >= x - 0.1 * letter_px and xi + bwi <= x + bw + 0.1 * letter_px)  # Ä Ö Ü
        beside = (bhi >= 0.45 * letter_px and abs((yi + bhi) - (y + bh)) <= 0.15 * letter_px
                  and xi <= x1 + 0.2 * letter_px and xi + bwi >= x0 - 0.2 * letter_px)  # the u of Qu
        if dots or beside:  # (a score's small digit is neither)
            x0, y0, x1, y1 = min(x0, xi), min(y0, yi), max(x1, xi + bwi), max(y1, yi + bhi)
    return (x0 + x1) / 2, (y0 + y1) / 2

"""Is there a tile in this cell, and where exactly is its top face? Cheap per-cell features.

Why these features: a tile's top face is a light, evenly coloured square with a dark letter
in the middle; an empty Upwords cell or a Word on the Street lane is a darker, flat surface;
the median strip is strongly coloured. Lighting gradients and shadows scale brightness, so
every feature is a *ratio or difference within the cell's own neighbourhood* rather than an
absolute level. All features for every cell come from one integral image per warped plane,
so a whole board costs a few box sums, not a loop over pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


def _box_sums(integral: np.ndarray, cy: np.ndarray, cx: np.ndarray,
              half: float) -> tuple[np.ndarray, np.ndarray]:
    """Sums and pixel counts of axis-aligned squares of half-size ``half`` around each centre."""
    h, w = integral.shape[0] - 1, integral.shape[1] - 1
    y0 = np.clip(np.round(cy - half).astype(int), 0, h)
    y1 = np.clip(np.round(cy + half).astype(int), 0, h)
    x0 = np.clip(np.round(cx - half).astype(int), 0, w)
    x1 = np.clip(np.round(cx + half).astype(int), 0, w)
    s = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    return s, np.maximum((y1 - y0) * (x1 - x0), 1)


def _rect_mean(integral: np.ndarray, cy: np.ndarray, cx: np.ndarray, hy: float, hx: float) -> np.ndarray:
    h, w = integral.shape[0] - 1, integral.shape[1] - 1
    y0 = np.clip(np.round(cy - hy).astype(int), 0, h)
    y1 = np.clip(np.round(cy + hy).astype(int), 0, h)
    x0 = np.clip(np.round(cx - hx).astype(int), 0, w)
    x1 = np.clip(np.round(cx + hx).astype(int), 0, w)
    s = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    return s / np.maximum((y1 - y0) * (x1 - x0), 1)


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
                  pad_px: float, cells: np.ndarray | None = None) -> FaceFeatures:
    """Measure every cell (or only ``cells``, a boolean rows x cols mask) of a warped plane (BGR or gray).

    ``face_frac`` is the tile face's size as a fraction of the cell pitch; ``pad_px`` is the
    margin that was warped around the grid.
    """
    src = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY) if warped.ndim == 3 else warped
    ii, ii2 = cv2.integral2(src, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
    rr, cc = np.mgrid[0:rows, 0:cols]
    cy = pad_px + (rr + 0.5) * cell_px
    cx = pad_px + (cc + 0.5) * cell_px
    half = face_frac * cell_px / 2
    if cells is not None:
        cy, cx = cy[cells], cx[cells]

    def annulus(img_ii: np.ndarray, outer: float, inner: float) -> tuple[np.ndarray, np.ndarray]:
        so, no = _box_sums(img_ii, cy, cx, outer)
        si, ni = _box_sums(img_ii, cy, cx, inner)
        return so - si, np.maximum(no - ni, 1)

    s, n = annulus(ii, 0.93 * half, 0.66 * half)
    s2, _ = annulus(ii2, 0.93 * half, 0.66 * half)
    rim = s / n
    rim_spread = np.sqrt(np.maximum(s2 / n - rim * rim, 0))
    c, cn = _box_sums(ii, cy, cx, 0.5 * half)
    c2, _ = _box_sums(ii2, cy, cx, 0.5 * half)
    centre = c / cn
    centre_std = np.sqrt(np.maximum(c2 / cn - centre * centre, 0))
    a, an = annulus(ii, 1.28 * half, 1.07 * half)
    strips = []
    for dy, dx in ((-1, 0), (0, 1), (1, 0), (0, -1)):
        # a strip 0.8 of the face long, from 1.04 to 1.24 half-sizes out
        oy, ox = cy + dy * 1.14 * half, cx + dx * 1.14 * half
        hy, hx = (0.10 * half, 0.8 * half) if dy else (0.8 * half, 0.10 * half)
        strips.append(_rect_mean(ii, oy, ox, hy, hx))
    return FaceFeatures(rim=rim, rim_spread=rim_spread, centre=centre, centre_std=centre_std,
                        around=a / an, outside=np.stack(strips))


def skin_mask(image_bgr: np.ndarray) -> np.ndarray:
    """Pixels that look like a hand or arm (boolean), for refusing to read what is under one.

    Skin is warm (hue red-orange), moderately saturated and not dark, with a high red
    chroma (Cr); cream and beige tiles are warm too but paler, which the saturation and Cr
    bounds exclude. Wood tables match, so callers look at the mask only over the board.
    """
    hsv = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2HSV)
    ycrcb = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2YCrCb)
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    cr, cb = ycrcb[..., 1], ycrcb[..., 2]
    warm = ((hue <= 20) | (hue >= 170)) & (sat > 75) & (val > 100)
    return warm & (cr > 148) & (cr < 180) & (cb > 77) & (cb < 127)


def cell_fraction(mask: np.ndarray, rows: int, cols: int, cell_px: float, pad_px: float) -> np.ndarray:
    """Fraction of each cell (rows x cols) covered by a boolean mask of a warped plane."""
    ii = cv2.integral(mask.astype(np.uint8), sdepth=cv2.CV_64F)
    rr, cc = np.mgrid[0:rows, 0:cols]
    s, n = _box_sums(ii, pad_px + (rr + 0.5) * cell_px, pad_px + (cc + 0.5) * cell_px, cell_px / 2)
    return s / n

"""Find a board's playing grid in a photo without markers: outline first, then its grid lines.

Why: families have no printed ArUco markers, and tapping four corners on a 7" screen is
fiddly. Every board the kiosk reads has a visible grid (Scrabble-like boards, Upwords' waffle)
or lanes (Word on the Street), so the playing grid can be found from the picture alone:

1. **Outlines**: the largest board-like quadrilaterals in the picture (contours of edges,
   of the colourful and of the dark/light regions), plus the picture's own frame for a
   board that fills it. A photo is scaled to at most :data:`WORK_SIDE` pixels first, so a
   huge picture costs no more than a small one.
2. **Grid**: each outline is warped to a top-down view where the board's lines are straight
   and evenly spaced, and :func:`vision.grid_fit.find_grid` finds the ``rows`` x ``cols``
   grid in it (shifted-into-the-margin combs are rejected because a margin is not crossed
   by lines the way a row of cells is).
3. **Refine**: the grid found is warped again on its own, at full resolution, and its lines
   are fitted one by one; the homography through their crossings gives the corners.

The corners are named as the picture shows them: top-left is the corner nearest the
picture's top-left among the turns the grid allows (any quarter turn for a square grid, a
half turn for an oblong one), because the picture alone cannot tell which side the players
sit. Example::

    found = find_board(image, rows=15, cols=15)
    found.corners      # 4x2 float, TL, TR, BR, BL in the picture's pixels
    found.confidence   # 0..1: the share of the grid's cell edges seen as lines, and more

:class:`NoBoardFound` says in words why there is none ("no board found: ...").
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.grid_fit import GridFit, find_grid, line_evidence, score_grid, segments_seen
from vision.street_outline import refine_street

#: Longest side of the picture the outlines are looked for in.
WORK_SIDE = 1000
#: Pixels per cell in the warped views.
CELL_PX = 40
#: Below this confidence nothing is called a board.
MIN_CONFIDENCE = 0.35


class NoBoardFound(ValueError):
    """The picture shows no board the finder can vouch for; the message says why, in words."""

    def __init__(self, why: str) -> None:
        super().__init__(f"no board found: {why}")


@dataclass(frozen=True, slots=True)
class FoundBoard:
    """The playing grid's outer corners (TL, TR, BR, BL, picture pixels) and how sure the finder is."""

    corners: np.ndarray
    confidence: float
    seen: float  # share of the grid's cell edges seen as lines
    outline: np.ndarray  # the rough outline the grid was found in (picture pixels)

    def as_tuples(self) -> list[tuple[float, float]]:
        return [(float(x), float(y)) for x, y in self.corners]


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Four points as TL, TR, BR, BL: clockwise on the picture, starting nearest its top-left."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]  # clockwise on screen (y down)
    start = int(np.argmin(quad[:, 0] + quad[:, 1]))
    return np.roll(quad, -start, axis=0)


def _name_corners(corners: np.ndarray, square: bool) -> np.ndarray:
    """The grid's corners turned (as the grid's symmetry allows) so TL is nearest the picture's top-left."""
    turns = (0, 1, 2, 3) if square else (0, 2)
    best = min(turns, key=lambda k: float(np.roll(corners, -k, axis=0)[0].sum()))
    return np.roll(corners, -best, axis=0)


def _quad_from_contour(contour: np.ndarray, min_area: float) -> np.ndarray | None:
    hull = cv2.convexHull(contour)
    area = cv2.contourArea(hull)
    if area < min_area:
        return None
    peri = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            if cv2.contourArea(quad.astype(np.float32)) >= 0.85 * area:
                return order_corners(quad)
            return None
        if len(approx) < 4:
            return None
    return None


def outlines(small: np.ndarray, keep: int = 8) -> list[np.ndarray]:
    """Board-like quadrilaterals in a (small) picture, largest first, the picture's frame last."""
    h, w = small.shape[:2]
    min_area = 0.04 * w * h
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    masks = []
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    med = float(np.median(blur))
    edges = cv2.Canny(blur, 0.5 * med, 1.2 * med + 10)
    masks.append(cv2.dilate(edges, np.ones((3, 3), np.uint8), iterations=2))
    for channel in (gray, hsv[..., 1]):
        ch = cv2.GaussianBlur(channel, (7, 7), 0)
        _t, bw = cv2.threshold(ch, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        bw = cv2.morphologyEx(bw, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
        masks.extend([bw, 255 - bw])
    # Light and grey (a printed board's paper, its white lines): the holes in it are the
    # coloured or dark playing areas (Word on the Street's asphalt between its pavements).
    _t, light = cv2.threshold(cv2.GaussianBlur(gray, (7, 7), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    _t, grey = cv2.threshold(cv2.GaussianBlur(hsv[..., 1], (7, 7), 0), 0, 255,
                             cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    masks.append(cv2.morphologyEx(light & grey, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))
    found: list[tuple[float, np.ndarray]] = []
    for mask in masks:
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            if cv2.contourArea(contour) < min_area:
                continue
            quad = _quad_from_contour(contour, min_area)
            if quad is None:
                continue
            if (quad[:, 0] < 2).sum() + (quad[:, 0] > w - 3).sum() + (quad[:, 1] < 2).sum() \
                    + (quad[:, 1] > h - 3).sum() >= 3:
                continue  # the frame itself comes last anyway
            found.append((cv2.contourArea(quad.astype(np.float32)), quad))
    found.sort(key=lambda t: -t[0])
    out: list[np.ndarray] = []
    size = float(np.sqrt(w * h))
    for _area, quad in found:
        if any(np.abs(quad - q).max() < 0.02 * size for q in out):
            continue
        out.append(quad)
        if len(out) >= keep:
            break
    out.append(np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64))
    return out


def _warp_of(quad: np.ndarray, rows: int, cols: int, pad: float, cell_px: float = CELL_PX
             ) -> tuple[np.ndarray, tuple[int, int], float]:
    """The homography picture -> warped view of ``quad`` (TL, TR, BR, BL) with ``pad`` cells around."""
    top = np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])
    side = np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])
    k = cell_px * cols / (top / 2)
    ww, hh = top / 2 * k, side / 2 * k
    scale = min(1.0, 1600.0 / max(ww, hh))
    ww, hh = ww * scale, hh * scale
    p = pad * cell_px * scale
    dst = np.float32([[p, p], [p + ww, p], [p + ww, p + hh], [p, p + hh]])
    M = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    return M, (round(ww + 2 * p), round(hh + 2 * p)), cell_px * scale


def _grid_corners(fit: GridFit, rows: int, cols: int) -> np.ndarray:
    if fit.H is not None:
        pts = np.float64([[[0, 0], [cols, 0], [cols, rows], [0, rows]]])
        return cv2.perspectiveTransform(pts, fit.H)[0]
    xs, ys = fit.xs, fit.ys
    return np.float64([[xs[0], ys[0]], [xs[-1], ys[0]], [xs[-1], ys[-1]], [xs[0], ys[-1]]])


def _try(image: np.ndarray, quad: np.ndarray, rows: int, cols: int, pad: float, refine: bool,
         lines: tuple[int, int]) -> tuple[float, np.ndarray, GridFit] | None:
    """Find the grid in one outline (``refine``: the outline is the grid itself, give or take a
    fifth of a cell): (score, grid corners in picture px, the fit) or None.

    ``lines``: the rows and columns whose lines show (Word on the Street: 5 lanes, 1 column,
    as nothing is drawn between its letter columns).
    """
    M, size, cell = _warp_of(quad, rows, cols, pad)
    lr, lc = lines
    cw, ch = cell * cols / lc, cell * rows / lr
    slack = (lambda n: 0.04 if n == 1 else 0.2)  # noqa: E731 - an outline's size is known closely
    bounds = (((1 - slack(lc)) * cw, (1 + slack(lc)) * cw), ((1 - slack(lr)) * ch, (1 + slack(lr)) * ch)
              ) if refine else None
    warped = cv2.warpPerspective(image, M, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    first = (pad * cell, pad * cell) if refine else None
    fit = find_grid(warped, lr, lc, 0.45, bounds, aspect=(cols / lc) / (rows / lr), near=first)
    if fit is None:
        return None
    corners = _grid_corners(fit, lr, lc)
    back = cv2.perspectiveTransform(corners.reshape(1, 4, 2), np.linalg.inv(M))[0]
    score = fit.seen * np.sqrt(fit.peak)
    if min(lines) == 1 and not refine:
        # Only the outline of a lane board is drawn (Word on the Street's asphalt): an outline
        # that is the grid itself is the better witness than a wider one (the printed board).
        step = float(np.linalg.norm(back[1] - back[0])) / max(cols, 1)
        if float(np.abs(back - quad).max()) < 0.5 * step:
            score *= 1.5
    return score, back, fit


def check_picture(image: np.ndarray | None) -> None:
    """Refuse a picture nobody could find a board in: none, empty, or too small to hold one."""
    if image is None or getattr(image, "size", 0) == 0:
        raise NoBoardFound("the picture is empty")
    h, w = image.shape[:2]
    if min(h, w) < 64:
        raise NoBoardFound(f"the picture is {w}x{h} pixels, too small to show a board's cells")
    if float(image[::8, ::8].std()) < 2.0:  # a sample: std() of a whole big picture costs 8 bytes a value
        raise NoBoardFound("the picture is one flat colour")


def find_board(image: np.ndarray, rows: int, cols: int, lines: tuple[int, int] | None = None) -> FoundBoard:
    """The ``rows`` x ``cols`` playing grid in a BGR picture, or :class:`NoBoardFound`.

    ``lines`` (rows, cols) says which lines of the grid are drawn when not all are: Word on
    the Street (5x17) draws its lanes but nothing between its letter columns, so (5, 1).
    """
    lines = lines or (rows, cols)
    check_picture(image)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    h, w = image.shape[:2]
    s = min(1.0, WORK_SIDE / max(h, w))
    small = cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA) if s < 1 else image
    best: tuple[float, np.ndarray, GridFit, np.ndarray] | None = None
    for quad in outlines(small):
        orders = [quad] if rows == cols else [quad, np.roll(quad, -1, axis=0)]
        for q in orders:
            got = _try(small, q, rows, cols, pad=0.6, refine=False, lines=lines)
            if got is not None and (best is None or got[0] > best[0]):
                best = (got[0], got[1], got[2], q)
    if best is None:
        raise NoBoardFound(f"nothing in the picture looks like a grid of {rows}x{cols} cells")
    _score, corners, _fit, quad = best
    # Refine at full resolution on the grid itself, twice (the second warp is nearly exact).
    full = corners / s
    for _ in range(2):
        got = _try(image, full, rows, cols, pad=1.5, refine=True, lines=lines)
        if got is None or got[2].H is None:
            break
        full = got[1]
    if lines == (rows, 1) and cols > 1:
        # Only lanes drawn (Word on the Street): its few lines cannot hold the grid to a pixel,
        # the street's own edges can (vision.street_outline).
        full = refine_street(image, full, rows, cols)
    confidence, seen = board_evidence(image, full, rows, cols)
    if confidence < MIN_CONFIDENCE:
        raise NoBoardFound(f"the best {rows}x{cols} grid in the picture shows only {seen:.0%} of its lines")
    named = _name_corners(full, rows == cols)
    return FoundBoard(corners=named, confidence=confidence, seen=seen, outline=quad / s)


def board_evidence(image: np.ndarray, corners: np.ndarray, rows: int, cols: int) -> tuple[float, float]:
    """(confidence, seen) that ``corners`` (TL, TR, BR, BL) enclose a ``rows`` x ``cols`` grid.

    Warps exactly the given quadrilateral and asks how many of the grid's cell edges show as
    lines there. Used to refuse corners that enclose no board (a blank wall, the table).
    """
    corners = np.asarray(corners, np.float64).reshape(4, 2)
    area = cv2.contourArea(corners.astype(np.float32), oriented=False)
    if area < 16 * rows * cols:
        return 0.0, 0.0
    M, size, _cell = _warp_of(corners, rows, cols, pad=0.0, cell_px=CELL_PX)
    if size[0] < cols * 8 or size[1] < rows * 8:
        return 0.0, 0.0
    warped = cv2.warpPerspective(image, M, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    gray = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY).astype(np.float32) if warped.ndim == 3 \
        else warped.astype(np.float32)
    gh, gw = gray.shape
    xs = np.linspace(0, gw - 1, cols + 1)
    ys = np.linspace(0, gh - 1, rows + 1)
    pitch = min(gw / cols, gh / rows)
    ev_v = line_evidence(gray, 0, pitch / 3)
    ev_h = line_evidence(gray, 1, pitch / 3)
    seen, _outer = score_grid(gray, xs, ys, ev_v, ev_h)
    # One family of lines is enough (Word on the Street's columns have none): take the better.
    fam_v, fam_h = _family_seen(ev_v, xs, ys, True), _family_seen(ev_h, ys, xs, False)
    confidence = float(min(1.0, max(fam_v, fam_h) * 1.1))
    return confidence, float(seen)


def _family_seen(ev: np.ndarray, lines: np.ndarray, across: np.ndarray, vertical: bool) -> float:
    inner = lines[1:-1] if len(lines) > 2 else lines
    return float(segments_seen(ev, inner, across, vertical).mean())

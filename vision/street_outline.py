"""Put a lane board's outline exactly on its edges: the Word on the Street half of the board finder.

Why a board of its own: Word on the Street draws five lanes and nothing between its 17
letter columns, so the grid fit of :mod:`vision.grid_fit` has only six lines across a thin
board to hold it. 1 % of a street's size is 3-4 pixels in a kiosk photo, and two things
went wrong at that scale: the outline sat a few pixels off (a comb of lines is only as
exact as its sampled evidence), and the whole street slid one lane onto the pavement beside
it (a pavement strip with a team's colour along it looks like one more lane to a comb).

So the street is fitted with a model of what it looks like, in two steps, each in a
top-down view of the current outline:

1. **Lanes** (:func:`place_lanes`): across the street, the colour changes strongly at the
   outline (asphalt to pavement) and at both edges of the middle lane (the median with the
   letters), but only faintly at the two dashed lines. A one-lane slide puts two of those
   four strong edges on dashes and one on plain pavement, so the offset and lane depth
   that put the four strong edges on colour changes are the street's. Its two ends are
   the strongest edges near where the outline says, of the sign measured just inside and
   outside the long sides (asphalt darker than its pavement, or a light street on dark).
2. **Sides** (:func:`fit_sides`): each of the four sides is cut into short pieces; in each
   the edge across it (of that sign: asphalt to pavement) is located to a fraction of a
   pixel, the pieces' edge points are mapped back into the
   picture and a straight line is fitted through them by consensus, so a tile lying on the
   side, a letter or a shadow cannot pull it. The corners are where the four lines meet.

Everything returns corners TL, TR, BR, BL with TL -> TR along the street (the columns).
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

#: Pixels per lane in the top-down views.
LANE_PX = 40.0
#: Margin of the top-down views around the street, in lanes.
PAD_LANES = 1.6


def _view(image: np.ndarray, quad: np.ndarray, rows: int, cols: int, cell_aspect: float
          ) -> tuple[np.ndarray, np.ndarray, float, float]:
    """(Lab view as float32, homography picture -> view, street width, height) of ``quad``, padded."""
    w, h = cols * cell_aspect * LANE_PX, rows * LANE_PX
    p = PAD_LANES * LANE_PX
    dst = np.float32([[p, p], [p + w, p], [p + w, p + h], [p, p + h]])
    M = cv2.getPerspectiveTransform(np.float32(quad), dst)
    size = (round(w + 2 * p), round(h + 2 * p))
    view = cv2.warpPerspective(image, M, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float32)
    return lab, M.astype(np.float64), w, h


def _signed_edges(profile: np.ndarray, sigma: float = 1.2, polarity: int = 1) -> np.ndarray:
    """Colour-change strength along a (n, 3) Lab profile where it gets lighter (``polarity`` -1:
    darker), else 0."""
    prof = cv2.GaussianBlur(profile.reshape(-1, 1, 3), (1, 0), sigmaX=0.1, sigmaY=sigma).reshape(-1, 3)
    grad = np.gradient(prof, axis=0)
    strength = np.linalg.norm(grad, axis=1)
    return np.where(polarity * grad[:, 0] > 0, strength, 0.0)


def place_lanes(image: np.ndarray, quad: np.ndarray, rows: int = 5, cols: int = 17, cell_aspect: float = 1.0
                ) -> tuple[np.ndarray, int] | None:
    """The street's outline from a rough one (both TL, TR, BR, BL), by its strong edges, and +1 when
    the street is darker than what is round it (asphalt in a light pavement; -1: lighter); None
    if unclear.

    Across the street the model's strong edges are the outline (lanes 0 and ``rows``) and the
    middle lane's two edges; along it, the two ends. Searched within a lane and a half of
    where ``quad`` puts them, at lane depths within 15 % of it.
    """
    lab, M, w, _h = _view(image, quad, rows, cols, cell_aspect)
    p = PAD_LANES * LANE_PX
    x0, x1 = round(p + 0.1 * w), round(p + 0.9 * w)
    across = np.median(lab[:, x0:x1], axis=1)  # (rows of the view, 3): tiles are a minority in each lane
    e_y = _signed_edges(across)
    e_y = np.maximum(e_y, _signed_edges(across[::-1])[::-1])  # either polarity across (the median is lighter)
    mid = rows // 2
    strong = np.array([0, mid, mid + 1, rows], np.float64) if rows % 2 else np.array([0, rows], np.float64)
    # Every (lane depth, offset) at once: the strength at the model's strong edges (the
    # strongest within a pixel, so a line between two samples still counts).
    near = np.maximum(np.maximum(e_y, np.roll(e_y, 1)), np.roll(e_y, -1))
    depths = np.arange(0.85, 1.15001, 0.01) * LANE_PX
    offsets = np.arange(p - 1.5 * LANE_PX, p + 1.5 * LANE_PX, 0.5)
    pos = offsets[None, :, None] + depths[:, None, None] * strong[None, None, :]
    valid = (offsets[None, :] >= 0) & (pos[..., -1] < len(e_y) - 1)
    vals = near[np.clip(np.round(pos).astype(int), 0, len(e_y) - 1)]
    score = np.where(valid, vals.min(axis=2) + 0.25 * vals.mean(axis=2), -1.0)
    if not valid.any() or float(score.max()) <= 0:
        return None  # no colour change anywhere across: nothing to place the lanes on
    i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    top, depth = float(offsets[j]), float(depths[i])
    bottom = top + rows * depth
    y0, y1 = round(top + 0.1 * depth), round(bottom - 0.1 * depth)
    # Which side of the outline is lighter, just inside and just outside its two long sides
    # (the lanes are placed by edges of either sign; the ends and the sides need the sign).
    light = across[:, 0]

    def band(a: float, b: float) -> np.ndarray:
        return light[max(round(a), 0):max(round(b), 1)]

    inner = np.concatenate([band(top + 0.1 * depth, top + 0.4 * depth),
                            band(bottom - 0.4 * depth, bottom - 0.1 * depth)])
    outer = np.concatenate([band(top - 0.2 * depth, top - 0.05 * depth),
                            band(bottom + 0.05 * depth, bottom + 0.2 * depth)])
    polarity = 1 if float(np.median(outer)) >= float(np.median(inner)) else -1
    along = np.median(lab[y0:y1], axis=0)  # (columns of the view, 3)
    e_x = _signed_edges(along, polarity=polarity)  # lighter going out of the right end
    e_xl = _signed_edges(along[::-1], polarity=polarity)[::-1]  # and out of the left end
    reach = round(1.5 * LANE_PX)

    def end(expected: float, ev: np.ndarray) -> float:
        lo, hi = max(round(expected) - reach, 0), min(round(expected) + reach + 1, len(ev))
        return float(lo + int(np.argmax(ev[lo:hi])))

    left, right = end(p, e_xl), end(p + w, e_x)
    rect = np.float64([[[left, top], [right, top], [right, bottom], [left, bottom]]])
    return cv2.perspectiveTransform(rect, np.linalg.inv(M))[0], polarity


def _edge_points(lab: np.ndarray, side: int, start: float, stop: float, line: float, reach: float,
                 pieces: int, outward: int, polarity: int = 1) -> list[tuple[float, float, float]]:
    """Sub-pixel edge points (along, across, strength) in the view along one side.

    ``side`` 0: a horizontal side (pieces along x), 1: a vertical one. ``outward``: +1 when
    outside is towards larger coordinates. The edge is where it gets lighter going outwards
    (``polarity`` -1: darker, a street lighter than its surround).
    """
    img = lab if side == 0 else lab.transpose(1, 0, 2)
    out = []
    lo_a, hi_a = round(line - reach), round(line + reach) + 1
    if lo_a < 2 or hi_a > img.shape[0] - 2:
        return out
    edges = np.linspace(start, stop, pieces + 1)
    for a, b in itertools.pairwise(edges):
        strip = img[lo_a:hi_a, max(round(a), 0):max(round(b), 1)]
        if strip.shape[1] == 0:
            continue
        prof = np.median(strip, axis=1)
        if outward < 0:
            prof = prof[::-1]
        ev = _signed_edges(prof, polarity=polarity)
        k = int(np.argmax(ev[1:-1])) + 1
        if ev[k] <= 0:
            continue
        den = ev[k - 1] - 2 * ev[k] + ev[k + 1]
        frac = 0.5 * (ev[k - 1] - ev[k + 1]) / den if den < 0 else 0.0
        pos = k + float(np.clip(frac, -0.5, 0.5))
        across = lo_a + (pos if outward > 0 else (hi_a - lo_a - 1) - pos)
        out.append((0.5 * (a + b), across, float(ev[k])))
    return out


def _fit_line(pts: np.ndarray, weights: np.ndarray, tol: float) -> tuple[np.ndarray, np.ndarray] | None:
    """A line (point, unit direction) through the most points within ``tol`` px, then through those."""
    n = len(pts)
    if n < 4:
        return None
    best_in, best_w = None, -1.0
    for i, j in itertools.combinations(range(n), 2):
        d = pts[j] - pts[i]
        norm = float(np.hypot(*d))
        if norm < 1e-6:
            continue
        normal = np.array([-d[1], d[0]]) / norm
        inl = np.abs((pts - pts[i]) @ normal) < tol
        score = float(inl.sum()) + 1e-3 * float(weights[inl].sum()) / (float(weights.sum()) or 1.0)
        if score > best_w:
            best_w, best_in = score, inl
    if best_in is None or best_in.sum() < max(4, 0.4 * n):
        return None
    p, wts = pts[best_in], weights[best_in]
    centre = (p * wts[:, None]).sum(axis=0) / wts.sum()
    cov = ((p - centre) * wts[:, None]).T @ (p - centre)
    _vals, vecs = np.linalg.eigh(cov)
    return centre, vecs[:, 1]


def _meet(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    (p, d), (q, e) = a, b
    t = np.linalg.solve(np.column_stack([d, -e]), q - p)
    return p + t[0] * d


def fit_sides(image: np.ndarray, quad: np.ndarray, rows: int = 5, cols: int = 17, cell_aspect: float = 1.0,
              reach: float = 0.45, polarity: int = 1) -> np.ndarray | None:
    """The four sides fitted to the picture's edges near ``quad`` (within ``reach`` lanes);
    None if unclear."""
    lab, M, w, h = _view(image, quad, rows, cols, cell_aspect)
    Minv = np.linalg.inv(M)
    p = PAD_LANES * LANE_PX
    r = reach * LANE_PX
    trim = 0.25 * LANE_PX  # keep away from the corners, where the other side's edge is
    specs = [  # (side axis, along from, to, line position, pieces, outward)
        (0, p + trim, p + w - trim, p, 2 * cols, -1),          # top
        (1, p + trim, p + h - trim, p + w, 3 * rows, +1),      # right
        (0, p + trim, p + w - trim, p + h, 2 * cols, +1),      # bottom
        (1, p + trim, p + h - trim, p, 3 * rows, -1),          # left
    ]
    lines = []
    for side, a, b, line, pieces, outward in specs:
        found = _edge_points(lab, side, a, b, line, r, pieces, outward, polarity)
        if len(found) < 4:
            return None
        arr = np.array(found)
        xy = arr[:, :2] if side == 0 else arr[:, 1::-1]
        pic = cv2.perspectiveTransform(xy.reshape(1, -1, 2), Minv)[0]
        scale = float(np.sqrt(abs(np.linalg.det(Minv[:2, :2]))))  # rough picture px per view px
        fit = _fit_line(pic, arr[:, 2], tol=max(0.6, 1.0 * scale))
        if fit is None:
            return None
        lines.append(fit)
    top, right, bottom, left = lines
    try:
        return np.array([_meet(top, left), _meet(top, right), _meet(bottom, right), _meet(bottom, left)])
    except np.linalg.LinAlgError:
        return None


def refine_street(image: np.ndarray, quad: np.ndarray, rows: int = 5, cols: int = 17, cell_aspect: float = 1.0
                  ) -> np.ndarray:
    """``quad`` (TL, TR, BR, BL, TL -> TR along the street) put on the street's edges;
    unchanged if unclear."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    placed = place_lanes(image, quad, rows, cols, cell_aspect)
    if placed is None:
        return quad
    current, polarity = placed
    for reach in (0.5, 0.3, 0.2):
        sides = fit_sides(image, current, rows, cols, cell_aspect, reach, polarity)
        if sides is None:
            break
        current = sides
    size = float(np.sqrt(cv2.contourArea(quad.astype(np.float32))))
    if float(np.abs(current - quad).max()) > 0.15 * size:
        return quad  # far from the grid found: a model fit gone astray, not a correction
    return current

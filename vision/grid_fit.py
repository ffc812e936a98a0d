"""Fit a board's grid of lines inside a rough outline: the precise half of the board finder.

Why lines and not the outline: a board's outer edge is rarely its playing grid (Scrabble
has a red margin, Upwords a rim, Word on the Street a pavement), but the playing grid is a
set of ``cols + 1`` by ``rows + 1`` equally spaced lines. Once the rough outline is warped to
a top-down view, equally spaced lines on the board stay equally spaced, so each family is a
*comb*: an offset and a pitch that put ``n + 1`` teeth on line evidence. A comb shifted by one
cell (into the margin) hits as many strong edges, so each hypothesis is also asked whether
its outer rows and columns are crossed by the other family's lines, as real cells are and
a plain margin is not. Then the grid's four corners are moved together (one homography)
until all its lines sit on line evidence (:func:`refine_grid`), which is what makes the
corners precise to a pixel or two: a tile edge beside one line cannot pull it, because the
other lines hold the grid where it is.

Everything here works in the warped (top-down) view of an outline; :mod:`vision.board_finder`
chooses the outlines and maps the result back to the picture.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True, slots=True)
class GridFit:
    """A grid found in a warped view: line positions, and how well the picture supports it."""

    xs: np.ndarray  # cols + 1 vertical line positions (warped px)
    ys: np.ndarray  # rows + 1 horizontal line positions
    seen: float  # fraction of the grid's cell edges that show as lines (0..1)
    peak: float  # how far the teeth stand above the profile (>1: lines at the teeth)
    H: np.ndarray | None = None  # grid units (col, row) -> warped px, from the line fits


def line_evidence(gray: np.ndarray, along: int, smooth: float) -> np.ndarray:
    """Where lines running along axis ``along`` (0: vertical lines, 1: horizontal) are.

    The absolute gradient across the line, averaged along it over ``smooth`` pixels: both
    a thin dark line (two close edges) and a step between two areas show; speckle does not.
    """
    if along == 0:
        g = np.abs(cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3))
        return cv2.blur(g, (1, max(1, int(smooth))))
    g = np.abs(cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3))
    return cv2.blur(g, (max(1, int(smooth)), 1))


def comb_candidates(profile: np.ndarray, n: int, p_min: float, p_max: float, keep: int = 6
                    ) -> list[tuple[float, float, float]]:
    """The best combs (score, offset, pitch) of ``n + 1`` teeth on a 1-D profile, best first.

    Score: mean profile at the teeth over the profile's median. Near-duplicates are merged
    (within a third of a pitch in offset and 2 % in pitch), so shifted combs stay separate.
    """
    length = len(profile)
    prof = cv2.GaussianBlur(profile.reshape(1, -1).astype(np.float32), (0, 0), 1.2).ravel()
    base = float(np.median(prof)) or 1.0
    prof = prof / base
    pitches = np.arange(p_min, min(p_max, (length - 1) / n) + 1e-9, 0.1)
    best: list[tuple[float, float, float]] = []
    idx = np.arange(n + 1, dtype=np.float32)
    for p in pitches:
        span = n * p
        offsets = np.arange(0.0, length - 1 - span, 0.5, dtype=np.float32)
        if offsets.size == 0:
            continue
        teeth = offsets[:, None] + idx[None, :] * p
        lo = np.floor(teeth).astype(np.int32)
        frac = teeth - lo
        vals = prof[lo] * (1 - frac) + prof[np.minimum(lo + 1, length - 1)] * frac
        scores = vals.mean(axis=1)
        # A few local maxima over the offset for this pitch.
        order = np.argsort(scores)[::-1][:12]
        for k in order:
            best.append((float(scores[k]), float(offsets[k]), float(p)))
    best.sort(reverse=True)
    out: list[tuple[float, float, float]] = []
    for s, o, p in best:
        if any(abs(o - o2) < p2 / 3 and abs(p - p2) < 0.02 * p2 for _s2, o2, p2 in out):
            continue
        out.append((s, o, p))
        if len(out) >= keep:
            break
    # Each good comb shifted by one cell either way competes too (the margin trap).
    extra = []
    for _s, o, p in out[:2]:
        for shift in (-p, p):
            o2 = o + shift
            if o2 >= 0 and o2 + n * p < length - 1:
                teeth = o2 + idx * p
                extra.append((float(np.interp(teeth, np.arange(length), prof).mean()), float(o2), float(p)))
    return out + extra


def prepare(ev: np.ndarray, vertical: bool, pitch: float) -> np.ndarray:
    """Running sums along the lines of the evidence, widened by a few pixels across them:
    what :func:`segments_seen` reads, computed once per view rather than per hypothesis."""
    if not vertical:
        ev = ev.T
    r = max(1, round(pitch * 0.06))
    evm = cv2.dilate(np.ascontiguousarray(ev), np.ones((1, 2 * r + 1), np.uint8))
    return np.vstack([np.zeros((1, ev.shape[1]), np.float64), np.cumsum(evm, axis=0, dtype=np.float64)])


def segments_seen(ev: np.ndarray, lines: np.ndarray, across: np.ndarray, vertical: bool,
                   cs: np.ndarray | None = None) -> np.ndarray:
    """For each line and each cell edge along it: does the line stand out from mid-cell?

    Returns a (len(lines), len(across) - 1) boolean array. A segment is seen when the
    evidence on the line (the strongest within a few pixels, so a line a pixel off still
    counts) is clearly above the evidence half a cell to either side.
    """
    pitch = float(np.median(np.diff(lines))) if len(lines) > 1 else float(np.median(np.diff(across)))
    if cs is None:
        cs = prepare(ev, vertical, pitch)
    h, w = cs.shape[0] - 1, cs.shape[1]
    a = np.asarray(across, np.float64)
    lo = np.clip(np.round(a[:-1] + 0.15 * np.diff(a)).astype(int), 0, h)
    hi = np.clip(np.round(a[1:] - 0.15 * np.diff(a)).astype(int), 0, h)
    span = np.maximum(hi - lo, 1)

    def at(pos: np.ndarray) -> np.ndarray:
        c = np.round(pos).astype(int)
        inside = (c >= 0) & (c < w)
        c = np.clip(c, 0, w - 1)
        vals = (cs[hi][:, c] - cs[lo][:, c]) / span[:, None]  # (segments, lines)
        return np.where(inside[None, :], vals, 0.0).T

    x = np.asarray(lines, np.float64)
    on = at(x)
    off = 0.5 * (at(x - 0.5 * pitch) + at(x + 0.5 * pitch))
    seen = on > 1.5 * off + 2.0
    seen[:, hi <= lo] = False
    return seen


def score_grid(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, ev_v: np.ndarray | None = None,
               ev_h: np.ndarray | None = None, cs: tuple[np.ndarray, np.ndarray] | None = None
               ) -> tuple[float, float]:
    """(seen, outer): the fraction of cell edges that show as lines, and the weakest outer ring side.

    ``outer`` is the share of edges seen in the first or last row or column (whichever is
    least): a grid shifted into the margin has one side of plain board.
    """
    pitch = min(float(np.median(np.diff(xs))), float(np.median(np.diff(ys))))
    if ev_v is None:
        ev_v = line_evidence(gray, 0, pitch / 3)
    if ev_h is None:
        ev_h = line_evidence(gray, 1, pitch / 3)
    cs_v, cs_h = cs if cs is not None else (None, None)
    sv = segments_seen(ev_v, xs, ys, True, cs_v)  # (cols+1, rows)
    sh = segments_seen(ev_h, ys, xs, False, cs_h)  # (rows+1, cols)
    total = sv.size + sh.size
    seen = (sv.sum() + sh.sum()) / total
    # The outer strips: the first/last column crossed by horizontal lines (sh[:, 0], sh[:, -1]) and
    # the first/last row crossed by vertical lines (sv[:, 0], sv[:, -1]); each side needs its own line too.
    cols_sides = [float(sh[:, 0].mean()), float(sh[:, -1].mean())]  # crossed by the horizontal lines
    rows_sides = [float(sv[:, 0].mean()), float(sv[:, -1].mean())]  # crossed by the vertical lines
    # A family with no lines inside (Word on the Street's columns) cannot vouch for the other's sides.
    inner_h = float(sh[1:-1].mean()) if sh.shape[0] > 2 else 1.0
    inner_v = float(sv[1:-1].mean()) if sv.shape[0] > 2 else 1.0
    sides = (cols_sides if inner_h >= 0.15 else []) + (rows_sides if inner_v >= 0.15 else [])
    if not sides:
        return float(seen), 0.0
    return float(seen), float(min(sides))


def _sample(ev: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear samples of ``ev`` at float points (N, 2) as (x, y); 0 outside."""
    h, w = ev.shape
    x, y = pts[:, 0], pts[:, 1]
    inside = (x >= 0) & (x < w - 1) & (y >= 0) & (y < h - 1)
    x, y = np.clip(x, 0, w - 1.001), np.clip(y, 0, h - 1.001)
    x0, y0 = x.astype(np.int32), y.astype(np.int32)
    fx, fy = x - x0, y - y0
    v = (ev[y0, x0] * (1 - fx) * (1 - fy) + ev[y0, x0 + 1] * fx * (1 - fy)
         + ev[y0 + 1, x0] * (1 - fx) * fy + ev[y0 + 1, x0 + 1] * fx * fy)
    return np.where(inside, v, 0.0)


def refine_grid(ev_v: np.ndarray, ev_h: np.ndarray, xs: np.ndarray, ys: np.ndarray, rows: int, cols: int,
                steps: tuple[float, ...] = (2.0, 1.0, 0.5, 0.25)) -> np.ndarray:
    """Grid units -> warped px, by moving the grid's four corners until all its lines sit on line evidence.

    All the lines move together (a homography), so a tile edge beside one line cannot pull it
    off the others: the whole grid settles where the most of its lines are. Starts from the
    comb's axis-aligned grid and descends one corner coordinate at a time, step by step.
    """
    # Saturate the evidence: a grid line counts as much as a tile's bright edge beside it,
    # so the many faint lines outvote the few strong edges that are not lines of the grid.
    ev_v = cv2.GaussianBlur(np.minimum(ev_v, np.percentile(ev_v, 85)), (0, 0), 1.0)
    ev_h = cv2.GaussianBlur(np.minimum(ev_h, np.percentile(ev_h, 85)), (0, 0), 1.0)
    n = 24
    t = (np.arange(n) + 0.5) / n
    # Points along every grid line, in grid units: vertical lines (u = i), horizontal (v = j).
    vu = np.repeat(np.arange(cols + 1, dtype=np.float64), n)
    vv = np.tile(t * rows, cols + 1)
    hu = np.tile(t * cols, rows + 1)
    hv = np.repeat(np.arange(rows + 1, dtype=np.float64), n)
    grid_v = np.column_stack([vu, vv, np.ones_like(vu)])
    grid_h = np.column_stack([hu, hv, np.ones_like(hu)])
    unit = np.float32([[0, 0], [cols, 0], [cols, rows], [0, rows]])

    def score(c: np.ndarray) -> float:
        H = cv2.getPerspectiveTransform(unit, c.astype(np.float32)).astype(np.float64)
        pv = grid_v @ H.T
        ph = grid_h @ H.T
        a = _sample(ev_v, pv[:, :2] / pv[:, 2:3])
        b = _sample(ev_h, ph[:, :2] / ph[:, 2:3])
        return float(a.mean() + b.mean())

    corners = np.array([[xs[0], ys[0]], [xs[-1], ys[0]], [xs[-1], ys[-1]], [xs[0], ys[-1]]], np.float64)
    best = score(corners)
    for step in steps:
        for _ in range(12):
            improved = False
            for k in range(8):
                for sign in (1.0, -1.0):
                    trial = corners.copy()
                    trial.flat[k] += sign * step
                    s = score(trial)
                    if s > best + 1e-9:
                        best, corners, improved = s, trial, True
            if not improved:
                break
    return cv2.getPerspectiveTransform(unit, corners.astype(np.float32)).astype(np.float64)


def lane_extent(ev_h: np.ndarray, prof_x: np.ndarray, ys: np.ndarray, pitch_y: float
                ) -> tuple[float, float] | None:
    """Where a board drawn only as lanes begins and ends: (left, right) in warped px, or None.

    Word on the Street draws no lines between its letter columns, and its outline's ends are
    easily confused with the printed board's edge. But its lanes' lines run exactly from one
    end of the street to the other: the longest stretch where the lane lines show is the
    street, and each end is then put on the strongest edge within a third of a lane.
    """
    h, w = ev_h.shape
    inner = [round(y) for y in ys[1:-1] if 0 <= round(y) < h]
    rows = inner or [round(y) for y in ys if 0 <= round(y) < h]
    if not rows:
        return None
    q = np.mean([ev_h[max(r - 1, 0):r + 2].max(axis=0) for r in rows], axis=0)
    q = cv2.blur(q.reshape(1, -1).astype(np.float32), (max(3, int(pitch_y)), 1)).ravel()
    level = 0.5 * float(np.percentile(q, 80))
    inside = q > level
    best, start = (0, 0, 0), None
    for i, flag in enumerate(np.append(inside, False)):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            if i - start > best[0]:
                best = (i - start, start, i - 1)
            start = None
    if best[0] < 3 * pitch_y:
        return None
    reach = max(2, round(pitch_y / 3))

    def snap(x: int) -> float:
        lo, hi = max(x - reach, 0), min(x + reach + 1, w)
        return float(lo + int(np.argmax(prof_x[lo:hi])))

    return snap(best[1]), snap(best[2])


def find_grid(warped: np.ndarray, rows: int, cols: int, min_fill: float = 0.45,
              pitch: tuple[tuple[float, float], tuple[float, float]] | None = None, aspect: float = 1.0,
              near: tuple[float, float] | None = None) -> GridFit | None:
    """The best ``rows`` x ``cols`` grid in a top-down view, or None when nothing grid-like is there.

    ``min_fill``: the grid spans at least this share of the view in each direction; or
    ``pitch``: the cell size's bounds in pixels ((x lo, hi), (y lo, hi)), when the view is of a
    grid already found. ``aspect``: the cells' width over height (1 for square cells).
    ``near``: where the first line of each family should be (x, y) when refining a grid
    already found: combs further than a third of a cell away are not considered (the first
    pass settled which lines are the grid's; the second only makes them exact).
    """
    gray = warped if warped.ndim == 2 else cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY)
    gray = gray.astype(np.float32)
    h, w = gray.shape
    px_est = min(w / cols / aspect, h / rows)
    ev_v = line_evidence(gray, 0, max(3.0, px_est / 3))
    ev_h = line_evidence(gray, 1, max(3.0, px_est / 3))
    # A line drawn as a band (Upwords' walls) has an edge on each side; blurring across the
    # lines merges the two into one peak at the band's centre, where the cell boundary is.
    sigma = max(1.0, 0.07 * px_est)
    ev_v = cv2.GaussianBlur(ev_v, (0, 0), sigmaX=sigma, sigmaY=0.1)
    ev_h = cv2.GaussianBlur(ev_h, (0, 0), sigmaX=0.1, sigmaY=sigma)
    prof_x = ev_v.mean(axis=0)
    prof_y = ev_h.mean(axis=1)
    if cols == 1:  # the lanes give the extent (lane_extent), no comb to search
        cx = [(1.0, 0.0, float(w - 1))]
    elif pitch is None:
        cx = comb_candidates(prof_x, cols, min_fill * w / cols, w / cols)
    else:
        cx = comb_candidates(prof_x, cols, *pitch[0])
    if pitch is None:
        cy = comb_candidates(prof_y, rows, min_fill * h / rows, h / rows)
    else:
        cy = comb_candidates(prof_y, rows, *pitch[1])
    if near is not None:
        if cols > 1:
            cx = [c for c in cx if abs(c[1] - near[0]) < c[2] / 3]
        cy = [c for c in cy if abs(c[1] - near[1]) < c[2] / 3]
    if not cx or not cy:
        return None
    cs = (prepare(ev_v, True, 0.8 * px_est), prepare(ev_h, False, 0.8 * px_est))
    best: tuple[float, ...] | None = None
    for sx, ox, pxx in cx[:8]:
        for sy, oy, pyy in cy[:8]:
            if cols == 1:  # only the outline is drawn across: the lanes say where it ends
                span = lane_extent(ev_h, prof_x, oy + np.arange(rows + 1) * pyy, pyy)
                if span is None:
                    continue
                ox, pxx = span[0], span[1] - span[0]
                ends = np.interp(span, np.arange(len(prof_x)), prof_x)
                sx = float(ends.mean() / (np.median(prof_x) or 1.0))
            ratio = pxx / pyy / aspect
            xs = ox + np.arange(cols + 1) * pxx
            ys = oy + np.arange(rows + 1) * pyy
            seen, outer = score_grid(gray, xs, ys, ev_v, ev_h, cs)
            # Cells are roughly square on every board we know (Word on the Street lanes too),
            # and the warp of a rough outline keeps them within about a third of that.
            if not 0.7 < ratio < 1.4:
                continue
            total = seen * (0.4 + 0.6 * outer) * np.sqrt(max(sx, 1.0) * max(sy, 1.0))
            if best is None or total > best[0]:
                best = (total, ox, pxx, oy, pyy, seen, np.sqrt(sx * sy))
    if best is None:
        return None
    _total, ox, pxx, oy, pyy, seen, peak = best
    xs = ox + np.arange(cols + 1) * pxx
    ys = oy + np.arange(rows + 1) * pyy
    H = refine_grid(ev_v, ev_h, xs, ys, rows, cols)
    return GridFit(xs=xs, ys=ys, seen=float(seen), peak=float(peak), H=H)

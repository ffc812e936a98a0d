"""What *this* board looks like under *this* light: per-cell references learnt at calibration.

Why: whether a cell holds a tile cannot be decided by a fixed rule ("tiles are lighter than
the board") that fits one set — real boards are black, grey, brown, blue or red, their
tiles cream, tan or wood, their premium squares coloured. Calibration already sees the board
in a known state: Upwords and crossword-style boards empty before the first word, Word on the
Street in its start position (every tile on its median letter, every lane empty). From that
picture we keep, for every cell, what *empty* looks like there, and what a tile face looks
like on this set; at read time each cell is compared with both (:mod:`vision.occupancy_model`
turns the comparison into a probability with a model trained on randomised boards).

Measures are taken on a warped, top-down image of the board plane with the cells on a
regular grid: the mean L*a*b* colour of each cell's face rim (the letter-free ring just inside
a tile's edge), its spread, and a small normalised grey patch of the whole face (its structure:
a letter, the printing on a premium square, the cell walls).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from calibration.durable import write_atomically

#: Side of the normalised structure patch per cell.
PATCH = 8


@dataclass(frozen=True, slots=True)
class CellLooks:
    """Measurements of every cell (arrays over rows x cols)."""

    rim_lab: np.ndarray    # (R, C, 3) mean L*a*b* of the face rim
    rim_bgr: np.ndarray    # (R, C, 3) mean linear-ish BGR (0..1) of the face rim, for light changes
    spread: np.ndarray     # (R, C) std of L over the face region
    patch: np.ndarray      # (R, C, PATCH*PATCH) zero-mean grey structure (L units)

    @property
    def shape(self) -> tuple[int, int]:
        return self.rim_lab.shape[:2]


@lru_cache(maxsize=32)
def _boxes(rows: int, cols: int, cell_px: float, face_frac: float, pad_px: float,
           shape: tuple[int, int]) -> tuple[np.ndarray, ...]:
    """Integral-image indices of three boxes per cell: face outer (0.93), rim inner (0.62), face (1.0)."""
    rr, cc = np.mgrid[0:rows, 0:cols]
    cy = pad_px + (rr + 0.5) * cell_px
    cx = pad_px + (cc + 0.5) * cell_px
    half = face_frac * cell_px / 2
    h, w = shape
    out = []
    for f in (0.93, 0.62, 1.0):
        out.append((np.clip(np.round(cy - f * half).astype(np.intp), 0, h),
                    np.clip(np.round(cy + f * half).astype(np.intp), 0, h),
                    np.clip(np.round(cx - f * half).astype(np.intp), 0, w),
                    np.clip(np.round(cx + f * half).astype(np.intp), 0, w)))
    y0, y1, x0, x1 = (np.stack([b[k] for b in out]) for k in range(4))
    area = np.maximum((y1 - y0) * (x1 - x0), 1).astype(np.float64)
    return y0, y1, x0, x1, area


def to_lab(image_bgr: np.ndarray) -> np.ndarray:
    """Float L*a*b* (L 0..100, a and b about -128..127)."""
    return cv2.cvtColor(image_bgr.astype(np.float32) * (1.0 / 255.0), cv2.COLOR_BGR2LAB)


def measure(warped_bgr: np.ndarray, rows: int, cols: int, cell_px: float, face_frac: float,
            pad_px: float) -> CellLooks:
    """Measure every cell of a warped board plane (BGR, ``cell_px`` per cell, ``pad_px`` margin)."""
    lab = to_lab(warped_bgr)
    h, w = lab.shape[:2]
    y0, y1, x0, x1, area = _boxes(rows, cols, float(cell_px), float(face_frac), float(pad_px), (h, w))
    ii = cv2.integral(lab, sdepth=cv2.CV_64F)  # (h+1, w+1, 3)
    sums = ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]  # (3 boxes, R, C, 3)
    rim = (sums[0] - sums[1]) / np.maximum(area[0] - area[1], 1)[..., None]
    ib = cv2.integral(warped_bgr.astype(np.float32) * (1.0 / 255.0), sdepth=cv2.CV_64F)
    bsum = ib[y1, x1] - ib[y0, x1] - ib[y1, x0] + ib[y0, x0]
    rim_bgr = (bsum[0] - bsum[1]) / np.maximum(area[0] - area[1], 1)[..., None]
    face = sums[2] / area[2][..., None]
    light = np.ascontiguousarray(lab[..., 0])
    _, sq = cv2.integral2(light, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
    s2 = sq[y1[2], x1[2]] - sq[y0[2], x1[2]] - sq[y1[2], x0[2]] + sq[y0[2], x0[2]]
    spread = np.sqrt(np.maximum(s2 / area[2] - face[..., 0] ** 2, 0))
    # Structure: each cell's face box shrunk to PATCH x PATCH, normalised.
    half = face_frac * cell_px / 2
    gy = np.round(pad_px + (np.arange(rows) + 0.5) * cell_px).astype(int)
    gx = np.round(pad_px + (np.arange(cols) + 0.5) * cell_px).astype(int)
    side = max(round(2 * half), PATCH)
    offsets = np.round(np.linspace(-half, half, PATCH, endpoint=False) + half / PATCH).astype(int)
    ys = np.clip(gy[:, None] + offsets[None, :], 0, h - 1)  # (R, P)
    xs = np.clip(gx[:, None] + offsets[None, :], 0, w - 1)  # (C, P)
    k = max(1, side // PATCH) | 1
    smooth = cv2.blur(light, (k, k))
    patch = smooth[ys[:, None, :, None], xs[None, :, None, :]]  # (R, C, P, P)
    patch = patch.reshape(rows, cols, PATCH * PATCH).astype(np.float64)
    patch = patch - patch.mean(axis=2, keepdims=True)
    return CellLooks(rim_lab=rim.astype(np.float32), rim_bgr=rim_bgr.astype(np.float32),
                     spread=spread.astype(np.float32), patch=patch.astype(np.float32))


@dataclass(frozen=True, slots=True)
class BoardAppearance:
    """The references a reader compares each cell with.

    ``empty``: the cells seen empty (rows x cols looks) and ``empty_known`` which of them were
    (Word on the Street's median is never seen empty at calibration). ``tile``: per-cell looks
    of a tile seen in place (the street's start position), with ``tile_known``. ``tile_lab``:
    the set's tile face colour (rim), from the teaching or start picture.
    """

    tile_lab: np.ndarray
    empty: CellLooks | None = None
    empty_known: np.ndarray | None = None
    tile: CellLooks | None = None
    tile_known: np.ndarray | None = None
    skin: np.ndarray | None = None   # skin-coloured pixels of the start picture (red squares...)
    scene: np.ndarray | None = None  # the start picture, small (:func:`vision.arms.reference_scene`)
    faces: np.ndarray | None = None  # (R, C, 3) the grounds of :func:`face_parts`, start picture
    inks: np.ndarray | None = None  # (R, C, 3) the inks of :func:`face_parts`, likewise
    greys: np.ndarray | None = None  # (R, C, S, S) each cell in grey (:func:`cell_greys`), likewise

    def save(self, path: str | Path) -> None:
        arrays: dict[str, np.ndarray] = {"tile_lab": np.asarray(self.tile_lab, np.float32)}
        for name in ("empty", "tile"):
            looks = getattr(self, name)
            if looks is not None:
                for field in ("rim_lab", "rim_bgr", "spread", "patch"):
                    arrays[f"{name}_{field}"] = getattr(looks, field)
                arrays[f"{name}_known"] = getattr(self, f"{name}_known").astype(np.uint8)
        if self.skin is not None:
            arrays["skin"] = np.packbits(self.skin, axis=-1)
            arrays["skin_width"] = np.array(self.skin.shape[1])
        if self.scene is not None:
            arrays["scene"] = np.asarray(self.scene, np.uint8)
        if self.faces is not None:
            arrays["faces"] = np.asarray(self.faces, np.float32)
        if self.inks is not None:
            arrays["inks"] = np.asarray(self.inks, np.float32)
        if self.greys is not None:
            arrays["greys"] = np.asarray(self.greys, np.uint8)
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)
        write_atomically(Path(path), buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> BoardAppearance:
        """Read what :meth:`save` wrote; a damaged file is a ValueError in plain words."""
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                parts: dict[str, object] = {"tile_lab": data["tile_lab"].astype(np.float32)}
                for name in ("empty", "tile"):
                    if f"{name}_rim_lab" in data:
                        parts[name] = CellLooks(*(data[f"{name}_{f}"] for f in
                                                  ("rim_lab", "rim_bgr", "spread", "patch")))
                        parts[f"{name}_known"] = data[f"{name}_known"].astype(bool)
                if "skin" in data:
                    width = int(data["skin_width"])
                    parts["skin"] = np.unpackbits(data["skin"], axis=-1)[:, :width].astype(bool)
                if "scene" in data:
                    parts["scene"] = data["scene"].astype(np.uint8)
                for name in ("faces", "inks"):  # older files have no inks
                    if name in data:
                        parts[name] = data[name].astype(np.float32)
                if "greys" in data:  # nor greys
                    parts["greys"] = data["greys"].astype(np.uint8)
        except (OSError, KeyError, ValueError, TypeError, EOFError, zipfile.BadZipFile) as exc:
            raise ValueError(f"the board appearance file {path} cannot be read ({exc}); "
                             "calibrate the board again") from None
        colours = [parts.get(name) for name in ("scene", "faces", "inks")]
        if np.asarray(parts["tile_lab"]).shape != (3,) or any(
                c is not None and (np.ndim(c) != 3 or np.shape(c)[2] != 3) for c in colours):
            raise ValueError(f"the board appearance file {path} is damaged; calibrate the board again")
        greys = parts.get("greys")
        if greys is not None and (np.ndim(greys) != 4 or np.shape(greys)[2] != np.shape(greys)[3]):
            raise ValueError(f"the board appearance file {path} is damaged; calibrate the board again")
        return cls(**parts)  # type: ignore[arg-type]


def tile_colour(looks: CellLooks, cells: np.ndarray, light: LightChange | None = None) -> np.ndarray:
    """The set's tile colour: the median rim colour of cells known to hold a tile.

    ``light``: how the teaching picture's light differs from the calibration's
    (:func:`teaching_light`). The reader compares every later picture with its references
    *under the calibration's light*, so the tile colour must be under it too: taken as seen
    under a warmer lamp, every tile would look "unlike the tile colour", and a tan tile on a
    peach square would read as the bare square, with confidence.
    """
    if not cells.any():
        raise ValueError("no tile was seen to learn the tile colour from")
    colours = looks.rim_lab if light is None else light.undo(looks)
    return np.median(colours[cells], axis=0).astype(np.float32)


#: The surround used to compare two pictures' light when the board's cells are covered: this
#: many cells' width around the playing area (the board's frame, perhaps some table).
SURROUND_CELLS = 1


def teaching_light(reference: np.ndarray, image: np.ndarray, corners: np.ndarray, rows: int, cols: int,
                   looks: CellLooks, empty: CellLooks | None, cells: np.ndarray) -> LightChange:
    """How ``image``'s light differs from the calibration picture ``reference`` (which may be
    kept smaller, as :func:`vision.arms.reference_scene` keeps it).

    Measured on the board's free cells where enough are free; a teaching layout often covers
    every cell, and then on the surround of the playing area, which both pictures show bare.
    One gain per colour channel (a lamp, the white balance), the median over the surround's
    pixels so a stray object there does not count.
    """
    free = ~cells
    if empty is not None and free.sum() >= 8:
        return light_between(looks, empty, free)
    small = cv2.resize(image, (reference.shape[1], reference.shape[0]), interpolation=cv2.INTER_AREA)
    scale = reference.shape[1] / image.shape[1]
    gains = surround_gains(reference, small, np.asarray(corners) * scale, rows, cols)
    if gains is None:
        return LightChange.none(looks.shape)
    return LightChange(np.broadcast_to(gains, (*looks.shape, 3)).copy())


class SurroundLight:
    """The light's change (log gain per colour channel) on the playing area's surround, which
    tiles never cover: :attr:`gains` over all of it (3,), and :attr:`beside` each cell on the
    playing area's border, from the strip of surround next to it (rows x cols x 3; NaN for cells
    off the border and where too little of that strip is usable).

    Why both: one gain for the whole surround cannot follow a shadow across part of the board,
    while the cells' own light does; the strips beside the border cells tell whether the cells'
    light is the surround's where they meet (:func:`vision.occupancy_model.light_change`). The
    strips are measured only when asked for (a millisecond, and seldom needed)."""

    def __init__(self, gains: np.ndarray, beside: np.ndarray | Callable[[], np.ndarray]) -> None:
        self.gains = np.asarray(gains)
        self._beside = beside

    @property
    def beside(self) -> np.ndarray:
        if callable(self._beside):
            self._beside = self._beside()
        return self._beside


def surround_gains(reference: np.ndarray, small: np.ndarray, corners: np.ndarray, rows: int, cols: int
                   ) -> np.ndarray | None:
    """Per colour channel, the log gain of the light on the surround of the playing area
    (:func:`surround_change`); None when too little of it is usable."""
    change = surround_change(reference, small, corners, rows, cols)
    return None if change is None else change.gains


#: A border cell's strip of surround counts only where this share of its pixels is usable.
BESIDE_USABLE = 0.5


def surround_change(reference: np.ndarray, small: np.ndarray, corners: np.ndarray, rows: int, cols: int
                    ) -> SurroundLight | None:
    """The light's change from ``reference`` (the calibration picture, kept small) to ``small``
    (today's, at the same size) on the surround of the playing area (``corners`` at that size):
    the board's frame and perhaps some table, which tiles never cover. Medians over its pixels,
    so a stray object there does not count; None when too little of it is usable."""
    cell_px, pad = 8, 8 * SURROUND_CELLS
    corners = np.asarray(corners, np.float64).reshape(4, 2)
    key = (corners.tobytes(), rows, cols)
    kept = _SURROUND_CACHE[0] if _SURROUND_CACHE else None  # read once: another thread may replace it
    if kept is None or kept[0] is not reference or kept[1] != key:
        then = warp_board(reference, corners, rows, cols, cell_px, pad).astype(np.float32)
        ring = np.ones(then.shape[:2], bool)
        ring[pad:-pad, pad:-pad] = False
        kept = (reference, key, ring & (then.min(axis=-1) > 12), then)
        _SURROUND_CACHE[:] = [kept]
    _, _, ring, then = kept
    now = warp_board(small, corners, rows, cols, cell_px, pad).astype(np.float32)
    usable = ring & (now.min(axis=-1) > 12)
    if usable.sum() < 20:
        return None
    gains = np.median(np.log(now[usable] / then[usable]), axis=0)
    return SurroundLight(gains, lambda: _strips_beside(now, then, usable, rows, cols, cell_px, pad))


def _strips_beside(now: np.ndarray, then: np.ndarray, usable: np.ndarray, rows: int, cols: int,
                   cell_px: int, pad: int) -> np.ndarray:
    """:attr:`SurroundLight.beside`, from the surround's warps (``cell_px`` per cell, ``pad``
    wide): the median log gain of each border cell's strip of surround where enough of it is
    usable (:data:`BESIDE_USABLE`); a corner cell's two strips are averaged."""
    beside = np.full((rows, cols, 3), np.nan, np.float32)
    w, h = cols * cell_px, rows * cell_px

    def strips(ys: slice, xs: slice, n: int, across: bool) -> np.ndarray:  # (n, 3) medians
        ok = usable[ys, xs]
        gain = np.where(ok[..., None], np.log(np.maximum(now[ys, xs], 1.0) / np.maximum(then[ys, xs], 1.0)),
                        np.nan)
        if across:  # a side strip: its cells run down the picture
            gain = gain.transpose(1, 0, 2)
        blocks = gain.reshape(gain.shape[0], n, cell_px, 3).transpose(1, 0, 2, 3).reshape(n, -1, 3)
        enough = np.isfinite(blocks[..., 0]).mean(axis=1) >= BESIDE_USABLE
        out = np.full((n, 3), np.nan, np.float32)
        if enough.any():
            out[enough] = np.nanmedian(blocks[enough], axis=1)
        return out

    along = [(0, slice(None), strips(slice(0, pad), slice(pad, pad + w), cols, False)),
             (rows - 1, slice(None), strips(slice(pad + h, None), slice(pad, pad + w), cols, False)),
             (slice(None), 0, strips(slice(pad, pad + h), slice(0, pad), rows, True)),
             (slice(None), cols - 1, strips(slice(pad, pad + h), slice(pad + w, None), rows, True))]
    for row, col, values in along:
        kept = beside[row, col]  # a corner cell has two strips: their mean where both count
        both = np.where(np.isnan(values), kept, (kept + values) / 2)
        beside[row, col] = np.where(np.isnan(kept), values, both)
    return beside


_SURROUND_CACHE: list = []  # [(reference, its corners and size, its usable ring, its warp)]: one board


@dataclass(frozen=True, slots=True)
class LightChange:
    """How the light at each cell differs from calibration: per-channel log gains (B, G, R;
    rows x cols x 3). A brighter lamp raises all three, a shadow lowers them, the camera's white
    balance drifting moves them apart (von Kries: each colour channel scales on its own)."""

    gains: np.ndarray

    @classmethod
    def none(cls, shape: tuple[int, int]) -> LightChange:
        return cls(np.zeros((*shape, 3)))

    def undo(self, looks: CellLooks) -> np.ndarray:
        """The looks' rim colours as L*a*b* under the calibration's light."""
        bgr = np.clip(looks.rim_bgr / np.exp(self.gains), 0, 1).astype(np.float32)
        return cv2.cvtColor(bgr.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(bgr.shape)


def _smooth(values: np.ndarray, trusted: np.ndarray, sigma_cells: float) -> np.ndarray:
    """Average ``values`` (rows x cols x k) over trusted neighbours with a Gaussian weight; cells
    with no trusted neighbour take the median of all trusted cells."""
    rows, cols = trusted.shape
    flat = values.reshape(rows * cols, -1)
    rr, cc = np.mgrid[0:rows, 0:cols]
    pos = np.column_stack([rr.ravel(), cc.ravel()]).astype(np.float64)
    d2 = ((pos[:, None, :] - pos[None, :, :]) ** 2).sum(axis=2)
    weights = np.exp(-d2 / (2 * sigma_cells**2)) * trusted.ravel()[None, :]
    total = weights.sum(axis=1)
    smooth = (weights @ flat) / np.maximum(total, 1e-9)[:, None]
    fallback = np.median(flat[trusted.ravel()], axis=0)
    smooth = np.where((total > 0.3)[:, None], smooth, fallback[None, :])
    return smooth.reshape(values.shape)


def light_between(current: CellLooks, reference: CellLooks, trusted: np.ndarray, sigma_cells: float = 2.0
                  ) -> LightChange:
    """The light change measured on ``trusted`` cells (those that look as they did at calibration),
    smoothed over neighbours so a soft shadow, a brighter lamp or the camera's white balance
    drifting is followed, but one tile is not mistaken for light."""
    if not trusted.any():
        return LightChange.none(trusted.shape)
    ratio = np.log(np.maximum(current.rim_bgr, 1e-3) / np.maximum(reference.rim_bgr, 1e-3))
    return LightChange(_smooth(ratio, trusted, sigma_cells))


def warp_board(image: np.ndarray, corners: np.ndarray, rows: int, cols: int, cell_px: int,
               pad_px: int, cell_aspect: float = 1.0) -> np.ndarray:
    """The board plane top-down: ``cell_px`` per column (``cell_px * cell_aspect`` per row) and
    ``pad_px`` of margin, from the playing area's four image corners (TL, TR, BR, BL)."""
    cell_h = cell_px * cell_aspect
    w, h = cols * cell_px, rows * cell_h
    dst = np.float32([[pad_px, pad_px], [pad_px + w, pad_px], [pad_px + w, pad_px + h], [pad_px, pad_px + h]])
    m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32).reshape(4, 2), dst)
    size = (round(w + 2 * pad_px), round(h + 2 * pad_px))
    return cv2.warpPerspective(image, m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


#: Resolution of the occupancy measurements: pixels per cell of the warped board.
LOOK_CELL_PX = 24


#: Occupancy is measured on this share of the tile face around the cell's centre: a tile always
#: covers it, while a neighbour's edge, its shadow or a tile lying a little off its cell does not
#: reach it.
MEASURE_FRAC = 0.75


def board_warp(image: np.ndarray, corners: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The board plane top-down at the resolution the references are kept at."""
    return warp_board(image, corners, rows, cols, LOOK_CELL_PX, LOOK_CELL_PX // 4)


def board_looks(image: np.ndarray, corners: np.ndarray, rows: int, cols: int, face_frac: float,
                warped: np.ndarray | None = None) -> CellLooks:
    """Measure every cell of the board plane in a camera picture (square cells); ``warped``:
    the picture's :func:`board_warp`, when the caller has it already."""
    if warped is None:
        warped = board_warp(image, corners, rows, cols)
    return measure(warped, rows, cols, LOOK_CELL_PX, face_frac * MEASURE_FRAC, LOOK_CELL_PX // 4)


#: :func:`face_parts` takes a face's ground from its pixels at or above this quantile of lightness.
LIGHT_QUANTILE = 0.67
#: ... and its ink from those at or below this one: small, so that it holds a letter's strokes
#: and none of its ground (the first value tried, not tuned).
INK_QUANTILE = 0.12


def face_parts(warped_bgr: np.ndarray, rows: int, cols: int, face_frac: float,
               gains: np.ndarray | None = None, only_row: int | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """The colour of every cell's face's ground (its light part) and of its ink (its darkest
    part), both rows x cols x 3 L*a*b*, from a :func:`board_warp` picture; ``gains``: a
    :class:`LightChange`'s, to undo; ``only_row``: measure that row alone (1 x cols x 3), for a
    reader that needs no other.

    Why the ground: the face rim's mean (:class:`CellLooks`) is pulled towards ink by a heavy
    letter (a bold W or M fills most of a face) and by a letter printed on the board, so two
    tiles, or a tile and the strip it stood on, can differ by more than a tile and a bare strip.
    The lightest third of a face is its ground: the tile's own colour, or the board's.

    Why the ink too: a tile and the strip it stood on can look alike by their ground under a
    light the calibration never saw (a tan tile on an orange strip in a much brighter light; a
    white one under a colour cast), while the tile's letter and the letter printed on the strip
    differ in ink, which the light moves far less than a light ground (:mod:`vision.median_strip`).
    """
    pad, cell = LOOK_CELL_PX // 4, LOOK_CELL_PX
    half = face_frac * MEASURE_FRAC * cell / 2
    side = max(round(2 * half), 2)
    steps = np.arange(side) - side / 2 + 0.5
    h, w = warped_bgr.shape[:2]

    def pixels(n: int, limit: int) -> np.ndarray:  # (n, side): each cell's rows or columns of its face
        centres = pad + (np.arange(n)[:, None] + 0.5) * cell
        return np.clip(np.round(centres + steps[None, :]).astype(int), 0, limit - 1)

    ys, xs = pixels(rows, h), pixels(cols, w)
    if only_row is not None:
        ys = ys[only_row:only_row + 1]
        gains = None if gains is None else gains[only_row:only_row + 1]
    blocks = warped_bgr[ys[:, None, :, None], xs[None, :, None, :]].reshape(len(ys), cols, side * side, 3)
    bgr = blocks.astype(np.float32) * (1.0 / 255.0)
    if gains is not None:
        bgr = np.minimum(bgr * np.exp(-gains).astype(np.float32)[:, :, None, :], 1.0)
    lab = cv2.cvtColor(bgr.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(bgr.shape)
    light = lab[..., 0]
    n = side * side - 1
    light_k, dark_k = int(LIGHT_QUANTILE * n), int(INK_QUANTILE * n)
    ordered = np.partition(light, (dark_k, light_k), axis=2)

    def mean_of(part: np.ndarray) -> np.ndarray:
        return ((lab * part[..., None]).sum(axis=2) / part.sum(axis=2)[..., None]).astype(np.float32)

    return (mean_of(light >= ordered[..., light_k:light_k + 1]),
            mean_of(light <= ordered[..., dark_k:dark_k + 1]))


def structure_distance(a: np.ndarray, b: np.ndarray, floor: float = 24.0) -> np.ndarray:
    """How different two zero-mean patches are, 0 (same) to about 1 (unrelated or opposite);
    two nearly flat patches count as alike (the floor is a contrast of 3 L units per pixel)."""
    return np.linalg.norm(a - b, axis=-1) / (np.linalg.norm(a, axis=-1) + np.linalg.norm(b, axis=-1) + floor)


def cell_greys(warped: np.ndarray, rows: int, cols: int, only_row: int | None = None) -> np.ndarray:
    """Every cell of a :func:`board_warp` picture in grey (rows x cols x S x S, S the warp's cell
    side); ``only_row``: that row alone (1 x cols x S x S)."""
    pad, side = LOOK_CELL_PX // 4, LOOK_CELL_PX
    grey = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY)
    picked = range(rows) if only_row is None else (only_row,)
    return np.stack([np.stack([grey[pad + r * side:pad + (r + 1) * side, pad + c * side:pad + (c + 1) * side]
                               for c in range(cols)]) for r in picked])


def likeness(now: np.ndarray, then: np.ndarray) -> np.ndarray:
    """How alike each pair of grey cells is (their correlation, -1..1; cells x S x S each).

    Why a correlation: it does not change when the light scales a cell's grey (a brighter lamp, a
    shadow) or adds to it (a lamp's glare), so a cell keeps its likeness to its own look at
    calibration through both, while a different thing there (the strip's printed letter where
    the tile was) is unlike it in any light."""
    a = now.reshape(len(now), -1).astype(np.float64)
    b = then.reshape(len(then), -1).astype(np.float64)
    a -= a.mean(axis=1, keepdims=True)
    b -= b.mean(axis=1, keepdims=True)
    return (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1) + 1e-6)


#: How far either side of a tile's face border :func:`outline` looks, as a share of the cell:
#: the face is measured on the board's plane, where a tile's top stands off by its thickness
#: seen at the camera's tilt (up to about a tenth of a cell at 35°) and a tile lies a little
#: off its space's centre.
OUTLINE_BAND = 0.12


def outline(cells: np.ndarray, face_frac: float) -> np.ndarray:
    """Each grey cell's edge strength where a tile's face has its border (cells x S x S → cells):
    the mean gradient of the log grey in a band around the face's square.

    Why: a tile is a square with edges, the strip's printed letter has none there; in log grey a
    lamp's gain does not change an edge, and a glare's added light only softens it, as it does
    every edge of the picture (hence compared with the bare strip's in the same picture)."""
    side = cells.shape[-1]
    logs = np.log(cells.reshape(-1, side, side).astype(np.float32) + 8.0)
    across = np.abs(np.diff(logs, axis=2))[:, :-1, :]
    down = np.abs(np.diff(logs, axis=1))[:, :, :-1]
    strength = np.hypot(across, down)
    at = np.arange(side - 1, dtype=np.float32) + 1.0 - side / 2.0  # pixel corners from the centre
    from_centre = np.maximum(np.abs(at)[:, None], np.abs(at)[None, :]) / side
    band = np.abs(from_centre - face_frac / 2.0) <= OUTLINE_BAND
    return strength[:, band].mean(axis=1)

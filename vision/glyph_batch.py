"""Many cells' glyph features at once, equal to :func:`vision.glyphs.glyph_features` cell by cell.

Why: a full board's letters are most of its read, and each cell's own path (binarise, sort the
ink into pieces, cut the two views, two HOG vectors) is a few dozen OpenCV calls on 32-pixel
crops, each with its Python around it: about 0.2 ms a cell, 45 ms of a full 15x15 board's read.
Here the crops of one size are stacked into one tall picture, with a row and a column of
background between them, so each step is one OpenCV call or one array expression for the whole
board. Only the steps that differ in size from cell to cell (the tight view's cut) stay per cell.

The answers are the same to the bit as the single path's (``tests/test_vision_glyph_batch.py``
compares them on rendered and real crops): a read does not depend on how many cells were read
with it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import cv2
import numpy as np

from vision import glyphs as single
from vision.labelling import pieces_with_stats
from vision.spare_core import at_once

#: Below this many crops of one size the single path is as quick (the batch's setup is fixed).
MIN_BATCH = 4

Features = tuple[tuple[np.ndarray, np.ndarray] | None, bool | None]


def features_and_bare_many(images: Sequence[np.ndarray]) -> list[Features]:
    """:func:`vision.glyphs.features_and_bare` of every image, in order."""
    by_shape: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, image in enumerate(images):
        if (image is not None and image.dtype == np.uint8 and image.ndim in (2, 3)
                and min(image.shape[:2]) >= 8):
            by_shape[image.shape[:2]].append(i)
    bare: dict[int, bool] = {}
    glyphs: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for members in by_shape.values():
        if len(members) < MIN_BATCH:
            continue
        looks = _same_size(np.stack([single.as_gray(images[i]) for i in members]))
        for i, (is_bare, views) in zip(members, looks, strict=True):
            bare[i] = is_bare
            if views is not None:
                glyphs[i] = views
    order = list(glyphs)
    hogs = _hogs([glyphs[i][0] for i in order] + [glyphs[i][1] for i in order]) if order else []
    views_of = {i: (hogs[j], hogs[len(order) + j]) for j, i in enumerate(order)}
    return [(views_of.get(i), bare[i]) if i in bare else single.features_and_bare(image)
            for i, image in enumerate(images)]


def _same_size(gray: np.ndarray) -> list[tuple[bool, tuple[np.ndarray, np.ndarray] | None]]:
    """Each crop of a stack (n, h, w) of one size: whether its face is bare, and its two glyphs
    (the whole cell and the tight strokes) when it holds a letter."""
    n, h, w = gray.shape
    bw = _ink_masks(gray)
    my, mx = h // 5, w // 5
    middle = bw[:, my: h - my, mx: w - mx]
    if middle[0].size:
        bare = (np.count_nonzero(middle, axis=(1, 2)) * 255 / middle[0].size < 0.02 * 255).tolist()
    else:
        bare = [False] * n
    keep, boxes = _glyph_pieces(bw)
    inked = np.count_nonzero(bw, axis=(1, 2)).tolist()
    ink_sums = np.where(bw > 0, gray, 0).sum(axis=(1, 2), dtype=np.int64).tolist()
    all_sums = gray.sum(axis=(1, 2), dtype=np.int64).tolist()
    out: list[tuple[bool, tuple[np.ndarray, np.ndarray] | None]] = []
    size = (single.GLYPH_SIZE, single.GLYPH_SIZE)
    for i in range(n):
        if boxes[i] is None or inked[i] in (0, h * w):
            out.append((bare[i], None))
            continue
        g = gray[i]
        # cv2.mean's comparison to the bit: exact sums times the reciprocal of the count.
        if ink_sums[i] * (1.0 / inked[i]) < (all_sums[i] - ink_sums[i]) * (1.0 / (h * w - inked[i])):
            g = cv2.bitwise_not(g)
        x0, y0, x1, y1 = boxes[i]
        out.append((bare[i], (cv2.resize(g, size, interpolation=cv2.INTER_AREA),
                              _tight(keep[i, y0:y1, x0:x1]))))
    return out


def _ink_masks(gray: np.ndarray) -> np.ndarray:
    """:func:`vision.glyphs.ink_mask` of every crop: one blur for all (each crop padded as
    OpenCV pads it alone), Otsu's threshold per crop, the ink made white."""
    n, h, w = gray.shape
    padded = np.pad(gray, ((0, 0), (1, 1), (1, 1)), mode="reflect")  # = BORDER_REFLECT_101
    blurred = cv2.GaussianBlur(padded.reshape(n * (h + 2), w + 2), (3, 3), 0)
    blurred = blurred.reshape(n, h + 2, w + 2)[:, 1:-1, 1:-1]
    levels = np.array([cv2.threshold(np.ascontiguousarray(b), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[0]
                       for b in blurred])
    bw = np.where(blurred > levels[:, None, None], np.uint8(255), np.uint8(0))
    centre = bw[:, h // 5: h - h // 5, w // 5: w - w // 5]
    if centre[0].size:
        light = np.count_nonzero(centre, axis=(1, 2)) * 255 > 127 * centre[0].size
        bw[light] = 255 - bw[light]
    return bw


def _glyph_pieces(bw: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int, int, int] | None]]:
    """:func:`vision.glyphs.glyph_components` of every crop: the kept ink (n, h, w) and each
    crop's box round it (None: no letter).

    The crops are labelled in one picture, at least a row and a column of background apart, so
    no piece joins two crops. Each crop starts on an even row: OpenCV labels two rows at a time,
    so the pieces are then numbered crop by crop in the same order as alone (the order settles
    which of two equal pieces is the letter)."""
    n, h, w = bw.shape
    pitch = h + 1 + (h + 1) % 2
    sheet = np.zeros((n, pitch, w + 1), np.uint8)
    sheet[:, :h, :w] = bw
    count, labels, stats, centroids = pieces_with_stats(sheet.reshape(n * pitch, w + 1))
    if count == 1:  # no ink anywhere
        return np.zeros((n, h, w), bool), [None] * n
    stats, centroids = stats[1:], centroids[1:]
    x, top, bw_, bh, area = (stats[:, j].astype(np.int64) for j in range(5))
    owner = top // pitch
    y = top - owner * pitch
    # A centroid is a sum of rows over the area: recover the crop's own sum exactly, so the
    # centre is the very number the crop alone gives.
    cx = centroids[:, 0]
    cy = (np.rint(centroids[:, 1] * area) - area * owner * pitch) / area
    central = (np.abs(cx - w / 2) < w * 0.32) & (np.abs(cy - h / 2) < h * 0.32)
    edge = (x == 0) | (y == 0) | (x + bw_ >= w) | (y + bh >= h)
    frame = _frames(labels, x, top, bw_, bh, area, edge, w, h, owner)
    central &= ~frame
    inner = (np.abs(cx - w / 2) < w * 0.36) & (np.abs(cy - h / 2) < h * 0.36) & ~edge
    # Per crop (the pieces are numbered crop by crop): the letter is the first biggest central
    # piece, as max() over the pieces in order picks it; with it go the inner pieces not much
    # smaller than a twenty-fifth of it (broken strokes, dots, the u of Qu).
    pieces = np.arange(len(x))
    starts = np.searchsorted(owner, np.arange(n))
    has = np.zeros(n, bool)
    has[owner] = True
    score = np.where(central, area, -1)
    best = np.full(n, -1)
    best[has] = np.maximum.reduceat(score, starts[has])
    is_best = central & (score == best[owner])
    main = np.full(n, len(x))
    main[has] = np.minimum.reduceat(np.where(is_best, pieces, len(x)), starts[has])
    letter = has & (best > 0)
    letter[letter] &= area[main[letter]] >= 0.01 * h * w
    main_area = np.where(letter, area[np.minimum(main, len(x) - 1)], 0)
    kept = letter[owner] & ((inner & (area >= 0.04 * main_area[owner])) | (pieces == main[owner]))
    big = np.iinfo(np.int64).max
    x0 = _per_crop(np.minimum, np.where(kept, x, big), starts, has, n)
    y0 = _per_crop(np.minimum, np.where(kept, y, big), starts, has, n)
    x1 = _per_crop(np.maximum, np.where(kept, x + bw_, -1), starts, has, n)
    y1 = _per_crop(np.maximum, np.where(kept, y + bh, -1), starts, has, n)
    boxes: list[tuple[int, int, int, int] | None] = [
        (a, b, c, d) if ok else None
        for ok, a, b, c, d in zip(letter.tolist(), x0.tolist(), y0.tolist(), x1.tolist(), y1.tolist(),
                                  strict=True)]
    keep_piece = np.concatenate([[False], kept])
    keep = keep_piece[labels].reshape(n, pitch, w + 1)[:, :h, :w]
    return keep, boxes


def _per_crop(reduce: np.ufunc, values: np.ndarray, starts: np.ndarray, has: np.ndarray, n: int
              ) -> np.ndarray:
    """``reduce`` of each crop's run of ``values`` (0 for a crop with no pieces)."""
    out = np.zeros(n, np.int64)
    out[has] = reduce.reduceat(values, starts[has])
    return out


def _frames(labels: np.ndarray, x: np.ndarray, top: np.ndarray, bw: np.ndarray, bh: np.ndarray,
            area: np.ndarray, edge: np.ndarray, w: int, h: int, owner: np.ndarray) -> np.ndarray:
    """:func:`vision.glyphs._is_frame` of every piece.

    The candidates (as large as a ring round the cut, touching it: about one a crop) are
    counted in one summed-area table of their own ink; a crop with two candidates, whose
    boxes overlap, has them looked at one by one."""
    frame = np.zeros(len(x), bool)
    candidates = np.flatnonzero((bw > 0.7 * w) & (bh > 0.7 * h) & edge)
    if not len(candidates):
        return frame
    shared = np.bincount(owner[candidates])[owner[candidates]] > 1
    for i in candidates[shared].tolist():
        frame[i] = single.is_frame_box(
            labels[top[i]: top[i] + bh[i], x[i]: x[i] + bw[i]] == i + 1, int(area[i]))
    c = candidates[~shared]
    if not len(c):
        return frame
    marked = np.zeros(len(x) + 1, np.uint8)
    marked[c + 1] = 1
    table = cv2.integral(marked[labels], sdepth=cv2.CV_32S)
    x0, y0, cw, ch = x[c], top[c], bw[c], bh[c]

    def share(r0: np.ndarray, r1: np.ndarray, c0: np.ndarray, c1: np.ndarray) -> np.ndarray:
        """The inked share of each candidate's box rows r0..r1, columns c0..c1 (0 when empty)."""
        r1, c1 = np.maximum(r1, r0), np.maximum(c1, c0)
        a, b, d, e = y0 + r0, y0 + r1, x0 + c0, x0 + c1
        count = table[b, e] - table[a, e] - table[b, d] + table[a, d]
        size = (r1 - r0) * (c1 - c0)
        return np.where(size > 0, count / np.maximum(size, 1), 0.0)

    thin = area[c] / (2.0 * (cw + ch)) <= 0.08 * np.maximum(cw, ch)
    my, mx = np.maximum(1, (0.3 * ch).astype(np.int64)), np.maximum(1, (0.3 * cw).astype(np.int64))
    hollow = share(my, ch - my, mx, cw - mx) <= 0.05
    cy, cx = np.maximum(1, (0.15 * ch).astype(np.int64)), np.maximum(1, (0.15 * cw).astype(np.int64))
    zero = np.zeros_like(cy)
    corners = ((share(zero, cy, zero, cx) > 0.1).astype(int) + (share(zero, cy, cw - cx, cw) > 0.1)
               + (share(ch - cy, ch, zero, cx) > 0.1) + (share(ch - cy, ch, cw - cx, cw) > 0.1))
    frame[c] = thin & hollow & (corners >= 3)
    return frame


def _tight(mask: np.ndarray) -> np.ndarray:
    """:func:`vision.glyphs._tight_from_mask` of a mask already cut to its ink's box."""
    crop = mask.view(np.uint8) * np.uint8(255)
    h, w = crop.shape
    side = int(max(h, w) * 1.2) + 2
    top, left = (side - h) // 2, (side - w) // 2
    square = cv2.copyMakeBorder(crop, top, side - h - top, left, side - w - left, cv2.BORDER_CONSTANT,
                                value=0)
    return cv2.resize(square, (single.GLYPH_SIZE, single.GLYPH_SIZE), interpolation=cv2.INTER_AREA)


#: Background rows between the glyphs in the HOG strip: a multiple of the block stride, so each
#: glyph's window starts on the stride, and enough for each glyph to see its own mirrored edge.
_GAP = 8


def _hogs(glyphs: list[np.ndarray]) -> list[np.ndarray]:
    """:func:`vision.glyphs._hog` of every glyph, from HOG calls over strips of them.

    Each glyph is mirrored four rows beyond its top and bottom edges (OpenCV's own border for a
    lone glyph), so every window sees exactly what it would alone. With many glyphs the strip
    is cut in two and the halves run at once (:mod:`vision.spare_core`): the HOG is most of what
    is left of a letter's cost."""
    size = single.GLYPH_SIZE
    stack = np.pad(np.stack(glyphs), ((0, 0), (_GAP // 2, _GAP // 2), (0, 0)), mode="reflect")
    strip = stack.reshape(-1, size)
    half = (size + _GAP) * (len(glyphs) // 2)
    if len(glyphs) >= _SPLIT_FROM:
        first, second = at_once(lambda: _hog_strip(strip[:half]), lambda: _hog_strip(strip[half:]))
        vectors = np.concatenate([first, second])
    else:
        vectors = _hog_strip(strip)
    # np.linalg.norm of one float32 vector is the square root of its BLAS dot with itself
    lengths = np.sqrt(np.array([vec.dot(vec) for vec in vectors], np.float32))
    return list(np.divide(vectors, lengths[:, None], out=vectors.copy(), where=lengths[:, None] > 0))


#: Glyphs from which the HOG is split over two threads (below, the hand-over costs more).
_SPLIT_FROM = 32


def _hog_strip(strip: np.ndarray) -> np.ndarray:
    """The HOG vectors (glyphs, 324) of a strip of padded glyphs, ``_GAP`` rows apart."""
    size = single.GLYPH_SIZE
    count = len(strip) // (size + _GAP)
    places = [(0, (size + _GAP) * i) for i in range(count)]
    inner = np.ascontiguousarray(strip[_GAP // 2:])  # the first glyph on row 0
    inner = np.vstack([inner, np.zeros((_GAP // 2, size), np.uint8)])
    return single.HOG.compute(inner, (8, 8), (0, 0), places).reshape(count, -1).astype(np.float32)

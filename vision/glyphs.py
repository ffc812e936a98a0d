"""A cell's letter as the classifier sees it: the ink found and sorted from the tile, cut two
ways (the whole cell, the strokes alone), each described by a HOG vector.

Why a module of its own: the letter reader (:mod:`vision.letters`) teaches and reads with these
features, and :mod:`vision.glyph_batch` works out the very same ones for a whole board at once;
both stand on the rules here.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Side of the normalised glyph the classifier sees, in pixels.
GLYPH_SIZE = 32


#: The HOG the letters are described by: 3x3 blocks of 2x2 cells of 8 pixels, 9 directions.
HOG = cv2.HOGDescriptor((GLYPH_SIZE, GLYPH_SIZE), (16, 16), (8, 8), (8, 8), 9)


def as_gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 3:
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return image


def ink_mask(image: np.ndarray) -> np.ndarray:
    """Binarise so the ink is white, whichever way round the tile is printed.

    Otsu splits tile from ink; the ink is the minority class in the middle of the cell.
    """
    gray = as_gray(image)
    if gray.dtype != np.uint8:
        gray = cv2.normalize(gray, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    _, bw = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    h, w = bw.shape
    centre = bw[h // 5 : h - h // 5, w // 5 : w - w // 5]
    if centre.size and cv2.countNonZero(centre) * 255 > 127 * centre.size:  # mostly white: the tile
        bw = cv2.bitwise_not(bw)
    return bw


#: A grey level at or above this is cut white: the sensor's top, where a face's ink and the face
#: itself read alike.
CUT_WHITE = 250


def face_visibility(image: np.ndarray) -> np.ndarray:
    """How much of its letter a tile face can show: (its ink contrast, the share of it cut white).

    Why: under a lamp's glare, or a light much brighter than the calibration's, a face can be cut
    white all over, its ink with it; in a deep shadow the ink sinks into the face. A letter read
    there, or none, says nothing of whose face it is, and the fitted decisions that weigh a read
    (:mod:`vision.cell_decision`, :mod:`vision.kept_decision`) weigh this beside it. The contrast
    is the face's darkest tenth below its brightest tenth, as a share of the brightest. An empty
    crop shows nothing: (0, 0)."""
    gray = as_gray(image)
    if not gray.size:
        return np.zeros(2)
    dark, bright = np.percentile(gray, (10, 90))
    return np.array([(bright - dark) / max(float(bright), 1.0), float(np.mean(gray >= CUT_WHITE))])


def bare_face(image: np.ndarray) -> bool:
    """Whether the middle of a tile face carries no ink at all: a blank tile, even when the crop
    catches an edge of the board or of the next tile (which a classifier may read as an I or a T)."""
    return _bare(ink_mask(image))


def _bare(bw: np.ndarray) -> bool:
    h, w = bw.shape
    middle = bw[h // 5: h - h // 5, w // 5: w - w // 5]
    return bool(middle.size) and cv2.countNonZero(middle) * 255 / middle.size < 0.02 * 255


def glyph_components(bw: np.ndarray) -> np.ndarray | None:
    """Keep the letter's strokes; drop tile edges, point-value digits and specks.

    (The pieces are few, 3 to 12: plain Python on their figures is quicker than array work.)"""
    h, w = bw.shape
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(bw, connectivity=8)
    if count <= 1:
        return None
    pieces = stats[1:].tolist()  # x, y, width, height, area
    middles = centroids[1:].tolist()
    central = [abs(cx - w / 2) < w * 0.32 and abs(cy - h / 2) < h * 0.32 for cx, cy in middles]
    if not any(central):
        return None
    # The tile's own edge, seen as a ring round the letter when a small tile sits in a larger
    # cut: its centre is the crop's and it is often the biggest piece. Taken for the letter, the
    # "tight" view was frame and letter together, framed however the tile happened to lie: serif
    # F read as P, P as E (held-out crossword boards). A ring is told from a letter cut tight
    # (which can touch and span the cut too) by its thin line, empty middle and inked corners.
    frame = [_is_frame(labels, i + 1, piece) for i, piece in enumerate(pieces)]
    if any(frame):
        central = [c and not f for c, f in zip(central, frame, strict=True)]
        if not any(central):
            return None  # the tile's edge and nothing inside: a face with no letter
    areas = [piece[4] for piece in pieces]
    main = max(range(len(pieces)), key=lambda i: areas[i] if central[i] else 0)
    if areas[main] < 0.01 * h * w:
        return None
    keep = np.zeros(count, dtype=bool)
    keep[main + 1] = True
    for i, ((x, y, ww, hh, area), (cx, cy)) in enumerate(zip(pieces, middles, strict=True)):
        inner = abs(cx - w / 2) < w * 0.36 and abs(cy - h / 2) < h * 0.36
        touches_edge = x == 0 or y == 0 or x + ww >= w or y + hh >= h
        # Broken strokes (an N without its diagonal), the dots of Ä and the u of Qu lie in
        # the middle of the tile; the point value is small and sits in a corner.
        if inner and not touches_edge and area >= 0.04 * areas[main]:
            keep[i + 1] = True
    return keep[labels]


def _is_frame(labels: np.ndarray, label: int, stat: list[int]) -> bool:
    """Whether one connected piece of ink is a tile's edge round the cut, not a letter."""
    h, w = labels.shape
    x, y, bw, bh = stat[:4]
    if bw <= 0.7 * w or bh <= 0.7 * h or not (x == 0 or y == 0 or x + bw >= w or y + bh >= h):
        return False
    return is_frame_box(labels[y: y + bh, x: x + bw] == label, stat[4])


def is_frame_box(box: np.ndarray, area: int) -> bool:
    """:func:`_is_frame` of a piece as large as a ring round the cut, touching it: ``box`` is
    where the piece lies within its bounding box, ``area`` its pixel count."""
    box = box.view(np.uint8)  # 0/1: OpenCV counts it quickly
    bh, bw = box.shape
    if area / (2.0 * (bw + bh)) > 0.08 * max(bw, bh):  # thick strokes: a letter's
        return False
    my, mx = max(1, int(0.3 * bh)), max(1, int(0.3 * bw))
    if _inked_share(box[my: bh - my, mx: bw - mx]) > 0.05:  # ink in the middle: a letter (M, W, X)
        return False
    cy, cx = max(1, int(0.15 * bh)), max(1, int(0.15 * bw))
    corners = (box[:cy, :cx], box[:cy, -cx:], box[-cy:, :cx], box[-cy:, -cx:])
    return sum(_inked_share(c) > 0.1 for c in corners) >= 3  # square corners: no O, D or C has three


def _inked_share(part: np.ndarray) -> float:
    """The share of a 0/1 patch that is ink (0 for an empty patch)."""
    return cv2.countNonZero(part) / part.size if part.size else 0.0


def normalise_glyph(image: np.ndarray, size: int = GLYPH_SIZE) -> np.ndarray | None:
    """The cell as the classifier sees it: grey, ink bright on dark, ``size`` x ``size``.

    The whole cell is kept rather than a tight box round the strokes: on real, unevenly lit
    tiles the binarised strokes break apart (an N loses its diagonal, a Q its tail), and a
    box round the biggest piece reads N as I and Q as O. Cells come from a warped board, so
    they are already aligned; measured on the real crops, the whole cell reads 99.3 %
    against 98.8 % for the tight box. Returns None when the cell holds no glyph.
    """
    return _glyph_views(image, size)[0]


def tight_glyph(image: np.ndarray, size: int = GLYPH_SIZE) -> np.ndarray | None:
    """The strokes alone, cut tight and centred: the same letter framed differently (another
    camera, another crop) looks the same here."""
    mask = glyph_components(ink_mask(image))
    return None if mask is None else _tight_from_mask(mask, size)


def _glyph_views(image: np.ndarray, size: int = GLYPH_SIZE) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The whole-cell view and the tight view, from one binarisation (each letter of every
    read needs both, and binarising and sorting the ink twice was a fifth of a letter's cost)."""
    return _views_and_bare(image, size)[:2]


def _views_and_bare(image: np.ndarray, size: int = GLYPH_SIZE
                    ) -> tuple[np.ndarray | None, np.ndarray | None, bool | None]:
    """:func:`_glyph_views`, and :func:`bare_face` of the same binarisation (None when the cell
    is too small to look at): a loose tile's read asks both, and binarising again cost 25 us."""
    if image is None or image.size == 0 or min(image.shape[:2]) < 8:
        return None, None, None
    gray = as_gray(image)
    if gray.dtype != np.uint8:
        gray = cv2.normalize(gray, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
    bw = ink_mask(gray)
    bare = _bare(bw)
    mask = glyph_components(bw)
    if mask is None:
        return None, None, bare
    inked = cv2.countNonZero(bw)
    if inked in (0, bw.size):
        return None, None, bare
    if cv2.mean(gray, mask=bw)[0] < cv2.mean(gray, mask=cv2.bitwise_not(bw))[0]:
        gray = cv2.bitwise_not(gray)  # dark letters on light tiles: make the ink bright
    return cv2.resize(gray, (size, size), interpolation=cv2.INTER_AREA), _tight_from_mask(mask, size), bare


def _tight_from_mask(mask: np.ndarray, size: int) -> np.ndarray:
    ink = mask.view(np.uint8)  # 0 and 1
    x, y, w, h = cv2.boundingRect(ink)
    crop = ink[y: y + h, x: x + w] * np.uint8(255)
    side = int(max(crop.shape) * 1.2) + 2
    square = np.zeros((side, side), np.uint8)
    oy, ox = (side - crop.shape[0]) // 2, (side - crop.shape[1]) // 2
    square[oy: oy + crop.shape[0], ox: ox + crop.shape[1]] = crop
    return cv2.resize(square, (size, size), interpolation=cv2.INTER_AREA)


def _hog(glyph: np.ndarray) -> np.ndarray:
    vec = HOG.compute(glyph).ravel().astype(np.float32)
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm else vec


def glyph_features(image: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Two views of one cell, each a unit-length HOG vector: the whole cell and the tight glyph.

    The whole cell keeps strokes that binarisation breaks (99.3 % on held-out real crops);
    the tight glyph reads the same letter framed differently from the teaching crops (a
    phone photo read with a classifier taught on webcam crops). None when there is no glyph.
    """
    return features_and_bare(image)[0]


def features_and_bare(image: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray] | None, bool | None]:
    """:func:`glyph_features`, and :func:`bare_face` from the same binarisation."""
    whole, tight, bare = _views_and_bare(image)
    if whole is None or tight is None:
        return None, bare
    return (_hog(whole), _hog(tight)), bare

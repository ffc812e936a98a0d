"""The second look at a letter the first look doubts: the cell's grey picture matched, pixel by
pixel, against the taught tiles themselves.

Why: the first look (:class:`vision.letters.LetterClassifier`) binarises the cell and describes
its ink by HOG. On small, soft letters (a 15x15 crossword board's 14-pixel letters, a serif
typeface, a blurred picture) binarisation breaks thin strokes off (an E keeps its stem and loses
its arms, a C's serif falls away), and HOG's 8-pixel cells are coarse against the letter: on
held-out development crossword boards (other typefaces, serif among them) one letter in
ninety was read wrong and one in ten doubted. A letter read in the family's own tiles, under the
same warp, has the same size in play as when it was taught, so the grey picture itself can be
compared: normalised cross-correlation (insensitive to the light's gain and offset), searched
over shifts of up to five pixels (a loose tile lies off its square; a face is cut a little
differently). On the same cells it read 99.9 % right, where the first look read 98.9 %.

It costs far more than the first look (a product of every shifted window with every template),
so it is asked only about the cells the first look is not certain of, and only about the few
letters the first look found nearest (:data:`CANDIDATES`) and the read letter's look-alikes on
this set's tiles (:meth:`TileMatcher.look_alikes`).

>>> matcher = TileMatcher.from_crops(crops, labels)          # doctest: +SKIP
>>> matcher.match_many([cell], [["E", "F", "L"]])             # doctest: +SKIP
[('E', 0.93)]
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.lib.stride_tricks import as_strided

from vision.glyphs import as_gray
from vision.reading import unit
from vision.spare_core import at_once

#: Every crop is brought to this size (pixels a side) before matching: the taught crops and the
#: cells read come from the same warp, so this changes their scale alike.
MATCH_SIZE = 32
#: The middle of a taught crop that is matched (pixels a side); the rest is the room it is moved
#: about in: (32 - 22) / 2 = five pixels each way. Measured on development boards: moves of up to
#: three or four pixels missed loose tiles lying off their squares (99.6-99.8 % against 99.9 %).
WINDOW = 22
#: Each taught crop is matched as it was and once softened (Gaussian blur of this share of the
#: crop): pictures in play are often less sharp than the teaching picture.
SOFTENED = 0.04
#: How many of the first look's nearest letters are matched (measured: 5 reads as well as all).
CANDIDATES = 5
#: ... and with them this many look-alikes of the letter the first look read: the taught
#: letters whose tiles correlate best with its tiles (the family's own O for Q, F for E). The
#: first look's nearest can miss the right letter altogether (an O read as Q can have Q D B E
#: nearest, never O), and the match then chooses among wrong letters. Matching every letter
#: instead costs twice as much a cell.
LOOK_ALIKES = 2
#: The lead over the runner-up's correlation at which a match is fully sure; 0.6 of it (the
#: reader's threshold for a sure cell) is a lead of 0.06. On rendered development boards no
#: wrong match led by more than 0.03 where its best correlation was also high (below); on real
#: webcam crops taught from a tenth of them (four a letter, framed unlike each other) a lead of
#: 0.045 let 7 wrong matches through as sure in 4,800 reads, 0.06 two.
SURE_LEAD = 0.1
#: Best correlations below ``LOWEST_SURE`` are in doubt whatever the lead; the confidence
#: reaches the reader's 0.6 there. A face half hidden behind a nearer stack matches no letter
#: well (0.75-0.8, where a letter seen whole gives 0.91 or more in 99.5 % of rendered cells);
#: on real webcam crops, binarised and framed unlike each other, wrong matches led by up to 0.2
#: at correlations up to 0.885, so 0.85 let 4 of them through as sure (of 216 doubted reads,
#: 30 % of the crops taught, five splits) and 0.9 none.
LOWEST_SURE = 0.9
#: Where the best letter fits this closely, its lead is also weighed against what the runner-up
#: leaves unexplained: the share of the runner-up's misfit (1 - its correlation) that the best
#: explains is a confidence of its own, sure (0.6) where the best leaves under two fifths of it.
#: A fixed lead asks as much of a close fit as of a loose one, though at 0.98 against 0.95 the
#: runner-up misses the picture nearly three times as much, and a blurred letter matched so
#: would be asked for nothing. Measured before it was kept, on the real tile crops (the whole
#: reader, taught from a tenth and from 30 % of them, ten fixed splits each: 9,600 and 7,470
#: reads): wrong and sure stayed 52 and 12 (also with the line at a half), right and sure rose
#: by 18 and 57. The matches alone there that were wrong with a best of 0.95 or more, and not
#: already sure by their lead, explained at most 0.42 of the runner-up's misfit; on rendered
#: development crossword crops (19,458, both families) 0.13.
CLOSE_FIT = 0.95
#: A best correlation below this is no match at all (grain, a board's edge): no letter.
_NO_MATCH = 0.7
#: A match whose best window lies on the edge of the room it is moved about in is at most this
#: sure (in doubt): the glyph may lie further off than the room reaches, and then every letter
#: is matched askew and the best of them is a guess (a V on a loose tile far off its square can
#: match Y best). On development boards (crossword 15x15, 72 pictures; Upwords 8x8 and 10x10,
#: 96 pictures) the winning window lay on the edge for 11 of 2,292 matches, none on Upwords: 4
#: were right letters the match alone made sure, and go in doubt.
EDGE_CONFIDENCE = 0.5


def _normalised(rows: np.ndarray) -> np.ndarray:
    """Each row less its mean, to unit length: dot products of two are then their correlation."""
    rows = rows - rows.mean(axis=1, keepdims=True)
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-6)


def _windows(squares: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every :data:`WINDOW`-wide window of each square (n, side, side): the windows as rows (n,
    shifts, WINDOW * WINDOW), and each window's scale, so that its product with a normalised
    template, times its scale, is their correlation.

    The templates have zero mean, so a window's own mean drops out of the product: only its
    spread about that mean is divided out, counted from two running sums, and applied to the
    products (a number per template, not per pixel). The windows of all the squares are cut
    in one copy: cut square by square, the cutting cost as much as the products."""
    n, side = len(squares), squares.shape[1]
    shifts = side - WINDOW + 1
    s0, s1, s2 = squares.strides
    rows = as_strided(squares, (n, shifts, shifts, WINDOW, WINDOW), (s0, s1, s2, s1, s2),
                      writeable=False).reshape(n, shifts * shifts, WINDOW * WINDOW)
    wide = squares.astype(np.float64)
    total, power = (np.pad(v.cumsum(1).cumsum(2), ((0, 0), (1, 0), (1, 0))) for v in (wide, wide * wide))

    def box(table: np.ndarray) -> np.ndarray:
        return (table[:, WINDOW:, WINDOW:] - table[:, :-WINDOW, WINDOW:] - table[:, WINDOW:, :-WINDOW]
                + table[:, :-WINDOW, :-WINDOW]).reshape(n, -1)

    s1 = box(total)
    spread = np.sqrt(np.maximum(box(power) - s1 * s1 / (WINDOW * WINDOW), 0.0))
    # a flat window (a bare face, the board) correlates with nothing: 0, not rounding noise
    scale = np.where(spread > 1e-3, 1.0 / np.maximum(spread, 1e-3), 0.0).astype(np.float32)
    return rows, scale


def _correlations(rows: np.ndarray, scale: np.ndarray, templates: np.ndarray) -> np.ndarray:
    """Each window's (one square's rows from :func:`_windows`) correlation with each template."""
    return (rows @ templates.T) * scale[:, None]


def _square(crop: np.ndarray) -> np.ndarray | None:
    """A crop in grey at :data:`MATCH_SIZE` a side (float32), or None when there is nothing to see."""
    if crop is None or crop.size == 0 or min(crop.shape[:2]) < 8:
        return None
    gray = as_gray(crop)
    shrink = gray.shape[0] > MATCH_SIZE or gray.shape[1] > MATCH_SIZE
    return cv2.resize(gray, (MATCH_SIZE, MATCH_SIZE),
                      interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR).astype(np.float32)


class TileMatcher:
    """The taught tiles as templates: each crop's middle, as taught and softened.

    ``faces``: the taught crops at :data:`MATCH_SIZE` a side (uint8, what is saved with the
    taught letters); ``labels``: their letters.
    """

    def __init__(self, faces: np.ndarray, labels: Sequence[str]) -> None:
        if len(faces) != len(labels) or not len(faces):
            raise ValueError("the tile matcher needs one letter for each taught face, and at least one face")
        if np.shape(faces)[1:] != (MATCH_SIZE, MATCH_SIZE):
            raise ValueError(f"taught faces must be {MATCH_SIZE}x{MATCH_SIZE} pixels, "
                             f"not {np.shape(faces)[1:]}")
        self.faces = np.asarray(faces, np.uint8)
        self.labels = [str(label) for label in labels]
        self.names = sorted(set(self.labels))
        index = {name: i for i, name in enumerate(self.names)}
        order = sorted(range(len(self.labels)), key=lambda i: index[self.labels[i]])
        margin = (MATCH_SIZE - WINDOW) // 2
        middles = []
        for i in order:  # grouped letter by letter: each letter's templates lie together
            face = self.faces[i].astype(np.float32)
            soft = cv2.GaussianBlur(face, (0, 0), SOFTENED * MATCH_SIZE)
            middles += [f[margin: margin + WINDOW, margin: margin + WINDOW].ravel() for f in (face, soft)]
        self._templates = _normalised(np.array(middles, np.float32))
        codes = np.repeat([index[self.labels[i]] for i in order], 2)
        self._spans = {name: (int(np.searchsorted(codes, i)), int(np.searchsorted(codes, i, side="right")))
                       for name, i in index.items()}
        self._look_alikes = self._letters_alike(codes)

    def _letters_alike(self, codes: np.ndarray) -> dict[str, list[str]]:
        """Each letter's other letters, the most alike first: by the best correlation between any
        of its templates and any of theirs (unshifted)."""
        if len(self.names) < 2:
            return {name: [] for name in self.names}
        pairs = self._templates @ self._templates.T
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
        alike = np.maximum.reduceat(np.maximum.reduceat(pairs, starts, axis=0), starts, axis=1)
        np.fill_diagonal(alike, -np.inf)
        return {name: [self.names[j] for j in np.argsort(-alike[i], kind="stable")]
                for i, name in enumerate(self.names)}

    def look_alikes(self, letter: str | None, count: int = LOOK_ALIKES) -> list[str]:
        """The ``count`` taught letters most like ``letter`` on this set's tiles (none for a letter
        not taught)."""
        return self._look_alikes.get(letter, [])[:count] if letter is not None else []

    @classmethod
    def from_crops(cls, crops: Sequence[np.ndarray], labels: Sequence[str]) -> TileMatcher:
        """Templates from taught crops (colour or grey, any size); crops too small to look at are
        left out."""
        squares = zip(map(_square, crops), labels, strict=True)
        kept = [(s, str(label)) for s, label in squares if s is not None]
        if not kept:
            raise ValueError("no taught crop is large enough to match against")
        faces = np.stack([np.clip(np.rint(s), 0, 255).astype(np.uint8) for s, _ in kept])
        return cls(faces, [label for _, label in kept])

    def match_many(self, crops: Sequence[np.ndarray], candidates: Sequence[Sequence[str] | None]
                   ) -> list[tuple[str | None, float]]:
        """Each crop's nearest letter among its ``candidates`` (None: every taught letter) and how
        sure: (None, 0.0) when the crop cannot be looked at or matches no letter."""
        return [(letter, confidence) for letter, confidence, _ in self.match_many_fitting(crops, candidates)]

    def match_many_fitting(self, crops: Sequence[np.ndarray], candidates: Sequence[Sequence[str] | None]
                           ) -> list[tuple[str | None, float, float]]:
        """:meth:`match_many`, with how well the best letter fits each crop (its correlation; 0
        where the crop cannot be looked at): a lead means more where the best fits closely."""
        out: list[tuple[str | None, float, float]] = [(None, 0.0, 0.0)] * len(crops)
        squares = [_square(crop) for crop in crops]
        live = [i for i, square in enumerate(squares) if square is not None]
        if not live:
            return out
        rows, scales = _windows(np.stack([squares[i] for i in live]))
        wanted = [[n for n in (candidates[i] or self.names) if n in self._spans] or self.names for i in live]
        if len(live) >= _TWO_THREADS_FROM:  # the products let go of Python: halves at once
            half = len(live) // 2
            first, second = at_once(lambda: self._best(rows[:half], scales[:half], wanted[:half]),
                                    lambda: self._best(rows[half:], scales[half:], wanted[half:]))
            best = first + second
        else:
            best = self._best(rows, scales, wanted)
        for i, names, (per_letter, on_edge) in zip(live, wanted, best, strict=True):
            letter, confidence = _verdict(names, per_letter)
            out[i] = (letter, min(confidence, EDGE_CONFIDENCE) if on_edge else confidence,
                      round(float(per_letter.max()), 4))
        return out

    def _best(self, rows: np.ndarray, scales: np.ndarray, wanted: list[list[str]]
              ) -> list[tuple[np.ndarray, bool]]:
        """Each square's best correlation with each of its wanted letters' templates, and whether
        the best of all lies on the edge of the room (:func:`_on_edge`)."""
        out = []
        for square_rows, scale, names in zip(rows, scales, wanted, strict=True):
            spans = [self._spans[n] for n in names]
            columns = np.concatenate([np.arange(a, b) for a, b in spans])
            correlations = _correlations(square_rows, scale, self._templates[columns])
            best = correlations.max(axis=0)
            where = int(np.argmax(correlations[:, int(np.argmax(best))]))
            out.append((np.maximum.reduceat(best, np.cumsum([0] + [b - a for a, b in spans[:-1]])),
                        _on_edge(where)))
        return out


#: Squares from which the second look's products are split over two threads
#: (:mod:`vision.spare_core`); below, the hand-over costs more than it saves.
_TWO_THREADS_FROM = 8


def _on_edge(window: int) -> bool:
    """Whether a window (its index in :func:`_windows`' rows) is moved as far as the room allows,
    in either direction."""
    shifts = MATCH_SIZE - WINDOW + 1
    dy, dx = divmod(window, shifts)
    return min(dy, dx) == 0 or max(dy, dx) == shifts - 1


def _verdict(names: list[str], per_letter: np.ndarray) -> tuple[str | None, float]:
    """The best-matching letter, sure by its lead over the runner-up (for a close fit, by the
    share of the runner-up's misfit it explains, :data:`CLOSE_FIT`) and by how well it matches;
    no letter where none matches even loosely (a blank face's grain, a board's edge)."""
    order = np.argsort(-per_letter)
    top = float(per_letter[order[0]])
    if top < _NO_MATCH:
        return None, 0.0
    runner_up = float(per_letter[order[1]]) if len(order) > 1 else _NO_MATCH
    lead = unit((top - runner_up) / SURE_LEAD)
    if top >= CLOSE_FIT:
        lead = max(lead, unit((top - runner_up) / max(1.0 - runner_up, 1e-6)))
    how_well = unit((top - _NO_MATCH) / ((LOWEST_SURE - _NO_MATCH) / 0.6))
    return names[int(order[0])], round(min(lead, how_well), 4)

"""The letter reader: a fast HOG + k-nearest-neighbours classifier taught on the players' own
tiles (the first look), with the taught tiles themselves matched where it is not certain (the
second look, :mod:`vision.letter_match`). Tesseract is the teaching-time labeller
(:mod:`vision.tesseract_labeller`), never on the read path.

Why not Tesseract for every cell: on real Scrabble tile crops ``--psm 10`` reads only about
75 % and each pytesseract call starts a new process (~145 ms). A classifier taught on the
very tiles on the table reads ~99 % in well under a millisecond, and says how sure it is;
a cell it doubts is marked uncertain for the players to settle.

Labels are strings, not characters, so the same code reads the Upwords ``Qu`` tile and
letters beyond A–Z such as ``Ä``.

>>> reader = LetterReader(classifier, threshold=0.5)        # doctest: +SKIP
>>> reader.read(cell_image)                                  # doctest: +SKIP
LetterRead(letter='W', confidence=0.97, source='knn')
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np
from threadpoolctl import ThreadpoolController

from calibration.durable import write_atomically
from vision.glyph_batch import features_and_bare_many
from vision.glyphs import glyph_features
from vision.letter_match import CANDIDATES, TileMatcher
from vision.reading import unit
from vision.spare_core import at_once

log = logging.getLogger(__name__)

#: A read's confidence is scaled by this when the two views of the cell name different letters.
DISAGREEMENT = 0.5
#: A first look less sure than this is settled by the second (:mod:`vision.letter_match`): the
#: reader's own threshold for a sure cell.
DOUBTED_BELOW = 0.6
#: A first look less sure than this is checked by the second: a read the two looks disagree on
#: is in doubt. Bold serif look-alikes on small crossword tiles (B and H, C and G) can be read
#: wrong at 0.67-0.77 by the first look, where the second names the right letter. On development
#: boards and real crops, checking up to
#: 0.9 left as many letters right and sure and fewer wrong and sure (crossword 1 -> 0, Upwords
#: 8x8 1 -> 0, real crops taught from 30 %: 11 -> 8), for a third more cells matched.
SECOND_LOOK_BELOW = 0.9
#: A read is checked by the second look, however sure, when either view on its own is less sure
#: of its letter than this, and stays sure only if the match vouches for it as well. The tight
#: view is cut from the binarised strokes, and a faint letter binarises badly: a pale E or F
#: whose strokes merge or break can be read as the other at 1.0 by one view while the other view
#: is nearly lost. At 0.6 (the reader's threshold) instead of 0.3 it put four times as many right
#: letters in doubt on serif development crossword boards for none more caught (200 more of
#: 8,100 cells, against 48).
ONE_VIEW_BELOW = 0.3
#: ... and a read one view is less sure of than this (but not less than :data:`ONE_VIEW_BELOW`)
#: is checked too, put in doubt only if the match names another letter: a small, soft letter
#: (a serif D) can be read as a look-alike (O) surely by the whole cell while its faded strokes
#: only lean to it. Needing the match to vouch there as well put 161 more of 12,123 right
#: letters in doubt on development crossword boards; asking only that it not contradict, none.
#: It is as high as :data:`SECOND_LOOK_BELOW`, so a read skips the second look only when both
#: views are sure: a letter that binarises in pieces (a Q whose tail touches the cut) can leave
#: one view a look-alike's shape alone (C), read surely. On development boards (all three
#: boards, quarter, half and full: 28,008 cells) that put 3 more right letters in doubt; it
#: checks about a quarter of a full 15x15's cells, 11-14 % of its read.
ONE_VIEW_CHECKED_BELOW = SECOND_LOOK_BELOW
#: A doubted first look (under :data:`DOUBTED_BELOW`) is overruled by the second look's other
#: letter, surely, only where the match is this much surer than the first look was: closer, the
#: two looks disagree and the cell is asked: a match just over the threshold (a serif I beside a
#: tile's edge matched as L) is no reason to overrule a first look that nearly had it. On
#: development boards (all three boards, quarter, half and full: 540 pictures) all 45 sure
#: overrules were right, each leading by 0.23 or more (first looks 0.01-0.45, matches
#: 0.61-0.84); this changes none of them.
OVERRULE_LEAD = 0.2
#: A checked read whose match names the same letter less surely than this (the match's lead over
#: its runner-up a quarter of a sure one's or less) is in doubt: the match could hardly tell the
#: letter from the next, so it vouches for nothing (a soft serif E with a faint bottom arm
#: matches F and E almost alike). On development boards (5,903 checked reads the match agreed
#: with) those under 0.25 were 46 right and sure (now asked), 101 right in doubt and 11 wrong,
#: all in doubt already.
MATCH_TIE_BELOW = 0.25
#: A checked read is matched against each view's own nearest letters too, this many a view: the
#: right letter can be near in one view and far in a broken one, and so missing from the five
#: nearest by the two views' summed distances (:data:`vision.letter_match.CANDIDATES`).
OWN_NEAREST = 3


@dataclass(frozen=True, slots=True)
class LetterRead:
    """What one cell says: the letter (None when no glyph was found) and how sure the reader is."""

    letter: str | None
    confidence: float
    source: str = "knn"
    #: Whether the middle of the face carries no ink (:func:`bare_face`), when the reader looked
    #: (None: not looked). The classifier answers it from the binarisation it reads from.
    bare: bool | None = None
    #: How closely the taught tile the second look matched best fits the face (its correlation;
    #: 0 where it did not look): a washed-out face can read its letter barely, yet fit closely.
    fit: float = 0.0


#: Cells from which a read's two views are measured against the taught set on two threads at once
#: (:mod:`vision.spare_core`); below, handing work over costs more than it saves.
_VIEWS_AT_ONCE_FROM = 16

_BLAS: list[ThreadpoolController] = []  # made on the first read: finding the BLAS takes a few ms


def _one_blas_thread() -> contextlib.AbstractContextManager:
    """Within this, numpy's BLAS works on one thread.

    Why: the letters' distances to the taught set are small matrix products (one cell's: 0.05 ms
    on one thread, 0.14 ms in numpy's own loop, einsum). A threaded BLAS takes 0.04 ms or 8 ms,
    depending on whether the other core is free (measured with two busy processes beside it;
    the kiosk's screen and camera threads are such neighbours)."""
    if not _BLAS:
        _BLAS.append(ThreadpoolController())
    return _BLAS[0].limit(limits=1, user_api="blas")


#: How many of the taught set's main directions a read measures its distances along (of the
#: HOG's 324). The taught examples are a family's own tiles and small moves of them, so they
#: spread along few directions: 128 keep 99.3 % of their spread on a full 15x15's set (6,075
#: examples). The product with the taught set, most of a full board's first look, is then 2.5
#: times smaller: 15.3 -> 6.2 ms a view on one core (a full development 15x15).
DIRECTIONS = 128


def main_directions(examples: np.ndarray, count: int) -> np.ndarray:
    """The ``count`` directions (orthonormal columns, features x count) along which the rows of
    ``examples`` spread most: the leading eigenvectors of their uncentred scatter.

    Uncentred, because a read compares dot products: |q|^2 + |x|^2 - 2 Pq.Px differs from the
    squared distance |q - x|^2 only by 2 Rq.Rx, the product of the two residuals (what P leaves
    out), at most 2 |Rq| |Rx|. The taught examples' residuals are small by construction (at most
    0.28 of their unit length at 128 directions on development sets, 0.14 at the 99th
    percentile), so every distance is near its exact value, and a glyph unlike every taught one
    keeps its own residual in its length: it stays as far from them as it is."""
    features = examples.shape[1]
    if count >= features:
        return np.eye(features, dtype=np.float32)
    scatter = examples.T.astype(np.float64) @ examples.astype(np.float64)
    _, vectors = np.linalg.eigh(scatter)  # ascending eigenvalues
    return np.ascontiguousarray(vectors[:, ::-1][:, :count], dtype=np.float32)


class _View(NamedTuple):
    """One view of the taught set as reads use it: the examples projected on the view's main
    directions (:func:`main_directions`), each with its full squared length as one more column,
    so one product gives |x|^2 - 2 Pq.Px for every pair."""

    examples: np.ndarray  # (examples, directions + 1), float32
    basis: np.ndarray  # (features, directions), float32

    @classmethod
    def of(cls, features: np.ndarray) -> _View:
        features = features.astype(np.float32)
        basis = main_directions(features, DIRECTIONS)
        lengths = np.einsum("ij,ij->i", features, features)[:, None]
        return cls(np.hstack([features @ basis, lengths]), basis)


class _TaughtSet(NamedTuple):
    """A taught set as reads use it: both views, the examples grouped letter by letter."""

    whole: _View
    tight: _View
    codes: np.ndarray  # each example's letter, as an index into ``names`` (ascending)
    starts: np.ndarray  # where each letter's examples begin
    names: list[str]


class LetterClassifier:
    """k-nearest neighbours on HOG features of taught glyphs.

    ``confidence`` combines the neighbours' vote with the margin between the nearest taught
    example of the winning letter and the nearest of any other letter, so two look-alike
    letters (O and Q, M and W) give a low confidence rather than a confident guess.
    """

    def __init__(self, k: int = 1) -> None:
        self.k = k
        self._features = np.zeros((0, 0), np.float32)
        self._tight = np.zeros((0, 0), np.float32)
        self._labels: np.ndarray = np.array([], dtype=object)
        self._derived: _TaughtSet | None = None
        #: The taught crops themselves, for the second look at the cells the first look is not
        #: certain of (:func:`teach` sets it; None: the first look alone decides).
        self.matcher: TileMatcher | None = None

    @property
    def alphabet(self) -> tuple[str, ...]:
        return tuple(sorted(set(self._labels.tolist())))

    def __len__(self) -> int:
        return len(self._labels)

    def fit(self, images: Iterable[np.ndarray], labels: Iterable[str]) -> LetterClassifier:
        """Teach from cell images (or already normalised glyphs) and their letters.

        Images where no glyph can be found are skipped (and logged): a blank tile taught as
        "E" must not poison the examples.
        """
        feats, tights, kept = [], [], []
        for image, label in zip(images, labels, strict=True):
            views = glyph_features(image)
            if views is None:
                log.info("no letter found in a teaching image labelled %r; skipped", label)
                continue
            feats.append(views[0])
            tights.append(views[1])
            kept.append(str(label))
        if not feats:
            raise ValueError("no letters could be found in the teaching images")
        self._features = np.stack(feats)
        self._tight = np.stack(tights)
        self._labels = np.array(kept, dtype=object)
        self._derived = None
        self.matcher = None  # the crops of another teaching
        return self

    def classify(self, image: np.ndarray) -> LetterRead:
        return self.classify_many([image])[0]

    def classify_many(self, images: Sequence[np.ndarray], careful: Sequence[bool] | bool = False
                      ) -> list[LetterRead]:
        """Read many cells in one pass over the taught set; ``careful`` (for all, or one flag a
        cell): the second look checks the read, however sure the first look is
        (:meth:`_second_look`).

        Why: the taught set is megabytes (thousands of augmented examples, two views), far more
        than the processor's cache, so taking each cell's distances on its own streamed it
        from memory once per cell: 0.1-0.5 ms a letter, most of a full board's read. One
        product for all the cells reads it once."""
        each_careful = [careful] * len(images) if isinstance(careful, bool) else list(careful)
        if len(each_careful) != len(images):
            raise ValueError("one careful flag a cell, or one for all")
        looked = features_and_bare_many(images)
        views = [features for features, _ in looked]
        found = [i for i, v in enumerate(views) if v is not None]
        reads = [LetterRead(None, 0.0, bare=bare) for _, bare in looked]
        if not found:
            return reads
        taught = self._taught()
        whole_views = np.stack([views[i][0] for i in found])
        tight_views = np.stack([views[i][1] for i in found])
        with _one_blas_thread():
            if len(found) >= _VIEWS_AT_ONCE_FROM:  # the two views' products side by side
                (wholes, near_w), (tights, near_t) = at_once(
                    lambda: self._nearest(taught.whole, whole_views),
                    lambda: self._nearest(taught.tight, tight_views))
            else:
                wholes, near_w = self._nearest(taught.whole, whole_views)
                tights, near_t = self._nearest(taught.tight, tight_views)
        nearest: dict[int, list[str]] = {}
        checked: dict[int, float] = {}
        for j, (i, whole, tight) in enumerate(zip(found, wholes, tights, strict=True)):
            best = whole if whole.confidence >= tight.confidence else tight
            confidence = best.confidence
            if whole.letter != tight.letter:
                confidence = round(confidence * DISAGREEMENT, 4)
            reads[i] = LetterRead(best.letter, confidence, best.source, looked[i][1])
            weaker = min(whole.confidence, tight.confidence)
            if each_careful[i] or confidence < SECOND_LOOK_BELOW or weaker < ONE_VIEW_CHECKED_BELOW:
                # what the first look vouches for if the match agrees: not a lone view's word
                checked[i] = weaker if weaker < ONE_VIEW_BELOW <= confidence else confidence
                if near_w is not None:
                    closest = np.argsort(near_w[j] + near_t[j])[:CANDIDATES].tolist()
                    names = [taught.names[c] for c in closest]
                    # and each view's own nearest letters, however far the other view put them
                    own = ([taught.names[c] for row in (near_w[j], near_t[j])
                            for c in np.argpartition(row, OWN_NEAREST - 1)[:OWN_NEAREST].tolist()]
                           if len(taught.names) > OWN_NEAREST else [])
                    names += [n for n in dict.fromkeys((whole.letter, tight.letter, *own)) if n not in names]
                    if self.matcher is not None:
                        names += [n for n in self.matcher.look_alikes(best.letter) if n not in names]
                    nearest[i] = names
        checked.update((i, 0.0) for i, read in enumerate(reads) if read.letter is None)  # no glyph
        return self._second_look(images, reads, nearest, checked)

    def _second_look(self, images: Sequence[np.ndarray], reads: list[LetterRead],
                     nearest: dict[int, list[str]], checked: dict[int, float]) -> list[LetterRead]:
        """The doubted reads settled, and the less than certain checked, by matching the cell
        against the taught crops (:mod:`vision.letter_match`), among the letters the first look
        found nearest and the read letter's look-alikes (all of them where it found no glyph, and
        where the match's word alone would make the read sure: :meth:`_match_the_rest`). A face
        the first look found bare is a blank, not a doubt: it is left alone.

        ``checked``: the reads to look at (:meth:`classify_many` chooses them), each with how
        sure the first look stays if the match agrees: its own confidence, or, where one view
        alone vouched for the letter (the other below :data:`ONE_VIEW_BELOW`), the doubting
        view's. A doubted read (below :data:`DOUBTED_BELOW`) takes the match's letter and
        confidence. A sure one checked that the match contradicts keeps the
        surer look's letter, in doubt; so does one that matches none of the letters the first
        look found nearest (an O cut off by the board's edge can be read as E at 0.88, its
        nearest letters E F I L J). Where the two agree, the surer says how sure. Every read
        matched carries how closely its best taught tile fits it (:attr:`LetterRead.fit`)."""
        if self.matcher is None:
            return reads
        looked_at = sorted(i for i in checked if reads[i].bare is not True)
        if not looked_at:
            return reads
        with _one_blas_thread():
            fitting = self.matcher.match_many_fitting([images[i] for i in looked_at],
                                                      [nearest.get(i) for i in looked_at])
            matched = [(letter, confidence) for letter, confidence, _ in fitting]
            self._match_the_rest(images, reads, nearest, checked, looked_at, matched)
        for i, (letter, confidence) in zip(looked_at, matched, strict=True):
            first = reads[i]
            if letter is None:  # like no taught tile of the letters the first look found nearest
                if first.confidence >= DOUBTED_BELOW:
                    reads[i] = LetterRead(first.letter, round(first.confidence * DISAGREEMENT, 4), "match",
                                          first.bare)
                continue
            if letter == first.letter and confidence < MATCH_TIE_BELOW:
                # the match could not tell the letter from the next one: it checked nothing
                confidence = round(first.confidence * DISAGREEMENT, 4)
            elif letter == first.letter:
                # a read one view alone vouched for stays as sure only if the match is sure too
                confidence = max(confidence, first.confidence if confidence >= DOUBTED_BELOW else checked[i])
            elif first.confidence >= DOUBTED_BELOW:
                if first.confidence >= confidence:
                    letter, confidence = first.letter, first.confidence
                confidence = round(confidence * DISAGREEMENT, 4)
            elif first.letter is not None and confidence - first.confidence < OVERRULE_LEAD:
                confidence = round(confidence * DISAGREEMENT, 4)  # the looks disagree: asked
            reads[i] = LetterRead(letter, confidence, "match", first.bare)
        for i, (_, _, fit) in zip(looked_at, fitting, strict=True):
            reads[i] = replace(reads[i], fit=fit)
        return reads

    def _match_the_rest(self, images: Sequence[np.ndarray], reads: list[LetterRead],
                        nearest: dict[int, list[str]], checked: dict[int, float], looked_at: list[int],
                        matched: list[tuple[str | None, float]]) -> None:
        """Each match that would make a read sure where the first look alone would not (a doubted
        read, or one a view alone vouched for), matched again against the letters it was not
        matched against: ``matched`` then holds what a match against every taught letter would
        have said.

        Why: the match's candidates are the first look's nearest letters. Where the first look
        doubted, or one view was sure and the other broken, the right letter can be missing
        from them, and the match then makes the best of the wrong ones sure (a bold serif Q lying
        off its square, its tail cut, can be nearest O U P E T, and matched among those, O).

        Matching only the rest gives the same verdict as matching every letter: the matched letter
        is matched again with them, so a rest letter that beats it wins with the same lead over
        the runner-up, and where none does, its lead is the smaller of its two.
        (The matched letter was the best of the first candidates; none of them can lead it.)"""
        matcher = self.matcher
        assert matcher is not None
        on_its_word, rests = [], []
        for j, (i, (letter, confidence)) in enumerate(zip(looked_at, matched, strict=True)):
            first_alone_unsure = checked[i] < DOUBTED_BELOW
            if i in nearest and first_alone_unsure and letter is not None and confidence >= DOUBTED_BELOW:
                rest = [n for n in matcher.names if n not in nearest[i]]
                if rest:
                    on_its_word.append(j)
                    rests.append([letter, *rest])
        if not on_its_word:
            return
        again = matcher.match_many([images[looked_at[j]] for j in on_its_word], rests)
        for j, (letter, confidence) in zip(on_its_word, again, strict=True):
            first_letter, first_confidence = matched[j]
            matched[j] = ((letter, min(confidence, first_confidence)) if letter == first_letter
                          else (letter, confidence))

    def _taught(self) -> _TaughtSet:
        """What every read needs of the taught set, worked out once per set (:meth:`fit` and
        :meth:`load` drop it): the examples grouped letter by letter, so a read takes each
        letter's nearest example in one pass, and both views projected (:class:`_View`)."""
        if self._derived is None:
            labels = self._labels.tolist()
            names = sorted(set(labels))
            index = {n: i for i, n in enumerate(names)}
            codes = np.array([index[x] for x in labels], np.int32)
            order = np.argsort(codes, kind="stable")
            codes = codes[order]

            self._derived = _TaughtSet(_View.of(self._features[order]), _View.of(self._tight[order]), codes,
                                       np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]]), names)
        return self._derived

    def _nearest(self, taught_view: _View, vecs: np.ndarray
                 ) -> tuple[list[LetterRead], np.ndarray | None]:
        """The letter each row of ``vecs`` (one view of many cells) is nearest to, and how sure;
        and each cell's distance to every letter's nearest example (cells x letters, ``names``
        order; None for k > 1). ``taught_view``: that view of the taught set (:meth:`_taught`).

        The distances are measured along the view's main directions with each side's full
        length (:func:`main_directions`): within 2 |Rq| |Rx| of the exact squared distance."""
        if not len(self._labels):
            raise RuntimeError("the letter classifier has not been taught any letters")
        taught = self._taught()
        # |q - x|^2 ~ |q|^2 + (|x|^2 - 2 Pq.Px): the bracket for every pair is one matrix product
        # (the taught lengths ride along as a column), and |q|^2 is added only to the minima.
        # One row per cell: each letter's examples are then contiguous in memory.
        lengths = np.einsum("ij,ij->i", vecs, vecs)
        asked = np.hstack([-2.0 * (vecs.astype(np.float32) @ taught_view.basis),
                           np.ones((len(vecs), 1), np.float32)])
        partial = asked @ taught_view.examples.T
        if self.k == 1:  # the usual case: the nearest taught example decides
            # Each letter's nearest example (the columns are grouped by letter), then the nearest
            # letter and the runner-up: square roots of 26 numbers a cell, not of thousands.
            per_letter = np.sqrt(np.maximum(np.minimum.reduceat(partial, taught.starts, axis=1)
                                            + lengths[:, None], 0.0))
            best = np.argmin(per_letter, axis=1).tolist()
            same = per_letter.min(axis=1).tolist()
            other = (np.partition(per_letter, 1, axis=1)[:, 1].tolist() if per_letter.shape[1] > 1
                     else [d + 1.0 for d in same])
            return [self._sure(taught.names[b], 1.0, near, far)
                    for b, near, far in zip(best, same, other, strict=True)], per_letter
        distances = np.sqrt(np.maximum(partial + lengths[:, None], 0.0))
        return [self._vote(row, taught) for row in distances], None

    def _vote(self, dist: np.ndarray, taught: _TaughtSet) -> LetterRead:
        """k > 1: a distance-weighted vote of the k nearest examples, so a letter with few taught
        examples (Z, Qu) is not outvoted by a common look-alike."""
        codes, names = taught.codes, taught.names
        k = min(self.k, len(dist))
        nearest = np.argpartition(dist, k - 1)[:k] if k < len(dist) else np.arange(len(dist))
        scores: dict[str, float] = {}
        for i in nearest:
            name = names[codes[i]]
            scores[name] = scores.get(name, 0.0) + 1.0 / (float(dist[i]) + 1e-3)
        letter = max(scores, key=scores.__getitem__)
        mine = codes == names.index(letter)
        same = float(dist[mine].min())
        other = float(dist[~mine].min()) if (~mine).any() else same + 1.0
        return self._sure(letter, scores[letter] / sum(scores.values()), same, other)

    @staticmethod
    def _sure(letter: str, share: float, same: float, other: float) -> LetterRead:
        """How sure: the vote's share, times the margin between the nearest example of the letter
        (``same``) and of any other (``other``)."""
        margin = (other - same) / max(other, 1e-6)
        return LetterRead(letter, round(unit(margin * 4.0) * share, 4), "knn")

    def save(self, path: str | Path) -> None:
        """Store the taught examples (``.npz``) next to the calibration."""
        faces = {}
        if self.matcher is not None:
            faces = {"faces": self.matcher.faces, "face_labels": np.array(self.matcher.labels, dtype=str)}
        buffer = io.BytesIO()
        np.savez_compressed(
            buffer,
            features=self._features,
            tight=self._tight,
            labels=np.array(self._labels.tolist(), dtype=str),
            k=np.array(self.k),
            **faces,
        )
        write_atomically(Path(path), buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> LetterClassifier:
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                model = cls(int(data["k"]))
                model._features = data["features"].astype(np.float32)
                model._tight = data["tight"].astype(np.float32)
                model._labels = np.array(data["labels"].tolist(), dtype=object)
                if "faces" in data:  # taught before the second look: the first look alone
                    model.matcher = TileMatcher(data["faces"], data["face_labels"].tolist())
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"the taught letters file {path} cannot be read: {exc}") from None
        if model._features.ndim != 2 or not len(model._features) == len(model._tight) == len(model._labels):
            raise ValueError(f"the taught letters file {path} is damaged")
        return model

    @classmethod
    def from_folder(cls, folder: str | Path, k: int = 1) -> LetterClassifier:
        """Teach from labelled crops: one sub-folder per letter (``A/0001.png``, ``Qu/…``)."""
        images, labels = load_labelled_folder(folder)
        return teach(images, labels, k, augment=False)


#: Small moves of a taught crop: shifted 2 px each way, 7 % larger or smaller, turned 4 degrees.
_VARIATIONS = ((2, 0, 1.0, 0), (-2, 0, 1.0, 0), (0, 2, 1.0, 0), (0, -2, 1.0, 0), (0, 0, 1.07, 0),
               (0, 0, 0.93, 0), (0, 0, 1.0, 4), (0, 0, 1.0, -4))
#: Softer copies of each: Gaussian blur of this share of the crop's width. (One copy, at 0.06,
#: was tried with the second look, :mod:`vision.letter_match`: as many letters right on
#: development crossword boards and a third less to search, but the first look's confidences
#: fall, and a stack's top face read just under the 0.9 at which a raised face overrules an
#: empty-looking floor: more cells wrong and sure on full development boards. Not kept.)
_BLURS = (0.04, 0.08)


def augmented(images: Sequence[np.ndarray], labels: Sequence[str]) -> tuple[list[np.ndarray], list[str]]:
    """Each taught crop, eight slightly moved copies of it, and two softer copies of each of those.

    Why: a family teaches from one photo, so a letter may have one or two examples, each cut a
    pixel or two differently from how the same tile will be cut in play, and the teaching photo
    is often sharper than a picture in play (focus, a tile farther from the camera, motion).
    Measured on held-out renders (other typefaces than the training ones): the moves took
    Upwords boards from 97.1 % to 100 % and crossword boards from 96.1 % to 97.7 %; the soft
    copies took crossword boards (serif typefaces, blurred pictures) from 95.5 % to 99.0 %
    (development boards, the first look alone; docs/reading.md has today's figures).
    """
    out_images, out_labels = [], []
    for image, label in zip(images, labels, strict=True):
        h, w = image.shape[:2]
        variants = [image]
        for dx, dy, scale, turn in _VARIATIONS:
            m = cv2.getRotationMatrix2D((w / 2, h / 2), turn, scale)
            m[0, 2] += dx
            m[1, 2] += dy
            variants.append(cv2.warpAffine(image, m, (w, h), borderMode=cv2.BORDER_REPLICATE))
        soft = [cv2.GaussianBlur(v, (0, 0), share * w) for v in variants for share in _BLURS]
        out_images += variants + soft
        out_labels += [label] * (len(variants) + len(soft))
    return out_images, out_labels


def teach(crops: Sequence[np.ndarray], labels: Sequence[str], k: int = 1, augment: bool = True
          ) -> LetterClassifier:
    """A classifier taught from a family's own tile crops: their HOG examples (each crop and, with
    ``augment``, its :func:`augmented` copies) for the first look, the crops themselves for the
    second (:mod:`vision.letter_match`)."""
    classifier = LetterClassifier(k).fit(*(augmented(crops, labels) if augment else (crops, labels)))
    classifier.matcher = TileMatcher.from_crops(crops, labels)
    return classifier


def load_labelled_folder(folder: str | Path) -> tuple[list[np.ndarray], list[str]]:
    """Read ``folder/LETTER/*.png`` into images and labels (sorted, so results repeat)."""
    root = Path(folder)
    if not root.is_dir():
        raise FileNotFoundError(f"no folder of labelled letters at {root}")
    images, labels = [], []
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        for file in sorted(sub.iterdir()):
            if file.suffix.lower() not in {".png", ".jpg", ".jpeg", ".bmp"}:
                continue
            image = cv2.imread(str(file), cv2.IMREAD_GRAYSCALE)
            if image is not None:
                images.append(image)
                labels.append(sub.name)
    if not images:
        raise FileNotFoundError(f"no letter images under {root} (expected one sub-folder per letter)")
    return images, labels


class LetterReader:
    """The taught classifier, with the confidence below which a read counts as unsure.

    Tesseract is never asked here: reading a board must cost the same whether the board is
    right or wrong (a Tesseract call is ~120 ms a cell). It proposes labels at teaching time
    only (:mod:`vision.tesseract_labeller`, :mod:`vision.teach_letters`); an unsure cell is marked
    uncertain and the kiosk asks the players.
    """

    def __init__(self, classifier: LetterClassifier, threshold: float = 0.5) -> None:
        self.classifier = classifier
        self.threshold = threshold

    @property
    def matches_tiles(self) -> bool:
        """Whether the second look can match a face against the taught tiles (not with letters
        taught before it existed): what a decision weighing :attr:`LetterRead.fit` needs."""
        return self.classifier.matcher is not None

    def read(self, image: np.ndarray, careful: bool = False) -> LetterRead:
        """One cell; ``careful``: checked by the second look however sure the first is (where a
        read alone decides something, such as a tall stack the floor does not show)."""
        return self.classifier.classify_many([image], careful)[0]

    def read_many(self, images: Sequence[np.ndarray], careful: Sequence[bool] | bool = False
                  ) -> list[LetterRead]:
        """Many cells in one pass; ``careful``: for all of them, or one flag a cell."""
        return self.classifier.classify_many(images, careful)

"""Is a stack the game already had still as it was? Weigh its face and planes against the history.

Why: in the kiosk an Upwords board is read against the board the players confirmed, and a play is
offered only when no cell is in doubt. Most cells of a game under way hold stacks no play touched,
and under a changed light many of their letters read unsurely (glare on a face, a shadow across it)
though they read as the history has them. The rules make that evidence stronger than its
confidence: a play lays at most one tile on a cell, never the same letter on itself, so a stack
whose face still shows its letter and whose planes show no taller stack was, most likely, left
alone. How likely depends on the light, the set and the camera, so a small network weighs it
(:class:`KeptDecision`), fitted on ``train``-family games read as the kiosk reads
(``python -m vision.synthetic.fit_kept``), its band out of fold
(:mod:`vision.synthetic.fitting`), a stack wrongly kept costing as much as a wrong play offered.

It only ever settles a stack as it was: where it is not sure of that, the reader's own reading with
the history stands (a new tile on top, or the cell asked about). It decides only stacks the history
has surely (confirmed, no hand over them then), and only where a letter is read on top: a face
that reads none says nothing of whose it is. In the training games no stack a play changed read
the history's letter on top, at any confidence; the fitted network has only that to go by, so a
look-alike laid on its twin (an O on a Q) is the case it has least evidence on.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from vision.reading import DEFAULT_THRESHOLD, CellReading
from vision.space_decision import SpaceDecision

KEPT_FILE = Path(__file__).with_name("models") / "kept.json"
#: The evidence :func:`kept_evidence` gives for one stack, in order.
FEATURES = (
    "the top face reads the history's letter (confidence)",
    "the top face reads another letter (confidence)",
    "the planes show the history's height (confidence)",
    "the planes show a taller stack (confidence)",
    "the planes show a lower stack (confidence)",
    "the history's top face: its ink contrast",
    "the history's top face: its share cut white",
)


def kept_evidence(prev: CellReading, letter: str | None, letter_conf: float, geo_height: int,
                  geo_conf: float, visibility: np.ndarray) -> np.ndarray:
    """The evidence on one stack the history has as ``prev``: the letter read on top (``letter``
    at ``letter_conf``), the height the planes show (``geo_height`` at ``geo_conf``) and how much
    the face on the history's plane can show (:func:`vision.glyphs.face_visibility`: cut white by
    a lamp, a new tile's letter reads as weakly as the old one's)."""
    same = letter is not None and letter == prev.letter
    other = letter is not None and letter != prev.letter
    return np.array([letter_conf if same else 0.0, letter_conf if other else 0.0,
                     geo_conf if geo_height == prev.height else 0.0,
                     geo_conf if geo_height > prev.height else 0.0,
                     geo_conf if geo_height < prev.height else 0.0, *(float(v) for v in visibility)])


_TALLER = FEATURES.index("the planes show a taller stack (confidence)")


class KeptDecision(SpaceDecision):
    """The fitted decision over :func:`kept_evidence`: its "tile" is the stack as it was."""

    features = FEATURES
    refit = "python -m vision.synthetic.fit_kept"
    file = KEPT_FILE

    def surely_kept(self, evidence: np.ndarray) -> float | None:
        """The confidence (0.8 and over) that the stack is as it was, where the decision is sure of
        that; None where it is not (in its band, or sure of a change), and where the planes surely
        show a taller stack than the history's.

        Why not weigh that last too: the rules lay a new letter, never its own, on a stack that
        grows, so a stack surely taller and the history's letter read on top contradict each other.
        No game shows which is right (the fit never sees one), so the network's answer there is a
        guess: such a stack is left to the reader and the players. (A stack surely lower is no
        contradiction: no play takes a tile off, so the planes are wrong and the letter says so.)"""
        if evidence[_TALLER] >= DEFAULT_THRESHOLD:
            return None
        chance, asked = self.chance(float(self.probability(evidence[None])[0]))
        return chance if not asked and chance >= 0.5 else None


@cache
def kept_decision() -> KeptDecision:
    """The fitted decision (:data:`KEPT_FILE`), read once."""
    return KeptDecision.load()

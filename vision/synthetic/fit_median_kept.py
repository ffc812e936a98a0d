"""Fit the street's kept-median decision on random games: ``python -m vision.synthetic.fit_median_kept``.

Why fitted: how far the rules' odds (a turn pulls a tile off the median only with its letter thrice
in one word) settle a median space the picture leaves in doubt depends on the light, the set and
the camera; a threshold set on the streets that showed the doubt would hold for those streets
only. The evidence (:func:`vision.median_kept.median_kept_evidence`) is gathered as the kiosk
reads: ``train``-family street games of :data:`TURNS` turns, each calibrated from its start
position as a family would, in the renderer's light and on a skin-toned table with the light
changed from picture to picture, each game once with words from SCOWL's commonest lists
(:func:`vision.synthetic.scenes.game_words`) and once with 3-7 letters drawn at random (far more
tiles pulled off from afar). Every column whose tile the game had on the median before the turn
counts, labelled by whether the tile is still there: the decision is asked of such columns only
where the median decision asks, but every one shows it how the two probabilities and a turn's
moves go together. A small network weighs the evidence and its band is chosen out of fold
(:mod:`vision.synthetic.fitting`), a tile wrongly kept costing :data:`WRONG_COSTS` spaces asked.

The output is ``vision/models/median_kept.json`` with what it was fitted on; the same seed gives
the same file (but its date). The ``held_out`` family is never read here: ``python -m bench
turns`` measures on it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.median_kept import MEDIAN_KEPT_FILE, MedianKept, median_kept_evidence
from vision.median_strip import MEDIAN_FILE, median_probability
from vision.occupancy_model import MODEL_FILE
from vision.synthetic.fitting import fit_command, fit_decision
from vision.synthetic.scenes import game_words, street_scene
from vision.synthetic.textures import STREET_LETTERS
from vision.synthetic.train import learn_scene, street_reader

DEFAULT_SEED = 59
DEFAULT_STREETS = 100
TURNS = 14
#: what a tile wrongly kept costs, in spaces asked: as dear as a median space wrong and sure
#: (:data:`vision.synthetic.fit_median.WRONG_COSTS`).
WRONG_COSTS = 300.0


def street_examples(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(evidence, labels: still on the median) for every column one seed's games had on the median
    before a turn (both lights, words and random letters)."""
    xs, ys = [], []
    for light_change in (False, True):
        for words in (game_words(), None):
            s = street_scene(seed, "train", n_frames=TURNS, hand_chance=0.0, light_change=light_change,
                             sequence=True, words=words)
            reader = street_reader(s, learn_scene(s))
            before = dict.fromkeys(STREET_LETTERS, 0)
            for frame in s.frames:
                found = reader.evidence(frame.image)
                assert found.median is not None
                evidence = median_kept_evidence(median_probability(found.prob, *found.median), found.prob)
                for col, letter in enumerate(STREET_LETTERS):
                    if before[letter] == 0:
                        xs.append(evidence[col])
                        ys.append(float(frame.positions.get(letter) == 0))
                before = {letter: int(at) for letter, at in frame.positions.items() if at is not None}
    return np.array(xs).reshape(-1, len(MedianKept.features)), np.array(ys)


def fit(seed: int = DEFAULT_SEED, streets: int = DEFAULT_STREETS, workers: int = 2,
        examples: Path | None = None) -> MedianKept:
    """The kept-median decision (:func:`vision.synthetic.fitting.fit_decision`)."""
    return fit_decision(MedianKept, street_examples, WRONG_COSTS, seed, streets, workers, examples,
                        evidence_from=(MODEL_FILE, MEDIAN_FILE))


def main(argv: list[str] | None = None) -> int:
    return fit_command(argv, __doc__.splitlines()[0], fit, DEFAULT_SEED, DEFAULT_STREETS, MEDIAN_KEPT_FILE)


if __name__ == "__main__":
    raise SystemExit(main())

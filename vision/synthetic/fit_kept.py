"""Fit the Upwords kept-stack decision on random games: ``python -m vision.synthetic.fit_kept``.

Why fitted: how far a face that still reads the history's letter, unsurely, and planes that show no
taller stack settle a stack as it was depends on the light, the set and the camera; a threshold set
on the boards that showed the doubt would hold for those boards only. The evidence
(:func:`vision.kept_decision.kept_evidence`) is gathered as the kiosk reads, on the games the cell
decision is fitted on (:func:`vision.synthetic.fit_cells.read_games`: ``train``-family Upwords
games, 8x8 and 10x10, half on a skin-toned table with the light changed from picture to picture,
half of those under a harsh lamp's glare, half with tiles' faces from a wider domain than the
family's), with the cell decision on as in the kiosk. Every stack the history has with a letter
read on top counts (the decision is asked of no other), labelled by whether the play left it as it
was. A small network weighs the evidence and its band is chosen out of fold
(:mod:`vision.synthetic.fitting`), a stack wrongly kept costing :data:`WRONG_COSTS` stacks asked.

The output is ``vision/models/kept.json`` with what it was fitted on; the same seed gives the same
file (but its date). The ``held_out`` family is never read here: ``python -m bench plays``
measures on it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.cell_decision import CELL_FILE
from vision.kept_decision import KEPT_FILE, KeptDecision
from vision.occupancy_model import MODEL_FILE
from vision.synthetic.fit_cells import read_games
from vision.synthetic.fitting import fit_command, fit_decision

DEFAULT_SEED = 53
DEFAULT_GAMES = 60
#: what a stack wrongly kept costs, in stacks asked: a new tile taken for the stack as it was is a
#: play offered short of a tile, as dear as the cell decision's wrong cell
#: (:data:`vision.synthetic.fit_cells.WRONG_COSTS`).
WRONG_COSTS = 100.0


def game_examples(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(evidence, labels: the stack as it was) for every stack of the history's in one seed's games."""
    xs, ys = [], []
    for reader, frame, before in read_games(seed, decide_cells=True, harsh_glare=True):
        assert before is not None or not reader.kept_evidence  # the first play has no stacks before it
        for (r, c), evidence in reader.kept_evidence.items():
            xs.append(evidence)
            ys.append(float(frame.heights[r][c] == before.heights[r][c]
                            and frame.letters[r][c] == before.letters[r][c]))
    width = len(KeptDecision.features)
    return np.array(xs).reshape(-1, width), np.array(ys)


def fit(seed: int = DEFAULT_SEED, games: int = DEFAULT_GAMES, workers: int = 2,
        examples: Path | None = None) -> KeptDecision:
    """The kept-stack decision (:func:`vision.synthetic.fitting.fit_decision`)."""
    return fit_decision(KeptDecision, game_examples, WRONG_COSTS, seed, games, workers, examples,
                        evidence_from=(MODEL_FILE, CELL_FILE), what="games")


def main(argv: list[str] | None = None) -> int:
    return fit_command(argv, __doc__.splitlines()[0], fit, DEFAULT_SEED, DEFAULT_GAMES, KEPT_FILE, "games")


if __name__ == "__main__":
    raise SystemExit(main())

"""Fit the Upwords cell decision on random games: ``python -m vision.synthetic.fit_cells``.

Why fitted: how far a face reading a letter, or reading none, settles a cell the occupancy model
leaves in doubt depends on the light, the set and the board's print; a rule set on the boards
that showed the problem would hold for those boards only. The evidence
(:func:`vision.cell_decision.cell_evidence`) is gathered as the kiosk reads: ``train``-family
Upwords games (8x8 and 10x10) played from the empty board under one camera,
each calibrated and taught as a family would, read after every play with the board before it as
history; half of them on a skin-toned table with the light changed from picture to picture
(``light_change``), and half of them with tiles' faces from a wider domain than the family's
(:func:`vision.synthetic.style.with_wider_faces`: other typefaces, sizes, inks and tiles), so that
the fit sees real tiles whose faces read weakly, as a set lettered unlike the training's does;
half the games in a changed light under a lamp's harsh glare, which washes a face's ink out
without cutting it white, so that the fit sees tiles the glare leaves barely readable.
Only the cells the decision is asked about count: the history has them empty
and the occupancy model's chance is within its band. A small network weighs the evidence and its
band is chosen out of fold (:mod:`vision.synthetic.fitting`), a cell wrong and sure costing
:data:`WRONG_COSTS` cells asked.

The output is ``vision/models/cells.json`` with what it was fitted on; the same seed gives the
same file (but its date). The ``held_out`` family is never read here: ``python -m bench plays``
measures on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from vision.cell_decision import CELL_FILE, CellDecision, cell_decision
from vision.occupancy_model import MODEL_FILE
from vision.reading import BoardReading, CellReading
from vision.synthetic.fitting import fit_command, fit_decision
from vision.synthetic.render import Rendered
from vision.synthetic.scenes import grid_scene
from vision.synthetic.train import taught_grid_reader
from vision.upwords_reader import UpwordsReader

DEFAULT_SEED = 43
DEFAULT_GAMES = 100
#: what a cell wrong and sure costs, in cells asked. Dearer than the occupancy model's (10): a cell
#: this decision settles wrongly is most likely a wrong play offered. Out of fold on the default
#: games, 1,926 cells asked about: 62 asked and 4 wrong and sure (new tiles whose face reads under
#: half sure, as most empty cells' do); 1 wrong needs about 770 asked (price 300), none about 1,240.
WRONG_COSTS = 100.0
#: plays a game: the kiosk's games are read after every play
PLAYS = 14
#: the kinds of grid a seed plays one game on each, in both lights
KINDS = ("upwords8", "upwords10")


def history(frame, rows: int, cols: int) -> BoardReading:
    """The board a rendered frame shows, as the kiosk's game state gives it (``frame`` None:
    the empty board the game starts from)."""
    cells = tuple(CellReading(r, c, None if frame is None else frame.letters[r][c],
                              0 if frame is None else int(frame.heights[r][c]), 1.0, height_from="history")
                  for r in range(rows) for c in range(cols))
    return BoardReading("upwords", rows, cols, cells)


def read_games(seed: int, decide_cells: bool = False, harsh_glare: bool = False
               ) -> Iterator[tuple[UpwordsReader, Rendered, Rendered | None]]:
    """One seed's ``train``-family games, each picture read as the kiosk reads it (with the board
    before the play as history): (the reader just after the read, the picture, the one before it or
    None). ``decide_cells``: the cell decision on, as in the kiosk (off to gather its own evidence);
    the kept decision (:mod:`vision.kept_decision`) is off, as its evidence is gathered here too.
    ``harsh_glare``: half the games in a changed light have a lamp's glare on every picture,
    stronger and wider than the benchmarks' (:func:`vision.synthetic.scenes.changed_light`)."""
    for index, kind in enumerate(KINDS):
        for light_change in (False, True):
            s = grid_scene(seed, "train", kind, n_frames=PLAYS, hand_chance=0.0, sequence=True,
                           light_change=light_change, wider_faces=(seed + index + light_change) % 2 == 1,
                           harsh_glare=harsh_glare and light_change and (seed // 2) % 2 == 1)
            reader = taught_grid_reader(s, decide_cells=False)  # the kept decision's file is not read
            reader.cell_decision = cell_decision() if decide_cells else None
            before = None
            for frame in s.frames:
                reader.read(frame.image, previous=history(before, s.rows, s.cols))
                yield reader, frame, before
                before = frame


def game_examples(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(evidence, labels) for every cell the decision is asked about in one seed's games."""
    xs, ys = [], []
    for reader, frame, _ in read_games(seed, harsh_glare=True):
        for (r, c), evidence in reader.cell_evidence.items():
            xs.append(evidence)
            ys.append(float(frame.heights[r][c] > 0))
    width = len(CellDecision.features)
    return np.array(xs).reshape(-1, width), np.array(ys)


def fit(seed: int = DEFAULT_SEED, games: int = DEFAULT_GAMES, workers: int = 2,
        examples: Path | None = None) -> CellDecision:
    """The cells' decision (:func:`vision.synthetic.fitting.fit_decision`)."""
    return fit_decision(CellDecision, game_examples, WRONG_COSTS, seed, games, workers, examples,
                        evidence_from=(MODEL_FILE,), what="games")


def main(argv: list[str] | None = None) -> int:
    return fit_command(argv, __doc__.splitlines()[0], fit, DEFAULT_SEED, DEFAULT_GAMES, CELL_FILE, "games")


if __name__ == "__main__":
    raise SystemExit(main())

"""Fit the Upwords height decision on random pictures: ``python -m vision.synthetic.fit_heights``.

Why fitted: how far the planes' lead settles a stack's height in a picture read alone depends on
the camera's tilt, the set's make and what nearer stacks hide; thresholds set on the boards that
showed a wrong height held for those boards only. The evidence
(:func:`vision.height_decision.height_evidence`) is gathered on ``train``-family Upwords boards
(8x8 and 10x10, half of them dense) of sets of any make (cells 18-26 mm apart, tiles 2-5 mm thick),
each calibrated, taught and its thickness measured as a family would (:func:`taught_grid_reader`),
under a camera leaning up to 40 degrees (half of the scenes at least 20), half of the seeds on a
skin-toned table with the light changed since calibration; every picture is read alone. Where the
camera is too near overhead to measure the thickness, the set's own proportions stand in for it:
the decision then also sees planes that barely move, where a height should stay in doubt. Every
stack the reader weighs counts, labelled by whether the planes' best height is its own. A small
network weighs the evidence and its band is chosen out of fold (:mod:`vision.synthetic.fitting`),
a height wrong and sure costing :data:`WRONG_COSTS` heights asked.

The output is ``vision/models/heights.json`` with what it was fitted on; the same seed gives the
same file (but its date). The ``held_out`` family is never read here: ``python -m bench geometry``
measures on it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.height_decision import HEIGHT_FILE, HeightDecision
from vision.occupancy_model import MODEL_FILE
from vision.synthetic.fitting import fit_command, fit_decision
from vision.synthetic.scenes import grid_scene
from vision.synthetic.train import taught_grid_reader
from vision.upwords_reader import TileGeometry

DEFAULT_SEED = 61
DEFAULT_SEEDS = 200
#: what a height wrong and sure costs, in heights asked: ten times the cell decision's wrong cell
#: (:data:`vision.synthetic.fit_cells.WRONG_COSTS`). A height read from one picture has no history
#: to correct it, and the planes barely move under a camera near overhead: out of fold on the
#: default seeds, priced at 100 the band leaves 46 of 69,049 heights wrong and sure (12,666 asked),
#: at 1,000 two (25,363 asked); the dearer band also asked every stack read one low with planes
#: about 1.3 px a tile apart that the cheaper one was sure of on held-out dense boards.
WRONG_COSTS = 1000.0
#: the least tilt of each of a seed's scenes: one anywhere from overhead, one at 20 degrees or more
MIN_TILTS = (0.0, 20.0)
MAX_TILT = 40.0
KINDS = ("upwords8", "upwords10")
#: the share of cells holding a stack on the dense boards
DENSE = (0.55, 1.0)


def scene_examples(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(evidence, labels: the planes' best height is the stack's) for every stack weighed in one
    seed's four scenes (8x8 and 10x10, each under a camera from overhead and one leaning 20 degrees
    or more) of two pictures, each read alone."""
    xs, ys = [], []
    # half the seeds' boards as full as a game's end (tall stacks hiding one another), the rest of
    # the renderer's own fills
    fill = float(np.random.default_rng(seed).uniform(*DENSE)) if (seed // 2) % 2 else None
    for index, kind in enumerate(KINDS):
        for min_tilt in MIN_TILTS:
            s = grid_scene(seed + index, "train", kind, n_frames=2, hand_chance=0.0, any_set=True,
                           min_tilt=min_tilt, max_tilt=MAX_TILT, light_change=seed % 2 == 1, fill=fill)
            reader = taught_grid_reader(s, decide_cells=False)
            if not reader.geometry.measured:  # too near overhead to measure: the set's own proportions
                reader = taught_grid_reader(s, False, TileGeometry.from_shape(
                    s.face_frac, s.thickness_mm, 5, s.calibration.cell_mm[0]))
            for frame in s.frames:
                reader.read(frame.image)
                for (r, c), evidence in reader.height_evidence.items():
                    xs.append(evidence)
                    ys.append(float(int(evidence[0]) == frame.heights[r][c]))
    return np.array(xs).reshape(-1, len(HeightDecision.features)), np.array(ys)


def fit(seed: int = DEFAULT_SEED, seeds: int = DEFAULT_SEEDS, workers: int = 2,
        examples: Path | None = None) -> HeightDecision:
    """The height decision (:func:`vision.synthetic.fitting.fit_decision`), on ``seeds`` seeds'
    four scenes each (:func:`scene_examples`)."""
    return fit_decision(HeightDecision, scene_examples, WRONG_COSTS, seed, seeds, workers, examples,
                        evidence_from=(MODEL_FILE,), what="seeds", settles_bare=False)


def main(argv: list[str] | None = None) -> int:
    return fit_command(argv, __doc__.splitlines()[0], fit, DEFAULT_SEED, DEFAULT_SEEDS, HEIGHT_FILE, "seeds")


if __name__ == "__main__":
    raise SystemExit(main())

"""Fit the Word on the Street lanes' decision on random streets: ``python -m vision.synthetic.fit_lanes``.

Why fitted: how far a face reading its letter vouches for a tile the occupancy model half
believes in depends on the light, the camera and the set; a rule set on the streets that showed
the problem would hold for those streets only. The evidence (:func:`vision.street_lanes.lane_evidence`)
is gathered on ``train``-family streets, calibrated and taught as a family would (the start
position's own tiles teach the letters), half of them on a skin-toned table with the light
changed from picture to picture, each both a game turn by turn and independent random streets;
every fourth picture counts again without a letter reader (a set whose letters were never
taught). A small network weighs the evidence and its band is chosen out of fold
(:mod:`vision.synthetic.fitting`) at the median's price of a space wrong and sure.

The output is ``vision/models/lanes.json`` with what it was fitted on; the same seed gives the
same file (but its date). The ``held_out`` family is never read here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.median_strip import MEDIAN_FILE, settle_median
from vision.occupancy_model import MODEL_FILE
from vision.street import FaceReads
from vision.street_lanes import LANE_FILE, LaneModel, lane_evidence, likeliest_lane
from vision.synthetic.fit_median import GAME_TURNS, RANDOM_FRAMES, WRONG_COSTS
from vision.synthetic.fitting import fit_command, fit_decision
from vision.synthetic.scenes import street_scene
from vision.synthetic.textures import STREET_LETTERS
from vision.synthetic.train import learn_scene, taught_street_reader, truth

DEFAULT_SEED = 31
DEFAULT_STREETS = 200


def street_examples(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(evidence, labels) for each column's likeliest lane space in one street seed's pictures."""
    xs, ys = [], []
    for light_change in (False, True):
        for sequence in (True, False):
            s = street_scene(seed, "train", n_frames=GAME_TURNS if sequence else RANDOM_FRAMES,
                             hand_chance=0.0, light_change=light_change, sequence=sequence)
            reader = taught_street_reader(s, learn_scene(s))
            for n, frame in enumerate(s.frames):
                found = reader.evidence(frame.image)
                assert found.median is not None
                prob, _ = settle_median(found.prob, *found.median)
                faces = FaceReads(reader, reader.warp(frame.image))
                tiles = truth(frame)
                for col, letter in enumerate(STREET_LETTERS):
                    row, next_chance = likeliest_lane(prob, col)
                    read = faces.read(row, col, letter)
                    for looked in (read, None) if n % 4 == 0 else (read,):
                        xs.append(lane_evidence(float(prob[row, col]), next_chance, looked, letter))
                        ys.append(float(tiles[row, col]))
    return np.array(xs), np.array(ys)


def fit(seed: int = DEFAULT_SEED, streets: int = DEFAULT_STREETS, workers: int = 2,
        examples: Path | None = None) -> LaneModel:
    """The lanes' decision (:func:`vision.synthetic.fitting.fit_decision`)."""
    return fit_decision(LaneModel, street_examples, WRONG_COSTS, seed, streets, workers, examples,
                        evidence_from=(MODEL_FILE, MEDIAN_FILE))


def main(argv: list[str] | None = None) -> int:
    return fit_command(argv, __doc__.splitlines()[0], fit, DEFAULT_SEED, DEFAULT_STREETS, LANE_FILE)


if __name__ == "__main__":
    raise SystemExit(main())

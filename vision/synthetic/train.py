"""Train the occupancy models on randomised boards: ``python -m vision.synthetic.train``.

Every scene (:mod:`vision.synthetic.scenes`) of the ``train`` style family is learnt the way a family
calibrates their own set (empty board or start position, then the teaching picture), and
each later picture's cells become labelled examples for the model that fits what calibration
knew of them (:mod:`vision.occupancy_model`). Cells under a hand are left out: the reader
refuses to judge those anyway. The output is ``vision/models/occupancy.json`` (a few KB);
the same seed gives the same file.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator

import numpy as np

from vision.appearance import BoardAppearance, board_looks
from vision.learn_board import learn_grid, learn_street
from vision.letters import LetterReader, teach
from vision.median_strip import MEDIAN_ROW
from vision.occupancy_model import KINDS, MODEL_FILE, Logistic, OccupancyModel, features
from vision.street import StreetGeometry, StreetReader
from vision.synthetic.scenes import Scene, scene
from vision.synthetic.textures import STREET_LETTERS

DEFAULT_SEED = 14
#: scenes per board kind in the default training run
DEFAULT_SCENES = {"upwords8": 40, "upwords10": 16, "grid15": 24, "street": 40}


def learn_scene(s: Scene):
    """The references a family's calibration of this scene would give."""
    cal = s.calibration
    if s.kind == "street":
        return learn_street(cal.image, cal.corners, s.face_frac)
    return learn_grid(cal.image, cal.corners, cal.rows, cal.cols, s.face_frac, s.teaching.image,
                      s.teaching_layout.keys())


def street_reader(s: Scene, appearance: BoardAppearance | None) -> StreetReader:
    """The reader of a rendered street at the set's own proportions, with the references
    ``appearance`` (:func:`learn_scene`'s, or None for the fixed rules)."""
    cal = s.calibration
    pitch, lane = cal.cell_mm
    geometry = StreetGeometry(pitch, lane, pitch * s.face_frac, s.thickness_mm)
    return StreetReader(cal.corners, cal.image_size, geometry=geometry, appearance=appearance)


def taught_street_reader(s: Scene, appearance: BoardAppearance | None) -> StreetReader:
    """:func:`street_reader` with the letters taught as a family teaches them: from the start
    position's own tiles (:func:`vision.letters.teach`), read with the reader's own threshold as
    the kiosk's live camera reads."""
    reader = street_reader(s, appearance)
    top = reader.warp(s.calibration.image)
    crops = [reader.face_crop(top, MEDIAN_ROW, col) for col in range(len(STREET_LETTERS))]
    reader.letters = LetterReader(teach(crops, list(STREET_LETTERS)))
    return reader


def truth(frame) -> np.ndarray:
    """Occupied cells of a rendered frame (rows x cols)."""
    if frame.kind == "street":
        out = np.zeros((frame.rows, frame.cols), bool)
        for c, letter in enumerate(STREET_LETTERS):
            pos = frame.positions.get(letter)
            if pos is not None and -2 <= pos <= 2:
                out[pos + 2, c] = True
        return out
    return np.array(frame.heights) > 0


def examples(s: Scene) -> Iterator[tuple[dict, np.ndarray, np.ndarray]]:
    """(features, labels, usable) for each frame of a scene (training scenes have no hands:
    the reader flags a cell under a hand instead of judging it)."""
    appearance = learn_scene(s)
    for frame in s.frames:
        looks = board_looks(frame.image, frame.corners, frame.rows, frame.cols, s.face_frac)
        yield features(looks, appearance), truth(frame), np.ones((frame.rows, frame.cols), bool)


def collect(seed: int, counts: dict[str, int], family: str = "train") -> dict[str, tuple[list, list]]:
    data: dict[str, tuple[list, list]] = {k: ([], []) for k in KINDS}
    rng = np.random.default_rng(seed)
    for kind, n in counts.items():
        for _ in range(n):
            s = scene(int(rng.integers(0, 2**31 - 1)), family, kind, hand_chance=0.0)
            for feats, labels, usable in examples(s):
                for index, name in enumerate(KINDS):
                    mask = (feats["kind"] == index) & usable
                    data[name][0].append(feats[name][mask])
                    data[name][1].append(labels[mask])
                # the prior model learns from every cell: it stands in when calibration saw nothing
                data["prior"][0].append(feats["prior"][usable])
                data["prior"][1].append(labels[usable])
    return data


def train(seed: int = DEFAULT_SEED, counts: dict[str, int] | None = None) -> OccupancyModel:
    counts = counts or DEFAULT_SCENES
    data = collect(seed, counts)
    models, info = {}, {"seed": seed, "scenes": counts, "family": "train", "examples": {}}
    for name in KINDS:
        x = np.concatenate(data[name][0])
        y = np.concatenate(data[name][1]).astype(np.float64)
        model = Logistic.fit(x, y)
        models[name] = model
        acc = float(((model.probability(x) > 0.5) == (y > 0.5)).mean())
        info["examples"][name] = {"cells": len(y), "occupied": int(y.sum()),
                                  "training_accuracy": round(acc, 5)}
    return OccupancyModel(models, info)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="scenes per kind, as a multiple of the default")
    parser.add_argument("--out", default=str(MODEL_FILE))
    args = parser.parse_args(argv)
    counts = {k: max(1, round(v * args.scale)) for k, v in DEFAULT_SCENES.items()}
    start = time.perf_counter()
    model = train(args.seed, counts)
    model.save(args.out)
    print(f"trained on {counts} in {time.perf_counter() - start:.0f} s -> {args.out}")
    for name, facts in model.info["examples"].items():
        print(f"  {name:6s} {facts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

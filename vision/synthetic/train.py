"""Train the occupancy models on randomised boards: ``python -m vision.synthetic.train``.

Every scene (:mod:`vision.synthetic.scenes`) of the ``train`` style family is learnt the way a family
calibrates their own set (empty board or start position, then the teaching picture), and
each later picture's cells become labelled examples for the model that fits what calibration
knew of them (:mod:`vision.occupancy_model`). Every other scene lies on a skin-toned table with
each picture's light changed since calibration (``light_change``: brightness, white balance, a
shadow, glare; tiles cut white), and its light is measured as the reader measures it, the board's
surround asked: a model fitted only in calibration's light weighs brightness and colour most,
and in a light that cuts tiles white those say "empty". Cells under a hand are left out: the
reader refuses to judge those anyway. Each kind's network is asked within a band chosen on
out-of-fold probabilities (:data:`WRONG_COSTS`). The output is ``vision/models/occupancy.json``
with what it was fitted on and what its bands did out of fold; the same seed gives the same file
(but its date). The street reads with its own file until its median and lanes are refit on this
one (:data:`vision.occupancy_model.STREET_MODEL_FILE`).
"""

from __future__ import annotations

import argparse
import datetime
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict

import numpy as np

from vision.appearance import BoardAppearance, board_looks
from vision.learn_board import learn_grid, learn_street
from vision.letters import LetterReader, teach
from vision.median_strip import MEDIAN_ROW
from vision.occupancy_model import KINDS, MODEL_FILE, CellModel, OccupancyModel, features, measured_light
from vision.set_geometry import measure_tile_height
from vision.street import StreetGeometry, StreetReader
from vision.synthetic.fitting import NetworkSize, band, band_facts, fit_out_of_fold
from vision.synthetic.scenes import Scene, scene
from vision.synthetic.textures import STREET_LETTERS
from vision.upwords_reader import TileGeometry, UpwordsReader

DEFAULT_SEED = 14
#: scenes per board kind in the default training run
DEFAULT_SCENES = {"upwords8": 120, "upwords10": 48, "grid15": 72, "street": 120}
#: A cell wrong and sure costs this many cells asked when the bands are chosen. Lower than the
#: street's price (:data:`vision.synthetic.fit_median.WRONG_COSTS`): a grid's play is offered only when
#: no cell is in doubt, so every cell asked costs a play, and the letters and the kiosk's history stand
#: behind this model. The model file keeps what its bands did out of fold.
WRONG_COSTS = 10.0
SIZE = NetworkSize(hidden=16, steps=1500)


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


def taught_grid_reader(s: Scene, decide_cells: bool = True, geometry: TileGeometry | None = None
                       ) -> UpwordsReader:
    """The reader a family's calibration of a grid scene gives, as the docs say: the learnt look,
    the letters taught from the teaching photo's tiles, and the set's thickness measured from it
    (:mod:`vision.set_geometry`; a crossword grid's tiles lie flat), or ``geometry`` where given.
    ``decide_cells``: see :class:`vision.upwords_reader.UpwordsReader`."""
    cal = s.calibration
    loose = s.kind == "grid15"
    max_height = 1 if loose else 5
    if geometry is None:
        found = measure_tile_height(s.teaching.image, cal.corners, cal.rows, cal.cols, s.face_frac,
                                    s.teaching_layout.keys())
        geometry = (TileGeometry.from_shape(s.face_frac, found.thickness_mm(22.0), max_height) if found
                    else TileGeometry.from_shape(s.face_frac, None, max_height, measured=False))
    reader = UpwordsReader(cal.corners, cal.image_size, rows=cal.rows, cols=cal.cols, geometry=geometry,
                           loose_tiles=loose, appearance=learn_scene(s), decide_cells=decide_cells)
    reader.letters = taught_letters(reader, s.teaching.image, s.teaching_layout)
    return reader


def taught_letters(reader: UpwordsReader, image: np.ndarray, layout: dict, plane: int = 1) -> LetterReader:
    """The letters taught from a teaching photo's tiles (``layout``: cell -> letter), cut from
    ``plane`` as ``reader`` cuts faces."""
    warps = reader.warp_planes(image, gray=False)
    crops = [reader.face_crop(warps[plane], r, c) for (r, c) in layout]
    return LetterReader(teach(crops, list(layout.values())), 0.5)


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
    the reader flags a cell under a hand instead of judging it). The light is measured as the
    readers measure it: from the cells, the surround asked when they disagree."""
    appearance = learn_scene(s)
    for frame in s.frames:
        looks = board_looks(frame.image, frame.corners, frame.rows, frame.cols, s.face_frac)
        light = measured_light(frame.image, looks, appearance, frame.corners, frame.rows, frame.cols)
        yield features(looks, appearance, light), truth(frame), np.ones((frame.rows, frame.cols), bool)


def _scene_examples(args: tuple[int, str, str, bool]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """One scene's (evidence, labels) per model kind (a module-level function: it runs in a worker
    process). The evidence is the kind's comparisons and what the picture says
    (:data:`vision.occupancy_model.PICTURE_FEATURES`)."""
    seed, family, kind, light = args
    s = scene(seed, family, kind, hand_chance=0.0, light_change=light)
    data: dict[str, tuple[list, list]] = {k: ([], []) for k in KINDS}
    for feats, labels, usable in examples(s):
        for index, name in enumerate(KINDS):
            # the prior model learns from every cell: it stands in when calibration saw nothing
            mask = usable if name == "prior" else (feats["kind"] == index) & usable
            data[name][0].append(np.concatenate([feats[name][mask], feats["picture"][mask]], axis=-1))
            data[name][1].append(labels[mask])
    return {k: (np.concatenate(x), np.concatenate(y)) for k, (x, y) in data.items()}


def collect(seed: int, counts: dict[str, int], family: str = "train", workers: int = 2
            ) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(evidence, labels, each row's scene) per model kind; every other scene of a kind in a
    changed light."""
    rng = np.random.default_rng(seed)
    jobs = [(int(rng.integers(0, 2**31 - 1)), family, kind, index % 2 == 1)
            for kind, n in counts.items() for index in range(n)]
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(_scene_examples, jobs))
    return {k: (np.concatenate([p[k][0] for p in parts]), np.concatenate([p[k][1] for p in parts]),
                np.concatenate([np.full(len(p[k][1]), i) for i, p in enumerate(parts)])) for k in KINDS}


def train(seed: int = DEFAULT_SEED, counts: dict[str, int] | None = None, workers: int = 2) -> OccupancyModel:
    """Each kind's network on every cell of its kind, and its band where a cell wrong and sure costs
    :data:`WRONG_COSTS` cells asked, from out-of-fold probabilities (each scene judged by a
    network fitted without it)."""
    counts = counts or DEFAULT_SCENES
    data = collect(seed, counts, workers=workers)
    models: dict[str, CellModel] = {}
    info = {"seed": seed, "scenes": counts, "family": "train", "light_changed": "every other scene",
            "wrong_costs": WRONG_COSTS, "network": asdict(SIZE), "date": datetime.date.today().isoformat(),
            "examples": {}}
    for name in KINDS:
        x, y, groups = data[name]
        y = y.astype(np.float64)
        oof, net = fit_out_of_fold(x, y, groups, SIZE, workers)
        sure_empty, sure_tile = band(oof, y, WRONG_COSTS)
        models[name] = CellModel(net, sure_empty, sure_tile, picture=True)
        info["examples"][name] = {"cells": len(y), "occupied": int(y.sum()),
                                  "out_of_fold": band_facts(oof, y, sure_empty, sure_tile)}
    return OccupancyModel(models, info)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="scenes per kind, as a multiple of the default")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default=str(MODEL_FILE))
    args = parser.parse_args(argv)
    counts = {k: max(1, round(v * args.scale)) for k, v in DEFAULT_SCENES.items()}
    start = time.perf_counter()
    model = train(args.seed, counts, args.workers)
    model.save(args.out)
    print(f"trained on {counts} in {time.perf_counter() - start:.0f} s -> {args.out}")
    for name, facts in model.info["examples"].items():
        print(f"  {name:6s} {facts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

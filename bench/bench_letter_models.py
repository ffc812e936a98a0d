"""Which letter classifier generalises: one trained on randomised renders, or one taught per set?

    python -m bench letter_models            # about 15 minutes on 2 cores (rendering)
    python -m bench letter_models --quick    # a few minutes

The letter classifier is chosen by measurement, not by taste. The candidates:

* **trained**: a softmax (multinomial logistic) model trained on crops from the ``train`` style
  family (its typefaces: DejaVu Sans, Liberation Sans, FreeSans), fixed seed, on the first
  look's features (the HOG views of :func:`vision.glyphs.glyph_features`);
* **taught, first look**: the reader's own k-nearest-neighbours classifier on the same features,
  taught per scene from that set's one teaching picture (with :func:`vision.letters.augmented`),
  as a family does;
* **taught, both looks**: the same with the second look at the reads the first doubts
  (:mod:`vision.letter_match`), as the reader reads (:func:`vision.letters.teach`).

A read is sure at confidence 0.6 (the reader's threshold); "wrong and sure" counts the taught
readers' sure wrong reads (the softmax has no calibrated confidence here).

Both read the occupied cells of held-out scenes (``held_out`` family: serif and other typefaces
the trained model never saw). The trained model's in-domain figure (train-family scenes it did
not train on) is printed beside it: the gap is what a fixed model loses on a set it has not seen.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from bench import options, softmax
from bench.bench_generalise import grid_readers
from vision.glyphs import glyph_features
from vision.letters import teach
from vision.synthetic.scenes import grid_scene

KINDS = ("upwords8", "grid15")


def _scene_crops(seed: int, family: str, kind: str):
    """(teaching crops and labels, play crops and labels) of one scene, cut as the reader cuts them."""
    s = grid_scene(seed, family, kind, n_frames=4, sequence=True, hand_chance=0.0)
    reader = grid_readers(s, False)
    teach_plane = reader.warp_planes(s.teaching.image, gray=False)[1]
    taught = [(reader.face_crop(teach_plane, *rc), letter) for rc, letter in s.teaching_layout.items()]
    play = []
    for frame in s.frames:
        planes = reader.warp_planes(frame.image, gray=False)
        for r, row in enumerate(frame.heights):
            for c, h in enumerate(row):
                if h:
                    play.append((reader.face_crop(planes[h], r, c), frame.letters[r][c]))
    return taught, play


def _features(crops):
    xs, ys = [], []
    for image, label in crops:
        views = glyph_features(image)
        if views is not None:
            xs.append(np.concatenate(views))
            ys.append(label)
    return xs, ys


def main() -> int:
    quick = options().quick
    n_train, n_test = (8, 4) if quick else (30, 12)
    start = time.perf_counter()
    train_x, train_y = [], []
    for kind in KINDS:
        for seed in range(14000, 14000 + n_train):
            taught, play = _scene_crops(seed, "train", kind)
            xs, ys = _features(taught + play)
            train_x += xs
            train_y += ys
    classes = sorted(set(train_y))
    index = {c: i for i, c in enumerate(classes)}
    labels = np.array([index[y] for y in train_y])
    weights = softmax.fit(np.array(train_x, np.float32), labels, len(classes), steps=600, rate=1.0, l2=1e-4)
    print(f"trained softmax on {len(train_y)} crops of {n_train} train-family scenes per kind "
          f"({time.perf_counter() - start:.0f} s)")
    for family, base in (("train", 24000), ("held_out", 34000)):
        for kind in KINDS:
            right = {"trained": 0, "first look": 0, "both looks": 0}
            sure_wrong = {"first look": 0, "both looks": 0}
            times: dict[str, list[float]] = {name: [] for name in right}
            total = 0
            for seed in range(base, base + n_test):
                taught, play = _scene_crops(seed, family, kind)
                images, labels = zip(*taught, strict=True)
                knn = teach(list(images), list(labels))
                matcher = knn.matcher
                for image, truth in play:
                    t0 = time.perf_counter()
                    views = glyph_features(image)
                    guess = None
                    if views is not None:
                        scores = np.concatenate([np.concatenate(views), [1.0]]).astype(np.float32) @ weights
                        guess = classes[int(np.argmax(scores))]
                    times["trained"].append(time.perf_counter() - t0)
                    right["trained"] += guess == truth
                    total += 1
                    for name, second in (("first look", None), ("both looks", matcher)):
                        knn.matcher = second
                        t0 = time.perf_counter()
                        read = knn.classify(image)
                        times[name].append(time.perf_counter() - t0)
                        right[name] += read.letter == truth
                        sure_wrong[name] += read.letter != truth and read.confidence >= 0.6
            print(f"{family:8s} {kind:8s} {total:5d} letters: "
                  + "  ".join(f"{name} {100 * n / total:6.2f} %" for name, n in right.items())
                  + "  (median ms a letter: "
                  + " / ".join(f"{1000 * statistics.median(t):.2f}" for t in times.values())
                  + ")  wrong and sure: "
                  + " / ".join(f"{name} {n}" for name, n in sure_wrong.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

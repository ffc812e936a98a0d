"""Which letter classifier generalises: one trained on randomised renders, or one taught per set?

    python -m bench letter_models            # about 15 minutes on 2 cores (rendering)
    python -m bench letter_models --quick    # a few minutes

Issue 14 asks for the letter classifier to be chosen by measurement. Two candidates, on the same
features (the HOG views of :func:`vision.glyphs.glyph_features`):

* **trained**: a softmax (multinomial logistic) model trained on crops from the ``train`` style
  family (its typefaces: DejaVu Sans, Liberation Sans, FreeSans), fixed seed;
* **taught**: the reader's own k-nearest-neighbours classifier, taught per scene from that
  set's one teaching picture (with :func:`vision.letters.augmented`), as a family does.

Both read the occupied cells of held-out scenes (``held_out`` family: serif and other typefaces
the trained model never saw). The trained model's in-domain figure (train-family scenes it did
not train on) is printed beside it: the gap is what a fixed model loses on a set it has not seen.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import options, softmax  # noqa: E402
from bench.bench_generalise import grid_readers  # noqa: E402
from vision.glyphs import glyph_features  # noqa: E402
from vision.letters import LetterClassifier, augmented  # noqa: E402
from vision.scenes import grid_scene  # noqa: E402

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
            right_trained = right_taught = total = 0
            times_trained, times_taught = [], []
            for seed in range(base, base + n_test):
                taught, play = _scene_crops(seed, family, kind)
                images, labels = zip(*taught, strict=True)
                knn = LetterClassifier().fit(*augmented(list(images), list(labels)))
                for image, truth in play:
                    t0 = time.perf_counter()
                    views = glyph_features(image)
                    guess = None
                    if views is not None:
                        scores = np.concatenate([np.concatenate(views), [1.0]]).astype(np.float32) @ weights
                        guess = classes[int(np.argmax(scores))]
                    times_trained.append(time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    read = knn.classify(image)
                    times_taught.append(time.perf_counter() - t0)
                    total += 1
                    right_trained += guess == truth
                    right_taught += read.letter == truth
            ms_trained = 1000 * statistics.median(times_trained)
            ms_taught = 1000 * statistics.median(times_taught)
            print(f"{family:8s} {kind:8s} {total:5d} letters: "
                  f"trained softmax {100 * right_trained / total:6.2f} %  "
                  f"taught per set {100 * right_taught / total:6.2f} %  "
                  f"(median {ms_trained:.2f} / {ms_taught:.2f} ms a letter)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

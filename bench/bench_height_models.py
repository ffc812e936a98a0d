"""Which stack-height reader generalises: a model trained on randomised renders, or the planes?

    python -m bench height_models            # about 10 minutes on 2 cores (rendering)
    python -m bench height_models --quick    # a few minutes

The height reader is chosen by measurement, not by taste. Two candidates read the
same measurements of each occupied cell (:meth:`vision.upwords_reader.UpwordsReader._height_scores`:
for every plane 1..5, how cleanly a tile face sits in the cell on it, whether a nearer stack
hides it, and how far apart the planes are in this picture):

* **planes**: the reader's own rule, the best-scoring visible plane, sure only when it beats
  the next by a margin and the planes are far enough apart to tell;
* **trained**: a softmax (multinomial logistic) model over the same measurements, trained on
  Upwords scenes of the ``train`` style family (fixed seed), sure when its probability is
  at least :data:`SURE`.

Both are scored on single pictures, no history (history makes both right where the first
picture was), on held-out scenes (``held_out`` family: thicker tiles, other colours) and on
train-family scenes the model did not train on: right, wrong but flagged, wrong and sure.
"""

from __future__ import annotations

import numpy as np

from bench import options, softmax
from bench.bench_generalise import grid_readers
from vision.synthetic.scenes import grid_scene

#: The trained model's read is sure at or above this probability.
SURE = 0.9
MAX_HEIGHT = 5


def _features(scores: np.ndarray, visible: np.ndarray, informative: float) -> np.ndarray:
    shown = np.where(visible, scores, -1.0)
    return np.concatenate([shown, visible.astype(float), [informative], shown * informative])


def collect(family: str, seeds: range, kinds: tuple[str, ...], frames: int) -> list[dict]:
    """One row per occupied, visible cell read: its features, truth, and the planes' answer."""
    rows: list[dict] = []
    for seed in seeds:
        for kind in kinds:
            s = grid_scene(seed, family, kind, n_frames=frames, hand_chance=0.0)
            reader = grid_readers(s, True)
            seen: dict[tuple[int, int], np.ndarray] = {}
            measure = reader._height_scores

            def recording(r, c, occluder, _measure=measure, _seen=seen):
                out = _measure(r, c, occluder)
                _seen[(r, c)] = _features(*out)
                return out

            reader._height_scores = recording  # instrumented: the rule itself is unchanged
            for frame in s.frames:
                seen.clear()
                reading = reader.read(frame.image)
                for cell in reading.cells:
                    truth = frame.heights[cell.row][cell.col]
                    if not truth or (cell.row, cell.col) not in seen:
                        continue
                    sure = cell.height_confidence >= 0.6 and not cell.uncertain
                    rows.append({"x": seen[(cell.row, cell.col)], "truth": truth,
                                 "planes": cell.height, "planes_sure": sure})
    return rows


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The trained candidate: a softmax over standardised measurements, heights 1..5."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    weights = softmax.fit((x - mean) / scale, y - 1, MAX_HEIGHT, steps=3000, rate=0.5, l2=1e-3,
                          regularise_bias=False, dtype=np.float64)
    return mean, scale, weights


def predict(model: tuple[np.ndarray, np.ndarray, np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's height and the model's probability for it."""
    mean, scale, weights = model
    p = softmax.probabilities((x - mean) / scale, weights)
    return p.argmax(axis=1) + 1, p.max(axis=1)


def tally(truth: np.ndarray, got: np.ndarray, sure: np.ndarray) -> str:
    right = got == truth
    n = len(truth)
    stacked = truth >= 2
    flagged_wrong, sure_wrong = int((~right & ~sure).sum()), int((~right & sure).sum())
    return (f"right {100 * right.mean():6.2f} % (stacks of 2+: {100 * right[stacked].mean():6.2f} %)"
            f"  wrong but flagged {flagged_wrong:3d}  wrong and sure {sure_wrong:3d}"
            f"  flagged {100 * (~sure).mean():5.1f} %  of {n}")


def main() -> int:
    args = options(52000, "first scene seed: training scenes from it, test scenes 1,000 later")
    quick = args.quick
    n_train, n_test = (6, 4) if quick else (16, 10)
    kinds = ("upwords8", "upwords10")
    print(f"training scenes {n_train} per kind (train family, seeds from {args.seeds}); "
          f"test scenes {n_test} per kind and family (seeds from {args.seeds + 1000}); 5 pictures each")
    train = collect("train", range(args.seeds, args.seeds + n_train), kinds, 5)
    x = np.array([r["x"] for r in train])
    y = np.array([r["truth"] for r in train])
    model = fit(x, y)
    got, _ = predict(model, x)
    print(f"trained on {len(y)} tiles, training accuracy {100 * (got == y).mean():.2f} %")
    for family in ("train", "held_out"):
        test = collect(family, range(args.seeds + 1000, args.seeds + 1000 + n_test), kinds, 5)
        xt = np.array([r["x"] for r in test])
        truth = np.array([r["truth"] for r in test])
        planes = np.array([r["planes"] for r in test])
        planes_sure = np.array([r["planes_sure"] for r in test])
        trained, p = predict(model, xt)
        label = "in-domain" if family == "train" else "held-out"
        print(f"\n-- {label} ({family} family), single pictures")
        print(f"planes   {tally(truth, planes, planes_sure)}")
        print(f"trained  {tally(truth, trained, p >= SURE)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Fit the Word on the Street median's decision on random streets: ``python -m vision.synthetic.fit_median``.

Why fitted: whether a median space holds its tile depends on the strip's colour against the
tiles', the light, the camera and how many tiles are out in the lanes to show the bare strip;
rules set on the streets that showed a problem held for those streets only. Here the evidence
(:func:`vision.median_strip.median_evidence`) is gathered on ``train``-family streets, each
calibrated from its start position as a family would, half of them on a skin-toned table with
the light changed from picture to picture (``light_change``), each both as a game turn by turn
(few tiles out early on) and as independent random streets. A small network
(:class:`vision.small_net.SmallNet`) weighs the evidence; the band it is asked within comes from
out-of-fold probabilities (each street judged by a network fitted without it), where a space
wrong and sure costs :data:`WRONG_COSTS` spaces asked.

Kinds of set the renderer does not draw are made from its pictures: a strip whose letters are
printed like the tiles' (every third picture counts again with each bare space's ink its
tile's, drifted as this picture's tiles' inks drift, and each as alike to its tile and as edged
where a tile's border is as a tile in this picture is: ink, likeness and outline then tell
nothing, and the network must not lean on them alone), and calibrations saved before inks or
the cells' greys were kept (every fourth picture again without either, and every other fourth
without the greys).

The output is ``vision/models/median.json`` with what it was fitted on; the same seed gives the
same file (but its date). The ``held_out`` family is never read here: ``python -m bench turns``
and ``python -m bench generalise`` measure on it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.median_strip import MEDIAN_FILE, MEDIAN_ROW, MedianModel, median_evidence
from vision.occupancy_model import MODEL_FILE
from vision.synthetic.fitting import NetworkSize, fit_command, fit_decision
from vision.synthetic.scenes import street_scene
from vision.synthetic.train import learn_scene, street_reader, truth

DEFAULT_SEED = 29
DEFAULT_STREETS = 200
#: pictures per street: a game turn by turn, and independent random streets
GAME_TURNS, RANDOM_FRAMES = 14, 6
#: what a median space read wrong and sure costs, in spaces asked: the band is where the two
#: together cost least out of fold (a wrong street spoils a turn's score, a question costs a tap).
#: Not "none wrong at any price": then the few pictures the evidence cannot explain (tiles washed
#: out by glare on a strip of their colour) set the band for every street. Priced at 1,000, the
#: fitting streets' spaces were asked 10.6 % of the time (8 wrong and sure of 224,400); at 300,
#: 4.5 % (32); at 100, 4.2 % (37).
WRONG_COSTS = 300.0
#: the likeness beside the colours asks for more units than the lanes' evidence: out of fold on
#: the default streets (before the outline), 16 units trained 1,500 steps asked 4.6 % of the
#: spaces with 23 wrong and sure, 32 units 4,000 steps 4.6 % with 9 (one fold's band: 4.5 / 3.5 %)
NETWORK = NetworkSize(hidden=32, steps=4000)


def street_examples(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(evidence, labels) for every median space of one street seed's pictures (both lights,
    game and random)."""
    xs, ys = [], []
    for light_change in (False, True):
        for sequence in (True, False):
            s = street_scene(seed, "train", n_frames=GAME_TURNS if sequence else RANDOM_FRAMES,
                             hand_chance=0.0, light_change=light_change, sequence=sequence)
            reader = street_reader(s, learn_scene(s))
            for n, frame in enumerate(s.frames):
                found = reader.evidence(frame.image)
                assert found.median is not None
                label = truth(frame)[MEDIAN_ROW]
                now, start, inks_now, inks_start, alike, edged = found.median
                assert inks_now is not None and inks_start is not None
                assert alike is not None and edged is not None
                xs.append(median_evidence(found.prob, now, start, inks_now, inks_start, alike, edged))
                ys.append(label)
                if n % 3 == 0:
                    rng = np.random.default_rng([seed, n])
                    printed = tiles_ink(inks_now, inks_start, label, rng)
                    selves = tiles_likeness(np.stack([alike, edged], axis=1), label, rng)
                    xs.append(median_evidence(found.prob, now, start, printed, inks_start, *selves.T))
                    ys.append(label)
                if n % 4 == 0:
                    xs.append(median_evidence(found.prob, now, start))
                    ys.append(label)
                if n % 4 == 2:
                    xs.append(median_evidence(found.prob, now, start, inks_now, inks_start))
                    ys.append(label)
    return np.concatenate(xs), np.concatenate(ys).astype(np.float64)


def tiles_ink(inks_now: np.ndarray, inks_start: np.ndarray, tiles: np.ndarray,
              rng: np.random.Generator) -> np.ndarray:
    """The median's inks as if its letters were printed in the tiles' ink: each bare space
    (``tiles`` False) shows its tile's ink at calibration, moved as a tile's ink in this picture
    moved from calibration (one drawn at random; none when fewer than two tiles show it)."""
    on = np.asarray(tiles, bool)
    drift = inks_now[on] - inks_start[on] if on.sum() >= 2 else np.zeros((1, 3))
    out = inks_now.copy()
    out[~on] = inks_start[~on] + drift[rng.integers(0, len(drift), int((~on).sum()))]
    return out


def tiles_likeness(alike: np.ndarray, tiles: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The median's likenesses (and outlines: one row a space) as if its letters were printed
    like the tiles' (the same face, size and place, its border too): each bare space (``tiles``
    False) as alike to its tile as one of this picture's tiles is to its own (one drawn at
    random; none when fewer than two tiles)."""
    on = np.asarray(tiles, bool)
    out = np.asarray(alike, np.float64).copy()
    if on.sum() >= 2:
        out[~on] = alike[on][rng.integers(0, int(on.sum()), int((~on).sum()))]
    return out


def fit(seed: int = DEFAULT_SEED, streets: int = DEFAULT_STREETS, workers: int = 2,
        examples: Path | None = None) -> MedianModel:
    """The median's decision (:func:`vision.synthetic.fitting.fit_decision`)."""
    return fit_decision(MedianModel, street_examples, WRONG_COSTS, seed, streets, workers, examples, NETWORK,
                        evidence_from=(MODEL_FILE,))


def main(argv: list[str] | None = None) -> int:
    return fit_command(argv, __doc__.splitlines()[0], fit, DEFAULT_SEED, DEFAULT_STREETS, MEDIAN_FILE)


if __name__ == "__main__":
    raise SystemExit(main())

"""Fit when a frame differs from the kiosk's clear one by the light alone, beyond the playing area.

    python -m vision.synthetic.fit_stillness_beyond

The games :mod:`vision.synthetic.fit_stillness` films. Where the board leaves a band at least a
cell wide all round the picture (:func:`vision.stillness.beyond_the_cells`), the kiosk compares
only the picture beyond the playing area, and keeps its clear frame across plays: an arm must
cross that band to reach the cells, and a play changes only the cells. So each frame here is
compared there with the game's first frame and with the last frame before the latest hand came
in. A frame with no hand in the picture is an example of light and noise alone, one whose hand is
over the cells an example of a hand come in; a hand short of the cells is an example of neither.
Games whose board leaves no such band give no rows (the kiosk compares them whole, with
``vision/models/stillness.json``). The level and bound are chosen as
:mod:`vision.synthetic.fit_stillness` chooses them; the output is
``vision/models/stillness_beyond.json``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.hands import UNDER_HAND
from vision.stillness import (
    LEVELS,
    STILLNESS_BEYOND_FILE,
    StillnessDecision,
    beyond_the_cells,
    change_since,
    log_picture,
)
from vision.synthetic.fit_stillness import DEFAULT_GAMES, DEFAULT_SEED, describe, filmed_scene, fitted
from vision.synthetic.fitting import fit_command
from vision.synthetic.stream import film


def per_game(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One filmed game's rows: evidence at every level beyond the playing area, and 1 for a hand
    over the cells, 0 for light alone, each frame against the clear frames the kiosk may hold
    then: the game's first, and the last with no hand before the latest hand."""
    scene = filmed_scene(seed)
    cal = scene.calibration
    rows, labels = [], []
    first: np.ndarray | None = None
    last_free = before_hand = beyond = first
    hand_was_in = False
    for play in film(scene, seed):
        for frame in play.frames:
            now = log_picture(frame.image)
            if beyond is None:
                h, w = frame.image.shape[:2]
                beyond = beyond_the_cells(cal.corners, cal.rows, cal.cols, (w, h), now.shape)
                if beyond is None:  # the board leaves too little beyond it: compared whole
                    return np.zeros((0, len(LEVELS))), np.zeros(0)
            hand_in = frame.hand_in_picture > 0.0
            if hand_in and not hand_was_in:
                before_hand = last_free
            hand_was_in = hand_in
            if hand_in and frame.hand_over_cells < UNDER_HAND:
                continue  # a hand short of the cells: either answer is right
            for clear in (first, before_hand):
                if clear is not None and clear is not now:
                    rows.append(change_since(clear, now, beyond=beyond))
                    labels.append(1.0 if hand_in else 0.0)
            if not hand_in:
                first = now if first is None else first
                last_free = now
    return np.array(rows, np.float64).reshape(-1, len(LEVELS)), np.array(labels, np.float64)


def fit(seed: int = DEFAULT_SEED, games: int = DEFAULT_GAMES, workers: int = 2,
        examples: Path | None = None) -> StillnessDecision:
    """The decision fitted on ``games`` filmed games drawn from ``seed``."""
    return fitted(per_game, seed, games, workers, examples, beyond_the_cells=True)


def main(argv: list[str] | None = None) -> int:
    return fit_command(argv, __doc__.splitlines()[0], fit, DEFAULT_SEED, DEFAULT_GAMES, STILLNESS_BEYOND_FILE,
                       "games", describe)


if __name__ == "__main__":
    raise SystemExit(main())

"""Fit when a frame differs from the last clear one by the light alone.

    python -m vision.synthetic.fit_stillness

Filmed ``train``-family Upwords games (:mod:`vision.synthetic.stream`: 8x8 and 10x10, two in three
on a skin-toned table with the light changed between plays, a hand coming and going each play).
The kiosk compares each frame with a clear one its arm check passed, on the picture beyond the
playing area (:func:`vision.stillness.beyond_the_cells`), and keeps that clear frame across plays;
so each frame here is compared with the game's first frame and with the last frame before the
latest hand came in. A frame with no hand in the picture is an example of light and noise alone,
one whose hand is over the cells an example of a hand come in
(:func:`vision.stillness.change_since`). A hand in the picture short of the cells is an example
of neither: it may be carried as clear, since it must move again to reach a cell.

For each of :data:`vision.stillness.LEVELS` the bound keeps below the smallest hand by as much as
the smallest hands spread (:func:`hand_bound`), and is tried out of fold: games split in five,
each judged by the bound set on the others. The level kept is, of those whose bound carried no
hand out of fold, the one under whose bound most frames of light alone fall.
The output is ``vision/models/stillness.json``. The ``held_out`` family is never read here:
``python -m bench stream`` measures on it.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import numpy as np

from vision.hands import UNDER_HAND
from vision.stillness import (
    LEVELS,
    STILLNESS_FILE,
    StillnessDecision,
    beyond_the_cells,
    change_since,
    log_picture,
)
from vision.synthetic.fitting import FOLDS, fit_command, gathered
from vision.synthetic.scenes import grid_scene
from vision.synthetic.stream import film

DEFAULT_SEED = 47
DEFAULT_GAMES = 40
PLAYS = 14
#: the bound keeps below the smallest hand by as much (log area) as the smallest hands spread
#: over this many (over fewer, the smallest hand of a fifth of the games can fall under the bound
#: the other games set): a hand the fit never drew comes in about as far below the smallest drawn one
#: as those fall below each other (a hand carried as clear lets a picture with a hand be read;
#: light not cleared only leaves it to the arm check, as without this decision)
TAIL_HANDS = 20


def per_game(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One filmed game's rows: evidence at every level, and 1 for a hand over the cells, 0 for
    light alone, each frame against the clear frames the kiosk may hold then: the game's first,
    and the last with no hand before the latest hand (the picture beyond the playing area)."""
    kind = ("upwords8", "upwords10")[seed % 2]
    scene = grid_scene(seed, "train", kind, n_frames=PLAYS, hand_chance=0.0, sequence=True,
                       light_change=(seed // 2) % 3 != 0, clean_frames=True)
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
                if beyond is None:  # the board leaves too little beyond it: compared whole, never so
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


def hand_bound(hands: np.ndarray, tail: int = TAIL_HANDS) -> float:
    """The bound (share of the picture) under which a change is light, from the hands' evidence
    at one level: below the smallest by the spread of the ``tail`` smallest (log area)."""
    ordered = np.sort(np.log(np.maximum(hands, 1e-9)))
    if not len(ordered):
        return 0.0
    return float(np.exp(ordered[0] - (ordered[min(tail, len(ordered)) - 1] - ordered[0])))


def out_of_fold(evidence: np.ndarray, y: np.ndarray, groups: np.ndarray, tail: int = TAIL_HANDS
                ) -> tuple[int, int]:
    """At one level (``evidence``, a row's at it): games split in five, each judged by the bound
    set on the others; how many of its hands fall under the bound (carried as clear), and how
    many frames of light alone."""
    carried = cleared = 0
    for fold in range(FOLDS):
        out = groups % FOLDS == fold
        bound = hand_bound(evidence[~out & (y > 0.5)], tail)
        carried += int((evidence[out & (y > 0.5)] < bound).sum())
        cleared += int((evidence[out & (y < 0.5)] < bound).sum())
    return carried, cleared


def choose(x: np.ndarray, y: np.ndarray, groups: np.ndarray, tail: int = TAIL_HANDS
           ) -> tuple[int, float, int] | None:
    """The level (its index) under whose bound most frames of light alone fall, among those whose
    bound carried no hand out of fold; its bound, and how many frames of light it clears. None
    when every level carried a hand."""
    best: tuple[int, float, int] | None = None
    for i in range(len(LEVELS)):
        if out_of_fold(x[:, i], y, groups, tail)[0]:
            continue
        bound = hand_bound(x[y > 0.5, i], tail)
        cleared = int((x[y < 0.5, i] < bound).sum())
        if best is None or cleared > best[2]:
            best = (i, bound, cleared)
    return best


def fit(seed: int = DEFAULT_SEED, games: int = DEFAULT_GAMES, workers: int = 2,
        examples: Path | None = None) -> StillnessDecision:
    """The decision fitted on ``games`` filmed games drawn from ``seed``."""
    x, y, groups, seed, games = gathered(per_game, seed, games, workers, examples, "games")
    chosen = choose(x, y, groups)
    level, bound, cleared = chosen if chosen is not None else (len(LEVELS) - 1, 0.0, 0)
    carried, light_cleared = out_of_fold(x[:, level], y, groups)
    info = {"seed": seed, "games": games, "family": "train", "date": datetime.date.today().isoformat(),
            "light_frames": int((y < 0.5).sum()), "hand_frames": int((y > 0.5).sum()),
            "light_cleared": cleared, "tail_hands": TAIL_HANDS,
            "out_of_fold": {"hands_carried": carried, "light_cleared": light_cleared}}
    return StillnessDecision(LEVELS[level], bound, info, beyond_the_cells=True)


def main(argv: list[str] | None = None) -> int:
    return fit_command(argv, __doc__.splitlines()[0], fit, DEFAULT_SEED, DEFAULT_GAMES, STILLNESS_FILE,
                       "games", lambda model: f"level {model.level}, bound {model.bound:.5f}")


if __name__ == "__main__":
    raise SystemExit(main())

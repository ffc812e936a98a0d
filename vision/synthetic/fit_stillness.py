"""Fit when a frame differs from the last clear one by the light alone.

    python -m vision.synthetic.fit_stillness

Filmed ``train``-family Upwords games (:mod:`vision.synthetic.stream`: 8x8 and 10x10, two in three
on a skin-toned table with the light changed between plays, a hand coming and going each play; in
every other pair of games the hands are of any skin tone, darker and paler than the family's two:
:func:`vision.synthetic.style.with_any_skin`; in every other four, on a table of any make and tone:
:func:`vision.synthetic.style.with_any_table`; in about one changed-light game in four, the hands
of the table's own colour: :func:`vision.synthetic.style.with_table_skin`).
Each run of frames with no hand in the picture starts from its first frame, as the kiosk starts
from a still frame its arm check passes; the rest of the run are examples of light and noise
alone, and every frame of the next play whose hand is over the cells is an example of a hand
come in (:func:`vision.stillness.change_since` against that first frame). A hand in the picture
short of the cells is an example of neither: it may be carried as clear, since it must move again
to reach a cell.

For each of :data:`vision.stillness.LEVELS` the bound keeps below the smallest hand by as much as
the smallest hands spread (:func:`hand_bound`), and is tried out of fold: games split in five,
each judged by the bound set on the others. The level kept is, of those whose bound carried no
hand out of fold, the one under whose bound most frames of light alone fall.
The output is ``vision/models/stillness.json``. The ``held_out`` family is never read here:
``python -m bench stream`` measures on it.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vision.hands import UNDER_HAND
from vision.stillness import LEVELS, STILLNESS_FILE, StillnessDecision, change_since, log_picture
from vision.synthetic.fitting import FOLDS, fit_command, gathered
from vision.synthetic.scenes import Scene, grid_scene
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


def filmed_scene(seed: int) -> Scene:
    """The game a seed films: 8x8 or 10x10, its light changed between plays in two of three, the
    hands of any skin tone in every other pair of games, a table of any make and tone in every other
    four (a new light changes a check or a stripe band by band), and in one changed-light game in
    four the hands of the table's own colour (an arm that changes little beyond the cells but its
    shading and its edge)."""
    kind = ("upwords8", "upwords10")[seed % 2]
    light_change = (seed // 2) % 3 != 0
    return grid_scene(seed, "train", kind, n_frames=PLAYS, hand_chance=0.0, sequence=True,
                      light_change=light_change, clean_frames=True, any_skin=(seed // 2) % 2 == 1,
                      any_table=(seed // 4) % 2 == 1, table_skin=light_change and (seed // 8) % 4 == 0)


def per_game(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One filmed game's rows: evidence at every level, and 1 for a hand over the cells, 0 for
    light alone."""
    scene = filmed_scene(seed)
    rows, labels = [], []
    clear = None  # the first frame of the current run without a hand
    before_hand = None  # the clear frame the play's hand came in on
    for play in film(scene, seed):
        for frame in play.frames:
            if frame.hand_in_picture == 0.0:
                if clear is None:
                    clear = log_picture(frame.image)
                else:
                    rows.append(change_since(clear, log_picture(frame.image)))
                    labels.append(0.0)
                continue
            if clear is not None:
                before_hand, clear = clear, None
            if frame.hand_over_cells >= UNDER_HAND and before_hand is not None:
                rows.append(change_since(before_hand, log_picture(frame.image)))
                labels.append(1.0)
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
    return fitted(per_game, seed, games, workers, examples)


def fitted(rows_of: Callable[[int], tuple[np.ndarray, np.ndarray]], seed: int, games: int, workers: int,
           examples: Path | None, beyond_the_cells: bool = False) -> StillnessDecision:
    """The decision fitted on the rows ``rows_of`` gives for ``games`` seeds drawn from ``seed``
    (``beyond_the_cells``: the rows compare the picture beyond the playing area)."""
    x, y, groups, seed, games = gathered(rows_of, seed, games, workers, examples, "games")
    chosen = choose(x, y, groups)
    level, bound, cleared = chosen if chosen is not None else (len(LEVELS) - 1, 0.0, 0)
    carried, light_cleared = out_of_fold(x[:, level], y, groups)
    info = {"seed": seed, "games": games, "family": "train", "date": datetime.date.today().isoformat(),
            "light_frames": int((y < 0.5).sum()), "hand_frames": int((y > 0.5).sum()),
            "light_cleared": cleared, "tail_hands": TAIL_HANDS,
            "out_of_fold": {"hands_carried": carried, "light_cleared": light_cleared}}
    return StillnessDecision(LEVELS[level], bound, info, beyond_the_cells)


def describe(model: StillnessDecision) -> str:
    return f"level {model.level}, bound {model.bound:.5f}"


def main(argv: list[str] | None = None) -> int:
    return fit_command(argv, __doc__.splitlines()[0], fit, DEFAULT_SEED, DEFAULT_GAMES, STILLNESS_FILE,
                       "games", describe)


if __name__ == "__main__":
    raise SystemExit(main())

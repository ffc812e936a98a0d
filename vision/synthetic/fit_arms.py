"""Fit the decision that clears a change of light taken for an arm: ``python -m vision.synthetic.fit_arms``.

The arm check's rules (:mod:`vision.arms`) flag every change that comes in from outside as an
arm does; here they are run on ``train``-family scenes (:mod:`vision.synthetic.scenes`) of every
board kind, two in three on a skin-toned table with the light changed since calibration, a hand
in about half the pictures (in half the scenes of any skin tone, darker and paler than the
family's two: :func:`vision.synthetic.style.with_any_skin`; in half the scenes with the light
changed the table of any make and tone, a check or a stripe among them:
:func:`vision.synthetic.style.with_any_table`), and Word on the Street games turn
by turn (tiles captured beside the street, as a real game leaves them). Every picture the rules
flag (a cell more than :data:`vision.arms.UNDER_HAND` under an arm) is a row of
:func:`vision.arm_decision.arm_evidence`: an arm if a hand is over the cells and the rules flag
where it is, light if there is no hand at all. No row for a hand short of the cells (it may be
flagged or not), nor for a hand the rules missed while they took something else for an arm: that
is an example of neither, and ``python -m bench hands`` counts it as a hand missed either way.
The network is fitted on every row; the bound under which a change is cleared as light is set on
out-of-fold probabilities (each scene judged by a network fitted without it) below every arm's,
with room for arms the fit never drew (:func:`light_bound`). The output is
``vision/models/arms.json`` with the seed, the counts and how the bound did out of fold.

The ``held_out`` family is never read here: ``python -m bench hands --light-change`` and
``python -m bench turns`` measure on it and on seeds never fitted.
"""

from __future__ import annotations

import datetime
from dataclasses import asdict
from pathlib import Path

import numpy as np

from vision.arm_decision import ARM_FILE, ArmDecision
from vision.arms import arm_candidate
from vision.hands import UNDER_HAND
from vision.space_decision import logit
from vision.synthetic.fit_hands import examples_of
from vision.synthetic.fitting import NetworkSize, fit_command, fit_out_of_fold, gathered
from vision.synthetic.scenes import Scene, grid_scene, street_scene

DEFAULT_SEED = 37
DEFAULT_SCENES = 800
#: the bound keeps below the lowest arm's probability by as much (in log-odds) as the lowest arms
#: spread over this many: a fresh arm falls below the lowest fitted one about as far as the lowest
#: fall below each other (a hand cleared may leave a cell read wrong and sure; a light not
#: cleared only makes the kiosk wait)
TAIL_ARMS = 5
#: the bound is never looser than this: a change the network is unsure about is an arm
WIDEST_LIGHT = 0.5
NETWORK = NetworkSize(hidden=16, steps=4000)
#: the kinds of scene, one drawn per seed: a street game twice (its captured tiles beside the
#: street under glare are most of what light makes the rules take for an arm)
KINDS = ("upwords8", "upwords10", "grid15", "street", "street game", "street game")


def per_scene(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows of one scene: its kind and whether its light changed follow from its seed."""
    kind = KINDS[seed % len(KINDS)]
    light_change = (seed // len(KINDS)) % 3 != 0
    any_skin = (seed // (3 * len(KINDS))) % 2 == 1
    any_table = (seed // (6 * len(KINDS))) % 2 == 1
    if kind == "street game":
        scene = street_scene(seed, "train", n_frames=14, hand_chance=0.3, light_change=light_change,
                             sequence=True, any_skin=any_skin, any_table=any_table)
    elif kind == "street":
        scene = street_scene(seed, "train", n_frames=6, hand_chance=0.5, light_change=light_change,
                             any_skin=any_skin, any_table=any_table)
    else:
        scene = grid_scene(seed, "train", kind, n_frames=6, hand_chance=0.5, sequence=True,
                           light_change=light_change, any_skin=any_skin, any_table=any_table)
    return scene_rows(scene, light_change)


def scene_rows(scene: Scene, light_change: bool) -> tuple[np.ndarray, np.ndarray]:
    """The rows of a rendered ``scene``: evidence, and 1 for an arm, 0 for light."""
    rows, labels = [], []
    for example in examples_of(scene, light_change):
        if example.hand and not example.over_cells:
            continue
        covered, evidence = arm_candidate(example.small[0], example.corners, example.rows, example.cols,
                                          example.scene, example.tile_lab, example.stacks, example.small)
        if evidence is None:
            continue  # nothing flagged
        flagged = covered > UNDER_HAND
        if example.over_cells and not (flagged & (example.cover > UNDER_HAND)).any():
            continue  # the rules missed the hand and took something else for an arm: no example of either
        rows.append(evidence)
        labels.append(float(example.over_cells))
    width = len(ArmDecision.features)
    return np.array(rows, np.float64).reshape(-1, width), np.array(labels, np.float64)


def light_bound(p: np.ndarray, y: np.ndarray, tail: int = TAIL_ARMS) -> float:
    """The bound at or below which a change is cleared as light, from out-of-fold probabilities
    ``p`` (truth ``y``, 1 an arm): the highest light's probability (or 0) below the lowest arm's by
    the spread of the ``tail`` lowest arms' (log-odds); never above :data:`WIDEST_LIGHT`."""
    arms, light = np.sort(logit(p[y > 0.5])), np.sort(p[y < 0.5])
    room = float(arms[0] - (arms[min(tail, len(arms)) - 1] - arms[0])) if len(arms) else np.inf
    below = light[(logit(light) < room) & (light <= WIDEST_LIGHT)]
    return float(below[-1]) if len(below) else 0.0


def fit(seed: int = DEFAULT_SEED, scenes: int = DEFAULT_SCENES, workers: int = 2,
        examples: Path | None = None) -> ArmDecision:
    """The decision fitted on ``scenes`` scene seeds drawn from ``seed`` (``examples``: keep the
    evidence there, and take it from there when it exists)."""
    x, y, groups, seed, scenes = gathered(per_scene, seed, scenes, workers, examples, "scenes")
    oof, net = fit_out_of_fold(x, y, groups, NETWORK, workers)
    bound = light_bound(oof, y)
    cleared = oof <= bound
    info = {"seed": seed, "scenes": scenes, "family": "train", "date": datetime.date.today().isoformat(),
            "flagged_pictures": len(y), "with_arm": int(y.sum()), "tail_arms": TAIL_ARMS,
            "network": asdict(NETWORK),
            "out_of_fold": {"light_cleared": int((cleared & (y < 0.5)).sum()),
                            "arms_cleared": int((cleared & (y > 0.5)).sum())}}
    return ArmDecision(net, bound, 1.0, info)


def main(argv: list[str] | None = None) -> int:
    return fit_command(argv, __doc__.splitlines()[0], fit, DEFAULT_SEED, DEFAULT_SCENES, ARM_FILE, "scenes")


if __name__ == "__main__":
    raise SystemExit(main())

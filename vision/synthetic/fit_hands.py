"""Fit the arm check's light thresholds on randomised boards: ``python -m vision.synthetic.fit_hands``.

Why fitted, not set by hand: whether a change is light or an arm depends on what tables, lamps
and cameras do, and a threshold chosen on the pictures that showed a problem holds for those
pictures only. Here every decision the light correction adds (:mod:`vision.arms`,
:func:`vision.arms._light_field`) is measured on ``train``-family scenes
(:mod:`vision.synthetic.scenes`), half of them on a skin-toned table with the light changed
since calibration (``light_change``), half as the scenes always were, a hand in about half the
pictures; every other scene's hands of any skin tone (``any_skin``: a pale hand in a warm light
over a plain board adds light as a lamp's glare does), and every other pair of board scenes'
changed light under a harsh lamp's glare (``harsh_glare``: the glare the arm check must still
take out); half the scenes with the light changed stand on a table of any make and tone
(``any_table``: a check or a stripe changes under a new light band by band, as a plain table does
not). The output is ``vision/models/hands.json``, with the seed, the counts and the date it
was fitted on; the same seed gives the same file (but its date).

The ``held_out`` family is never read here: the benchmark (``python -m bench hands
--light-change``) measures on it.
"""

from __future__ import annotations

import argparse
import datetime
import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from vision.arms import LIGHT_FILE, LightThresholds, arm_candidate, shrink
from vision.hands import UNDER_HAND
from vision.learn_board import learn_grid, learn_street
from vision.synthetic.scenes import Scene, grid_scene, street_scene
from vision.upwords_reader import TileGeometry, UpwordsReader

DEFAULT_SEED = 23
#: scenes per board kind, each with and without a change of light
DEFAULT_SCENES = {"upwords8": 6, "upwords10": 4, "grid15": 4, "street": 6}
FRAMES = 6


@dataclass(frozen=True)
class Example:
    """What the arm check is given for one picture, and its truth."""

    small: tuple[np.ndarray, float]
    scene: np.ndarray
    corners: np.ndarray
    rows: int
    cols: int
    tile_lab: np.ndarray | None
    stacks: tuple[np.ndarray, ...]
    cover: np.ndarray  # the share of each cell the hand covers (rows x cols)
    hand: bool        # a hand in the picture at all (short of the cells: either answer is right)
    light_change: bool

    @property
    def over_cells(self) -> bool:
        """A hand over the cells: must be flagged, where it is."""
        return bool(self.cover.max() >= UNDER_HAND)


def _checked(s: Scene) -> tuple[np.ndarray, np.ndarray | None, tuple[np.ndarray, ...]]:
    """The calibration's picture, tile colour and border stacks, as the kiosk's reader has them."""
    cal = s.calibration
    if s.kind == "street":
        appearance = learn_street(cal.image, cal.corners, s.face_frac)
        stacks: tuple[np.ndarray, ...] = ()
    else:
        appearance = learn_grid(cal.image, cal.corners, cal.rows, cal.cols, s.face_frac, s.teaching.image,
                                s.teaching_layout.keys())
        loose = s.kind == "grid15"
        geometry = TileGeometry.from_shape(s.face_frac, s.thickness_mm, 1 if loose else 5, cal.cell_mm[0])
        reader = UpwordsReader(cal.corners, cal.image_size, rows=cal.rows, cols=cal.cols, geometry=geometry,
                               loose_tiles=loose, appearance=appearance)
        stacks = tuple(reader._border_stacks())
    assert appearance.scene is not None
    return appearance.scene, appearance.tile_lab, stacks


def examples(seed: int, counts: dict[str, int], family: str = "train") -> Iterator[Example]:
    """Every picture of the fitting scenes (``counts`` per kind, each with and without a change of
    light), scene seeds drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    for kind, n in counts.items():
        for i in range(n):
            scene_seed = int(rng.integers(0, 2**31 - 1))
            any_skin = i % 2 == 1
            any_table = i % 4 in (0, 3)  # with and without any skin, with and without harsh glare
            for light in (True, False):
                if kind == "street":
                    s = street_scene(scene_seed, family, n_frames=FRAMES, hand_chance=0.5, light_change=light,
                                     any_skin=any_skin, any_table=any_table)
                else:
                    harsh = light and i // 2 % 2 == 1
                    s = grid_scene(scene_seed, family, kind, n_frames=FRAMES, hand_chance=0.5, sequence=True,
                                   light_change=light, any_skin=any_skin, harsh_glare=harsh,
                                   any_table=any_table)
                yield from examples_of(s, light)


def examples_of(s: Scene, light_change: bool) -> Iterator[Example]:
    """Every picture of one scene, as the arm check is given it."""
    reference, tile_lab, stacks = _checked(s)
    for frame in s.frames:
        yield Example(shrink(frame.image), reference, np.asarray(frame.corners), frame.rows,
                      frame.cols, tile_lab, stacks, frame.hand_cover(), frame.hand, light_change)


def flagged(example: Example, thresholds: LightThresholds | None = None) -> bool:
    """Whether the arm check's rules flag the picture (a cell more than :data:`UNDER_HAND` under an
    arm); for a picture with a hand over the cells, whether they flag a cell the hand is over: a
    change of light taken for an arm elsewhere does not see the hand. The rules alone: the fitted
    decision that clears light (:mod:`vision.synthetic.fit_arms`) is fitted on top of them."""
    covered = arm_candidate(example.small[0], example.corners, example.rows, example.cols, example.scene,
                            example.tile_lab, example.stacks, example.small, thresholds)[0] > UNDER_HAND
    if example.over_cells:
        return bool((covered & (example.cover > UNDER_HAND)).any())
    return bool(covered.any())


def fit(data: list[Example]) -> tuple[LightThresholds, dict]:
    """The thresholds: see :class:`vision.arms.LightThresholds` for what each is."""
    return LightThresholds.fit(data, flagged)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="scenes per kind, as a multiple of the default")
    parser.add_argument("--out", default=str(LIGHT_FILE))
    args = parser.parse_args(argv)
    counts = {k: max(1, round(v * args.scale)) for k, v in DEFAULT_SCENES.items()}
    start = time.perf_counter()
    data = list(examples(args.seed, counts))
    thresholds, facts = fit(data)
    facts.update({"seed": args.seed, "family": "train", "scenes_per_kind": counts, "frames_per_scene": FRAMES,
                  "pictures": len(data), "fitted": datetime.date.today().isoformat()})
    thresholds.save(args.out, facts)
    print(f"fitted on {len(data)} pictures in {time.perf_counter() - start:.0f} s -> {args.out}")
    print(f"  {facts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A change of light is no hand: the arm check takes the light's smooth change out first.

On a skin-toned table a brighter or dimmer room, another white balance, a person's soft shadow
or a lamp's glare changes the table as an arm would (docs/reading.md, "Hands and arms"); a
hand over the cells under the same light must still be seen. Rendered ``train``-family boards
(the held-out family is the benchmark's: ``python -m bench hands --light-change``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.arms import LIGHT_FILE, LightThresholds, arm_candidate, arm_cells, tile_in_todays_light
from vision.hands import UNDER_HAND
from vision.learn_board import learn_grid
from vision.synthetic.render import Effects, Hand, Pose, render_upwords
from vision.synthetic.scenes import LIGHT_CHANGE_TABLES
from vision.synthetic.style import BoardStyle

TABLE_KIND, TABLE_COLOUR = LIGHT_CHANGE_TABLES["train"][0]  # a light, skin-toned wood
STYLE = BoardStyle(board=(45, 70, 105), floor=(34, 52, 80), table=TABLE_KIND, table_colour=TABLE_COLOUR)
SKIN = (120, 150, 205)  # a train-family skin tone: the table's own colour, near enough
POSE = Pose(tilt_deg=18, yaw_deg=8)
TILES = {(3, c): ("MOODS"[c - 2], 1) for c in range(2, 7)}

#: one of each kind of change, relative to the calibration's even light
LIGHTS = {
    "dimmer": Effects(brightness=0.6),
    "brighter": Effects(brightness=1.6),
    "warmer": Effects(white_balance=(0.78, 1.0, 1.22)),
    "cooler": Effects(white_balance=(1.22, 1.05, 0.8)),
    "shadow": Effects(shadow=0.45, shadow_seed=11),
    "glare": Effects(glare=0.6, glare_at=(0.4, 0.45), glare_radius=0.1),
    "glare at the picture's edge": Effects(glare=0.55, glare_at=(0.15, 0.85), glare_radius=0.14),
}
#: a lamp's glare that reaches from the picture's edge over the cells, as an arm would
EDGE_GLARE = LIGHTS["glare at the picture's edge"]


@pytest.fixture(scope="module")
def board():
    empty = render_upwords({}, pose=POSE, style=STYLE, seed=1, board_seed=5)
    teach = render_upwords(TILES, pose=POSE, style=STYLE, seed=2, board_seed=5)
    appearance = learn_grid(empty.image, empty.corners, 8, 8, 19.5 / 22, teach.image, TILES.keys())
    return empty, appearance


def _covered(board, effects: Effects, light: LightThresholds | None = None, rules_only: bool = False
             ) -> np.ndarray:
    """The arm check's answer (``rules_only``: before the fitted decision may clear it)."""
    empty, appearance = board
    shot = render_upwords(TILES, pose=POSE, style=STYLE, seed=3, board_seed=5, effects=effects)
    if rules_only:
        return arm_candidate(shot.image, empty.corners, 8, 8, appearance.scene, appearance.tile_lab,
                             light=light)[0]
    return arm_cells(shot.image, empty.corners, 8, 8, appearance.scene, appearance.tile_lab, light=light)


@pytest.mark.parametrize("light", sorted(LIGHTS))
def test_a_change_of_light_on_a_skin_toned_table_is_no_hand(board, light: str) -> None:
    covered = _covered(board, LIGHTS[light])
    assert covered.max() <= UNDER_HAND, f"{light}: under an arm: {np.argwhere(covered > UNDER_HAND)}"


@pytest.mark.parametrize("light", sorted(LIGHTS))
def test_a_hand_over_the_cells_in_the_same_light_is_seen(board, light: str) -> None:
    empty = board[0]
    width = empty.image_size[0]
    centre = np.asarray(empty.corners, float).reshape(4, 2).mean(axis=0)
    hand = Hand(tip=(float(centre[0]), float(centre[1])), angle_deg=20.0, width_px=0.12 * width, colour=SKIN)
    fx = LIGHTS[light]
    covered = _covered(board, Effects(**{**{f: getattr(fx, f) for f in fx.__dataclass_fields__},
                                         "hand": hand, "hand_lit": True}))
    assert (covered > UNDER_HAND).sum() >= 2, f"{light}: the hand over the cells was not seen"


def test_glare_from_the_picture_s_edge_is_light_added_not_an_arm(board) -> None:
    """Without the glare's model the rules take the same picture for an arm over the cells."""
    no_glare = replace(LightThresholds.load(), glare_spread=0.0)
    assert _covered(board, EDGE_GLARE, no_glare, rules_only=True).max() > UNDER_HAND
    assert _covered(board, EDGE_GLARE, rules_only=True).max() <= UNDER_HAND


def test_a_white_sleeve_in_the_glare_is_still_an_arm(board) -> None:
    """Glare is white and so is a sleeve: the sleeve's edge is a step, no glare's slope."""
    empty = board[0]
    corner = np.asarray(empty.corners, float).reshape(4, 2)[3]  # the board's corner nearest the glare
    centre = np.asarray(empty.corners, float).reshape(4, 2).mean(axis=0)
    tip = 0.5 * (corner + centre)
    sleeve = Hand(tip=(float(tip[0]), float(tip[1])), angle_deg=135.0, width_px=0.12 * empty.image_size[0],
                  colour=(245, 245, 245))
    covered = _covered(board, replace(EDGE_GLARE, hand=sleeve, hand_lit=True))
    assert (covered > UNDER_HAND).sum() >= 2


#: the palest skin a player may have (:data:`vision.synthetic.style.ANY_SKIN`)
PALE_SKIN = (180, 200, 238)
#: a light as bright and warm as the benchmarks' changes go: the pale hand's red is cut white
BRIGHT_WARM = Effects(brightness=1.6, white_balance=(0.78, 1.0, 1.22))


def _cells_under_arm(board_colour: tuple[int, int, int], effects: Effects, tip_towards: int | None = None,
                     angle: float = 0.0, colour: tuple[int, int, int] = PALE_SKIN
                     ) -> Callable[[LightThresholds], int]:
    """How many cells the arm check's rules, with given thresholds, put under an arm on a plain
    board of ``board_colour`` with a hand reaching to its middle (or halfway to corner
    ``tip_towards``) in ``effects``."""
    style = replace(STYLE, board=board_colour, floor=tuple(int(0.8 * v) for v in board_colour))
    empty = render_upwords({}, pose=POSE, style=style, seed=1, board_seed=5)
    teach = render_upwords(TILES, pose=POSE, style=style, seed=2, board_seed=5)
    appearance = learn_grid(empty.image, empty.corners, 8, 8, 19.5 / 22, teach.image, TILES.keys())
    corners = np.asarray(empty.corners, float).reshape(4, 2)
    tip = corners.mean(axis=0) if tip_towards is None else 0.5 * (corners[tip_towards] + corners.mean(axis=0))
    hand = Hand(tip=(float(tip[0]), float(tip[1])), angle_deg=angle, width_px=0.12 * empty.image_size[0],
                colour=colour)
    shot = render_upwords(TILES, pose=POSE, style=style, seed=3, board_seed=5,
                          effects=replace(effects, hand=hand, hand_lit=True))
    return lambda light: int((arm_candidate(shot.image, empty.corners, 8, 8, appearance.scene,
                                            appearance.tile_lab, light=light)[0] > UNDER_HAND).sum())


@pytest.mark.parametrize("board_colour", [(30, 30, 32), (45, 70, 105), (58, 62, 70)])
def test_a_pale_hand_in_a_bright_warm_light_is_an_arm_not_a_lamp_s_glare(board_colour) -> None:
    """With its red cut white a pale hand adds light alike in the channels left, as a lamp does,
    and a plain board has no grain for it to hide: only its edge, a step where a glare fades,
    tells them apart. Without that check the rules take it for glare."""
    under_arm = _cells_under_arm(board_colour, BRIGHT_WARM)
    assert under_arm(LightThresholds.load()) >= 2
    assert under_arm(replace(LightThresholds.load(), glare_step=1.0)) == 0


def test_a_white_sleeve_cut_white_in_a_bright_light_and_a_glare_is_still_an_arm() -> None:
    """In a light half as bright again the sleeve, the pale table and the glare's middle are all
    cut white, one white patch: only the light round the sleeve over the board, far short of
    cutting it, tells it from the glare."""
    under_arm = _cells_under_arm((58, 62, 70), replace(EDGE_GLARE, brightness=1.6), tip_towards=3,
                                 angle=135.0, colour=(235, 240, 245))
    assert under_arm(LightThresholds.load()) >= 2
    assert under_arm(replace(LightThresholds.load(), glare_step=1.0)) == 0


def test_the_light_thresholds_say_what_they_were_fitted_on() -> None:
    data = json.loads(LIGHT_FILE.read_text())
    facts = data["fitted_on"]
    assert facts["family"] == "train" and facts["pictures"] > 0 and facts["seed"] is not None
    assert LightThresholds.load() == LightThresholds(**data["thresholds"])


def test_unreadable_light_thresholds_say_how_to_refit(tmp_path) -> None:
    broken = tmp_path / "hands.json"
    broken.write_text('{"thresholds": {"scale": 0.1}}')
    with pytest.raises(ValueError, match="fit_hands"):
        LightThresholds.load(broken)


@pytest.mark.parametrize(("field", "before", "candidates"), [
    ("glare_grain", 1.6, LightThresholds.GLARE_GRAINS),  # its value before it was fitted
    ("glare_step", 1.0, LightThresholds.GLARE_STEPS),  # the glare's edge not checked
])
def test_thresholds_fitted_before_a_threshold_was_keep_its_value_from_before(tmp_path, field, before,
                                                                            candidates) -> None:
    older = tmp_path / "hands.json"
    data = json.loads(LIGHT_FILE.read_text())
    del data["thresholds"][field]
    older.write_text(json.dumps(data))
    assert LightThresholds.load(older) == replace(LightThresholds.load(), **{field: before})
    assert getattr(LightThresholds.load(), field) in candidates


def test_the_tiles_colour_in_a_brighter_light_is_measured_where_the_table_is_not_cut_white() -> None:
    """A pale printed table under a light half as bright again: its ground is cut at 255, its
    print is not. The tile colour expected today must be the tile's in that light (cut white
    too), not one dimmed by the table's cut pixels, which say the light rose less than it did."""
    rng = np.random.default_rng(0)
    reference = np.empty((120, 160, 3), np.float32)
    reference[:] = (190.0, 205.0, 220.0)                            # a pale table (BGR)
    print_dots = rng.random((120, 160)) < 0.3
    reference[print_dots] = (120.0, 130.0, 150.0)                   # its darker print
    reference[30:90, 40:120] = (40.0, 90.0, 50.0)                   # a green board
    reference += rng.normal(0.0, 2.0, reference.shape)
    gain = np.float32([1.5, 1.45, 1.4])
    current = np.clip(reference * gain, 0, 255).astype(np.uint8)
    reference = np.clip(reference, 0, 255).astype(np.uint8)
    table = np.ones((120, 160), bool)
    table[30:90, 40:120] = False
    tile_bgr = np.float32([[[150.0, 160.0, 170.0]]])  # a light grey tile at calibration
    tile_lab = cv2.cvtColor(tile_bgr / 255.0, cv2.COLOR_BGR2LAB).reshape(3)
    truth = cv2.cvtColor(np.clip(tile_bgr * gain, 0, 255) / 255.0, cv2.COLOR_BGR2LAB).reshape(3)
    today = tile_in_todays_light(tile_lab, reference, current, table)
    assert today[0] == pytest.approx(truth[0], abs=2.0)
    assert np.abs(today[1:] - truth[1:]).max() < 3.0

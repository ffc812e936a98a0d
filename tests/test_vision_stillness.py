"""A clear frame carried forward while nothing comes in (vision.stillness), on filmed games."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from vision.hands import UNDER_HAND
from vision.stillness import (
    LEVELS,
    StillnessDecision,
    beyond_the_cells,
    change_since,
    log_picture,
    stillness_beyond_decision,
    stillness_decision,
)
from vision.synthetic.fit_stillness import choose, hand_bound
from vision.synthetic.scenes import grid_scene
from vision.synthetic.stream import FilmedPlay, film


@cache
def _filmed(seed: int, family: str, kind: str = "upwords8", plays: int = 3) -> tuple[FilmedPlay, ...]:
    scene = grid_scene(seed, family, kind, n_frames=plays, hand_chance=0.0, sequence=True,
                       light_change=True, clean_frames=True)
    return tuple(film(scene, seed))


@pytest.mark.slow
@pytest.mark.parametrize("family", ["train", "held_out"])
def test_every_hand_over_the_cells_has_come_in_and_a_still_board_has_not(family: str) -> None:
    """Against the frame before the play (no hand, the light before), every frame with the hand
    over a cell has something come in, whatever the light did meanwhile; the settled board's
    frames, against the first of them, have not (the same light, the sensor's noise)."""
    decision = stillness_decision()
    for play in _filmed(3, family, "upwords10"):
        before = log_picture(play.frames[0].image)
        hands = [f for f in play.frames if f.hand_over_cells >= UNDER_HAND]
        assert hands
        assert not any(decision.nothing_came_in(before, log_picture(f.image)) for f in hands)
        settled = [log_picture(f.image) for f in play.frames[-8:]]
        assert all(decision.nothing_came_in(settled[0], now) for now in settled[1:])


def test_the_evidence_is_the_largest_change_the_light_does_not_explain() -> None:
    """A change over the whole picture (brighter, warmer) leaves nothing; a patch that changed
    leaves its own area, at every level under its change."""
    rng = np.random.default_rng(5)
    picture = rng.integers(60, 160, (120, 160, 3)).astype(np.uint8)
    warmer = (picture * np.array([0.8, 1.0, 1.3]) * 1.2).astype(np.uint8)
    clear = log_picture(picture)
    assert change_since(clear, log_picture(warmer))[LEVELS.index(0.1):].max() < 0.002
    patched = warmer.copy()
    patched[42:50, 0:40] = (20, 90, 230)  # 8 x 40 px from the left edge, unlike anything there
    found = change_since(clear, log_picture(patched))
    share = 320 / picture[..., 0].size
    assert 0.7 * share < found[LEVELS.index(0.1)] < 1.6 * share
    assert np.all(np.diff(found) <= 1e-12), "a higher level never finds more"
    still = StillnessDecision(0.1, 0.002)
    assert still.nothing_came_in(clear, log_picture(warmer))
    assert not still.nothing_came_in(clear, log_picture(patched))
    assert not still.nothing_came_in(clear, log_picture(picture[:100])), "another camera mode: nothing known"


def test_the_bound_keeps_below_the_smallest_hand_by_the_smallest_hands_spread() -> None:
    hands = np.array([0.02, 0.06, 0.05, 0.04, 0.03, 0.3, 0.2])
    assert hand_bound(hands, tail=5) == pytest.approx(0.02 / 3)
    assert hand_bound(np.array([])) == 0.0
    x = np.zeros((6, len(LEVELS)))
    x[:3] = 0.5  # three hands, large at every level
    x[3:, :] = 0.6  # light: larger than the hands at the low levels ...
    x[3:, -2:] = 0.0  # ... nothing at the two highest
    y, games = np.array([1, 1, 1, 0, 0, 0.0]), np.arange(6)
    assert choose(x, y, games, tail=2) == (len(LEVELS) - 2, pytest.approx(0.5), 3)
    x[0, -2] = 0.01  # one game's hand is small at that level: the bound the others set carries it
    assert choose(x, y, games, tail=2) == (len(LEVELS) - 1, pytest.approx(0.5), 3)
    x[0, :] = 0.01
    assert choose(x, y, games, tail=2) is None


def test_the_shipped_decision_says_what_it_was_fitted_on_and_carried_no_hand(tmp_path) -> None:
    decision = stillness_decision()
    assert decision.level in LEVELS and 0.0 < decision.bound < 0.05
    info = decision.info
    assert info["family"] == "train" and info["games"] >= 20 and info["hand_frames"] > 500
    assert info["out_of_fold"]["hands_carried"] == 0
    assert info["light_cleared"] > info["light_frames"] / 3
    decision.save(tmp_path / "s.json")
    assert StillnessDecision.load(tmp_path / "s.json") == decision
    beyond = stillness_beyond_decision()
    assert beyond.beyond_the_cells and not decision.beyond_the_cells and beyond.level in LEVELS
    assert beyond.info["out_of_fold"]["hands_carried"] == 0 and beyond.info["hand_frames"] > 500
    assert beyond.info["light_cleared"] > beyond.info["light_frames"] / 3


@pytest.mark.slow
def test_the_gate_carries_the_clear_board_past_a_hand_check_that_flickers() -> None:
    """A filmed play under a changed light whose settled board the calibration's hand check, on
    each frame alone, now and then takes for an arm: carried forward from a still frame it passed,
    the board is clear all the while it stands still, and the hand that placed the tiles is still
    waited out."""
    from bench.bench_stream import _watcher
    from vision.synthetic.train import taught_grid_reader

    scene = grid_scene(7300, "train", "upwords8", n_frames=5, hand_chance=0.0, sequence=True,
                       light_change=True, clean_frames=True)
    play = list(film(scene, 7300))[4]
    reader = taught_grid_reader(scene)
    states = {}
    for carried in (False, True):
        gate = _watcher(reader, stillness=carried).gate
        states[carried] = [gate.update(f.image, f.timestamp) for f in play.frames]
    hands = [k for k, f in enumerate(play.frames) if f.hand_over_cells >= UNDER_HAND]
    settled = range(len(play.frames) - 12, len(play.frames))
    for carried in (False, True):
        assert all(states[carried][k].state == "obstructed" for k in hands)
    assert any(states[False][k].state == "obstructed" for k in settled), "the check alone flickers"
    assert all(states[True][k].state != "obstructed" for k in settled)
    assert sum(states[True][k].hand_free for k in settled) > len(settled) // 2


def test_beyond_the_cells_a_change_on_the_cells_is_no_evidence_and_one_on_its_way_there_is() -> None:
    """New tiles change only the playing area; an arm crosses the picture beyond it to get there."""
    rng = np.random.default_rng(7)
    picture = rng.integers(60, 160, (480, 640, 3)).astype(np.uint8)
    corners = np.float64([[200, 120], [440, 120], [440, 360], [200, 360]])  # 8x8 cells of 30 px
    clear = log_picture(picture)
    beyond = beyond_the_cells(corners, 8, 8, (640, 480), clear.shape)
    assert beyond.shape == clear.shape[:2] and not beyond[clear.shape[0] // 2, clear.shape[1] // 2]
    assert beyond[0, 0] and beyond[-1, -1]
    tiles = picture.copy()
    tiles[150:330, 230:410] = (200, 225, 235)  # a board full of new tiles, under a brighter light
    brighter = (tiles * 1.3).clip(0, 255).astype(np.uint8)
    decision = StillnessDecision(0.1, 0.002, beyond_the_cells=True)
    assert decision.nothing_came_in(clear, log_picture(brighter), beyond)
    arm = brighter.copy()
    arm[220:250, 0:300] = (90, 120, 190)  # from the picture's left edge onto the cells
    assert not decision.nothing_came_in(clear, log_picture(arm), beyond)
    whole = StillnessDecision(0.1, 0.002)  # fitted on the whole picture: it looks at all of it
    assert not whole.nothing_came_in(clear, log_picture(brighter), beyond)
    assert not decision.nothing_came_in(clear, log_picture(brighter)), "no band given: nothing known"
    # a board that nearly fills the picture leaves an arm too little to cross: nothing beyond it
    filling = np.float64([[40, 20], [600, 20], [600, 460], [40, 460]])
    assert beyond_the_cells(filling, 8, 8, (640, 480), clear.shape) is None
    near_one_side = corners - np.float64([170, 0])  # 30 px from the left edge: too narrow
    assert beyond_the_cells(near_one_side, 8, 8, (640, 480), clear.shape) is None


def test_the_gate_holds_its_clear_frame_across_a_play_that_brought_a_new_light() -> None:
    """An Upwords board seen clear, a hand placing two tiles, then the board under a light a
    third brighter: compared beyond the playing area with the clear frame from before the play,
    the frames after it have no hand, though the hand check, on each alone, takes every frame
    from the hand on for an arm. The hand is waited for all the while it is there; compared whole,
    nothing after the play is carried."""
    from vision.stability import SteadinessGate
    from vision.synthetic.render import Effects, Hand, Pose, render_upwords

    pose = Pose(tilt_deg=22, yaw_deg=6)
    before, after = {(3, 3): ("O", 1)}, {(3, 3): ("O", 1), (3, 4): ("N", 1), (3, 5): ("E", 1)}
    hand = Hand(tip=(560, 330), angle_deg=15, width_px=90)
    rooms = ([(before, Effects(noise_sigma=2.0, noise_seed=k)) for k in range(4)]
             + [(after, Effects(noise_sigma=2.0, noise_seed=10 + k, hand=hand)) for k in range(3)]
             + [(after, Effects(noise_sigma=2.0, noise_seed=20 + k, brightness=1.3)) for k in range(6)])
    shots = [render_upwords(cells, pose=pose, effects=room, seed=3, board_seed=5) for cells, room in rooms]
    corners = shots[0].corners
    decision = stillness_beyond_decision()
    assert decision.beyond_the_cells and not stillness_decision().beyond_the_cells
    states = {}
    index = {id(s.image): k for k, s in enumerate(shots)}
    for given in (corners, None):  # the check on each frame alone: an arm from the hand on
        gate = SteadinessGate(lambda f: f, 8, 8, stillness=stillness_decision(), corners=given,
                              stillness_beyond=decision, hand_over_board=lambda f: index[id(f)] >= 4)
        states[given is not None] = [gate.update(s.image, k / 10) for k, s in enumerate(shots)]
    carried = states[True]
    assert all(s.state == "obstructed" for s in carried[4:7]), "the hand is waited for"
    assert all(s.hand_free and s.state != "obstructed" for s in carried[7:])
    assert all(s.state == "obstructed" for s in states[False][4:])


def test_a_hand_the_check_missed_once_while_it_held_still_is_not_carried_as_clear() -> None:
    """A hand comes in and holds still over the board for over a second; the hand check sees it
    on every frame but one. The frame it missed followed one with the hand, so it is no clear
    frame to carry: every later frame with the hand is asked again and waited for, and the board
    is never steady with the hand over it."""
    from vision.stability import SteadinessGate
    from vision.synthetic.render import Effects, Hand, Pose, render_upwords

    pose = Pose(tilt_deg=22, yaw_deg=6)
    board = {(3, 3): ("O", 1), (3, 4): ("N", 1)}
    hand = Hand(tip=(560, 330), angle_deg=15, width_px=90)
    rooms = ([Effects(noise_sigma=2.0, noise_seed=k) for k in range(4)]
             + [Effects(noise_sigma=2.0, noise_seed=10 + k, hand=hand) for k in range(12)])
    shots = [render_upwords(board, pose=pose, effects=room, seed=3, board_seed=5) for room in rooms]
    missed = 5  # the second frame with the hand
    index = {id(s.image): k for k, s in enumerate(shots)}
    for given in (shots[0].corners, None):  # compared beyond the cells, or the whole picture
        gate = SteadinessGate(lambda f: f, 8, 8, stillness=stillness_decision(), corners=given,
                              stillness_beyond=stillness_beyond_decision(),
                              hand_over_board=lambda f: index[id(f)] >= 4 and index[id(f)] != missed)
        states = [gate.update(s.image, k / 10) for k, s in enumerate(shots)]
        assert states[missed].state != "obstructed"  # the miss itself: the check alone said so
        later = states[missed + 1:]
        assert all(s.state == "obstructed" and not s.hand_free for s in later), [s.state for s in later]
        assert not any(s.steady for s in states[4:])


@pytest.mark.slow
def test_an_arm_of_the_tables_own_colour_the_check_sees_is_never_carried_as_clear() -> None:
    """A held-out game on a plain peach table, the players' arms pale and nearly its colour:
    beyond the cells the arm changes little but its shading and its edge. Wherever the arm check
    on each frame alone sees the arm over the cells, the kiosk's gate waits for it too: carrying a
    clear frame forward adds no hand the check alone would not miss."""
    from bench.bench_plays import _boards
    from bench.bench_stream import _watcher
    from kiosk.camera.view import history
    from vision.synthetic.train import taught_grid_reader

    scene = grid_scene(2020001, "held_out", "upwords8", n_frames=8, hand_chance=0.0, sequence=True,
                       light_change=True, clean_frames=True)
    table, skin = np.array(scene.style.table_colour, float), np.array(scene.style.skin, float)
    assert np.abs(table - skin).max() < 20  # the arm is nearly the table's colour
    reader = taught_grid_reader(scene)
    kiosk, alone = _watcher(reader), _watcher(reader, stillness=False)
    seen, carried = 0, []
    for n, ((board, _), play) in enumerate(zip(_boards(scene), film(scene, 2020001), strict=True)):
        kiosk.accepted = alone.accepted = history(board)
        for k, frame in enumerate(play.frames):
            kiosk.feed(frame.image, frame.timestamp)
            alone.feed(frame.image, frame.timestamp)
            if frame.hand_over_cells >= UNDER_HAND and alone.last_state.state == "obstructed":
                seen += 1
                if kiosk.last_state.state != "obstructed":
                    carried.append((n, k, kiosk.last_state.state))
    assert seen > 10 and carried == []

"""The players' word that nothing is over the board: a still picture the checks take for a hand.

A change of light the hand checks cannot tell from an arm keeps the kiosk waiting until the light
changes again. After :attr:`kiosk.camera.live.LiveCamera.ASK_AFTER` seconds of a still picture
the screen asks the players; their word makes that picture the gate's clear frame
(:meth:`vision.stability.SteadinessGate.take_as_clear`), and the next hand is waited for as before.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pytest
from polling import wait_until

from kiosk.camera.live import LiveCamera, stacks_read
from vision.camera import ResilientCamera
from vision.camera_sources import SyntheticSource
from vision.stability import BoardWatcher, SteadinessGate
from vision.stillness import stillness_beyond_decision, stillness_decision
from vision.synthetic.render import Effects, Hand, Pose, render_upwords

POSE = Pose(tilt_deg=22, yaw_deg=6)
BOARD = {(3, 3): ("O", 1), (3, 4): ("N", 1)}
HAND = Hand(tip=(560, 330), angle_deg=15, width_px=90)


def _shots(rooms: list[Effects]) -> list[np.ndarray]:
    return [render_upwords(BOARD, pose=POSE, effects=room, seed=3, board_seed=5).image for room in rooms]


@pytest.fixture(scope="module")
def film() -> dict[str, list[np.ndarray]]:
    """Clear frames; then a lamp's glare come on beside the board and the room a third brighter
    (no light the stillness decisions carry, and taken for an arm); then the room dimmer, the glare
    where it was; then a hand coming in under that light; then a hand moving over the board."""
    def rooms(first: int, n: int, **light: object) -> list[Effects]:
        return [Effects(noise_sigma=2.0, noise_seed=first + k, **light) for k in range(n)]  # type: ignore[arg-type]

    moving = [Hand(tip=(560 - 40 * k, 330 + 10 * k), angle_deg=15, width_px=90) for k in range(4)]
    glare = {"glare": 0.7, "glare_at": (0.85, 0.2), "glare_radius": 0.2}
    return {"clear": _shots(rooms(0, 4)), "bright": _shots(rooms(10, 45, brightness=1.3, **glare)),
            "dimmer": _shots(rooms(60, 10, brightness=1.1, **glare)),
            "hand": _shots(rooms(80, 6, brightness=1.1, hand=HAND, **glare)),
            "moving": _shots([Effects(noise_sigma=2.0, noise_seed=90 + k, hand=h)
                              for k, h in enumerate(moving)])}


def _camera(watcher: BoardWatcher, render: Callable[[int], np.ndarray | None]) -> LiveCamera:
    """The kiosk's camera worker over ``watcher``, its frames drawn by ``render`` (frame number)."""
    return LiveCamera(ResilientCamera(lambda: SyntheticSource(render), clock=time.monotonic), watcher,
                      "upwords", period=0.02)


def _board_watcher(check: Callable[[np.ndarray], bool]) -> BoardWatcher:
    """A watcher over the rendered board with ``check`` as its hand check (no stillness)."""
    from vision.upwords_reader import UpwordsReader

    shot = render_upwords(BOARD, pose=POSE, seed=3, board_seed=5)
    return BoardWatcher(SteadinessGate(lambda f: f, 8, 8, hand_over_board=check),
                        stacks_read(UpwordsReader(shot.corners, shot.image_size)))


def _gate(film: dict[str, list[np.ndarray]], kind: str) -> SteadinessGate:
    """A gate whose hand check takes every frame after the clear ones for an arm: the light
    change it cannot tell, and the hand itself."""
    clear = {id(f) for f in film["clear"]}
    corners = render_upwords(BOARD, pose=POSE, seed=3, board_seed=5).corners
    if kind == "none":
        return SteadinessGate(lambda f: f, 8, 8, hand_over_board=lambda f: id(f) not in clear)
    return SteadinessGate(lambda f: f, 8, 8, stillness=stillness_decision(),
                          corners=corners if kind == "beyond" else None,
                          stillness_beyond=stillness_beyond_decision(),
                          hand_over_board=lambda f: id(f) not in clear)


@pytest.mark.parametrize("kind", ["beyond", "whole", "none"])
def test_the_players_word_clears_a_still_changed_light_and_the_next_hand_is_waited_for(film, kind) -> None:
    gate = _gate(film, kind)
    clock = iter(np.arange(0, 100, 0.1))
    for f in film["clear"]:
        gate.update(f, next(clock))
    waited = [gate.update(f, next(clock)) for f in film["bright"][:35]]
    assert all(s.state == "obstructed" for s in waited), "the changed light is taken for an arm"
    assert waited[-1].quiet >= 3.0, "a still picture: the screen may ask"
    assert gate.take_as_clear(film["bright"][35])
    after = [gate.update(f, next(clock)) for f in film["bright"][35:]]
    assert all(s.hand_free and s.state != "obstructed" for s in after)  # the reader is told so too
    assert after[-1].steady
    dimmer = [gate.update(f, next(clock)) for f in film["dimmer"]]
    if kind == "none":  # nothing carries the clear frame past a change of the picture
        assert all(s.state == "obstructed" for s in dimmer)
    else:  # the light changed again: carried while nothing comes in
        assert all(s.hand_free and s.state != "obstructed" for s in dimmer), [s.state for s in dimmer]
    hand = [gate.update(f, next(clock)) for f in film["hand"]]
    assert all(s.state == "obstructed" and not s.hand_free for s in hand), "the next hand is waited for"


def test_the_players_word_is_refused_while_the_picture_moves(film) -> None:
    gate = _gate(film, "beyond")
    clock = iter(np.arange(0, 100, 0.1))
    for f in film["clear"] + film["moving"][:2]:
        gate.update(f, next(clock))
    assert not gate.take_as_clear(film["moving"][2])
    states = [gate.update(f, next(clock)) for f in film["moving"][2:] + film["hand"]]
    assert all(s.state == "obstructed" for s in states)
    assert states[-1].quiet < 1.0


def test_a_gate_that_has_seen_no_frame_takes_no_word(film) -> None:
    gate = _gate(film, "beyond")
    assert not gate.take_as_clear(film["bright"][0])
    assert gate.update(film["bright"][0], 0.0).state == "obstructed"


@pytest.mark.slow
def test_the_kiosk_asks_after_a_still_wait_and_reads_the_play_once_the_players_say_so() -> None:
    """A filmed Upwords play on a printed cloth the hand check was never fitted on: the light
    changed at once after the hand left and its glare moved, and the calibration's checks take the
    settled board for an arm. The kiosk's camera worker waits, asks after ``ASK_AFTER`` seconds of
    a still picture, and on the players' word reads the play, exactly."""
    from bench.bench_plays import _boards
    from bench.bench_stream import _watcher
    from kiosk.camera.view import history
    from vision.synthetic.scenes import grid_scene
    from vision.synthetic.stream import SETTLED_FRAMES, film
    from vision.synthetic.train import taught_grid_reader
    from vision.upwords_reader import play_from_reading

    scene = grid_scene(1970000, "held_out", "upwords8", n_frames=2, hand_chance=0.0, sequence=True,
                       light_change=True, clean_frames=True)
    reader = taught_grid_reader(scene)
    before, placed = list(_boards(scene))[1]
    frames = [f.image for f in list(film(scene, 1970000))[1].frames]
    settled = frames[-SETTLED_FRAMES:]  # then the camera films the settled board, its noise anew

    def render(n: int) -> np.ndarray:
        return frames[n] if n < len(frames) else settled[(n - len(frames)) % len(settled)]

    watcher = _watcher(reader)  # the kiosk's watcher, with the calibration's checks
    history_before = watcher.accepted = history(before)
    live = _camera(watcher, render)
    live.start()
    try:
        assert wait_until(lambda: live.waiting_on_hand, 60), "the kiosk asks the players"
        asked = live.watcher.last_state
        assert asked is not None and asked.quiet >= LiveCamera.ASK_AFTER
        assert watcher.accepted is history_before, "no board was read while the kiosk waited"
        live.say_clear()
        assert wait_until(lambda: watcher.accepted is not history_before, 60), "read on the players' word"
        assert not live.waiting_on_hand
    finally:
        live.close()
    play = play_from_reading(before, watcher.accepted)
    assert play.ok and set(play.tiles) == placed, play


def test_the_kiosk_asks_too_when_its_check_takes_the_still_board_for_a_hand_now_and_then(film) -> None:
    """A check that flags every other frame of a still board never lets it be steady: the kiosk asks
    as it does for a hand seen on every frame, and reads the board on the players' word."""
    import itertools

    calls = itertools.count()
    watcher = _board_watcher(lambda f: next(calls) % 2 == 0)
    frames = film["clear"]
    live = _camera(watcher, lambda n: frames[n % len(frames)])
    live.start()
    try:
        assert wait_until(lambda: live.waiting_on_hand, 30)
        asked = []
        for _ in range(10):  # the question stays on the screen, whatever the check says frame by frame
            asked.append(live.waiting_on_hand)
            time.sleep(0.05)
        assert all(asked), asked
        assert watcher.accepted is None
        live.say_clear()
        assert wait_until(lambda: watcher.accepted is not None, 30), "read on the players' word"
    finally:
        live.close()
    assert {(c.row, c.col) for c in watcher.accepted.cells if c.height} == set(BOARD)  # no letters taught


def test_a_camera_lost_while_it_asks_takes_the_question_off(film) -> None:
    """No picture, no question: the screen says the camera is lost instead."""
    watcher = _board_watcher(lambda f: True)
    unplugged = False
    frames = film["clear"]

    def render(n: int) -> np.ndarray | None:
        return None if unplugged else frames[n % len(frames)]

    live = _camera(watcher, render)
    live.start()
    try:
        assert wait_until(lambda: live.waiting_on_hand, 30)
        unplugged = True
        assert wait_until(lambda: live.status.startswith("lost"), 30)
        assert not live.waiting_on_hand
    finally:
        live.close()

"""Filmed games (vision.synthetic.stream): what the kiosk's camera would stream, with its truth."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

from vision.hands import UNDER_HAND
from vision.synthetic.effects import apply_effects
from vision.synthetic.scenes import Scene, grid_scene
from vision.synthetic.stream import FPS, LIGHT_WHEN, PLACED_AT, REACH, SETTLED_FRAMES, FilmedPlay, film


@cache
def _game(light_change: bool) -> tuple[Scene, tuple[FilmedPlay, ...]]:
    scene = grid_scene(11, "train", "upwords8", n_frames=3, hand_chance=0.0, sequence=True,
                       light_change=light_change, clean_frames=True)
    return scene, tuple(film(scene, 11))


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.float32) - b.astype(np.float32)).mean())


def test_a_play_is_a_hand_that_comes_and_goes_then_a_still_board() -> None:
    _, plays = _game(False)
    stamps = [f.timestamp for p in plays for f in p.frames]
    assert np.allclose(np.diff(stamps), 1.0 / FPS)
    for n, play in enumerate(plays):
        frames = play.frames
        assert play.light_when in LIGHT_WHEN
        over = [f.hand_over_cells >= UNDER_HAND for f in frames]
        assert any(over[:len(REACH)]) and not any(over[len(REACH):]), "the hand only while it places"
        assert frames[0].hand_over_cells == 0.0 and frames[-1].hand_over_cells == 0.0
        # the hand is in the picture wherever it is over a cell, and in none once it left
        assert all(f.hand_in_picture > 0.0 for f in frames if f.hand_over_cells > 0.0)
        assert all(f.hand_in_picture == 0.0 for f in frames[len(REACH):] + frames[:1])
        assert 0.0 < max(f.hand_in_picture for f in frames) < 0.5
        assert [f.plays for f in frames[:PLACED_AT]] == [n] * PLACED_AT
        assert {f.plays for f in frames[PLACED_AT:]} == {n + 1}
        settled = frames[-SETTLED_FRAMES:]
        # a camera that does not move: the still board's frames differ by their noise alone
        assert all(0.0 < _gap(a.image, b.image) < 4.0 for a, b in itertools.pairwise(settled))


def test_the_still_board_is_in_the_next_pictures_light() -> None:
    scene, plays = _game(True)
    for shot, light, play in zip(scene.frames, scene.frame_effects, plays, strict=True):
        expected = apply_effects(shot.image, light)
        assert _gap(play.frames[-1].image, expected) < 4.0
    before, after = plays[0].frames[0].image, plays[0].frames[-1].image
    assert _gap(before, after) > 8.0, "the light changed within the play"


def test_clean_frames_change_nothing_else_of_the_scene() -> None:
    clean = grid_scene(11, "train", "upwords8", n_frames=3, hand_chance=0.0, sequence=True, clean_frames=True)
    plain = grid_scene(11, "train", "upwords8", n_frames=3, hand_chance=0.0, sequence=True)
    assert np.array_equal(clean.calibration.image, plain.calibration.image)
    assert np.array_equal(clean.teaching.image, plain.teaching.image)
    assert clean.frame_effects == plain.frame_effects
    for a, b, light in zip(clean.frames, plain.frames, plain.frame_effects, strict=True):
        assert a.heights == b.heights and a.letters == b.letters
        assert np.array_equal(apply_effects(a.image, light), b.image)


def test_only_a_scene_drawn_clean_can_be_filmed() -> None:
    with pytest.raises(ValueError, match="clean_frames"):
        next(film(grid_scene(11, "train", "upwords8", n_frames=1, sequence=True), 11))


def test_the_kiosk_waits_out_the_hand_and_offers_each_filmed_play() -> None:
    """The kiosk's own path (the steadiness gate with the calibration's hand check, three
    votes, the game's board as history) on a filmed game: every frame with a hand over the cells
    waits, each play is reported once, and no play is offered wrong (how many are offered at all
    is the benchmark's figure: ``python -m bench stream``)."""
    from bench.bench_plays import _boards
    from bench.bench_stream import _watcher
    from kiosk.camera.view import history
    from vision.synthetic.train import taught_grid_reader
    from vision.upwords_reader import play_from_reading

    scene, plays = _game(False)
    watcher = _watcher(taught_grid_reader(scene))
    offered = 0
    for (before, placed), play in zip(_boards(scene), plays, strict=True):
        watcher.accepted = history(before)
        reported = []
        for frame in play.frames:
            result = watcher.feed(frame.image, frame.timestamp)
            if frame.hand_over_cells >= UNDER_HAND:
                assert watcher.last_state is not None and watcher.last_state.state == "obstructed"
            if result is not None:
                reported.append(result)
        assert len(reported) == 1
        proposal = play_from_reading(before, reported[0])
        assert not proposal.ok or set(proposal.tiles) == placed
        offered += proposal.ok
    assert offered >= 2


def test_the_kiosk_reads_every_cell_not_only_those_the_gate_saw_change() -> None:
    """The steadiness gate compares grey levels, and a tile as light as its square changes them
    too little: the kiosk's read must find the play's tiles even when the gate names no cell."""
    from bench.bench_plays import _boards
    from kiosk.camera.live import stacks_read
    from kiosk.camera.view import history
    from vision.synthetic.train import taught_grid_reader
    from vision.upwords_reader import play_from_reading

    scene, plays = _game(False)
    reader = taught_grid_reader(scene)
    read = stacks_read(reader)
    offered = 0
    for (before, placed), play in zip(_boards(scene), plays, strict=True):
        frame = play.frames[-1].image
        reading = read(frame, history(before), frozenset())
        assert reading == reader.read(frame, previous=history(before))
        proposal = play_from_reading(before, reading)
        assert not proposal.ok or set(proposal.tiles) == placed
        offered += proposal.ok
    assert offered >= 2

"""Steadiness: frames count only when the board is still and clear; changed cells; voting."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision.reading import StreetReading
from vision.stability import BoardWatcher, SteadinessGate, vote
from vision.street import StreetReader
from vision.synthetic.render import Effects, Hand, Pose, render_street

POSE = Pose(tilt_deg=25, yaw_deg=4)


def _frames(positions: dict[str, int], n: int = 2, hand: Hand | None = None) -> list[np.ndarray]:
    """A few camera frames of the same board: the same scene, fresh sensor noise each time."""
    rooms = [Effects(noise_sigma=3, shadow_seed=100 + i, jpeg_quality=88, hand=hand) for i in range(n)]
    return [render_street(positions, pose=POSE, seed=5, effects=room).image for room in rooms]


@pytest.fixture(scope="module")
def scenes() -> dict[str, list[np.ndarray]]:
    return {
        "start": _frames({}),
        "moved": _frames({"P": 1, "R": -1}),
        "hand": _frames({"P": 1}, n=1, hand=Hand(tip=(520, 390), angle_deg=80, width_px=120)),
    }


def _watcher(votes: int = 3) -> tuple[BoardWatcher, StreetReader]:
    shot = render_street({}, pose=POSE, seed=5)
    reader = StreetReader(shot.corners, shot.image_size)
    gate = SteadinessGate(lambda f: reader.planes.warp(f, 5, 17, 16), 5, 17, still_for=0.5)
    calls: list[frozenset | None] = []

    def read(frame, previous, changed, *, hand_free=False):
        calls.append(changed)
        return reader.read(frame, hand_free=hand_free)

    watcher = BoardWatcher(gate=gate, read=read, votes=votes)
    watcher.calls = calls  # type: ignore[attr-defined]
    return watcher, reader


def test_a_reading_comes_only_after_the_board_has_been_still_long_enough(scenes) -> None:
    watcher, _ = _watcher()
    results = []
    for i in range(12):  # 10 frames a second
        results.append(watcher.feed(scenes["start"][i % 2], timestamp=i * 0.1))
    got = [i for i, r in enumerate(results) if r is not None]
    # still from t=0; steady from t>=0.5 (frame 5); three votes -> frame 7; then nothing new
    assert got == [7]
    assert results[7].positions["P"] == 0
    assert watcher.last_state.state == "steady"


def test_movement_and_a_hand_reset_the_wait(scenes) -> None:
    watcher, _ = _watcher(votes=2)
    t = 0.0
    for i in range(10):
        assert watcher.feed(scenes["start"][i % 2], t) is None or i >= 5
        t += 0.1
    accepted = watcher.accepted
    assert accepted is not None
    # a player reaches in: obstructed, never read
    for _ in range(5):
        assert watcher.feed(scenes["hand"][0], t) is None
        assert watcher.last_state.state == "obstructed"
        t += 0.1
    # the board after the move: first a change, then settling, then a new reading
    states, new = [], None
    for i in range(12):
        new = watcher.feed(scenes["moved"][i % 2], t) or new
        states.append(watcher.last_state.state)
        t += 0.1
    assert states[0] in ("settling", "moving") and "steady" in states
    assert new is not None and new.positions["P"] == 1 and new.positions["R"] == -1


def test_only_the_cells_that_changed_are_reported_for_re_reading(scenes) -> None:
    watcher, _ = _watcher(votes=1)
    t = 0.0
    for i in range(8):
        watcher.feed(scenes["start"][i % 2], t)
        t += 0.1
    for i in range(8):
        watcher.feed(scenes["moved"][i % 2], t)
        t += 0.1
    changed = [c for c in watcher.calls if c]  # type: ignore[attr-defined]
    assert changed, "the move must be noticed"
    cells = set().union(*changed)
    # P (column 10) went from the median (row 2) to +1 (row 3); R (column 11) to -1 (row 1)
    assert {(2, 10), (3, 10), (2, 11), (1, 11)} <= cells
    assert all(c in (9, 10, 11, 12) for _, c in cells), cells  # nothing far from the move


def test_a_shadow_that_comes_and_stays_is_not_a_new_board() -> None:
    watcher, _ = _watcher(votes=2)
    room = Effects(noise_sigma=3, shadow=0.45, shadow_seed=11, jpeg_quality=88)
    phases = {"plain": _frames({}), "shadow": [render_street({}, pose=POSE, seed=5, effects=room).image] * 2,
              "moved": _frames({"T": 2})}
    t, reports, reads = 0.0, [], {}
    for name, frames in phases.items():
        before = len(watcher.calls)  # type: ignore[attr-defined]
        for i in range(12):
            got = watcher.feed(frames[i % 2], t)
            if got is not None:
                reports.append((name, got.positions["T"]))
            t += 0.1
        reads[name] = len(watcher.calls) - before  # type: ignore[attr-defined]
    assert reports == [("plain", 0), ("moved", 2)]  # the start, then the move; not the shadow
    assert reads["shadow"] >= 2  # the shadowed cells were re-read and voted on, then let be


def test_vote_takes_the_majority_and_lowers_confidence_on_disagreement(scenes) -> None:
    reader = StreetReader(render_street({}, pose=POSE, seed=5).corners, (1024, 768))
    a = reader.read(scenes["start"][0])
    b = reader.read(scenes["start"][1])
    odd = replace(b, columns=tuple(replace(c, position=2) if c.letter == "M" else c for c in b.columns))
    voted = vote([a, b, odd])
    assert isinstance(voted, StreetReading)
    m = next(c for c in voted.columns if c.letter == "M")
    best = max(a.columns[9].confidence, b.columns[9].confidence)
    assert m.position == 0 and m.confidence == pytest.approx(best * 2 / 3)
    unanimous = next(c for c in voted.columns if c.letter == "B")
    assert unanimous.confidence == pytest.approx(max(a.columns[0].confidence, b.columns[0].confidence))
    with pytest.raises(ValueError, match="nothing to vote on"):
        vote([])


def test_a_whole_upwords_game_through_the_watcher(scenes) -> None:
    """The rule sheet's game as a camera stream: each turn a hand reaches in, the board settles,
    and the watcher reports the new board once (heights from history, only changed cells re-read)."""
    letters_mod = pytest.importorskip("vision.letters", reason="vision/letters.py is missing")
    from games.transcript import replay, split_lines
    from vision.synthetic.render import render_upwords, upwords_cells
    from vision.synthetic.teach import teaching_samples
    from vision.upwords_reader import UpwordsReader

    images, labels = teaching_samples()
    classifier = letters_mod.LetterClassifier()
    classifier.fit(images, labels)
    letters = letters_mod.LetterReader(classifier, 0.3)
    figures = Path(__file__).parent / "transcripts" / "upwords-figures.jsonl"
    lines = [x for x in split_lines(figures.read_text()) if x.strip() and not x.lstrip().startswith("#")]
    pose = Pose(tilt_deg=30, yaw_deg=-5)

    def frames(cells: dict, hand: Hand | None = None) -> list[np.ndarray]:
        rooms = [Effects(noise_sigma=2.5, shadow_seed=7 + i, jpeg_quality=90, hand=hand) for i in range(2)]
        return [render_upwords(cells, pose=pose, effects=room, seed=3).image for room in rooms]

    empty = render_upwords({}, pose=pose, seed=3)
    reader = UpwordsReader(empty.corners, empty.image_size, letters=letters)
    gate = SteadinessGate(lambda f: reader.planes.warp(f, 8, 8, 16), 8, 8, still_for=0.5)
    watcher = BoardWatcher(gate=gate, votes=2,
                           read=lambda f, prev, changed, hand_free=False: reader.read(f, prev, changed))
    t, reports = 0.0, []
    hand = Hand(tip=(560, 420), angle_deg=70, width_px=130)
    for n in range(len(lines)):
        board = replay(lines[: n + 1]).board
        reaching = frames(upwords_cells(board), hand)[:1] if n else []
        for frame in reaching * 3:
            assert watcher.feed(frame, t) is None
            t += 0.1
        steady = frames(upwords_cells(board))
        results = []
        for i in range(12):
            results.append(watcher.feed(steady[i % 2], t))
            t += 0.1
        found = [r for r in results if r is not None]
        assert len(found) == 1, f"turn {n}: {len(found)} readings"
        got = found[0]
        assert got.letters == [list(r) for r in board.tops()], f"turn {n}"
        assert got.heights == [list(r) for r in board.heights()], f"turn {n}"
        reports.append(got)
    assert len(reports) == len(lines)

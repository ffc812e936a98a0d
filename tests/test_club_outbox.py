"""The log is the outbox: what the kiosk decides to publish, and what survives a crash.

Real SQLite files and the real game log; no broker (the publisher's side is proven with
a real Mosquitto in test_club_night.py).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kiosk.club import wire
from kiosk.club.publish.outbox import Outbox
from kiosk.gamelog.store import GameLog
from kiosk.play.session import Session

MOVE = {"type": "move", "tiles": ["C", "T"], "keys": ["C", "T"], "die": 3, "word": "TRANCE"}
MISS = {"type": "move", "tiles": ["A", "B"], "keys": ["A", "B"], "die": 1, "word": None}


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 24, 19, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def _kinds(box: Outbox) -> list[tuple[int, str]]:
    return [
        (m.seq, "undo" if json.loads(m.payload).get("undo") else _kind(m.payload)) for m in box.pending(1000)
    ]


def _kind(payload: str) -> str:
    data = json.loads(payload)
    if data["seq"] == 0:
        return "header"
    if data.get("abandoned"):
        return "abandoned"
    return f"event {data['n']}"


@pytest.fixture
def table(tmp_path: Path):
    store = GameLog(tmp_path / "games.sqlite3")
    box = Outbox(tmp_path / "games.sqlite3", "riverside", "t1", clock=Clock())
    yield Session(store), box
    box.close()
    store.close()


def test_each_event_is_published_once_as_the_logs_own_line(table) -> None:
    session, box = table
    assert session.new_game("tosswords", ["Ann", "Bob"]).ok
    assert session.submit(MOVE).ok
    assert box.plan() == 2
    assert box.plan() == 0  # nothing new: nothing planned twice
    messages = box.pending()
    assert [m.seq for m in messages] == [0, 1]
    assert all(m.retain for m in messages)
    key = box.game_key(session.game_id)
    assert messages[1].topic == f"tablekeeper/riverside/t1/{key}/1"
    header = wire.decode(messages[0].payload)
    assert header["header"] == session.log.header(session.game_id) and header["table"] == "t1"
    body = session.log._read("SELECT body FROM events")[0][0]
    assert messages[1].payload == f'{{"seq": 1, "n": 1, "event": {body}}}'  # the log's line, byte for byte


def test_undo_and_replacement_are_published_in_order(table) -> None:
    session, box = table
    session.new_game("tosswords", ["Ann", "Bob"])
    session.submit(MOVE)
    session.submit(MISS)
    box.plan()
    session.undo()
    box.plan()
    assert _kinds(box)[-1] == (3, "undo")
    session.undo()
    session.submit(MISS)  # a different first event: it replaces the published one by its n
    box.plan()
    session.abandon()
    box.plan()
    assert _kinds(box) == [
        (0, "header"),
        (1, "event 1"),
        (2, "event 2"),
        (3, "undo"),
        (4, "event 1"),
        (5, "abandoned"),
    ]
    assert wire.decode(box.pending()[3].payload) == {"seq": 3, "n": 1, "undo": True}


def test_an_undo_then_the_same_event_again_publishes_nothing_new(table) -> None:
    """Between two looks at the log the table took a move back and played it again: no change."""
    session, box = table
    session.now = lambda: 1_790_000_000.0  # the same stamp both times
    session.new_game("tosswords", ["Ann", "Bob"])
    session.submit(MOVE)
    box.plan()
    session.undo()
    session.submit(MOVE)
    assert box.plan() == 0


def test_what_was_planned_survives_a_crash_unchanged(tmp_path: Path) -> None:
    """Planned (and maybe sent) before the kill: after a restart the very same messages go out."""
    path = tmp_path / "games.sqlite3"
    store = GameLog(path)
    session = Session(store)
    session.new_game("tosswords", ["Ann", "Bob"])
    session.submit(MOVE)
    first = Outbox(path, "riverside", "t1")
    first.plan()
    before = first.pending()
    first.acknowledge([(before[0].game_id, 0)])
    # The kiosk dies here (no close); the table takes the move back before the next start.
    session.undo()
    second = Outbox(path, "riverside", "t1")
    assert second.log_id == first.log_id
    again = second.pending()
    assert again == before[1:], "unacknowledged messages are resent exactly as planned"
    assert second.plan() == 1  # the undo made while it was down
    assert wire.decode(second.pending()[-1].payload) == {"seq": 2, "n": 0, "undo": True}
    store.close()


def test_a_broker_that_lost_our_session_gets_recent_messages_again(table) -> None:
    session, box = table
    session.new_game("tosswords", ["Ann", "Bob"])
    session.submit(MOVE)
    box.plan()
    box.acknowledge([(m.game_id, m.seq) for m in box.pending()])
    assert box.counts() == {"messages": 2, "unacknowledged": 0}
    box._clock.now += timedelta(hours=13)
    assert box.rewind() == 0  # acknowledged long ago: that evening is over
    box._clock.now -= timedelta(hours=12)
    assert box.rewind() == 2
    assert [m.seq for m in box.pending()] == [0, 1]


def test_games_played_before_the_club_was_switched_on_stay_private(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = GameLog(path)
    session = Session(store)
    session.new_game("tosswords", ["Ann", "Bob"])
    session.submit(MOVE)
    session.abandon()
    session.new_game("tosswords", ["Cy", "Di"])  # being played when the club is switched on
    box = Outbox(path, "riverside", "t1")
    box.plan()
    players = {tuple(wire.decode(m.payload)["header"]["players"]) for m in box.pending() if m.seq == 0}
    assert players == {("Cy", "Di")}
    box.close()
    store.close()


def test_names_that_are_not_one_topic_level_are_refused(tmp_path: Path) -> None:
    for bad in ("", "a/b", "t#", "+", "x" * 41, " t1"):
        with pytest.raises(wire.WireError):
            Outbox(tmp_path / "games.sqlite3", "riverside", bad)


def test_a_table_renamed_mid_game_keeps_that_game_under_its_old_name(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = GameLog(path)
    session = Session(store)
    session.new_game("tosswords", ["Ann", "Bob"])
    Outbox(path, "riverside", "t1").plan()
    renamed = Outbox(path, "riverside", "t9")
    session.submit(MOVE)
    session.new_game("tosswords", ["Cy", "Di"])
    renamed.plan()
    tables = [(wire.parse_topic(m.topic).table, m.seq) for m in renamed.pending()]
    # a new game no longer gives up the first (it waits on the start screen to be resumed)
    assert tables == [("t1", 0), ("t1", 1), ("t9", 0)]
    renamed.close()
    store.close()

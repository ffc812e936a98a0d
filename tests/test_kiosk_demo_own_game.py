"""The demo plays only its own game: a family's game is never written into, whatever its
players are called, and the demo's names are never offered as the family's."""

from __future__ import annotations

from pathlib import Path

from kiosk.app.demo import PLAYERS, SCRIPT, Demo
from kiosk.gamelog.store import GameLog
from kiosk.play.session import Session


def _session(tmp_path: Path) -> Session:
    return Session(GameLog(tmp_path / "games.sqlite3"))


def test_a_family_game_named_like_the_demos_is_never_written_into(tmp_path: Path) -> None:
    session = _session(tmp_path)
    assert session.new_game("upwords", list(PLAYERS)).ok  # the family's Ann and Bob
    family = session.game_id
    demo = Demo()  # no camera: a step enters the script's play directly
    asked = demo.step(session)
    assert "tap Demo step again" in asked and "kept" in asked
    assert session.game_id == family and session.game is not None and session.game.events == []
    started = demo.step(session)
    assert "new Upwords game" in started and session.demo and session.game_id != family
    played = demo.step(session)
    assert SCRIPT[0][0] in played and len(session.game.events) == 1
    with GameLog(tmp_path / "games.sqlite3") as log:
        assert log.events(family) == []  # the family's game: untouched
        assert [g.demo for g in log.games(5)] == [True, False]


def test_the_demos_unfinished_game_is_taken_up_again_not_started_anew(tmp_path: Path) -> None:
    session = _session(tmp_path)
    demo = Demo()
    demo.step(session)  # the demo's game
    demo.step(session)  # MOOD
    demo_id = session.game_id
    assert session.new_game("tosswords", ["Kim", "Lou"]).ok
    demo.step(session)  # asks
    back = demo.step(session)
    assert "back to the demo's" in back and session.game_id == demo_id and session.demo
    assert len(session.game.events) == 1


def test_a_demo_game_resumed_from_the_log_is_still_the_demos(tmp_path: Path) -> None:
    session = _session(tmp_path)
    assert session.new_game("upwords", list(PLAYERS), demo=True).ok
    demo_id = session.game_id
    session.leave()
    assert not session.demo
    assert session.resume(demo_id) and session.demo
    assert session.rematch().ok and session.demo  # the demo's rematch is the demo's too


def test_the_start_screen_never_offers_the_demos_players(tmp_path: Path) -> None:
    session = _session(tmp_path)
    assert session.new_game("upwords", ["Mum", "Dad"]).ok
    assert session.new_game("upwords", list(PLAYERS), demo=True).ok
    assert session.last_players("upwords") == ["Mum", "Dad"]
    assert session.recent_players() == ["Mum", "Dad"]


def test_a_turn_played_after_the_question_asks_it_again(tmp_path: Path) -> None:
    session = _session(tmp_path)
    assert session.new_game("upwords", ["Mum", "Dad"]).ok
    family = session.game_id
    demo = Demo()
    assert "tap Demo step again" in demo.step(session)
    assert session.submit(SCRIPT[0][1]).ok  # the family plays on
    assert "tap Demo step again" in demo.step(session)  # asked again, nothing put aside
    assert session.game_id == family
    demo.step(session)
    assert session.demo and session.game_id != family


def test_no_game_offers_real_names_before_anyone_typed_one() -> None:
    from kiosk.play.playbook import GAME_ORDER, guide, placeholder_name

    for name in GAME_ORDER:
        sides = guide(name).default_sides
        assert all(placeholder_name(side) for side in sides), (name, sides)
        assert not set(sides) & set(PLAYERS)

"""Time up, as each sheet has it: the move the kiosk records (and that the engine takes, so
the turn passes), or the choice the player makes first."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.gamelog.store import GameLog
from kiosk.play.playbook import time_up
from kiosk.play.session import Session

PASSING = [
    ("word-on-the-street", ["Reds", "Blues"], {}, "no_word"),
    ("tosswords", ["Mum", "Kim"], {}, "timeout"),
    ("upwords", ["Ann", "Bob"], {}, "pass"),
    ("option", ["Ann", "Bob"], {}, "pass"),
]


@pytest.mark.parametrize(("name", "players", "options", "kind"), PASSING)
def test_time_up_passes_the_turn_to_the_next_player(
    tmp_path: Path, name: str, players: list[str], options: dict, kind: str
) -> None:
    session = Session(GameLog(tmp_path / "games.sqlite3"))
    assert session.new_game(name, players, options).ok
    ruling = time_up(session.game)
    assert ruling.event == {"type": kind}
    result = session.submit(ruling.event)
    assert result.ok, result.message
    assert session.game.to_move == players[1]


def test_a_choice_first_where_the_sheet_gives_the_player_one(tmp_path: Path) -> None:
    session = Session(GameLog(tmp_path / "games.sqlite3"))
    assert session.new_game("wordspiel", ["Ann", "Bob"]).ok
    assert session.submit({"type": "start_round", "flipped": "F"}).ok
    spiel = time_up(session.game)
    assert spiel.event is None and "keep or spiral" in spiel.title  # rule H: the player decides
    assert session.new_game("tosswords", ["Mum", "Kim"], {"steal": True}).ok
    steal = time_up(session.game)
    assert steal.event is None and "Timeout" in steal.title  # the draw a steal is checked against

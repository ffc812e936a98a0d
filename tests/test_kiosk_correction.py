"""Correcting a past turn: the engine replays from there; the log is rewritten (real SQLite)."""

from __future__ import annotations

import re
from pathlib import Path

from kiosk.gamelog.store import GameLog
from kiosk.play.session import Session


def _tiles(row: int, col: int, word: str, down: bool = False) -> list[dict]:
    return [
        {"row": row + i if down else row, "col": col if down else col + i, "letter": ch}
        for i, ch in enumerate(word)
    ]


def test_a_wrong_earlier_word_is_corrected_and_the_later_turns_rescored(tmp_path: Path) -> None:
    session = Session(GameLog(tmp_path / "games.sqlite3"))
    session.new_game("upwords", ["Ann", "Bob"])
    assert session.submit({"type": "play", "word": "MOOD", "tiles": _tiles(3, 1, "MOOD")}).ok
    assert session.submit({"type": "pass"}).ok
    assert session.submit({"type": "play", "word": "DEAR", "tiles": _tiles(4, 4, "EAR", down=True)}).ok
    assert session.game.scores() == {"Ann": 16, "Bob": 0}
    # Bob did not pass: he played MA down from the M. Entry 2 is corrected; Ann's DEAR after it
    # is applied again by the engine.
    fixed = session.correct(1, {"type": "play", "word": "MA", "tiles": [{"row": 4, "col": 1, "letter": "A"}]})
    assert fixed.ok, fixed.message
    assert "entry 2" in fixed.message
    scores = session.game.scores()
    assert scores["Ann"] == 16 and scores["Bob"] > 0
    with GameLog(tmp_path / "games.sqlite3") as log:
        rebuilt = log.rebuild(session.game_id)
    assert rebuilt.events == session.game.events
    assert [e["type"] for e in rebuilt.events] == ["play", "play", "play"]


def test_a_correction_that_breaks_a_later_turn_changes_nothing(tmp_path: Path) -> None:
    session = Session(GameLog(tmp_path / "games.sqlite3"))
    session.new_game("upwords", ["Ann", "Bob"])
    session.submit({"type": "play", "word": "MOOD", "tiles": _tiles(3, 1, "MOOD")})
    session.submit({"type": "play", "word": "DEAR", "tiles": _tiles(4, 4, "EAR", down=True)})
    before = session.game.events
    refused = session.correct(0, {"type": "play", "word": "MOOT", "tiles": _tiles(3, 1, "MOOT")})
    assert not refused.ok and "entry 2" in refused.message and "no longer fits" in refused.message
    assert session.game.events == before
    with GameLog(tmp_path / "games.sqlite3") as log:
        assert log.events(session.game_id) == before


def test_a_street_correction_uses_the_camera_only_while_it_shows_that_turns_street() -> None:
    """The camera sees the street of now: right for the latest turn (or one followed only by
    turns that moved nothing), wrong for a turn whose tiles a later word moved again."""
    from games.word_on_the_street import WordOnTheStreet
    from kiosk.play.street_moves import camera_for

    camera = object()  # camera_for only decides whether to hand the camera on
    game = WordOnTheStreet(["Reds", "Blues"])
    game.apply({"type": "word", "word": "PURPLE"})
    assert camera_for(game, 0, camera) is camera  # the latest turn: the street it left
    assert camera_for(game, None, camera) is camera  # a new turn, not a correction
    game.apply({"type": "no_word"})
    assert camera_for(game, 0, camera) is camera  # nothing moved since
    game.apply({"type": "word", "word": "GIANT"})
    assert camera_for(game, 0, None) is None
    assert camera_for(game, 0, camera) is None  # GIANT moved tiles after PURPLE
    assert camera_for(game, 2, camera) is camera


def test_several_disagreeing_tiles_are_named_short_for_the_field() -> None:
    from games.word_on_the_street import WordOnTheStreet
    from games.wots_moves import word_moves
    from kiosk.play.street_moves import StreetMoves

    game = WordOnTheStreet(["Reds", "Blues"])
    moves = StreetMoves(word_moves(game.state, game.state.on_street, "GIANT"))
    assert moves.hint(game, "GIANT") == ""
    assert moves.hint(game, "GIANTS") == moves.disagreement(game, "GIANTS") == "S did not move"
    long = moves.disagreement(game, "ROBOTS")
    short = moves.hint(game, "ROBOTS")
    assert re.fullmatch(r"\d+ tiles moved otherwise: [A-Z]( [A-Z])+", short), short
    assert len(short) < 50 < len(long), (short, long)

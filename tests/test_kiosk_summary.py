"""The end of a game: the summary, the rematch, names remembered (real engines, a real log)."""

from __future__ import annotations

from itertools import count
from pathlib import Path

from plays import DEAR, MOOD

from kiosk.gamelog.store import GameLog
from kiosk.play.session import Session
from kiosk.play.summary import summarise


def _session(tmp_path: Path) -> Session:
    minutes = count()
    return Session(GameLog(tmp_path / "games.sqlite3"), now=lambda: 1_700_000_000 + 60 * next(minutes) * 4)


def _play_to_the_end(session: Session) -> None:
    session.submit(MOOD)
    session.submit(DEAR)
    session.submit({"type": "pass"})
    session.submit({"type": "pass"})
    assert session.game.is_over()


def test_the_summary_counts_turns_minutes_best_turn_and_the_record(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.new_game("upwords", ["Ann", "Bob"])
    _play_to_the_end(session)
    summary = summarise(session.game, session.log.games(20))
    assert summary.turns == 4
    assert summary.minutes == 12  # four events four minutes apart
    assert summary.best.startswith("Best turn: ") and summary.best.endswith(" 8 points")
    assert "(8 points)" not in summary.best  # the pad's "MOOD 8" already says the figure
    assert summary.played == 1
    assert session.rematch().ok  # the first game is recorded, a second one starts
    assert session.game.players == ("Bob", "Ann")  # Ann moves to the next seat
    session.submit(MOOD)  # Bob opens this time and wins
    session.submit({"type": "pass"})
    session.submit({"type": "pass"})
    assert session.game.is_over()
    again = summarise(session.game, session.log.games(20))
    assert (again.played, again.record, again.ties) == (2, {"Bob": 1, "Ann": 0}, 1)
    assert "Wins in 2 games together: Bob 1, Ann 0, 1 tie" in again.lines()


def test_names_typed_are_remembered_stand_ins_are_not(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.new_game("word-on-the-street", ["Team A", "Team B"])
    session.new_game("word-on-the-street", ["Parents", "Kids"])
    session.new_game("upwords", ["Ann", "Bob"])
    assert session.recent_players(8) == ["Ann", "Bob", "Parents", "Kids"]
    assert session.last_players("word-on-the-street") == ["Parents", "Kids"]
    assert session.last_players("option") == []


class _Tossed:
    """An ended Tosswords game as ``summarise`` reads it (turns, players, outcome)."""

    name = "tosswords"
    players = ("Kim", "Lee")
    def __init__(self) -> None:
        from games.base import Turn

        self.events: list[dict[str, object]] = []
        self.turns = [
            Turn("Kim", 6, "TRANCE (d6: 6): retired T R A N C E"),
            Turn("Lee", 1, "A (d6: 1): retired A"),
        ]

    def outcome(self) -> None:
        return None


def test_tosswords_best_turn_counts_tiles_not_points() -> None:
    from kiosk.play.playbook import guide

    summary = summarise(_Tossed(), [], unit=guide("tosswords").unit)
    assert summary.best == "Best turn: Kim, TRANCE (d6: 6): retired T R A N C E (6 tiles)"

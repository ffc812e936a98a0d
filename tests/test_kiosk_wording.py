"""The screens' wording: counts, winners and dates a person would say."""

from __future__ import annotations

from datetime import UTC, datetime

from kiosk.play.wording import plural, scores_line, when, winner_line


def test_counts_agree_with_their_noun() -> None:
    assert plural(1, "turn") == "1 turn"
    assert plural(0, "turn") == "0 turns"
    assert plural(2, "turn") == "2 turns"


def test_a_team_wins_in_the_plural_a_player_in_the_singular() -> None:
    assert winner_line(["Parents"], "Team") == "Parents win!"
    assert winner_line(["Ann"], "Player") == "Ann wins!"
    assert winner_line(["Ann", "Bob"]) == "Tie: Ann & Bob"
    assert winner_line([]) == "No winner"


def test_when_a_game_was_started_reads_like_speech() -> None:
    now = datetime(2026, 11, 24, 20, 0, tzinfo=UTC).astimezone()
    local = now.tzinfo
    today = datetime(2026, 11, 24, 18, 5, tzinfo=UTC).astimezone(local)
    assert when(today.isoformat(), now) == f"today {today:%H:%M}"
    assert when("2026-11-23T19:00:00+00:00", now).startswith(("yesterday", "today"))
    assert when("2026-11-02T19:00:00+00:00", now).startswith("Mon 2 Nov")
    assert when("2024-05-01T10:00:00+00:00", now) == "1 May 2024"
    assert when("not a time", now) == "" and when(None, now) == ""


def test_scores_in_seat_order() -> None:
    assert scores_line({"Ann": 18, "Bob": 8}) == "Ann 18, Bob 8"

"""The screens' wording: counts, winners and dates a person would say."""

from __future__ import annotations

from datetime import UTC, datetime

from kiosk.play.wording import consequence, plural, scores_line, turn_scored, when, winner_line


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


def test_a_sides_verb_agrees_with_its_name_a_players_is_always_singular() -> None:
    assert winner_line(["Parents"], "Team") == "Parents win!"
    assert winner_line(["Dad"], "Team") == "Dad wins!"
    assert winner_line(["Parents"], "Side") == "Parents win!"  # Tosswords' sides
    assert winner_line(["Team A"], "Team") == "Team A wins!"
    assert winner_line(["Mum & Dad"], "Side") == "Mum & Dad win!"
    assert winner_line(["The Smiths"], "Team") == "The Smiths win!"
    for single in ("Chris", "Marcus", "Bess", "James"):
        assert winner_line([single], "Team") == f"{single} wins!"
    assert winner_line(["Charles"], "Player") == "Charles wins!"
    assert winner_line(["Parents"], "Player") == "Parents wins!"  # a player is one person


def test_one_point_many_points_and_negative_ones() -> None:
    assert plural(1, "point") == "1 point"
    assert plural(2, "point") == "2 points"
    assert plural(-1, "point") == "-1 point"
    assert plural(0, "point") == "0 points"


def test_a_turns_score_is_said_once_in_the_games_own_unit() -> None:
    assert turn_scored("DEAR 8", 8) == "DEAR 8 points"
    assert turn_scored("NET 6 + ON 4 = 10", 10) == "NET 6 + ON 4 = 10 points"
    assert turn_scored("A 1", 1) == "A 1 point"
    assert turn_scored("DEAR 18", 8) == "DEAR 18 (8 points)"  # a different figure is not the score
    assert turn_scored("TRANCE (d6: 6): retired T R A N C E", 6, "tile") == (
        "TRANCE (d6: 6): retired T R A N C E (6 tiles)"
    )
    assert turn_scored("", 1) == "1 point"


def _option_challenge(legal: bool) -> tuple[str, tuple]:
    """Ann plays TOOL (10) in a real Option engine; Bob challenges it with the given ruling."""
    from games.option import Option

    game = Option(["Ann", "Bob"])
    points = zip("TOOL", (3, 2, 2, 3), strict=True)
    letters = [{"letter": ch, "points": p, "color": "light"} for ch, p in points]
    game.apply({"type": "play", "words": [{"word": "TOOL", "letters": letters}], "prisms": 4})
    ruling = {"legal": legal, "reason": "TOOL is a word" if legal else "no", "rule": "Option, challenge"}
    step = game.apply({"type": "challenge", "by": "Bob", "ruling": ruling})
    return step.message, step.turns


def test_a_ruling_says_every_score_change_the_sheet_applies() -> None:
    message, turns = _option_challenge(legal=True)
    assert message == "TOOL stands"  # the engine's words leave out the challenger's penalty ...
    assert consequence(message, turns) == "TOOL stands; Bob loses 10 points"  # ... the line does not
    message, turns = _option_challenge(legal=False)
    assert consequence(message, turns).endswith("; Ann loses 10 points")  # TOOL's points come off


def test_a_score_change_agrees_with_a_teams_name_and_the_games_unit() -> None:
    from games.base import Turn

    assert consequence("", [Turn("Reds", -1, "")], "letter", "Team") == "Reds lose 1 letter"
    assert consequence("It stands", [Turn("Cy", 3, "")], "card") == "It stands; Cy gets 3 cards"
    assert consequence("It stands", [Turn("Cy", 0, "")], "card") == "It stands"

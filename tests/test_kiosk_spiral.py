"""The WordSpiel spiral on screen shows where its words break (the sheet's FUN -> UNITE -> EDWARD)."""

from __future__ import annotations

from games.registry import new_game
from kiosk.app.screens.tables import spiral_pieces


def _game(*events: dict) -> object:
    game = new_game("wordspiel", ["Ann", "Bob", "Cy"], {})
    for event in events:
        game.apply(event)
    return game


def test_the_spiral_is_shown_word_by_word() -> None:
    game = _game(
        {"type": "start_round", "flipped": "F"},
        {"type": "word", "word": "FUN"},
        {"type": "word", "word": "UNITE"},
        {"type": "word", "word": "EDWARD"},
    )
    assert game.spiral == "FUNITEDWARD"
    assert spiral_pieces(game) == ["F", "FUN", "UNITE", "EDWARD"]


def test_a_card_drawn_to_the_spiral_is_its_own_piece() -> None:
    game = _game(
        {"type": "start_round", "flipped": "F"},
        {"type": "word", "word": "FUN"},
        {"type": "draw", "keep": False, "letter": "X"},
    )
    assert spiral_pieces(game) == ["F", "FUN", "X"]

"""Option's letter points taught once are kept across a restart (and a damaged file is said)."""

from __future__ import annotations

from typing import Any

from play_steps import Steps, pick_game


def _letters_of(ui: Any, word: str) -> Steps:
    """Turn entry with ``word`` typed, on to the letters screen."""
    ui.tap("game.turn")
    yield
    ui.type(word)
    ui.tap("entry.done")
    yield
    assert ui.screen == "letters", ui.screen


def option_teach(ui: Any) -> Steps:
    """An Option game: ZAPS's points tapped in (10, 2, 4, 1) and played; then the kiosk stops."""
    yield
    yield from pick_game(ui, "option", ["Ann", "Bob"])
    yield from _letters_of(ui, "ZAPS")  # the first word has at least 4 letters
    for value in (10, 2, 4, 1):
        ui.tap(f"letters.pad.{value}")
    yield
    ui.tap("letters.done")
    yield
    assert ui.screen == "game", ui.app.banner.showing
    ui.note("score", ui.text("game.score.0"))


def option_taught(ui: Any) -> Steps:
    """The next start: the game is resumed; a word with the same letters comes filled in."""
    yield 0.3
    ui.note("screen", ui.screen)
    yield from _letters_of(ui, "PZAZ")
    ui.note("came_with", [ui.text(f"letters.points.{i}") for i in range(4)])
    banners = [m for m, _ in ui.app.banner.messages]
    ui.note("banners", banners)
    yield from ui.shot("letters-option-damaged" if banners else "letters-option-taught")
    ui.tap("letters.back")
    yield

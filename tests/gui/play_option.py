"""Option's letter points taught once are kept across a restart (and a damaged file is said)."""

from __future__ import annotations

from typing import Any

from play_steps import Steps, letters_of, option_word, pick_game


def option_teach(ui: Any) -> Steps:
    """An Option game: ZAPS's points tapped in (10, 2, 4, 1) and played; then the kiosk stops."""
    yield
    yield from pick_game(ui, "option", ["Ann", "Bob"])
    yield from option_word(ui, "ZAPS", [10, 2, 4, 1])  # the first word has at least 4 letters
    assert ui.screen == "game", ui.app.banner.showing
    ui.note("score", ui.text("game.score.0"))


def option_taught(ui: Any) -> Steps:
    """The next start: the game is resumed; a word with the same letters comes filled in."""
    yield 0.3
    ui.note("screen", ui.screen)
    yield from letters_of(ui, "PZAZ")
    ui.note("came_with", [ui.read(f"letters.points.{i}") for i in range(4)])
    banners = ui.banners
    ui.note("banners", banners)
    yield from ui.shot("letters-option-damaged" if banners else "letters-option-taught")
    yield from ui.press("letters.back")

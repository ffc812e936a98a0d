"""Steps the GUI scenarios share: pick a game, type a word, rule by hand when there is no list."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Steps = Iterator[Any]


def pick_game(ui: Any, name: str, players: list[str] | None = None) -> Steps:
    """On the start screen: choose the game, rename the sides, start."""
    assert ui.screen == "start", ui.screen
    ui.tap(f"start.game.{name}")
    yield
    for i, player in enumerate(players or []):
        if not ui.has(f"start.name.{i}"):
            ui.tap("start.add")
            yield
        ui.tap(f"start.name.{i}")
        yield
        assert ui.screen == "names", ui.screen
        ui.tap("names.kb.clear")
        ui.type(player, keyboard="names.kb")
        yield
        if i == 0:
            yield from ui.shot("names")
        ui.tap("names.ok")
        yield
    yield from ui.shot(f"start-{name}")
    ui.tap("start.go")
    yield
    assert ui.screen == "game", ui.screen


def enter_word(ui: Any, word: str, done: bool = True) -> Steps:
    ui.tap("game.turn")
    yield
    assert ui.screen == "entry", ui.screen
    ui.type(word)
    yield
    if done:
        ui.tap("entry.done")
        yield


def place_word(ui: Any, word: str, *taps: str) -> Steps:
    """Upwords turn entry: move the start cell or direction with ``taps``, type the word, Done."""
    ui.tap("game.turn")
    yield
    for widget in taps:
        ui.tap(widget)
    ui.type(word)
    ui.tap("entry.done")
    yield


def rule(ui: Any, legal_by_hand: bool) -> Steps:
    """After a challenge was started: the authority rules, or (no word list) the table does."""
    if ui.has("challenge.hand.legal"):
        ui.tap("challenge.hand.legal" if legal_by_hand else "challenge.hand.illegal")
        yield


def mover(ui: Any) -> str:
    return ui.text("game.mover").removesuffix(" to play")


# ---------------------------------------------------------------------- the scenarios

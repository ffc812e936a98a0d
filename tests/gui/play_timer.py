"""The timer across a power cut: it comes back paused with the time it had, and says so."""

from __future__ import annotations

from typing import Any

from play_steps import Steps, pick_game


def timer_cut_part1(ui: Any) -> Steps:
    """Word on the Street, a card drawn (the timer starts), 2 s run — then the power is cut."""
    yield
    yield from pick_game(ui, "word-on-the-street", ["Reds", "Blues"])
    yield from ui.press("game.card", 2.2)
    ui.note("digits", ui.text("ring.digits"))
    ui.note("button", ui.text("game.timer"))
    ui.note("pull_the_plug", True)


def timer_cut_part2(ui: Any) -> Steps:
    """The next boot: the same turn, paused, the time it had; Resume runs it on from there."""
    yield 0.3
    ui.note("screen", ui.screen)
    ui.note("digits", ui.text("ring.digits"))
    ui.note("state", ui.text("game.timer_state"))
    ui.note("button", ui.text("game.timer"))
    ui.note("news", ui.text("game.news"))
    yield from ui.shot("game-timer-after-power-cut")
    yield 1.2
    ui.note("digits_later", ui.text("ring.digits"))  # paused: it does not run on by itself
    yield from ui.press("game.timer", 0.1)
    ui.note("button_after_tap", ui.text("game.timer"))
    ui.note("phase_after_tap", ui.app.timer.view().phase)
    yield 0.1
    # a second or so; longer on a loaded machine
    yield from ui.wait_for(lambda: ui.text("ring.digits") != ui.found["digits"], 39, 0.1)
    ui.note("running_again", ui.text("ring.digits"))
    ui.note("remaining_again", ui.app.timer.view().remaining)


def mute_keeps_timer(ui: Any) -> Steps:
    """Sound off and on again mid-turn: the timer runs on (or stays paused) with its time left."""
    yield
    yield from pick_game(ui, "word-on-the-street")
    yield from ui.press("game.timer", 1.6)

    def look(when: str) -> None:
        view = ui.app.timer.view()
        ui.note(f"{when}_digits", ui.text("ring.digits"))
        ui.note(f"{when}_remaining", view.remaining)
        ui.note(f"{when}_phase", view.phase)
        ui.note(f"{when}_button", ui.text("game.timer"))

    look("running_before")
    yield from ui.press("game.mute", 0.1)
    look("running_after")
    ui.note("running_sound", ui.text("game.mute"))
    yield from ui.press("game.timer", 0.1)  # Pause
    look("paused_before")
    yield from ui.press("game.mute", 0.3)
    look("paused_after")
    ui.note("paused_sound", ui.text("game.mute"))

"""Settings faults in the real kiosk: a bad value in the settings file, or a game
logged with a turn timer that cannot run, must never stop the kiosk at start or on a tap."""

from __future__ import annotations

from typing import Any

from play_steps import Steps


def _timer_tapped(ui: Any) -> Steps:
    """On the game screen: the ring's digits, then a tap on Start timer and what it shows."""
    ui.note("digits", ui.text("ring.digits"))
    yield from ui.press("game.timer", 1.2)
    ui.note("running", ui.text("game.timer"))
    ui.note("digits_running", ui.text("ring.digits"))


def bad_setting_start(ui: Any) -> Steps:
    """Start (the file's bad value was read), then WordSpiel with the timer as set, and Start."""
    yield 0.3
    ui.note("banners", ui.banners)
    ui.note("screen", ui.screen)
    ui.clear_banners()
    yield from ui.press("start.game.wordspiel")
    ui.note("start_timer", ui.text("start.timer"))
    yield from ui.press("start.go")
    ui.note("screen_after_go", ui.screen)
    ui.note("logged_timer", ui.app.session.game.options.get("timer"))
    yield from _timer_tapped(ui)


def logged_bad_timer(ui: Any) -> Steps:
    """Start on a game logged with a timer that cannot run: it resumes, clamped, and says so."""
    yield 0.3
    ui.note("banners", ui.banners)
    ui.note("screen", ui.screen)
    yield from ui.shot("fault-logged-bad-timer")
    ui.clear_banners()
    yield from _timer_tapped(ui)


def hung_camera(ui: Any) -> Steps:
    """Start with a camera stack that never answers: the banner says so, and play goes on by touch."""
    import threading

    yield 0.3
    ui.note("banners", ui.banners)
    ui.note("screen", ui.screen)
    ui.note("threads", [t.name for t in threading.enumerate()])
    yield from ui.shot("fault-hung-camera")
    ui.clear_banners()
    yield from ui.press("start.game.wordspiel")
    yield from ui.press("start.go")
    ui.note("screen_after_go", ui.screen)

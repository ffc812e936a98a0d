"""The screen's face of the table timer, on the real TableTimer with an injected clock."""

from __future__ import annotations

from games.countdown import Countdown
from hardware.table_timer import TableTimer
from kiosk.play.turn_timer import TurnTimer, digits


class Clock:
    """Monotonic seconds that only move when the test says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make(seconds: float = 30.0) -> tuple[TurnTimer, Clock]:
    clock = Clock()
    table = TableTimer(Countdown(seconds, warning=10.0), clock=clock)
    return TurnTimer(table, warning=10.0), clock


def test_digits_round_up_and_show_minutes() -> None:
    assert [digits(x) for x in (0.0, 0.2, 9.0, 9.01, 59.5, 60.0, 90.0)] == [
        "0",
        "1",
        "9",
        "10",
        "1:00",
        "1:00",
        "1:30",
    ]


def test_a_turn_runs_warns_pauses_and_resets_to_the_games_length() -> None:
    timer, clock = make()
    timer.reset(15)
    assert (timer.view().phase, timer.view().digits) == ("idle", "15")
    timer.toggle()
    clock.now += 6.0
    view = timer.view()
    assert (view.phase, view.digits) == ("warning", "9")
    lit = [rgb for rgb in view.frame if any(rgb)]
    assert lit and all(rgb == (255, 140, 0) for rgb in lit[:-1])  # the LED ring's own amber frame
    timer.toggle()
    clock.now += 30.0
    assert (timer.view().phase, timer.view().digits) == ("paused", "9")
    timer.reset()  # the next turn: full again, same length
    assert (timer.view().phase, timer.view().digits) == ("idle", "15")


def test_a_game_without_a_timer_shows_none_and_ignores_the_button() -> None:
    timer, clock = make()
    timer.reset(None)
    timer.toggle()
    clock.now += 5.0
    assert not timer.enabled and timer.view().digits == "--"
    timer.reset(60)
    assert timer.enabled and timer.view().digits == "1:00"


def test_new_settings_apply_to_the_next_turn() -> None:
    timer, clock = make(20.0)
    timer.configure({"warning": 5, "ticks": False, "mute": True})
    timer.toggle()
    clock.now += 14.0
    assert timer.view().phase == "running"  # 6 s left: no warning until 5
    clock.now += 1.5
    assert timer.view().phase == "warning"


def test_muting_changes_the_sound_only_never_the_turns_time() -> None:
    timer, clock = make(20.0)
    timer.toggle()
    clock.now += 3.0
    timer.set_mute(True)
    assert (timer.view().phase, timer.view().digits) == ("running", "17")
    assert timer.table.sounder.settings.mute is True
    timer.toggle()
    clock.now += 4.0
    timer.set_mute(False)
    assert (timer.view().phase, timer.view().digits) == ("paused", "17")
    assert timer.table.sounder.settings.mute is False


def test_saving_settings_mid_turn_keeps_the_time_left_running_or_paused() -> None:
    timer, clock = make(30.0)
    timer.toggle()
    clock.now += 8.0
    timer.configure({"warning": 5, "ticks": False})
    assert (timer.view().phase, timer.view().digits) == ("running", "22")  # not back to 30
    clock.now += 2.0
    assert timer.view().digits == "20"  # and it runs on
    timer.toggle()
    clock.now += 9.0
    timer.configure({"warning": 12, "ticks": True})
    assert (timer.view().phase, timer.view().digits) == ("paused", "20")
    timer.toggle()
    clock.now += 8.5
    assert timer.view().phase == "warning"  # the new warning applies to the turn on the clock
    timer.reset()  # the next turn: full, with the new settings
    assert (timer.view().phase, timer.view().digits) == ("idle", "30")

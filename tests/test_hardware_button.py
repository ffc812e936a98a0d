"""The physical button on a gpiozero mock pin: press to start/pause/resume, hold 2 s to reset."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from hardware_support import FakeClock

from games.countdown import Countdown, CueKind, Phase
from hardware.build import open_table_timer
from hardware.config import HardwareConfig
from hardware.pins import FactoryChoice, mock_factory
from hardware.table_timer import TableTimer, TimerView

BUTTON = 27


@pytest.fixture
def rig() -> Iterator[tuple[TableTimer, object, FakeClock]]:
    factory = mock_factory()
    clock = FakeClock()
    config = HardwareConfig.from_section({"ring": "leds"})
    timer = open_table_timer(config, Countdown(30.0), clock=clock, choice=FactoryChoice(factory, "test"))
    yield timer, factory.pin(BUTTON), clock
    timer.close()


def test_the_button_is_wired_to_ground_with_a_two_second_hold(rig: tuple) -> None:
    timer, pin, _ = rig
    assert timer.button is not None
    assert timer.button.button.hold_time == 2.0 and timer.button.button.pull_up is True
    assert pin.state == 1  # idle high through the pull-up


def test_a_press_acts_on_release_start_pause_resume(rig: tuple) -> None:
    timer, pin, clock = rig
    pin.drive_low()
    assert timer.view().phase is Phase.IDLE  # nothing until the finger lifts
    pin.drive_high()
    assert timer.view().phase is Phase.RUNNING
    clock.t = 4.0
    pin.drive_low()
    pin.drive_high()
    assert timer.view().phase is Phase.PAUSED and timer.view().remaining == 26.0
    clock.t = 9.0
    pin.drive_low()
    pin.drive_high()
    assert timer.view().phase is Phase.RUNNING and timer.countdown.ends_at == 35.0


def test_holding_the_button_resets_and_the_release_does_not_also_press(rig: tuple) -> None:
    timer, pin, clock = rig
    pin.drive_low()
    pin.drive_high()  # start
    clock.t = 12.0
    reset = threading.Event()

    def listen(view: TimerView) -> None:
        if any(c.kind is CueKind.RESET for c in view.cues):
            reset.set()

    timer.add_listener(listen)
    began = time.monotonic()
    pin.drive_low()
    assert reset.wait(timeout=6.0), "holding the button never reset the timer"
    held_for = time.monotonic() - began
    assert held_for >= 1.9  # gpiozero's own hold timer, hold_time=2
    assert timer.view().phase is Phase.IDLE
    pin.drive_high()
    assert timer.view().phase is Phase.IDLE  # the release after a hold is not a press


def test_a_short_press_does_not_reset(rig: tuple) -> None:
    timer, pin, clock = rig
    pin.drive_low()
    pin.drive_high()
    clock.t = 3.0
    pin.drive_low()
    time.sleep(0.3)  # a press held 0.3 s, well under hold_time=2: gpiozero times holds by the wall clock
    pin.drive_high()
    assert timer.view().phase is Phase.PAUSED

"""The table timer on gpiozero's mock pins, driven by a fake clock through whole turns.

Every assertion reads the pins' own recorded state histories (``MockPin.states``), tagged
with the fake time of the poll that caused each change (see ``hardware_support``).
"""

from __future__ import annotations

import math
import threading
import warnings
from collections.abc import Iterator

import pytest
from hardware_support import FakeClock, PinTimeline, drive, step

from games.countdown import Countdown, CountdownError, CueKind, Phase
from hardware.build import open_table_timer
from hardware.config import HardwareConfig
from hardware.pins import FactoryChoice, is_raspberry_pi, mock_factory
from hardware.ring import duty
from hardware.sounds import SoundSettings
from hardware.table_timer import TableTimer, TimerView

LED_PINS = [5, 6, 13, 19, 26, 12, 16, 20, 21, 25, 24, 23]
BRIGHTNESS = 0.5


class Table:
    """A timer on fresh mock pins with a fake clock, and the timeline of its pins."""

    def __init__(
        self,
        duration: float,
        *,
        buzzer: str = "active",
        sounds: SoundSettings | None = None,
        ring: str = "leds",
    ) -> None:
        self.factory = mock_factory()
        self.clock = FakeClock()
        config = HardwareConfig.from_section(
            {"ring": ring, "led_pins": LED_PINS, "buzzer": buzzer, "brightness": BRIGHTNESS}
        )
        self.timer = open_table_timer(
            config,
            Countdown(duration),
            sounds=sounds,
            clock=self.clock,
            choice=FactoryChoice(self.factory, "test"),
        )
        pins = {"buzzer": self.factory.pin(17)} | {
            f"led{i}": self.factory.pin(p) for i, p in enumerate(LED_PINS)
        }
        self.pins = PinTimeline(pins)

    def leds_lit(self, t: float) -> int:
        return sum(1 for i in range(12) if self.pins.value_at(f"led{i}", t) > 0)

    def led_values(self, t: float) -> list[float]:
        return [self.pins.value_at(f"led{i}", t) for i in range(12)]


@pytest.fixture
def table30() -> Iterator[Table]:
    table = Table(30.0)
    yield table
    table.timer.close()


def test_a_whole_30_second_turn_sounds_and_lights_on_time(table30: Table) -> None:
    t = table30
    t.timer.toggle()
    t.pins.record(0.0)
    drive(t.timer, t.clock, 40.0, t.pins)
    spans = t.pins.spans("buzzer")
    assert spans == [
        (0.0, pytest.approx(0.08)),  # start chirp
        (20.0, pytest.approx(20.15)),
        (pytest.approx(20.25), pytest.approx(20.40)),  # warning at 10.00 s left
        (25.0, pytest.approx(25.05)),
        (26.0, pytest.approx(26.05)),
        (27.0, pytest.approx(27.05)),
        (28.0, pytest.approx(28.05)),
        (29.0, pytest.approx(29.05)),  # a tick on each of the last 5 s
        (30.0, pytest.approx(31.5)),  # the long beep at 0
    ]
    assert spans[1][0] == 30.0 - 10.0  # exactly, not approximately: no drift
    for second in range(30):
        assert t.leds_lit(float(second)) == math.ceil((30 - second) / 2.5), f"at {second} s"
    assert t.led_values(0.0) == [BRIGHTNESS] * 12  # full ring at the start
    assert t.leds_lit(30.0) == 12 and t.leds_lit(30.25) == 0 and t.leds_lit(30.5) == 12  # flashing at 0


def test_a_60_second_turn_on_a_piezo_polled_at_a_fixed_rate() -> None:
    table = Table(60.0, buzzer="passive")
    try:
        table.timer.toggle()
        table.pins.record(0.0)
        buzzer = table.factory.pin(17)
        step(table.timer, table.clock, 50.0, table.pins, dt=1 / 128)
        assert buzzer.state == 0.5 and buzzer.frequency == 2200.0  # warning tone sounding at 10.00 s left
        step(table.timer, table.clock, 60.0, table.pins, dt=1 / 128)
        assert buzzer.state == 0.5 and buzzer.frequency == 2000.0  # the long final tone
        step(table.timer, table.clock, 62.0, table.pins, dt=1 / 128)
        rises = table.pins.rises("buzzer")
        assert rises == [0.0, 50.0, 50.25, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0]
        assert table.pins.spans("buzzer")[-1] == (60.0, 61.5)
        for second in range(60):
            assert table.leds_lit(float(second)) == math.ceil((60 - second) / 5), f"at {second} s"
        assert buzzer.state == 0 and buzzer.frequency is None
    finally:
        table.timer.close()


def test_the_partly_used_led_dims_in_steps(table30: Table) -> None:
    t = table30
    t.timer.toggle()
    drive(t.timer, t.clock, 1.25, t.pins)  # half of LED 12's 2.5 s share used
    assert t.led_values(1.25)[:11] == [BRIGHTNESS] * 11
    assert t.led_values(1.25)[11] == pytest.approx(duty(0.5, BRIGHTNESS))


def test_pause_freezes_the_ring_dimmed_and_resume_carries_on(table30: Table) -> None:
    t = table30
    t.timer.toggle()
    drive(t.timer, t.clock, 12.3, t.pins)
    t.timer.toggle()  # pause
    t.pins.record(12.3)
    frozen = t.led_values(12.3)
    assert sum(1 for v in frozen if v > 0) == math.ceil(17.7 / 2.5)
    assert max(frozen) == pytest.approx(duty(0.25, BRIGHTNESS))  # dim
    drive(t.timer, t.clock, 12.4, t.pins)  # the pause blip ends
    changes_before = {name: len(c) for name, c in t.pins.changes.items()}
    drive(t.timer, t.clock, 500.0, t.pins)
    assert {name: len(c) for name, c in t.pins.changes.items()} == changes_before  # nothing moved
    assert t.timer.poll() is None  # and the loop sleeps until a command
    t.timer.toggle()  # resume at 500
    t.pins.record(500.0)
    assert t.led_values(500.0)[0] == BRIGHTNESS
    drive(t.timer, t.clock, 520.0, t.pins)
    assert (500.0 + 17.7, pytest.approx(500.0 + 17.7 + 1.5)) in t.pins.spans("buzzer")  # final beep


def test_reset_clears_the_ring_and_stops_the_sound(table30: Table) -> None:
    t = table30
    t.timer.toggle()
    drive(t.timer, t.clock, 30.2, t.pins)  # in the middle of the final beep
    t.timer.reset()
    t.pins.record(30.2)
    assert t.leds_lit(30.2) == 0
    drive(t.timer, t.clock, 40.0, t.pins)
    assert t.leds_lit(40.0) == 0 and t.pins.value_at("buzzer", 40.0) == 0
    assert t.timer.view().phase is Phase.IDLE


def test_ticks_can_be_switched_off_and_mute_silences_everything() -> None:
    quiet = Table(30.0, sounds=SoundSettings(ticks=False))
    silent = Table(30.0, sounds=SoundSettings(mute=True))
    try:
        for table in (quiet, silent):
            table.timer.toggle()
            table.pins.record(0.0)
            drive(table.timer, table.clock, 35.0, table.pins)
        assert [on for on, _ in quiet.pins.spans("buzzer")] == [0.0, 20.0, pytest.approx(20.25), 30.0]
        assert silent.pins.spans("buzzer") == []
        assert silent.leds_lit(10.0) == quiet.leds_lit(10.0) == 8  # the ring still runs
    finally:
        quiet.timer.close()
        silent.timer.close()


def test_adjust_moves_the_end_and_refuses_in_plain_words(table30: Table) -> None:
    t = table30
    with pytest.raises(CountdownError, match="not started"):
        t.timer.adjust(10.0)
    t.timer.toggle()
    drive(t.timer, t.clock, 5.0, t.pins)
    t.timer.adjust(10.0)
    drive(t.timer, t.clock, 45.0, t.pins)
    assert [on for on, _ in t.pins.spans("buzzer")][-1] == 40.0


def test_close_leaves_ring_and_buzzer_off_and_can_be_called_twice(table30: Table) -> None:
    t = table30
    t.timer.toggle()
    drive(t.timer, t.clock, 30.1, t.pins)  # ring flashing, long beep sounding
    assert t.pins.value_at("buzzer", 30.1) > 0 and t.leds_lit(30.1) == 12
    t.timer.close()
    t.timer.close()
    t.pins.record(30.1)
    assert t.pins.value_at("buzzer", 30.1) == 0 and t.leds_lit(30.1) == 0
    changes_before = {name: len(c) for name, c in t.pins.changes.items()}
    t.clock.t = 31.0
    t.timer.toggle()  # a late command after close touches no pin
    t.timer.poll()
    t.pins.record(31.0)
    assert {name: len(c) for name, c in t.pins.changes.items()} == changes_before


def test_listeners_hear_commands_and_cues() -> None:
    clock = FakeClock()
    seen: list[TimerView] = []
    with TableTimer(Countdown(12.0), clock=clock) as timer:
        timer.add_listener(seen.append)
        timer.add_listener(lambda view: 1 / 0)  # a broken listener does not stop the timer
        timer.toggle()
        clock.t = 2.0
        timer.poll()
        clock.t = 12.0
        timer.poll()
    cues = [c.kind for v in seen for c in v.cues]
    assert cues[0] is CueKind.START and CueKind.WARNING in cues and cues[-1] is CueKind.FINAL


def test_the_loop_thread_on_the_real_clock_plays_every_cue_in_order() -> None:
    done = threading.Event()
    heard: list[CueKind] = []

    def listen(view: TimerView) -> None:
        heard.extend(c.kind for c in view.cues)
        if any(c.kind is CueKind.FINAL for c in view.cues):
            done.set()

    factory = mock_factory()
    config = HardwareConfig.from_section({"ring": "leds", "led_pins": LED_PINS[:4]})
    with open_table_timer(
        config, Countdown(0.6, warning=0.3, tick_seconds=0), choice=FactoryChoice(factory, "test")
    ) as timer:
        timer.add_listener(listen)
        timer.start_thread()
        timer.toggle()
        assert done.wait(timeout=5.0), "the final cue never came"
    assert heard == [CueKind.START, CueKind.WARNING, CueKind.FINAL]
    assert all(factory.pin(p).state == 0 for p in [17, *LED_PINS[:4]])


def test_without_usable_gpio_the_timer_falls_back_to_mock_pins_and_says_why() -> None:
    if is_raspberry_pi():
        pytest.skip("on a Pi the real GPIO may well be usable")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        timer = open_table_timer(
            HardwareConfig.from_section({"ring": "leds"}),
            Countdown(30.0),
            choice=FactoryChoice(None, "real GPIO"),
        )
    with timer:
        assert "not usable" in timer.notes[0] and "mock pins" in timer.notes[0]
        assert timer.toggle().phase is Phase.RUNNING


def test_a_neopixel_ring_off_the_pi_is_drawn_on_screen_only() -> None:
    with open_table_timer(
        HardwareConfig(), Countdown(30.0), choice=FactoryChoice(mock_factory(), "test")
    ) as timer:
        assert any("screen only" in note for note in timer.notes)
        timer.toggle()
        assert timer.ring.frame.lit == 12  # type: ignore[attr-defined]

"""Ring frames: the pure picture of a countdown that every ring (GPIO, NeoPixel, screen) draws."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.countdown import Countdown, Phase
from games.ring_frames import AMBER, GREEN, RED, RingFrame, RingStyle, next_frame_change, ring_frame


@pytest.mark.parametrize("duration", [30.0, 60.0])
def test_lit_leds_drain_one_share_at_a_time(duration: float) -> None:
    c = Countdown(duration).start(0.0)
    style = RingStyle(leds=12)
    for second in range(int(duration) + 1):
        remaining = duration - second
        frame = ring_frame(c, float(second), style)
        expected = math.ceil(remaining / (duration / 12)) if remaining else 12  # expired: all flash
        assert frame.lit == expected, f"{remaining} s left"


def test_colours_follow_the_phase() -> None:
    c = Countdown(30.0).start(0.0)
    style = RingStyle(leds=12)
    assert ring_frame(c, 19.9, style).colour == GREEN
    assert ring_frame(c, 20.0, style).colour == AMBER
    assert ring_frame(c, 30.0, style).colour == RED
    assert ring_frame(Countdown(30.0), 5.0, style) == RingFrame.dark(12)


def test_the_partly_used_led_is_partly_lit() -> None:
    c = Countdown(24.0).start(0.0)  # 12 LEDs: 2 s each, 8 levels: 0.25 s per level
    frame = ring_frame(c, 1.0, RingStyle(leds=12, levels=8))
    assert frame.levels[:11] == (1.0,) * 11 and frame.levels[11] == 0.5


def test_paused_ring_is_frozen_and_dim() -> None:
    c = Countdown(30.0).start(0.0).pause(7.0)
    style = RingStyle(leds=12, paused_level=0.25)
    frames = {ring_frame(c, t, style) for t in (7.0, 60.0, 9999.0)}
    assert len(frames) == 1
    (frame,) = frames
    assert frame.phase is Phase.PAUSED and frame.colour == GREEN
    assert max(frame.levels) == 0.25 and frame.lit == math.ceil(23 / 2.5)
    assert next_frame_change(c, 60.0, style) is None
    warned = Countdown(30.0).start(0.0).pause(25.0)
    assert ring_frame(warned, 30.0, style).colour == AMBER


def test_expired_ring_flashes_red_then_keeps_a_heartbeat() -> None:
    c = Countdown(30.0).start(0.0)
    style = RingStyle(leds=12, blink_period=0.5, flash_seconds=10.0, heartbeat=2.0)
    assert [ring_frame(c, 30.0 + t, style).lit for t in (0.0, 0.1, 0.25, 0.4, 0.5, 9.9)] == [
        12,
        12,
        0,
        0,
        12,
        0,
    ]
    assert [ring_frame(c, 40.0 + t, style).lit for t in (0.0, 0.2, 0.3, 1.9, 2.0)] == [12, 12, 0, 0, 12]


def test_mono_leds_blink_the_leading_led_in_the_warning() -> None:
    c = Countdown(30.0).start(0.0)
    mono = RingStyle(leds=12, mono=True)
    colour = RingStyle(leds=12)
    assert ring_frame(c, 21.0, mono).lit == 4 and ring_frame(c, 21.1, mono).lit == 4  # 9.0 s left: on
    assert ring_frame(c, 21.3, mono).lit == 3  # the leading LED is off for the second quarter
    assert ring_frame(c, 21.3, colour).lit == 4  # a colour ring shows amber instead of blinking
    assert ring_frame(c, 15.3, mono).lit == 6  # no blinking before the warning


def test_time_added_past_the_duration_shows_a_full_ring() -> None:
    c = Countdown(30.0).start(0.0).adjust(20.0, 1.0)
    assert ring_frame(c, 1.0, RingStyle(leds=12)).lit == 12


def test_pixels_scale_colour_by_level_and_brightness() -> None:
    frame = RingFrame(Phase.RUNNING, (200, 100, 0), (1.0, 0.5, 0.0))
    assert frame.pixels() == ((200, 100, 0), (100, 50, 0), (0, 0, 0))
    assert frame.pixels(0.5)[0] == (100, 50, 0)


@pytest.mark.parametrize("bad", [{"leds": 0}, {"leds": -3}, {"levels": 0}, {"paused_level": 0.0}])
def test_bad_styles_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        RingStyle(**bad)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(
    duration=st.sampled_from([7.0, 30.0, 60.0, 45.5]),
    leds=st.integers(min_value=1, max_value=24),
    mono=st.booleans(),
    start=st.floats(min_value=0.0, max_value=1e5, allow_nan=False),
    pause_at=st.one_of(st.none(), st.floats(min_value=0.0, max_value=80.0)),
    probe=st.floats(min_value=0.0, max_value=90.0),
)
def test_next_frame_change_is_exactly_when_the_frame_next_changes(
    duration: float, leds: int, mono: bool, start: float, pause_at: float | None, probe: float
) -> None:
    """Nothing changes before the predicted change, so a driver sleeping until then misses nothing."""
    style = RingStyle(leds=leds, mono=mono)
    c = Countdown(duration).start(start)
    if pause_at is not None:
        c = c.pause(start + pause_at)
    now = start + probe
    frame = ring_frame(c, now, style)
    change = next_frame_change(c, now, style)
    if change is None:
        assert ring_frame(c, now + 1000.0, style) == frame
        return
    assert change > now
    for fraction in (0.01, 0.5, 0.99):
        probe_at = now + (change - now) * fraction
        if now < probe_at < change:  # (a gap of a few ulps may have no float strictly inside)
            assert ring_frame(c, probe_at, style) == frame

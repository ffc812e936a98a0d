"""The NeoPixel ring on a real Raspberry Pi (Blinka's neopixel has no test double: Pi only)."""

from __future__ import annotations

import pytest

from games.countdown import Countdown
from games.ring_frames import RingStyle, ring_frame
from hardware.config import HardwareConfig
from hardware.pins import is_raspberry_pi
from hardware.ring import NeoPixelRing, RingUnavailable

pytestmark = [
    pytest.mark.pi,
    pytest.mark.skipif(not is_raspberry_pi(), reason="needs a Raspberry Pi with a NeoPixel ring wired"),
]


def test_the_ring_shows_a_draining_turn_and_turns_off() -> None:
    config = HardwareConfig()
    try:
        ring = NeoPixelRing(config.ring_pin or 10, config.leds, brightness=0.1)
    except RingUnavailable as exc:
        pytest.skip(f"no usable NeoPixel ring here: {exc}")
    with ring:
        countdown = Countdown(12.0).start(0.0)
        style = RingStyle(leds=config.leds)
        ring.show(ring_frame(countdown, 6.0, style))
        lit = [p for p in ring.pixels if any(p)]
        assert len(lit) == config.leds // 2
        ring.close()
        ring.close()  # safe twice

"""Open the table timer's parts from the ``[hardware]`` settings, falling back rather than failing.

On a Pi the parts use the real GPIO. If that is impossible (no permission, a pin busy,
no GPIO library) the timer still runs: on gpiozero's mock pins, shown on screen only,
with the reason in ``TableTimer.notes``. A NeoPixel ring that cannot be opened (not a Pi,
Blinka missing) likewise becomes a screen-only ring with the reason noted.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from gpiozero.exc import GPIOZeroError

from games.countdown import Countdown
from games.ring_frames import RingStyle
from hardware.button import TimerButton
from hardware.buzzer import Sounder, open_buzzer
from hardware.config import HardwareConfig
from hardware.pins import FactoryChoice, choose_factory, mock_factory
from hardware.ring import LedBarRing, NeoPixelRing, Ring, RingUnavailable, ScreenOnlyRing
from hardware.sounds import SoundSettings
from hardware.table_timer import TableTimer

log = logging.getLogger(__name__)

#: What opening real GPIO parts raises when the GPIO is not usable here.
GPIO_FAILURES = (GPIOZeroError, OSError, RuntimeError, ImportError)


def ring_style(config: HardwareConfig) -> RingStyle:
    """Discrete LEDs cannot change colour, so their frames use the blink patterns (mono)."""
    return RingStyle(leds=max(1, config.ring_leds), mono=config.ring == "leds")


def _open_gpio_parts(
    config: HardwareConfig, factory: Any, stack: ExitStack
) -> tuple[Ring | None, Sounder, TimerButton | None]:
    ring: Ring | None = None
    if config.ring == "leds":
        ring = stack.enter_context(
            LedBarRing(config.led_pins, brightness=config.brightness, pin_factory=factory)
        )
    device = None
    if config.buzzer != "none" and config.buzzer_pin is not None:
        device = open_buzzer(config.buzzer, config.buzzer_pin, factory)
        if device is not None:
            stack.callback(device.close)
    button = None
    if config.button_pin is not None:
        button = stack.enter_context(
            TimerButton(
                config.button_pin, hold_seconds=config.hold_seconds, bounce_time=0.03, pin_factory=factory
            )
        )
    return ring, Sounder(device), button


def open_table_timer(
    config: HardwareConfig,
    countdown: Countdown,
    *,
    sounds: SoundSettings | None = None,
    clock: Callable[[], float] = time.monotonic,
    choice: FactoryChoice | None = None,
) -> TableTimer:
    """A :class:`TableTimer` on the configured parts (``choice`` overrides the pin factory, for tests)."""
    choice = choice or choose_factory(config.pin_factory)
    notes = [f"pins: {choice.reason}"]
    factory: Any = choice.factory
    with ExitStack() as stack:
        try:
            ring, sounder, button = _open_gpio_parts(config, factory, stack)
        except GPIO_FAILURES as exc:
            if choice.factory is not None:
                raise
            stack.close()
            factory = mock_factory()
            notes = [f"pins: the GPIO is not usable ({exc}); using mock pins — the timer runs on screen only"]
            log.warning("%s", notes[0])
            ring, sounder, button = _open_gpio_parts(config, factory, stack)
        if config.ring == "neopixel" and config.ring_pin is not None:
            ring = _open_neopixel(config, real_gpio=factory is None, notes=notes)
        if ring is None:
            ring = ScreenOnlyRing(max(1, config.ring_leds), 'no ring fitted (ring = "none")')
        if sounds is not None:
            sounder.settings = sounds
        timer = TableTimer(
            countdown,
            ring=ring,
            sounder=sounder,
            button=button,
            style=ring_style(config),
            clock=clock,
            notes=notes,
        )
        stack.pop_all()  # the timer owns the parts now
    return timer


def _open_neopixel(config: HardwareConfig, *, real_gpio: bool, notes: list[str]) -> Ring:
    assert config.ring_pin is not None
    if not real_gpio:
        reason = "the NeoPixel ring is drawn on screen only (no real GPIO here)"
        notes.append(f"ring: {reason}")
        return ScreenOnlyRing(config.leds, reason)
    try:
        return NeoPixelRing(
            config.ring_pin, config.leds, brightness=config.brightness, pixel_order=config.pixel_order
        )
    except RingUnavailable as exc:
        notes.append(f"ring: {exc}; it is drawn on screen only")
        log.warning("%s", notes[-1])
        return ScreenOnlyRing(config.leds, str(exc))

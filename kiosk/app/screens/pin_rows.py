"""The GPIO pin rows of the Settings screen: a pin stepper, and the [hardware] values to show.

Kept apart from the screen so the screen stays a list of rows; the checking itself is
``hardware.config``'s (the same checker the kiosk runs at start-up).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hardware.config import DEFAULT_LED_PINS, GPIO_RANGE, HardwareConfig, HardwareConfigError
from kiosk.app.widgets.basics import Stepper


class PinStepper(Stepper):
    """``[-] GPIO17 [+]`` over the 40-pin header's GPIOs; below GPIO0, "none" when allowed."""

    def __init__(
        self, tid: str, pin: int | None, allow_none: bool, on_change: Callable[[int | None], Any]
    ) -> None:
        low = GPIO_RANGE.start - 1 if allow_none else GPIO_RANGE.start
        start = pin if pin is not None else low
        super().__init__(tid, start, low, GPIO_RANGE.stop - 1, "GPIO{}")
        self._pin_changed = on_change
        self.label.text = self.shown(start)

    def shown(self, value: int) -> str:
        return "none" if value < GPIO_RANGE.start else f"GPIO{value}"

    def set(self, value: int) -> None:
        self.value = value
        self.label.text = self.shown(value)
        self._pin_changed(None if value < GPIO_RANGE.start else value)


def hardware_values(raw: dict[str, Any]) -> dict[str, Any]:
    """The [hardware] values to show: the file's own where they make sense, else the defaults.

    A value the checker refuses (a typo in the file) shows the default, so the rows always
    have something to step from; the refusal itself is reported on Save.
    """
    defaults = HardwareConfig()
    shown: dict[str, Any] = {
        "buzzer": defaults.buzzer,
        "buzzer_pin": defaults.buzzer_pin,
        "button_pin": defaults.button_pin,
        "ring": defaults.ring,
        "ring_pin": defaults.ring_pin,
        "leds": defaults.leds,
        "led_pins": list(defaults.led_pins),
    }
    for key in shown:
        if key not in raw:
            continue
        try:
            value = getattr(HardwareConfig.from_section({key: raw[key]}), key)
        except HardwareConfigError:
            continue
        shown[key] = list(value) if isinstance(value, tuple) else value
    return shown


def led_count(shown: dict[str, Any]) -> int:
    return len(shown["led_pins"]) if shown["ring"] == "leds" else int(shown["leds"])


def other_pins(shown: dict[str, Any]) -> list[int]:
    """Pins the buzzer and button hold (an LED ring's new pins must not take them)."""
    return [p for p in (shown["buzzer_pin"], shown["button_pin"]) if p is not None]


#: Free pins in the order a growing LED list takes them: the usual ones, then plain GPIOs,
#: then pins that double as I2C, UART, SPI or the HAT ID EEPROM (only when nothing else is left).
SPARE_PINS = (*DEFAULT_LED_PINS, 4, 22, 27, 17, 18, 7, 8, 2, 3, 14, 15, 9, 10, 11, 0, 1)


def grown(pins: list[int], count: int, taken: set[int]) -> list[int]:
    """``pins`` made up to ``count`` with spare pins that neither it nor ``taken`` uses."""
    pins = list(pins)
    for pin in SPARE_PINS:
        if len(pins) >= count:
            break
        if pin not in taken and pin not in pins:
            pins.append(pin)
    return pins

"""The ``[hardware]`` section of the settings file, checked into a frozen :class:`HardwareConfig`.

Every mistake is reported at once, in plain words, naming the key: a pin used twice, a pin
that does not exist on the 40-pin header, an unknown ring or buzzer type, a negative LED
count, a misspelt key. Example (all keys optional; these are the defaults)::

    [hardware]
    pin_factory = "auto"      # "auto": real GPIO on a Pi, gpiozero's mock pins elsewhere; "mock"
    buzzer = "active"         # "active" (on/off buzzer), "passive" (piezo, tones), "none"
    buzzer_pin = 17
    button_pin = 27           # to ground; "none" for no button
    hold_seconds = 2.0        # hold the button this long to reset
    ring = "neopixel"         # "neopixel" (WS2812 ring), "leds" (one GPIO per LED), "none"
    ring_pin = 10             # NeoPixel data pin: GPIO10 (SPI MOSI) or GPIO18 (PWM)
    leds = 12                 # LEDs on the NeoPixel ring
    led_pins = [5, 6, 13, 19, 26, 12, 16, 20, 21, 25, 24, 23]   # ring = "leds"
    brightness = 0.4          # 0.0-1.0
    pixel_order = "GRB"       # WS2812 colour order: "GRB" (most rings) or "RGB"
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

#: BCM GPIO numbers brought out on the 40-pin header of every Pi since the B+.
GPIO_RANGE = range(0, 28)

DEFAULT_LED_PINS: tuple[int, ...] = (5, 6, 13, 19, 26, 12, 16, 20, 21, 25, 24, 23)

#: GPIO numbers a NeoPixel data pin ties up besides itself (SPI0 when driven from GPIO10).
NEOPIXEL_CLAIMS: dict[int, tuple[int, ...]] = {10: (9, 11)}
NEOPIXEL_PINS = (10, 12, 18, 21)


class HardwareConfigError(ValueError):
    """The ``[hardware]`` section has mistakes; ``problems`` lists each in plain words."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("the [hardware] settings have problems:\n" + "\n".join(f"  - {p}" for p in problems))


@dataclass(frozen=True, slots=True)
class HardwareConfig:
    """Which parts are fitted and on which BCM GPIO pins (see the module docstring)."""

    pin_factory: str = "auto"
    buzzer: str = "active"
    buzzer_pin: int | None = 17
    button_pin: int | None = 27
    hold_seconds: float = 2.0
    ring: str = "neopixel"
    ring_pin: int | None = 10
    leds: int = 12
    led_pins: tuple[int, ...] = field(default=DEFAULT_LED_PINS)
    brightness: float = 0.4
    pixel_order: str = "GRB"

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {
        "pin_factory": ("auto", "mock"),
        "buzzer": ("active", "passive", "none"),
        "ring": ("neopixel", "leds", "none"),
        "pixel_order": ("GRB", "RGB"),
    }

    @property
    def ring_leds(self) -> int:
        """How many LEDs the ring has (for ``leds``, one per pin; 0 with no ring)."""
        if self.ring == "leds":
            return len(self.led_pins)
        return self.leds if self.ring == "neopixel" else 0

    def pins_in_use(self) -> dict[int, str]:
        """GPIO number -> what uses it (for the wiring table and ``doctor``)."""
        used: dict[int, str] = {}
        if self.buzzer != "none" and self.buzzer_pin is not None:
            used[self.buzzer_pin] = "buzzer"
        if self.button_pin is not None:
            used[self.button_pin] = "button"
        if self.ring == "neopixel" and self.ring_pin is not None:
            used[self.ring_pin] = "NeoPixel data"
        if self.ring == "leds":
            for i, pin in enumerate(self.led_pins):
                used[pin] = f"LED {i + 1}"
        return used

    @classmethod
    def from_section(cls, section: Mapping[str, Any] | None) -> HardwareConfig:
        """Check a ``[hardware]`` table (as loaded from TOML); raise HardwareConfigError."""
        return _Checker(dict(section or {})).build()


_PIN_TEXT = re.compile(r"^(?:gpio|bcm)?\s*(\d+)$", re.IGNORECASE)


class _Checker:
    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self.problems: list[str] = []

    def build(self) -> HardwareConfig:
        known = {f.name for f in fields(HardwareConfig)}
        for key in sorted(set(self.raw) - known):
            self.problems.append(f"unknown key '{key}' (known keys: {', '.join(sorted(known))})")
        defaults = HardwareConfig()
        values: dict[str, Any] = {}
        for name, options in HardwareConfig.CHOICES.items():
            values[name] = self.choice(name, options, getattr(defaults, name))
        for name in ("buzzer_pin", "button_pin", "ring_pin"):
            values[name] = self.pin(name, self.raw.get(name, getattr(defaults, name)))
        values["hold_seconds"] = self.number("hold_seconds", defaults.hold_seconds, 0.1, 10.0)
        values["brightness"] = self.number("brightness", defaults.brightness, 0.0, 1.0)
        values["leds"] = self.count("leds", defaults.leds)
        values["led_pins"] = self.pin_list(defaults.led_pins)
        if not self.problems:
            self.cross_check(values)
        if self.problems:
            raise HardwareConfigError(self.problems)
        return HardwareConfig(**values)

    def choice(self, key: str, options: tuple[str, ...], default: str) -> str:
        value = self.raw.get(key, default)
        match = next(
            (o for o in options if isinstance(value, str) and value.strip().lower() == o.lower()), None
        )
        if match is None:
            self.problems.append(f"{key} = {value!r} is not one of: {', '.join(options)}")
            return default
        return match

    def pin(self, key: str, value: Any, *, allow_none: bool = True) -> int | None:
        if allow_none and (
            value is None or value is False or (isinstance(value, str) and value.lower() == "none")
        ):
            return None
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and (m := _PIN_TEXT.match(value.strip())):
            number = int(m.group(1))
        if number is None:
            self.problems.append(f'{key} = {value!r} is not a GPIO pin number (write e.g. 17 or "GPIO17")')
            return None
        if number not in GPIO_RANGE:
            self.problems.append(
                f"{key} = {value!r}: the Pi's header has GPIO{GPIO_RANGE.start} to GPIO{GPIO_RANGE.stop - 1} "
                "(use BCM GPIO numbers, not physical pin numbers)"
            )
            return None
        return number

    def pin_list(self, default: tuple[int, ...]) -> tuple[int, ...]:
        value = self.raw.get("led_pins", default)
        if not isinstance(value, list | tuple) or not value:
            self.problems.append(f"led_pins = {value!r} should be a list of GPIO pins, e.g. [5, 6, 13]")
            return default
        pins = [self.pin(f"led_pins[{i}]", v, allow_none=False) for i, v in enumerate(value)]
        return tuple(p for p in pins if p is not None)

    def number(self, key: str, default: float, low: float, high: float) -> float:
        value = self.raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            self.problems.append(f"{key} = {value!r} should be a number from {low:g} to {high:g}")
            return default
        return float(value)

    def count(self, key: str, default: int) -> int:
        value = self.raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1024:
            self.problems.append(f"{key} = {value!r} should be a whole number of LEDs from 1 to 1024")
            return default
        return value

    def cross_check(self, values: dict[str, Any]) -> None:
        if values["buzzer"] != "none" and values["buzzer_pin"] is None:
            self.problems.append(f'buzzer = {values["buzzer"]!r} needs a buzzer_pin (or set buzzer = "none")')
        if values["ring"] == "neopixel":
            if values["ring_pin"] is None:
                self.problems.append('ring = "neopixel" needs a ring_pin (the data pin: 10 or 18)')
            elif values["ring_pin"] not in NEOPIXEL_PINS:
                self.problems.append(
                    f"ring_pin = {values['ring_pin']}: a NeoPixel ring on a Pi must use GPIO10, 12, 18 or 21 "
                    "(the pins with the precise timing it needs)"
                )
        if values["ring"] == "leds" and "leds" in self.raw and values["leds"] != len(values["led_pins"]):
            self.problems.append(
                f"leds = {values['leds']} but led_pins lists {len(values['led_pins'])} pins: "
                "with ring = \"leds\" there is one pin per LED (drop 'leds' or make them agree)"
            )
        owners: dict[int, list[str]] = {}
        if values["buzzer"] != "none" and values["buzzer_pin"] is not None:
            owners.setdefault(values["buzzer_pin"], []).append("buzzer_pin")
        if values["button_pin"] is not None:
            owners.setdefault(values["button_pin"], []).append("button_pin")
        if values["ring"] == "neopixel" and values["ring_pin"] is not None:
            owners.setdefault(values["ring_pin"], []).append("ring_pin")
            for claimed in NEOPIXEL_CLAIMS.get(values["ring_pin"], ()):
                owners.setdefault(claimed, []).append(
                    f"ring_pin (the NeoPixel on GPIO{values['ring_pin']} uses SPI)"
                )
        if values["ring"] == "leds":
            for i, pin in enumerate(values["led_pins"]):
                owners.setdefault(pin, []).append(f"led_pins[{i}]")
        for pin, users in sorted(owners.items()):
            if len(users) > 1:
                self.problems.append(f"GPIO{pin} is used twice: by {' and '.join(users)}")

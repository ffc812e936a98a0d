"""The [hardware] section: defaults, and a clear message for every kind of mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.config import DEFAULT_LED_PINS, HardwareConfig, HardwareConfigError
from kiosk.files import settings as settings_file


def problems(section: dict) -> list[str]:
    with pytest.raises(HardwareConfigError) as info:
        HardwareConfig.from_section(section)
    return info.value.problems


def test_no_section_means_the_documented_defaults() -> None:
    cfg = HardwareConfig.from_section({})
    assert cfg == HardwareConfig()
    assert (cfg.buzzer, cfg.buzzer_pin, cfg.button_pin, cfg.ring, cfg.ring_pin) == (
        "active",
        17,
        27,
        "neopixel",
        10,
    )
    assert cfg.hold_seconds == 2.0 and cfg.ring_leds == 12
    assert cfg.pins_in_use() == {17: "buzzer", 27: "button", 10: "NeoPixel data"}


def test_a_full_section_read_from_a_real_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "tablekeeper.toml"
    path.write_text(
        '[hardware]\nbuzzer = "Passive"\nbuzzer_pin = "GPIO13"\nbutton_pin = "none"\nring = "leds"\n'
        "led_pins = [5, 6, 19, 26]\nbrightness = 0.8\nhold_seconds = 1.5\n"
    )
    loaded = settings_file.load(path)
    assert loaded.problems == []
    cfg = HardwareConfig.from_section(loaded.section("hardware"))
    assert cfg.buzzer == "passive" and cfg.buzzer_pin == 13 and cfg.button_pin is None
    assert cfg.led_pins == (5, 6, 19, 26) and cfg.ring_leds == 4 and cfg.brightness == 0.8


def test_a_pin_used_twice_names_both_users() -> None:
    assert problems({"buzzer_pin": 27}) == ["GPIO27 is used twice: by buzzer_pin and button_pin"]
    found = problems({"ring": "leds", "led_pins": [5, 6, 17]})
    assert found == ["GPIO17 is used twice: by buzzer_pin and led_pins[2]"]


def test_the_neopixel_spi_pins_are_taken() -> None:
    assert "GPIO11 is used twice" in problems({"button_pin": 11})[0]


def test_an_unknown_ring_or_buzzer_type_lists_the_choices() -> None:
    assert problems({"ring": "rgb"}) == ["ring = 'rgb' is not one of: neopixel, leds, none"]
    assert problems({"buzzer": "loud"}) == ["buzzer = 'loud' is not one of: active, passive, none"]


@pytest.mark.parametrize(
    ("section", "words"),
    [
        ({"buzzer_pin": 40}, "GPIO0 to GPIO27"),
        ({"buzzer_pin": -1}, "GPIO0 to GPIO27"),
        ({"button_pin": "pin seven"}, "not a GPIO pin number"),
        ({"button_pin": True}, "not a GPIO pin number"),
        ({"leds": -12}, "whole number of LEDs"),
        ({"leds": 0}, "whole number of LEDs"),
        ({"leds": 2.5}, "whole number of LEDs"),
        ({"brightness": 1.5}, "from 0 to 1"),
        ({"hold_seconds": 0}, "from 0.1 to 10"),
        ({"led_pins": []}, "list of GPIO pins"),
        ({"ring_pin": 17, "buzzer_pin": 22}, "GPIO10, 12, 18 or 21"),
        ({"ring": "leds", "leds": 5}, "one pin per LED"),
        ({"buzer_pin": 17}, "unknown key 'buzer_pin'"),
        ({"buzzer_pin": "none"}, "needs a buzzer_pin"),
    ],
)
def test_each_mistake_is_said_in_plain_words(section: dict, words: str) -> None:
    found = problems(section)
    assert len(found) == 1 and words in found[0], found


def test_all_problems_are_reported_at_once() -> None:
    with pytest.raises(HardwareConfigError) as error:
        HardwareConfig.from_section({"ring": "x", "leds": -1, "nope": 1})
    assert len(error.value.problems) == 3
    assert str(error.value).startswith("the [hardware] settings have problems:\n  - ")


def test_default_led_pins_avoid_the_other_parts_and_the_buses() -> None:
    cfg = HardwareConfig.from_section({"ring": "leds"})
    assert cfg.led_pins == DEFAULT_LED_PINS and len(set(DEFAULT_LED_PINS)) == 12
    reserved = {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15, 17, 27}  # HAT EEPROM, I2C, SPI, UART, buzzer, button
    assert not reserved & set(DEFAULT_LED_PINS)

"""Which gpiozero pin factory drives the parts: the real GPIO on a Pi, mock pins elsewhere.

gpiozero picks its own best factory on a Pi (lgpio on a Pi 5 and on Bookworm) and honours
``GPIOZERO_PIN_FACTORY``; we only decide between "let gpiozero choose" and its own
``MockFactory`` with PWM-capable mock pins, so every command runs on a laptop too.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin

MODEL_FILE = Path("/proc/device-tree/model")


def board_model() -> str | None:
    """'Raspberry Pi 5 Model B Rev 1.0' on a Pi; None elsewhere."""
    try:
        return MODEL_FILE.read_text(errors="replace").strip("\x00\n ") or None
    except OSError:
        return None


def is_raspberry_pi() -> bool:
    return "Raspberry Pi" in (board_model() or "")


def mock_factory() -> MockFactory:
    """gpiozero's mock pins, PWM-capable, recording each pin's state history."""
    return MockFactory(pin_class=MockPWMPin)


@dataclass(frozen=True)
class FactoryChoice:
    """``factory`` None means gpiozero's default (real GPIO); ``reason`` says why in plain words."""

    factory: MockFactory | None
    reason: str

    @property
    def real(self) -> bool:
        return self.factory is None


def choose_factory(setting: str) -> FactoryChoice:
    """Real GPIO on a Pi (or when GPIOZERO_PIN_FACTORY names one), mock pins otherwise."""
    if setting == "mock":
        return FactoryChoice(mock_factory(), 'mock pins chosen in the settings (pin_factory = "mock")')
    if os.environ.get("GPIOZERO_PIN_FACTORY"):
        return FactoryChoice(None, f"GPIOZERO_PIN_FACTORY={os.environ['GPIOZERO_PIN_FACTORY']}")
    model = board_model()
    if model and "Raspberry Pi" in model:
        return FactoryChoice(None, f"GPIO of this {model}")
    return FactoryChoice(mock_factory(), "not a Raspberry Pi: gpiozero's mock pins stand in for the GPIO")

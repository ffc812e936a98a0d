"""The runnable examples in the timer's and deck's docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "games.countdown",
    "games.ring_frames",
    "games.category_deck",
    "hardware.buzzer",
    "hardware.ring",
    "hardware.table_timer",
    "kiosk.play.categories",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0

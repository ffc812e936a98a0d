"""The overlap audit's former known cases, now fixed: kept as tests so they stay fixed.

Every GUI scenario runs the overlap audit (``tests/gui/clipping.py``, checked in
``harness.run``). Cases another branch was fixing were listed in ``clipping.KNOWN_OVERLAPS``
with a strict expected failure here; both were fixed on main (the banner takes a strip
above the screen; a stacked square's height is a corner digit clear of its letter), the
list is empty and the audit lets nothing through.
"""

from __future__ import annotations

from typing import Any

import pytest
from gui import harness
from gui.harness import GUI, needs_words, run

display = harness.display  # one screen per module

pytestmark = [*GUI, needs_words]


@pytest.fixture(scope="module")
def found(display: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The scenario, run once for the module's tests."""
    data = tmp_path_factory.mktemp("overlaps") / "data"
    data.mkdir()
    (data / "tablekeeper.toml").write_text("[timer\nwarning = ")  # a problem banner at start
    return run("overlaps_known", data)


def test_the_start_screens_banner_leaves_the_word_on_the_street_button_uncovered(
    found: dict[str, Any],
) -> None:
    assert found["start"] == []


def test_the_upwords_height_digit_leaves_a_stacked_letter_uncovered(found: dict[str, Any]) -> None:
    assert found["board"] == []

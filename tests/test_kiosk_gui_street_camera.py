"""The camera drives the Word on the Street turn: offers from the moves seen, typos flagged."""

from __future__ import annotations

from pathlib import Path

from gui import harness
from gui.harness import GUI, assert_street_readable, needs_words, newest_events, run

data, display = harness.data, harness.display  # a data folder per test, one screen per module

pytestmark = GUI


@needs_words
def test_the_camera_offers_the_word_its_moves_make_and_flags_a_typo(data: Path) -> None:
    found = run("demo_street_turn", data)
    assert {k: v for k, v in found["read"].items() if v} == {"P": -2, "R": -1, "L": -1}
    assert "PURPLE" in found["offers"]
    assert found["preview_typo"] == "camera: P moved 2, the word moves it 1"
    assert found["flag_banner"].startswith("The camera saw other moves for PURLE: P moved 2")
    assert found["screen_after_typo"] == "entry"  # nothing was played
    # The entry screen draws the street as the camera sees it, the disagreeing tile framed in red,
    # in the keyboard's place; a tap on the street brings the keyboard back with the word kept.
    street = found["entry_street"]
    assert street["shown"] and not street["keyboard"]
    assert street["flagged"] == ["P"]
    assert {k: v for k, v in street["tiles"].items() if v} == {"P": -2, "R": -1, "L": -1}
    assert street["title"].startswith("Red: check these tiles")
    assert found["after_street_tap"] == {"street": False, "keyboard": True, "field": "PURLE"}
    assert found["street_flagged"] == ["P"]  # shown on the street, framed in red
    assert_street_readable(found["street_measured"])  # the camera's caption leaves it readable
    assert found["screen_after_offer"] == "game"
    assert found["last_word"] == "PURPLE"
    assert {k: v for k, v in found["positions_after"].items() if v} == {"P": -2, "R": -1, "L": -1}
    events = newest_events(data)
    assert [e["word"] for e in events if e["type"] == "word"] == ["PURPLE"]


@needs_words
def test_correcting_an_old_turn_is_not_compared_with_the_street_of_later_turns(data: Path) -> None:
    found = run("demo_street_correction", data)
    assert found["preview_PURPLE"] == found["preview_GIANT"] == ""  # both filmed as typed
    assert found["old_field"] == "PURPLE"
    assert not found["old_preview"].startswith("camera:"), found["old_preview"]  # no false "moved"
    assert found["old_screen_after"] == "history", found["old_banners"]  # corrected, no warning
    assert not any("camera saw" in b for b in found["old_banners"]), found["old_banners"]
    latest = found["latest_preview"]
    assert latest.startswith("camera: ") and "tiles moved otherwise" in latest, latest
    assert found["preview_text_top"] <= found["bar_bottom"], found  # the hint stays under the bar
    events = newest_events(data)
    assert [e["word"] for e in events if e["type"] == "word"] == ["PURPLE", "GIANT"]

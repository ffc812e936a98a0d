"""The Settings screen's GPIO pins and the Find the board screen, in the real kiosk under Xvfb.

Each scenario (``tests/gui/play_settings.py``) runs the real app in its own process and taps
with real touches; these tests check the TOML and calibration files on disk afterwards.
Screenshots go to ``artifacts/screenshots/`` (settings-pins*, calibrate-four-corners, ...).
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from pathlib import Path

from gui import harness
from gui.harness import GUI, needs_words, run

from calibration.file import load_calibration
from hardware.config import HardwareConfig

data, display = harness.data, harness.display  # a data folder per test, one screen per module

pytestmark = GUI


ALL_FOUR = ("All four corners: tap Save (or Start over). Save with the board as before play, so the "
            "camera learns its look.")

def test_a_new_buzzer_pin_and_an_led_ring_of_ten_pins_are_saved(data: Path) -> None:
    (data / "tablekeeper.toml").write_text("[timer]\nwarning = 7\n")
    found = run("pins_saved", data)
    assert found["buzzer_pin"] == "GPIO19"
    assert found["ring_pin"] == "GPIO10"
    assert (found["audited"], found["small_text"], found["small_buttons"]) == (["settings pins"], [], [])
    assert found["button_pin"] == "none"
    assert found["ring"] == "leds"
    assert found["ring_pin_usable"] is False
    assert found["leds_after_ring"] == "12 LEDs"  # one per default LED pin
    # The default list without GPIO19, now the buzzer's (GPIO4 makes up the twelve), cut to ten.
    assert found["led_pins_note"] == "One GPIO per LED: 5, 6, 13, 26, 12, 16, 20, 21, 25, 24."
    assert "Pin changes apply the next time the kiosk starts" in found["banner"]
    assert found["screen_after_save"] == "start"
    saved = tomllib.loads((data / "tablekeeper.toml").read_text())
    assert saved["timer"]["warning"] == 7  # what was there is kept
    assert saved["hardware"]["buzzer_pin"] == 19
    assert saved["hardware"]["ring"] == "leds"
    assert saved["hardware"]["led_pins"] == [5, 6, 13, 26, 12, 16, 20, 21, 25, 24]
    config = HardwareConfig.from_section(saved["hardware"])  # the kiosk will start with it
    assert saved["hardware"]["button_pin"] == "none"  # TOML has no null; the checker reads "none"
    assert config.buzzer_pin == 19 and config.button_pin is None and config.ring_leds == 10


@needs_words
def test_the_family_chooses_everyday_words_by_that_name_and_the_next_ruling_uses_them(
    data: Path,
) -> None:
    found = run("dictionary_choice", data)
    # No library, list or size names on the family's settings (the technician's are held shut);
    # the only numbers are the timers' seconds.
    texts = " ".join(found["family_texts"])
    assert "Dictionary" in texts
    assert not re.search(r"SCOWL|WordNet|GNU|\bsize\b|\b(60|70)\b(?! s\b)", texts)
    assert (found["dictionary_before"], found["dictionary_after"]) == ("Full dictionary", "Everyday words")
    assert found["audited"] == ["settings dictionary"]
    assert (found["small_text"], found["small_buttons"]) == ([], [])
    assert tomllib.loads((data / "tablekeeper.toml").read_text())["words"]["size"] == 60
    assert found["list_in_use"] == "everyday list"
    assert found["qi"] == (
        "QI is not in the everyday list (it is in the full dictionary); "
        "the table can allow it as a house word"
    )
    # M-W: irregardless, nonstandard; a full-dictionary word, refused on the everyday list
    assert found["verdict"] == "ILLEGAL"
    assert (
        "IRREGARDLESS is not in the everyday list (it is in the full dictionary); "
        "the table can allow it as a house word"
    ) in found["verdict_texts"]
    assert "Word on the Street, 'Allowable Words': \"Any word in the English language is allowed\"" in (
        found["verdict_texts"]
    )


def test_two_parts_on_one_pin_or_a_reserved_pin_are_refused_and_nothing_is_saved(data: Path) -> None:
    before = "[timer]\nwarning = 7\n"
    (data / "tablekeeper.toml").write_text(before)
    found = run("pins_clash", data)
    assert found["twice_banner"] == "Not saved: GPIO27 is used twice: by buzzer_pin and button_pin."
    assert found["screen_after_twice"] == "settings"
    assert found["reserved_banner"] == (
        "Not saved: GPIO11 is used twice: by buzzer_pin and ring_pin (the NeoPixel on GPIO10 uses SPI)."
    )
    assert found["screen_after_reserved"] == "settings"
    assert found["screen_after_cancel"] == "start"
    assert (data / "tablekeeper.toml").read_text() == before  # byte for byte


def test_pins_already_wrong_in_the_file_do_not_block_other_settings_and_can_be_fixed(data: Path) -> None:
    (data / "tablekeeper.toml").write_text("[hardware]\nbuzzer_pin = 40\n")
    found = run("pins_bad_file", data)
    assert found["buzzer_pin_shown"] == "GPIO17"  # the default: the file's 40 is not on the header
    first = found["first_save_banners"]
    assert first[0].startswith("The GPIO pins in the settings file have problems: buzzer_pin = 40"), first
    assert "Settings saved." in first and found["screen_after_first_save"] == "start"
    assert found["screen_after_second_save"] == "start"
    assert any("Pin changes apply" in m for m in found["second_save_banners"])
    saved = tomllib.loads((data / "tablekeeper.toml").read_text())
    assert saved["timer"]["mute"] is True
    assert HardwareConfig.from_section(saved["hardware"]).buzzer_pin == 18


def test_four_taps_on_the_demo_camera_picture_save_the_board_corners(data: Path) -> None:
    found = run("demo_calibrate", data)
    assert found["status_before"] == "Board calibration: none yet"
    assert found["board_button"] == "Upwords 8x8"
    assert (found["audited"], found["small_text"], found["small_buttons"]) == (["find the board"], [], [])
    assert found["prompt_first"] == "Tap the playing area's top-left corner (1 of 4)."
    assert found["same_picture"] is True  # the corners below are the renderer's own
    # Found by itself from the grid lines (no markers on the demo board), within 1 % of the board.
    assert found["auto_banner"] == "Found the board by its grid lines: check the outline, then Save."
    assert found["prompt_found"] == ALL_FOUR
    size = math.dist(found["true_corners"][0], found["true_corners"][1])
    for auto, true in zip(found["auto_corners"], found["true_corners"], strict=True):
        assert math.dist(auto, true) < 0.01 * size, (auto, true)
    assert found["markers_banner"].startswith("The markers did not find the board: no corner markers")
    assert "convex" in found["swapped_banner"] and found["screen_after_swapped"] == "calibrate"
    assert found["prompt_done"] == ALL_FOUR
    assert found["screen_after_save"] == "settings"
    assert found["saved_banner"].startswith("Upwords 8x8 saved with its look.")
    assert found["status_after"].startswith("Board calibration: Upwords 8x8, found ")
    cal = load_calibration(data / "calibration.json")
    assert (cal.kind, cal.rows, cal.cols) == ("upwords", 8, 8)
    assert list(cal.image_size) == found["image_size"]  # corners in the camera's pixels, not the screen's
    # The picture is shown about half size: a tap is within a screen pixel, two picture pixels.
    for saved, true in zip(cal.corners, found["true_corners"], strict=True):
        assert math.dist(saved, true) < 3.0, (saved, true)
    raw = json.loads((data / "calibration.json").read_text())
    assert raw["alphabet"][16] == "Qu"  # built by calibrate board's own helper
    # the empty demo board's look was learnt from the same picture, for the reader to compare with
    assert cal.appearance_file == "board.npz" and (data / "board.npz").is_file()


def test_without_any_camera_find_the_board_says_so_and_saves_nothing(data: Path) -> None:
    (data / "tablekeeper.toml").write_text('[camera]\nsource = "none"\n')
    found = run("no_camera_calibrate", data)
    assert found["banner"].startswith("No camera picture ("), found["banner"]
    assert found["prompt"].startswith("No camera picture. Check the camera")
    assert any("nothing was saved" in m for m in found["save_banner"])
    assert not (data / "calibration.json").exists()


def test_the_corner_markers_find_the_board_on_a_photo_from_the_settings_camera(data: Path) -> None:
    """Before any calibration no camera reader runs: the screen takes one photo from the
    camera the settings name (a recording of a marked board here) and the markers find it."""
    import cv2
    from calibration_scenes import board_texture, photograph

    recording = data / "recording"
    recording.mkdir()
    tex, area = board_texture()
    photo, truth = photograph(tex, area, [(180, 140), (860, 120), (900, 690), (150, 660)])
    cv2.imwrite(str(recording / "board.png"), photo)
    (data / "tablekeeper.toml").write_text(f'[camera]\nsource = "{recording}"\n')
    found = run("markers_from_photo", data)
    assert found["frame_size"] == [1024, 768]
    assert found["markers_banner"] == "The markers found the board: check the outline, then Save."
    assert found["prompt"] == ALL_FOUR
    assert found["screen_after_save"] == "settings"
    assert found["status_after"].startswith("Board calibration: Upwords 8x8, found ")
    cal = load_calibration(data / "calibration.json")
    assert cal.image_size == (1024, 768)
    for saved, true in zip(cal.corners, truth, strict=True):
        assert math.dist(saved, true) < 2.0, (saved, true)


def test_only_the_holding_fingers_lift_ends_the_technicians_hold(data: Path) -> None:
    """A tap's late lift (a scrolling list sends it 0.2 s on) must not end a hold begun after
    the tap: that made this screen's long-press tests fail now and then on a fresh clone."""
    found = run("technician_late_lift", data)
    assert found["open_while_held"] is True
    assert found["screen"] == "settings"


def test_the_technicians_door_and_the_last_technician_row_show_whole_at_the_end_of_the_list(
    data: Path,
) -> None:
    found = run("settings_bottom", data)
    for name in ("door", "calibrate"):
        assert found[name]["whole"], (name, found[name])
        assert found[name]["clear_of_bar"], (name, found[name])

"""In the real kiosk under Xvfb: no value in the settings file, and no turn timer a
game was logged with, stops the kiosk at start or on a tap.

``[timer] warning = -5`` (or ``nan``) at start, a turn length of -30 s, ``"sixty"`` or ``inf``
on the tap on Start, and a game already logged with such a timer: each bad value falls back
to its default with a banner, and a game logged with a bad timer resumes on a clamped one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gui import harness
from gui.harness import GUI, run

from games.registry import new_game

data, display = harness.data, harness.display

pytestmark = GUI


@pytest.mark.parametrize(
    ("toml", "named"),
    [
        ("[timer]\nwarning = -5\n", "[timer] warning = -5"),
        ("[timer]\nwarning = nan\n", "[timer] warning = nan"),
        ("[timer]\ndurations = { wordspiel = -30 }\n", "durations wordspiel = -30"),
        ('[timer]\ndurations = { wordspiel = "sixty" }\n', "durations wordspiel = 'sixty'"),
        ("[timer]\ndurations = { wordspiel = inf }\n", "durations wordspiel = inf"),
    ],
)
def test_a_bad_timer_setting_is_a_banner_and_the_default(data: Path, toml: str, named: str) -> None:
    (data / "tablekeeper.toml").write_text(toml)
    found = run("bad_setting_start", data)
    assert found["screen"] == "start"
    assert any(named in m and "using" in m for m in found["banners"]), found["banners"]
    assert found["start_timer"] == "Timer 60 s"  # WordSpiel's rule sheet
    assert found["screen_after_go"] == "game" and found["logged_timer"] == 60
    assert found["digits"] == "1:00" and found["running"] == "Pause", found
    assert (data / "tablekeeper.toml").read_text() == toml  # the file is the person's to fix


@pytest.mark.parametrize(
    ("logged", "shown", "said"),
    [(-30, "1:00", "-30 s is not a length of time: using 60 s"),
     ("sixty", "1:00", "'sixty' is not a number of seconds: using 60 s"),
     (100000, "5:00", "100000 s is longer than 300 s: using 300 s")],
)
def test_a_game_logged_with_a_bad_timer_resumes_clamped_and_says_so(
    data: Path, logged: object, shown: str, said: str
) -> None:
    header = new_game("wordspiel", ["Ann", "Bob"]).header()
    header["options"]["timer"] = logged
    with harness.game_log(data) as log:  # as the old kiosk logged it; no settings file at all
        log.start_game(header)
    found = run("logged_bad_timer", data)
    assert found["screen"] == "game"
    assert any("logged with a timer that cannot run" in m and said in m for m in found["banners"]), found
    assert found["digits"] == shown and found["running"] == "Pause", found


@pytest.mark.parametrize("kept", ['{"game": 1, "remaining": NaN, "running": true}',
                                  '{"game": 1, "remaining": -5, "running": false}',
                                  '{"game": 1, "remaining": ' + "[" * 100000 + "]" * 100000 + "}"])
def test_a_damaged_kept_timer_is_ignored_at_start(data: Path, kept: str) -> None:
    """``timer.json`` (the running turn kept across a power cut) is a file too: no value in it
    may stop the kiosk starting on the game in progress."""
    with harness.game_log(data) as log:
        log.start_game(new_game("wordspiel", ["Ann", "Bob"], {"timer": 60}).header())
    (data / "timer.json").write_text(kept)
    found = run("logged_bad_timer", data)
    assert found["screen"] == "game" and found["digits"] == "1:00" and found["running"] == "Pause", found

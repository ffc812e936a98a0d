"""Every setting is checked against its limits when read (one table,
``kiosk.files.setting_limits``, also the Settings screen's); a bad value falls back to its
default alone, is said, and ``doctor`` warns instead of saying all is well."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.files import settings
from kiosk.files.setting_limits import LIMITS, TURN, turn_length
from kiosk.files.timer_settings import remember_seconds

SCRIPT = Path(sys.executable).with_name("tablekeeper")


@pytest.mark.parametrize(
    ("line", "key", "default"),
    [("warning = -5", "warning", 10), ("warning = nan", "warning", 10), ("warning = inf", "warning", 10),
     ("warning = 31", "warning", 10), ("seconds = -1", "seconds", 60.0), ("seconds = nan", "seconds", 60.0)],
)
def test_a_timer_value_outside_its_limits_falls_back_alone(tmp_path: Path, line: str, key: str,
                                                           default: object) -> None:
    path = tmp_path / "tk.toml"
    path.write_text(f"[timer]\n{line}\nmute = true\n")
    s = settings.load(path)
    timer = s.section("timer")
    assert timer.get(key, default) == default and timer["mute"] is True
    assert len(s.problems) == 1 and s.problems == s.fallbacks
    assert f"[timer] {line.split(' = ')[0]} = " in s.problems[0] and "using" in s.problems[0]


@pytest.mark.parametrize("bad", ["-30", '"sixty"', "inf", "nan", "301", "true"])
def test_a_bad_turn_length_drops_that_game_alone(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "tk.toml"
    path.write_text(f"[timer]\ndurations = {{ wordspiel = {bad}, tosswords = 45 }}\n")
    s = settings.load(path)
    assert s.section("timer")["durations"] == {"tosswords": 45}
    assert len(s.fallbacks) == 1 and "durations wordspiel" in s.fallbacks[0]


def test_values_within_the_limits_are_kept_as_written(tmp_path: Path) -> None:
    path = tmp_path / "tk.toml"
    path.write_text("[timer]\nwarning = 0\nseconds = 5999\ndurations = { wordspiel = 0, tosswords = 300 }\n"
                    '[kiosk]\ncategory_level = "blue"\n')
    s = settings.load(path)
    assert s.problems == [] and s.section("timer")["warning"] == 0
    assert s.section("timer")["durations"] == {"wordspiel": 0, "tosswords": 300}


def test_a_category_level_not_on_the_screen_falls_back(tmp_path: Path) -> None:
    path = tmp_path / "tk.toml"
    path.write_text('[kiosk]\ncategory_level = "purple"\n')
    s = settings.load(path)
    assert "category_level" not in s.section("kiosk") and "green, blue" in s.fallbacks[0]


def test_the_settings_screen_steps_within_the_same_limits() -> None:
    pytest.importorskip("kivy")
    from kiosk.app.screens import settings_screen

    assert settings_screen.WARNING is LIMITS[("timer", "warning")]
    assert (TURN.low, TURN.high, TURN.step) == (0, 300, 5)


@pytest.mark.parametrize(
    ("logged", "seconds"),
    [(None, None), (0, None), (45, 45.0), (-30, 60.0), ("sixty", 60.0), (float("nan"), 60.0),
     (float("inf"), 300.0), (True, 60.0)],
)
def test_a_logged_turn_length_is_made_safe_to_run(logged: object, seconds: float | None) -> None:
    got, note = turn_length(logged, 60.0)
    assert got == seconds and bool(note) == (logged not in (None, 0, 45))


def test_the_stand_alone_timer_does_not_remember_a_game_length_the_kiosk_refuses(tmp_path: Path) -> None:
    s = settings.load(tmp_path / "none.toml")
    with pytest.raises(ValueError, match="at most 300 seconds"):
        remember_seconds(s, 600.0, "wordspiel")
    assert remember_seconds(s, 600.0) is True  # the stand-alone timer's own length: up to 99:59


def test_the_session_refuses_to_log_a_timer_that_cannot_run(tmp_path: Path) -> None:
    from kiosk.gamelog.store import GameLog
    from kiosk.play.session import Session

    with GameLog(tmp_path / "g.sqlite3") as log:
        session = Session(log, None)
        result = session.new_game("wordspiel", ["Ann", "Bob"], {"timer": -30})
        assert not result.ok and "from 0 to 300 seconds" in result.message
        assert log.games() == []


def doctor(tmp: Path, toml: str) -> tuple[subprocess.CompletedProcess[str], dict[str, dict[str, str]]]:
    if not SCRIPT.exists():
        pytest.skip("the tablekeeper console script is not installed (pip install -e .)")
    (tmp / "tk.toml").write_text(toml)
    env = {**os.environ, "TABLEKEEPER_DATA": str(tmp / "data"), "TABLEKEEPER_CONFIG": str(tmp / "tk.toml")}
    done = subprocess.run([str(SCRIPT), "doctor", "--json"], capture_output=True, text=True, env=env,
                          timeout=180, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    return done, {r["name"]: r for r in json.loads(done.stdout)}


@pytest.mark.parametrize("value", ["-5", "nan"])
def test_doctor_warns_about_a_bad_value_instead_of_saying_all_is_well(tmp_path: Path, value: str) -> None:
    _done, report = doctor(tmp_path, f"[timer]\nwarning = {value}\n")
    assert report["settings"]["status"] == "warn", report["settings"]
    assert f"[timer] warning = {value}" in report["settings"]["detail"]


DEEP = b'{"letters": ' + b"[" * 100000 + b"]" * 100000 + b"}"
DIGITS = b'{"letters": {"A": ' + b"7" * 5000 + b"}}"


@pytest.mark.parametrize("raw", [DEEP, DIGITS])
def test_a_damaged_letter_points_file_is_a_problem_not_a_crash(tmp_path: Path, raw: bytes) -> None:
    from kiosk.files.letter_values import LetterValues

    (tmp_path / "letters.json").write_bytes(raw)
    values = LetterValues(tmp_path / "letters.json")
    assert values.problem and "damaged" in values.problem


@pytest.mark.parametrize("raw", [DEEP, DIGITS])
def test_a_damaged_house_words_file_is_a_plain_error(raw: bytes) -> None:
    from games.house_words import HouseWordsError, parse_house_words

    with pytest.raises(HouseWordsError, match="damaged"):
        parse_house_words(raw, "house.json")

"""Turn lengths: parsing what a person types, the rule-sheet defaults, remembering a choice."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.files import settings as settings_file
from kiosk.files.timer_settings import parse_seconds, remember_seconds, turn_seconds


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("45", 45.0), ("45.5", 45.5), ("90s", 90.0), ("1:30", 90.0), (" 0:05 ", 5.0), ("99:59", 5999.0)],
)
def test_lengths_people_write(text: str, seconds: float) -> None:
    assert parse_seconds(text) == seconds


@pytest.mark.parametrize("text", ["", "abc", "-5", "1:75", "0", "0.5", "100:00", "1e3", "nan", "inf"])
def test_lengths_that_are_refused_in_plain_words(text: str) -> None:
    with pytest.raises(ValueError, match=r"length of time|from 1 second"):
        parse_seconds(text)


def test_the_rule_sheets_give_the_defaults(tmp_path: Path) -> None:
    settings = settings_file.load(tmp_path / "none.toml")
    assert turn_seconds(settings, "word-on-the-street") == 30.0
    assert turn_seconds(settings, "wordspiel") == 60.0 and turn_seconds(settings, "tosswords") == 60.0
    assert turn_seconds(settings) == 60.0  # the stand-alone timer, like the WordSpiel timer


def test_a_chosen_length_is_remembered_across_a_save_and_load(tmp_path: Path) -> None:
    path = tmp_path / "tablekeeper.toml"
    settings = settings_file.load(path)
    assert remember_seconds(settings, 45.0, "word-on-the-street") is True
    assert remember_seconds(settings, 90.0) is True
    settings_file.save(settings)
    again = settings_file.load(path)
    assert turn_seconds(again, "word-on-the-street") == 45.0 and turn_seconds(again) == 90.0
    assert turn_seconds(again, "wordspiel") == 60.0  # the other games keep theirs
    assert remember_seconds(again, 45.0, "word-on-the-street") is False  # nothing new to write


def test_a_damaged_stored_length_falls_back_to_the_default(tmp_path: Path) -> None:
    path = tmp_path / "tablekeeper.toml"
    path.write_text('[timer]\nseconds = "soon"\ndurations = { wordspiel = -4 }\n')
    settings = settings_file.load(path)
    assert turn_seconds(settings) == 60.0 and turn_seconds(settings, "wordspiel") == 60.0

"""Option's taught letter points on disk (kiosk.files.letter_values), with real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.files.letter_values import LetterValues


def test_taught_points_are_read_back_by_a_new_instance(tmp_path: Path) -> None:
    path = tmp_path / "option-letters.json"
    values = LetterValues(path)
    assert values.value("Q") == 1 and not path.exists()  # nothing taught: nothing written
    values.teach("q", 10)
    values.teach("A", 2)
    values.teach("A", 0)  # a blank played as A: not A's own value
    again = LetterValues(path)
    assert again.value("Q") == 10 and again.value("a") == 2 and again.value("E") == 1
    assert again.known() == {"A": 2, "Q": 10}
    assert again.take_problem() == ""
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # no temporary file left


def test_a_value_outside_the_pad_or_a_non_letter_is_not_remembered(tmp_path: Path) -> None:
    values = LetterValues(tmp_path / "v.json")
    values.teach("-", 3)
    values.teach("B", 12)
    values.teach("C", True)  # type: ignore[arg-type]
    assert values.known() == {}


@pytest.mark.parametrize(
    "text",
    ["{not json", '{"letters": [1, 2]}', '{"version": 1}', b"\xff\xfe".decode("latin-1"), ""],
)
def test_a_damaged_file_is_kept_aside_said_and_the_letters_start_at_1(tmp_path: Path, text: str) -> None:
    path = tmp_path / "option-letters.json"
    path.write_text(text, encoding="latin-1")
    values = LetterValues(path)
    problem = values.take_problem()
    assert "damaged" in problem and "option-letters.json.bad" in problem and "starts at 1" in problem
    assert values.take_problem() == ""  # said once
    assert values.value("Z") == 1
    assert (tmp_path / "option-letters.json.bad").read_text(encoding="latin-1") == text  # nothing lost
    values.teach("Z", 10)  # and teaching starts a good file again
    assert LetterValues(path).value("Z") == 10


def test_bad_entries_are_dropped_one_by_one_and_named(tmp_path: Path) -> None:
    path = tmp_path / "option-letters.json"
    path.write_text(json.dumps({"version": 1, "letters": {"A": 1, "B": "three", "CC": 2, "D": 40, "E": 3}}))
    values = LetterValues(path)
    assert values.known() == {"A": 1, "E": 3}
    problem = values.take_problem()
    assert "B='three'" in problem and "CC=2" in problem and "D=40" in problem
    assert path.exists()  # a readable file with a few bad values is not moved aside


def test_a_folder_that_cannot_be_written_keeps_the_values_for_the_session_and_says_so_once(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "option-letters.json"
    path.write_text(json.dumps({"version": 1, "letters": {"A": 1}}))
    values = LetterValues(path)
    # A file in place of the folder's temporary files: writing fails as on a full card.
    blocker = tmp_path / "file"
    blocker.write_text("")
    values.path = blocker / "option-letters.json"
    values.teach("Z", 10)
    values.teach("Q", 10)
    assert values.value("Z") == 10 and values.value("Q") == 10
    problem = values.take_problem()
    assert "could not be saved" in problem and "until the kiosk restarts" in problem
    assert values.take_problem() == ""
    assert json.loads(path.read_text())["letters"] == {"A": 1}  # the old file untouched

"""The timer's time left survives a restart (a real file in a temporary folder)."""

from __future__ import annotations

from pathlib import Path

from kiosk.files.timer_keep import KeptTimer, TimerKeep


def test_the_time_left_is_read_back_for_its_own_game_only(tmp_path: Path) -> None:
    keep = TimerKeep(tmp_path / "timer.json")
    keep.save(7, 23.46, True)
    again = TimerKeep(tmp_path / "timer.json")
    assert again.load(7) == KeptTimer(7, 23.5, True)
    assert again.load(8) is None  # another game's timer is not this game's


def test_a_damaged_or_missing_file_is_no_timer(tmp_path: Path) -> None:
    path = tmp_path / "timer.json"
    assert TimerKeep(path).load(1) is None
    path.write_text("{not json")
    assert TimerKeep(path).load(1) is None


def test_an_unwritable_folder_costs_only_the_kept_time(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    keep = TimerKeep(blocker / "timer.json")  # a file where the folder should be
    keep.save(1, 10, True)
    assert keep.load(1) is None

"""The settings file: defaults when missing, never a crash when damaged, atomic saves."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.files import settings

ROOT = Path(__file__).resolve().parents[1]


def test_missing_file_means_defaults(tmp_path: Path) -> None:
    s = settings.load(tmp_path / "none.toml")
    assert s.problems == [] and s.section("timer")["warning"] == 10


def test_values_override_defaults_section_by_section(tmp_path: Path) -> None:
    path = tmp_path / "tk.toml"
    path.write_text('[timer]\nwarning = 5\nmute = true\n[camera]\nsource = "usb"\n')
    s = settings.load(path)
    assert s.problems == []
    assert s.section("timer")["warning"] == 5 and s.section("timer")["ticks"] is True
    assert s.section("camera") == {"source": "usb"}


@pytest.mark.parametrize(
    "content",
    [
        b'[timer]\nwarning = 5\nmute = tr',          # half-written: cut off mid-value
        b"[timer\nwarning = 5\n",                    # broken table header
        b"\xff\xfe\x00garbage\x00\x01",              # not text at all
        b'[timer]\nwarning = 5\n[timer]\nwarning = 6\n',  # the same table twice
    ],
)
def test_a_damaged_file_gives_defaults_a_message_and_is_kept_aside(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "tk.toml"
    path.write_bytes(content)
    s = settings.load(path)
    assert s.values == {} and s.section("timer")["warning"] == 10
    assert len(s.problems) == 1 and "damaged" in s.problems[0] and "tk.toml.bad" in s.problems[0]
    assert not path.exists() and (tmp_path / "tk.toml.bad").read_bytes() == content


def test_a_second_damaged_file_does_not_overwrite_the_first(tmp_path: Path) -> None:
    path = tmp_path / "tk.toml"
    path.write_bytes(b"[oops")
    settings.load(path)
    path.write_bytes(b"[again")
    s = settings.load(path)
    assert (tmp_path / "tk.toml.bad").read_bytes() == b"[oops"
    assert (tmp_path / "tk.toml.bad-2").read_bytes() == b"[again"
    assert "tk.toml.bad-2" in s.problems[0]


def test_reading_without_keeping_aside_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "tk.toml"
    path.write_bytes(b"[oops")
    s = settings.load(path, keep_aside=False)
    assert s.problems and path.read_bytes() == b"[oops" and list(tmp_path.iterdir()) == [path]


def test_a_value_of_the_wrong_type_falls_back_alone(tmp_path: Path) -> None:
    path = tmp_path / "tk.toml"
    path.write_text('[timer]\nwarning = "ten"\nmute = true\nticks = 3\n[words]\nsize = 70\nkiosk = 1\n')
    s = settings.load(path)
    timer = s.section("timer")
    assert timer["warning"] == 10 and timer["mute"] is True and timer["ticks"] is True
    assert s.section("words")["size"] == 70
    assert any("[timer] warning should be a number, not 'ten'" in p for p in s.problems)
    assert any("[timer] ticks should be true or false" in p for p in s.problems)
    assert len(s.problems) == 2


def test_a_non_table_at_top_level_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "tk.toml"
    path.write_text('timer = 30\n[camera]\nsource = "usb"\n')
    s = settings.load(path)
    assert s.problems == ["Settings: 'timer' should be a table; ignored."]
    assert s.section("camera")["source"] == "usb"


def test_an_unreadable_path_is_a_message_not_a_crash(tmp_path: Path) -> None:
    folder = tmp_path / "tk.toml"
    folder.mkdir()  # a folder where the file should be
    s = settings.load(folder)
    assert s.values == {} and s.problems and "Cannot read the settings file" in s.problems[0]
    assert folder.is_dir()


def test_save_round_trips_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "tk.toml"
    s = settings.Settings(path=path)
    s.set("timer", "warning", 7)
    s.set("hardware", "led_pins", [5, 6])
    settings.save(s)
    again = settings.load(path)
    assert again.problems == [] and again.section("timer")["warning"] == 7
    assert again.section("hardware")["led_pins"] == [5, 6]
    assert sorted(p.name for p in path.parent.iterdir()) == ["tk.toml"]


SAVE_UNDER_LIMIT = r"""
import resource, signal, sys
from pathlib import Path
from kiosk.files import settings
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
path = Path(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))   # the card is "full" after 64 bytes
big = settings.Settings(path=path)
big.set("kiosk", "note", "x" * 1000)
try:
    settings.save(big)
except OSError as exc:
    print("refused:", exc.strerror)
"""


def test_a_save_that_fails_on_a_full_disk_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "tk.toml"
    old = settings.Settings(path=path)
    old.set("timer", "warning", 4)
    settings.save(old)
    before = path.read_bytes()
    done = subprocess.run([sys.executable, "-c", SAVE_UNDER_LIMIT, str(path)], cwd=ROOT, capture_output=True,
                          text=True, check=False, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused: File too large")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tk.toml"]
    assert settings.load(path).section("timer")["warning"] == 4

"""``tablekeeper doctor`` through the real console script, on real broken things.

Each test breaks one thing for real (a damaged game log, a half-written settings file, no
word list, no Tesseract on the PATH, a data folder that cannot exist, GPIO asked for where
there is none) and checks that doctor names it, prints the fix, exits 1, and touches nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from kiosk.cli.doctor import run_checks
from kiosk.doctor.checks import FAIL, OK, WARN, Context, Result
from kiosk.doctor.hardware import check_gpio, check_ring_and_buzzer
from kiosk.files import settings as settings_file
from kiosk.gamelog.store import GameLog

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).with_name("tablekeeper")


def doctor(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None, config: str | None = None
) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable} (pip install -e .)")
    cfg = tmp_path / "tablekeeper.toml"
    if config is not None:
        cfg.write_text(config)
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GPIOZERO", "DISPLAY", "WAYLAND"))}
    full = {**base, "TABLEKEEPER_DATA": str(tmp_path / "data"), "TABLEKEEPER_CONFIG": str(cfg), **(env or {})}
    return subprocess.run(
        [str(SCRIPT), "doctor", *args], capture_output=True, text=True, env=full, timeout=120, check=False
    )


def findings(done: subprocess.CompletedProcess[str]) -> dict[str, dict[str, str]]:
    assert "Traceback" not in done.stderr, done.stderr
    return {r["name"]: r for r in json.loads(done.stdout)}


def test_a_healthy_machine_passes_and_lists_every_check(tmp_path: Path) -> None:
    done = doctor(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    for name in (
        "data directory",
        "game log",
        "settings",
        "word list",
        "Tesseract",
        "display",
        "touch input",
        "camera",
        "GPIO",
        "ring and buzzer",
        "calibration",
    ):
        assert any(name in line for line in lines), name
    assert any(line.startswith("OK") and "data directory" in line for line in lines)
    assert "Ready to referee" in done.stdout and "Traceback" not in done.stderr


def test_json_report(tmp_path: Path) -> None:
    report = findings(doctor(tmp_path, "--json"))
    assert report["Tesseract"]["status"] == OK and report["word list"]["status"] == OK
    # Off a Pi the GPIO is mock pins: the kiosk copes (the timer is on screen), so a warning.
    assert report["GPIO"]["status"] == WARN and "mock pins" in report["GPIO"]["detail"]
    assert report["calibration"]["status"] == WARN and report["calibration"]["fix"] == "tablekeeper calibrate"


def test_a_damaged_game_log_is_reported_and_left_alone(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    log_file = data / "games.sqlite3"
    log_file.write_bytes(b"SQLite format 3\x00" + b"\x07" * 5000)
    done = doctor(tmp_path)
    assert done.returncode == 1
    line = next(x for x in done.stdout.splitlines() if "game log" in x)
    assert line.startswith("FAIL") and "damaged" in line
    assert "fix: sudo systemctl restart tablekeeper" in done.stdout
    assert log_file.read_bytes() == b"SQLite format 3\x00" + b"\x07" * 5000
    assert sorted(p.name for p in data.iterdir() if not p.name.startswith(".")) == ["games.sqlite3"]


def test_a_healthy_game_log_is_counted(tmp_path: Path) -> None:
    with GameLog(tmp_path / "data" / "games.sqlite3") as log:
        log.start_game({"game": "upwords", "players": ["Ann", "Bob"]})
    report = findings(doctor(tmp_path, "--json"))
    assert report["game log"]["status"] == OK and "1 game(s)" in report["game log"]["detail"]


def test_a_half_written_settings_file_fails_without_being_moved(tmp_path: Path) -> None:
    done = doctor(tmp_path, "--json", config="[timer]\nwarning = 5\nmute = tr")
    assert done.returncode == 1
    report = findings(done)
    assert report["settings"]["status"] == FAIL and "damaged" in report["settings"]["detail"]
    assert (tmp_path / "tablekeeper.toml").read_text() == "[timer]\nwarning = 5\nmute = tr"


def test_bad_hardware_settings_are_named(tmp_path: Path) -> None:
    done = doctor(tmp_path, "--json", config="[hardware]\nbuzzer_pin = 99\n")
    assert done.returncode == 1
    report = findings(done)
    assert report["settings"]["status"] == FAIL and "buzzer_pin" in report["settings"]["detail"]
    assert report["GPIO"]["status"] == FAIL and "[hardware]" in report["GPIO"]["fix"]


def test_a_missing_word_list_says_how_to_install_it(tmp_path: Path) -> None:
    done = doctor(tmp_path, "--json", config=f'[words]\ndict_dir = "{tmp_path / "no-scowl"}"\n')
    assert done.returncode == 1
    report = findings(done)
    assert report["word list"]["status"] == FAIL and report["word list"]["fix"] == "sudo apt install scowl"


def test_no_tesseract_on_the_path(tmp_path: Path) -> None:
    bare = tmp_path / "bin"
    bare.mkdir()
    done = doctor(tmp_path, "--json", env={"PATH": str(bare)})
    report = findings(done)
    assert done.returncode == 1 and report["Tesseract"]["status"] == FAIL
    assert "apt install tesseract-ocr" in report["Tesseract"]["fix"]


def test_a_data_folder_that_cannot_exist(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    done = doctor(tmp_path, "--json", env={"TABLEKEEPER_DATA": str(blocker / "data")})
    report = findings(done)
    assert done.returncode == 1 and report["data directory"]["status"] == FAIL
    assert "cannot write" in report["data directory"]["detail"]


def test_real_gpio_asked_for_where_there_is_none_says_why(tmp_path: Path) -> None:
    done = doctor(tmp_path, "--json", env={"GPIOZERO_PIN_FACTORY": "lgpio"})
    report = findings(done)
    assert done.returncode == 1 and report["GPIO"]["status"] == FAIL
    assert "gpiochip" in report["GPIO"]["detail"] and "on screen only" in report["GPIO"]["detail"]


def test_the_plain_report_prints_each_fix_under_its_problem(tmp_path: Path) -> None:
    done = doctor(tmp_path, config=f'[words]\ndict_dir = "{tmp_path / "none"}"\n')
    lines = done.stdout.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("FAIL") and "word list" in x)
    assert lines[at + 1].strip() == "fix: sudo apt install scowl"
    assert "1 problem(s) to fix" in done.stdout


def test_usage_error_exits_2_without_a_traceback(tmp_path: Path) -> None:
    done = doctor(tmp_path, "--frobnicate")
    assert done.returncode == 2 and "Traceback" not in done.stderr and "unrecognized arguments" in done.stderr


# ------------------------------------------------------------------ in-process, on gpiozero's mock pins
def _context(tmp_path: Path, config: str, **kw: object) -> Context:
    path = tmp_path / "tk.toml"
    path.write_text(config)
    return Context(settings=settings_file.load(path), on_pi=False, **kw)  # type: ignore[arg-type]


def test_gpio_that_exists_but_cannot_be_opened_is_a_failure_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A gpiochip node is there, but the pin factory asked for (lgpio) cannot drive it here:
    # exactly what the kiosk meets with a missing library or a pin held by another program.
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "gpiochip0").write_text("")
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")
    result = check_gpio(_context(tmp_path, "", dev=dev))
    assert result.status == FAIL and "not usable" in result.detail and "on screen only" in result.detail
    assert "GPIO17 buzzer" in result.detail


def test_test_devices_plays_the_pattern_on_the_buzzer_and_the_leds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    monkeypatch.setattr("hardware.pins.mock_factory", lambda: factory)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    ctx = _context(
        tmp_path, '[hardware]\nring = "leds"\nled_pins = [5, 6, 13, 19]\nbuzzer_pin = 17\n', test_devices=True
    )
    result = check_ring_and_buzzer(ctx)
    assert result.status == OK and "test pattern played" in result.detail
    buzzer = [s.state for s in factory.pin(17).states]
    assert sum(1 for v in buzzer if v) >= 3 and not buzzer[-1]  # ticks and the final beep, then silence
    led = [s.state for s in factory.pin(5).states]
    assert max(led) > 0 and led[-1] == 0  # the ring lit, then went dark when the test ended


def test_a_crashing_check_is_reported_not_raised(tmp_path: Path) -> None:
    def check_exploding(ctx: Context) -> Result:
        raise RuntimeError("boom")

    [result] = run_checks(_context(tmp_path, ""), (check_exploding,))
    assert result.status == FAIL and result.name == "exploding" and "boom" in result.detail


AS_NOBODY = r"""
import os, pwd, sys
# Load what doctor needs first: the interpreter's own files under /root are closed to nobody.
import argparse, gettext, grp, json, locale, shutil, sqlite3, subprocess, tempfile
import gpiozero.pins.mock, hardware.build, hardware.config, hardware.pins, games.countdown, games.lexicon
import kiosk.cli.doctor, kiosk.doctor.checks, kiosk.doctor.hardware, kiosk.cli.picture_checks
import kiosk.doctor.camera, kiosk.camera.faults, kiosk.doctor.drm_cards, kiosk.gamelog.fallback
from kiosk.cli.main import main
nobody = pwd.getpwnam("nobody")
os.setgroups([])
os.setgid(nobody.pw_gid)
os.setuid(nobody.pw_uid)            # the interpreter (under /root) is already running
sys.exit(main(["doctor", "--json"]))
"""


def test_as_an_unprivileged_user_a_root_owned_data_folder_fails(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to become 'nobody'")
    tmp_path.chmod(0o755)
    (tmp_path / "data").mkdir(mode=0o755)  # root's: as after running the kiosk once with sudo
    with GameLog(tmp_path / "data" / "games.sqlite3") as log:
        log.start_game({"game": "upwords", "players": ["Ann", "Bob"]})
    (tmp_path / "data" / "games.sqlite3").chmod(0o644)
    env = {**os.environ, "TABLEKEEPER_DATA": str(tmp_path / "data"),
           "TABLEKEEPER_CONFIG": str(tmp_path / "tk.toml"), "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", AS_NOBODY], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120, check=False)
    report = findings(done)
    assert done.returncode == 1
    assert report["user"]["status"] == OK and report["user"]["detail"].startswith("nobody")
    assert report["data directory"]["status"] == FAIL
    assert "cannot write" in report["data directory"]["detail"]
    assert report["data directory"]["fix"].startswith("sudo install -d -o tablekeeper")
    # A healthy log this user cannot open is not called damaged.
    assert "damaged" not in report["game log"]["detail"], report["game log"]


def test_the_camera_is_reported_present_then_lost(tmp_path: Path) -> None:
    """A replayed camera (a folder of frames) as the settings name it; then the folder vanishes."""
    pytest.importorskip("vision.camera", reason="vision/camera.py (the vision engineer's) has not landed")
    import cv2
    import numpy as np

    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(3):
        cv2.imwrite(str(frames / f"{i:03d}.png"), np.full((240, 320, 3), 40 * i, np.uint8))
    config = f'[camera]\nsource = "{frames}"\n'
    present = findings(doctor(tmp_path, "--json", config=config))["camera"]
    assert present["status"] == OK and "320x240" in present["detail"], present
    frames.rename(tmp_path / "gone")
    lost = findings(doctor(tmp_path, "--json", config=config))["camera"]
    assert lost["status"] == WARN and "touch" in lost["detail"] and lost["fix"], lost

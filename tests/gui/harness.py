"""Running the real kiosk app for the GUI tests: one virtual screen, one app per scenario.

Each scenario of ``scenarios.py`` runs in its own process (one Kivy app per process) through
``driver.py``, on a virtual 800x480 screen (an Xvfb started once per test module when there
is no display). Screenshots go to ``artifacts/screenshots/`` (CI keeps the folder). A test
module takes ``data`` and ``display`` from here and marks itself ``pytestmark = GUI``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from gui.clipping import known_overlap

from kiosk.gamelog.store import GameLog

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
HAS_WORDS = Path("/usr/share/dict/scowl").is_dir()
#: The display the scenarios run on (set by the ``display`` fixture).
SCREEN = ""
#: Every GUI test is slow and runs on the virtual screen.
GUI = [pytest.mark.gui, pytest.mark.slow, pytest.mark.usefixtures("display")]
needs_words = pytest.mark.skipif(
    not HAS_WORDS, reason="the SCOWL word list (apt package scowl) is not installed"
)


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without Kivy's, the kiosk's and systemd's own variables, plus ``extra``:
    a kiosk under test sees only what its test gives it."""
    skip = ("KIVY", "KCFG", "TABLEKEEPER", "NOTIFY")
    return {**{k: v for k, v in os.environ.items() if not k.startswith(skip)}, **extra}


def run(
    scenario: str, data: Path, *, killed: bool = False, env: dict[str, str] | None = None, display: str = ""
) -> dict[str, Any]:
    """Run one scenario in a fresh process; return what it found."""
    result = data.parent / f"{scenario}.json"
    command = [
        sys.executable,
        str(ROOT / "tests" / "gui" / "driver.py"),
        scenario,
        str(data),
        str(SHOTS),
        str(result),
    ]
    proc = subprocess.run(
        command, cwd=ROOT, env=clean_env(**(env or {}), DISPLAY=display or SCREEN), capture_output=True,
        text=True, timeout=150,
    )
    if killed:
        assert proc.returncode in (-signal.SIGKILL, 128 + signal.SIGKILL, 137), proc.stderr[-3000:]
    else:
        assert proc.returncode == 0, proc.stderr[-3000:]
    found = json.loads(result.read_text())
    # Every scenario is also a clipping audit: no label anywhere showed only part of its text.
    assert found.get("clipped", []) == [], "text cut on screen:\n" + "\n".join(found["clipped"])
    # ... and an overlap audit: no text or button covered another (the known cases aside).
    overlaps = [o for o in found.get("overlaps", []) if known_overlap(o) is None]
    assert overlaps == [], "texts or buttons covering each other:\n" + "\n".join(overlaps)
    return found


def assert_street_readable(measured: dict[str, Any]) -> None:
    """Every tile's letter sits inside its tile and is at least half as tall as the score
    digits; the street takes 44 % of the screen's height or more (it had a third)."""
    tiles = measured["tiles"]
    assert len(tiles) == 17, tiles
    half_score = measured["score_digits_px"] / 2
    for letter, side, _font, width, height in tiles:
        assert width <= side and height <= side, (letter, side, width, height)
        assert height >= half_score, (letter, height, measured["score_digits_px"])
    assert measured["street_share"] >= 0.44, measured["street_share"]  # was a third
    assert measured["ring_font"] >= measured["score_font"], measured["ring_font"]


def game_log(data: Path) -> GameLog:
    return GameLog(data / "games.sqlite3")


def newest_events(data: Path) -> list[dict[str, Any]]:
    """The entries of the game the scenario started last, as the log holds them."""
    with game_log(data) as log:
        return log.events(log.games(1)[0].id)


def newest_game(data: Path) -> Any:
    """The game the scenario started last, rebuilt from the log through its engine."""
    with game_log(data) as log:
        return log.rebuild(log.games(1)[0].id)


@pytest.fixture(scope="module")
def display() -> Any:
    """One virtual 800x480 screen for all the scenarios (each runs its own app in turn).

    Started here rather than by xvfb-run: once for the module instead of once a test, and
    without NOTIFY_SOCKET in its environment (an Xorg server answers READY=1 itself)."""
    global SCREEN
    if os.environ.get("DISPLAY"):
        SCREEN = os.environ["DISPLAY"]
        yield SCREEN
        return
    if shutil.which("Xvfb") is None:
        pytest.skip("no display and no Xvfb (apt package xvfb) for a virtual one")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "800x480x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    SCREEN = f":{number}"
    try:
        yield SCREEN
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    return folder

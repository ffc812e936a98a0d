"""The real kiosk starting on a read-only or full data folder: it starts, says so, shows the game.

Each fault is real: a tmpfs remounted read-only (what the kernel does to a failing SD
card), and a tiny tmpfs filled to the last byte. The data folder holds a game in progress
and no ``kivy/`` folder (Kivy would create it at import: an uncaught EROFS before). The
kiosk runs as systemd runs it — the console script, ``NOTIFY_SOCKET``, SIGTERM — on a
virtual screen; the journal is its stderr.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from gui import harness
from gui.faults import remount_read_only, tmpfs
from gui.harness import ROOT, SHOTS, clean_env
from waiting import wait_for

from kiosk.gamelog.store import GameLog

TRANSCRIPT = ROOT / "tests" / "transcripts" / "wordspiel-fun-no.jsonl"
PNG_END = b"IEND\xaeB`\x82"  # a PNG's last chunk: the picture is written whole

pytestmark = [pytest.mark.gui, pytest.mark.slow]


def _game_in_progress(data: Path) -> None:
    """WordSpiel from the rule sheet, Ann's FUN and Bob's NO played: Ann to play."""
    import json

    lines = [json.loads(x) for x in TRANSCRIPT.read_text().splitlines() if x.strip() and x[0] != "#"]
    with GameLog(data / "games.sqlite3") as log:
        gid = log.start_game(lines[0])
        for event in lines[1:]:
            log.append(gid, event)


def _snapshot(folder: Path) -> dict[str, str]:
    files = sorted(p for p in folder.iterdir() if p.is_file())
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


display = harness.display


def _run_kiosk(data: Path, shots: Path, display: str, tmp: Path) -> tuple[int, str]:
    """Start the kiosk as the unit does, wait for READY=1 and the first screen, then SIGTERM."""
    script = Path(sys.executable).with_name("tablekeeper")
    if not script.exists():
        pytest.skip("the console script is not installed (pip install -e .)")
    sock_path = tmp / "notify.sock"
    env = clean_env(DISPLAY=display, NOTIFY_SOCKET=str(sock_path), TABLEKEEPER_DATA=str(data),
                    TABLEKEEPER_CONFIG=str(data / "tablekeeper.toml"),
                    KIVY_HOME=str(data / "kivy"))  # as the unit sets it: inside the unusable folder
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(sock_path))
        server.settimeout(60)
        proc = subprocess.Popen([str(script), "kiosk", "--screenshots", str(shots)], cwd=tmp, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            assert server.recv(4096).decode() == "READY=1"
            first = shots / "first-game.png"
            with contextlib.suppress(AssertionError):  # no picture: the test's assertions say so
                wait_for(lambda: first.is_file() and first.read_bytes().endswith(PNG_END),
                         "the first screen's picture, written whole", timeout=20, every=0.1)
            proc.send_signal(signal.SIGTERM)
            _out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return proc.returncode, err


SHOOT = r"""
import sys
from pathlib import Path
from kiosk.files import paths
from kiosk.cli.kiosk import prepare_environment
prepare_environment(paths.data_dir())
from kivy.clock import Clock
from kiosk.app.wiring import build_app

def started(app):
    def shoot(_dt):
        app.screenshot(sys.argv[1])
        print(app.manager.current, app.banner.text if hasattr(app.banner, "text") else "", flush=True)
        app.stop()
    Clock.schedule_once(shoot, 4.0)

build_app(screenshots=Path(sys.argv[2]), on_started=started).run()
"""


def _screenshot(data: Path, shots: Path, display: str, name: str) -> str:
    """The kiosk's screen a few seconds after start, as a person would see it (and its screen name)."""
    env = clean_env(DISPLAY=display, TABLEKEEPER_DATA=str(data), KIVY_HOME=str(data / "kivy"),
                    TABLEKEEPER_CONFIG=str(data / "tablekeeper.toml"))
    done = subprocess.run([sys.executable, "-c", SHOOT, name, str(shots)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.stdout


def _same_screen(first: Path, later: Path) -> float:
    """The share of pixels that differ between the kiosk's own first picture of a screen and
    one taken seconds later: near 0 when the first was taken of the screen as laid out, large
    when it caught widgets at their 100x100 defaults before Kivy's first layout pass."""
    import cv2
    import numpy as np

    a, b = cv2.imread(str(first)), cv2.imread(str(later))
    assert a is not None and b is not None and a.shape == b.shape, (first, later)
    return float((np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 30).mean())


def _doctor(data: Path) -> dict[str, dict[str, str]]:
    import json

    script = Path(sys.executable).with_name("tablekeeper")
    env = {**os.environ, "TABLEKEEPER_DATA": str(data), "TABLEKEEPER_CONFIG": str(data / "tablekeeper.toml")}
    done = subprocess.run([str(script), "doctor", "--json"], env=env, capture_output=True, text=True,
                          timeout=180, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    return {r["name"]: r for r in json.loads(done.stdout)}


def test_a_read_only_data_folder_starts_the_kiosk_on_the_game_in_progress(
    tmp_path: Path, display: str
) -> None:
    with tmpfs(tmp_path / "card", "8m") as card:
        _game_in_progress(card)
        before = _snapshot(card)
        remount_read_only(card)
        shots = tmp_path / "shots"
        code, journal = _run_kiosk(card, shots, display, tmp_path)
        assert code == 0 and "Traceback" not in journal, journal[-3000:]
        assert f"banner: the data folder {card} is read-only" in journal
        assert "The games are shown read-only, from a copy: nothing new can be kept" in journal
        assert (shots / "first-game.png").exists(), "the game in progress is on screen"
        assert not (shots / "first-start.png").exists()
        screen = _screenshot(card, SHOTS, display, "fault-read-only-data")
        assert screen.startswith("game"), screen
        assert _same_screen(shots / "first-game.png", SHOTS / "fault-read-only-data.png") < 0.01
        report = _doctor(card)
        assert report["data directory"]["status"] == "fail"
        assert "read-only file system" in report["data directory"]["detail"]
        assert "dmesg" in report["data directory"]["fix"]
        assert _snapshot(card) == before and not (card / "kivy").exists()


def test_a_full_data_folder_starts_the_kiosk_on_the_game_in_progress(tmp_path: Path, display: str) -> None:
    with tmpfs(tmp_path / "card", "1m") as card:
        _game_in_progress(card)
        with contextlib.suppress(OSError), open(card / "photos.bin", "wb") as fh:
            while True:  # a camera that filled the card with photos
                fh.write(b"\0" * 4096)
                fh.flush()
        assert shutil.disk_usage(card).free < 8192
        shots = tmp_path / "shots"
        code, journal = _run_kiosk(card, shots, display, tmp_path)
        assert code == 0 and "Traceback" not in journal, journal[-3000:]
        assert f"banner: the disk is full: the data folder {card}" in journal
        assert (shots / "first-game.png").exists(), "the game in progress is on screen"
        assert _screenshot(card, SHOTS, display, "fault-full-data").startswith("game")
        assert _same_screen(shots / "first-game.png", SHOTS / "fault-full-data.png") < 0.01

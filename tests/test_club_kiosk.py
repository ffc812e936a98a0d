"""Club night in the real kiosk app: it publishes through a real paho client, shows a QR code
a phone can read, keeps the broker password private — and, without club settings, opens
no socket at all.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import pytest
from gui import harness
from gui.harness import SHOTS, run
from mosquitto_kit import Broker, free_port
from waiting import wait_for

from kiosk.club.server.service import ClubServer, ServerConfig

data, display = harness.data, harness.display  # a data folder per test, one screen per module

PASSWORD = "s3cret-Pw-42"


@pytest.mark.gui
@pytest.mark.slow
def test_the_kiosk_publishes_and_shows_its_tables_qr_code(data: Path, tmp_path: Path, display: str) -> None:
    broker = Broker(tmp_path / "broker", {"club-server": "pw-server", "table-7": PASSWORD}).start()
    page = f"http://127.0.0.1:{free_port()}"
    settings = data / "tablekeeper.toml"
    settings.write_text(
        "[club]\n"
        f'host = "127.0.0.1"\nport = {broker.port}\nclub = "riverside"\ntable = "table-7"\n'
        f'username = "table-7"\npassword = "{PASSWORD}"\npage = "{page}"\n'
    )
    os.chmod(settings, 0o644)  # as an editor leaves it: the kiosk must close it to others
    server = ClubServer(
        ServerConfig(
            club="riverside",
            db=tmp_path / "club.sqlite3",
            port=broker.port,
            username="club-server",
            password="pw-server",
            listen=("127.0.0.1", 0),
        )
    ).start()
    try:
        found = run("club_qr", data, display=display)
        wait_for(lambda: server.board.games, "the table's game at the club server", timeout=10, every=0.1)
        shown = server.board.snapshot()
    finally:
        server.close()
        broker.stop()
    assert stat.S_IMODE(settings.stat().st_mode) == 0o600
    assert any("readable by its owner only" in m for m in found["banner_at_start"])
    assert found["state"] == "connected: every event is at the club"
    assert found["heading"] == "table-7 at riverside, broker 127.0.0.1:" + str(broker.port)
    assert found["address"] == f"{page}/table/table-7"
    assert not any(PASSWORD in text for text in found["all_texts"]), "the password must never be on screen"
    assert found["back_to"] == "game"
    # The club rebuilt the table's game from what the kiosk published.
    current = shown["tables"][0]["current"]
    assert shown["tables"][0]["table"] == "table-7"
    assert current["last_word"] == "PURPLE" and current["events"] == len(found["events"]) == 1
    # A phone can read the code on the screenshot: it opens this table's page. (OpenCV's classic
    # detector alone missed a code a clean clone's screenshot showed sharply, with its quiet zone,
    # for one port's address; its ArUco-based detector, like a phone's reader, read it.)
    picture = cv2.imread(str(SHOTS / "club.png"))
    detectors = (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco())
    read = {detector.detectAndDecode(picture)[0] for detector in detectors}
    assert f"{page}/table/table-7" in read, read


NO_SOCKET = r"""
import json, sys, threading
events, opening = [], threading.Event()

def heard(name, args):
    if name.startswith("socket."):
        events.append(name)
    if name in ("socket.connect", "socket.getaddrinfo", "socket.__new__"):
        opening.set()

sys.addaudithook(heard)
from pathlib import Path
from kiosk.files import settings as settings_file
from kiosk.play.session import Session
from kiosk.gamelog.store import GameLog
from kiosk.app.wiring import open_club

settings = settings_file.load(Path(sys.argv[1]))
store = GameLog(Path(sys.argv[2]))
problems = []
club, log = open_club(settings, store, problems)
session = Session(log)
assert session.new_game("tosswords", ["Ann", "Bob"]).ok
move = {"type": "move", "tiles": ["C", "T"], "keys": ["C", "T"], "die": 3, "word": "TRANCE"}
assert session.submit(move).ok
assert session.undo().ok
session.abandon()
print(json.dumps({"club": club is None, "log_is_store": log is store, "problems": problems,
                  "sockets": events, "paho": any(m.startswith("paho") for m in sys.modules)}))
"""


def _play_a_game(tmp_path: Path, settings: str, script: str = NO_SOCKET) -> dict[str, Any]:
    """Run ``script`` (a game through the kiosk's own wiring) with ``settings``: what it saw."""
    (tmp_path / "tablekeeper.toml").write_text(settings)
    out = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "tablekeeper.toml"), str(tmp_path / "games.sqlite3")],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("section", ["", "[club]\n", '[club]\nhost = ""\nclub = "riverside"\n'])
def test_a_kiosk_without_club_settings_opens_no_socket(tmp_path: Path, section: str) -> None:
    found = _play_a_game(tmp_path, "[timer]\nwarning = 10\n" + section)
    assert found == {"club": True, "log_is_store": True, "problems": [], "sockets": [], "paho": False}


def test_the_audit_hook_would_see_a_socket(tmp_path: Path) -> None:
    """The check above can fail: with club settings the same script sees the client's socket."""
    port = free_port()
    # the client connects on its own thread: wait until it has opened a socket (at most 10 s)
    script = NO_SOCKET.replace("session.abandon()", "session.abandon(); opening.wait(10)")
    found = _play_a_game(
        tmp_path, f'[club]\nhost = "127.0.0.1"\nport = {port}\nclub = "riverside"\ntable = "t1"\n', script
    )
    assert found["paho"] and not found["club"]
    assert any(
        name in ("socket.connect", "socket.getaddrinfo", "socket.__new__") for name in found["sockets"]
    )

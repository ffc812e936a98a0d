"""The standings page in a real browser: Debian's Chromium, headless, takes the screenshot
that docs/club.md shows, and Tesseract reads it back.

Five tables (in this process: a real game log, ``Session``, the club seam and a real paho
client each) play through a real Mosquitto to the club server; Chromium loads the page
over HTTP. Skipped cleanly where Chromium is not installed (``./dev test`` installs it).
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import cv2
import pytest
from club_check import wait_until_caught_up
from club_tables import play_events, settle
from mosquitto_kit import Broker, free_port

from kiosk.club.publish.config import ClubConfig
from kiosk.club.publish.outbox import Outbox
from kiosk.club.publish.publisher import ClubLog, Publisher
from kiosk.club.server.service import ClubServer, ServerConfig
from kiosk.gamelog.store import GameLog
from kiosk.play.session import Session

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
TABLES = ["t01", "t02", "t03", "t04", "t05"]

pytestmark = pytest.mark.slow


def screenshot(url: str, out: Path, size: str = "1280,1000") -> None:
    """Chromium headless with a throw-away profile and nothing phoning home."""
    assert CHROMIUM is not None
    with tempfile.TemporaryDirectory(prefix="club-chromium-") as profile:
        subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", f"--screenshot={out}", f"--window-size={size}",
             "--hide-scrollbars", url],
            check=True, capture_output=True, timeout=90,
        )  # fmt: skip


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt package chromium)")
def test_the_standings_page_in_headless_chromium(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "broker").start()
    server = ClubServer(
        ServerConfig(club="riverside", db=tmp_path / "club.sqlite3", port=broker.port,
                     listen=("127.0.0.1", free_port()))
    ).start()  # fmt: skip
    tables = []
    try:
        for n, name in enumerate(TABLES):
            path = tmp_path / f"{name}.sqlite3"
            store = GameLog(path)
            config = ClubConfig(host="127.0.0.1", port=broker.port, club="riverside", table=name)
            publisher = Publisher(config, Outbox(path, "riverside", name)).start()
            tables.append((store, publisher))
            play_events(Session(ClubLog(store, publisher)), random.Random(n), 15 + 6 * n, name)
        assert all(settle(publisher) for _store, publisher in tables)
        snapshot = wait_until_caught_up(server.url, {name: tmp_path / f"{name}.sqlite3" for name in TABLES})
        assert [t["table"] for t in snapshot["tables"]] == TABLES
        SHOTS.mkdir(parents=True, exist_ok=True)
        shot = SHOTS / "club-standings.png"
        shot.unlink(missing_ok=True)
        started = time.monotonic()
        screenshot(f"{server.url}/", shot)
        phone = SHOTS / "club-table-phone.png"
        screenshot(f"{server.url}/table/t03", phone, size="412,915")
        print(f"two Chromium screenshots in {time.monotonic() - started:.1f} s")
    finally:
        for store, publisher in tables:
            publisher.close()
            store.close()
        server.close()
        broker.stop()
    picture = cv2.imread(str(shot))
    assert picture is not None and picture.shape[:2] == (1000, 1280)
    import pytesseract

    seen = pytesseract.image_to_string(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY))
    assert "Leaderboard" in seen and "riverside club night" in seen
    assert sum(name in seen for name in TABLES) >= 3, seen
    phone_seen = pytesseract.image_to_string(cv2.imread(str(phone), cv2.IMREAD_GRAYSCALE))
    assert "Score sheet" in phone_seen and "t03" in phone_seen

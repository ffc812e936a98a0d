"""The kiosk's club publisher on its own, as a unit's ExecStart in the sandbox tests.

    python tests/club_probe.py SETTINGS.toml DATA_DIR RESULT.json SECONDS

Starts the publisher exactly as the kiosk does (``kiosk.app.wiring.open_club``), starts a
Tosswords game through the kiosk's ``Session`` (so there is something to publish), waits
up to SECONDS for the broker to acknowledge it, and writes what happened to RESULT.json.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(settings_path: str, data: str, result: str, seconds: str) -> int:
    from kiosk.app.wiring import open_club
    from kiosk.files import settings
    from kiosk.gamelog.store import GameLog
    from kiosk.play.session import Session

    store = GameLog(Path(data) / "games.sqlite3")
    problems: list[str] = []
    publisher, game_log = open_club(settings.load(Path(settings_path)), store, problems)
    found: dict[str, object] = {"problems": problems, "started": publisher is not None}
    if publisher is not None:
        session = Session(game_log)
        session.new_game("tosswords", ["Ann", "Bob"])
        end = time.monotonic() + float(seconds)
        while time.monotonic() < end and not (publisher.connected and publisher.acknowledged):
            time.sleep(0.1)
        found.update(connected=publisher.connected, acknowledged=publisher.acknowledged,
                     status=publisher.status())
        publisher.close()
    Path(result).write_text(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))

"""Club night end to end: a real Mosquitto, ten kiosks, the club server, and faults.

Ten tables (each a child process: a real game log, ``Session``, a real paho client)
play random legal games of all five games while the broker is SIGKILLed and restarted,
one kiosk is SIGKILLed mid-publish and started again, and the club server (the real
``tablekeeper club`` command) is SIGKILLed and started again. Afterwards every message
of every table is in the club's archive exactly once, byte for byte, with no gap in its
sequence numbers, and the standings page equals a replay of each table's own log.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from club_check import (
    archive,
    compare,
    expected_games,
    expected_leaderboard,
    fetch,
    outbox,
    unsent,
    wait_until_caught_up,
)
from mosquitto_kit import Broker, free_port, need_mosquitto
from waiting import wait_for

pytestmark = pytest.mark.slow

HERE = Path(__file__).resolve().parent
CLUB = "riverside"
TABLES = [f"t{n:02d}" for n in range(1, 11)]
ROUND = 35  # events each table plays in each of the three rounds
PACE = 0.03


def _table(
    folder: Path, table: str, port: int, events: int, seed: str = "1", *, until_told: bool = True
) -> subprocess.Popen[str]:
    """A kiosk playing at least ``events`` events; ``until_told``: then on until :func:`_finish`."""
    return subprocess.Popen(
        [
            sys.executable,
            str(HERE / "club_tables.py"),
            str(folder / f"{table}.sqlite3"),
            CLUB,
            table,
            str(port),
            seed,
            str(events),
            str(PACE),
        ],
        stdin=subprocess.PIPE if until_told else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _server(folder: Path, port: int, http: int) -> subprocess.Popen[str]:
    """The club server; its log goes to ``server.log`` (a pipe nobody reads could fill and stall it)."""
    log = folder / "server.log"
    with log.open("a") as err:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kiosk.cli.main",
                "club",
                "--club",
                CLUB,
                "--port",
                str(port),
                "--username",
                "club-server",
                "--password-file",
                str(folder / "server.secret"),
                "--listen",
                f"127.0.0.1:{http}",
                "--db",
                str(folder / "club.sqlite3"),
            ],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
    line = process.stdout.readline() if process.stdout else ""
    assert "standings at" in line, log.read_text()[-2000:]
    return process


def _club(folder: Path, tables: list[str], secret: str = "pw-server") -> tuple[Broker, int]:
    """Mosquitto with the documented ACL and accounts for the club server and ``tables``, the
    club server's password file, and a free port for its page."""
    broker = Broker(folder / "broker", {"club-server": "pw-server", **{t: f"pw-{t}" for t in tables}}).start()
    path = folder / "server.secret"
    path.write_text(secret)
    os.chmod(path, 0o600)
    return broker, free_port()


def _logged(db: Path) -> int:
    import sqlite3

    if not db.exists():
        return 0
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    except sqlite3.Error:
        return 0
    finally:
        conn.close()


def _finish(kiosks: dict[str, subprocess.Popen[str]]) -> None:
    """Call the round over (each table's stdin closes), then wait until every table has got
    every message to the broker."""
    for table, kiosk in kiosks.items():
        out, err = kiosk.communicate(timeout=90)
        assert kiosk.returncode == 0, f"{table}: {err[-2000:]}"
        assert '"unacknowledged": 0' in out, f"{table} did not get every message to the broker: {out}"


def _every_event_once_and_standings_right(folder: Path, base: str, dbs: dict[str, Path], after: str) -> Any:
    """The club's archive equals every kiosk's outbox; the page equals a replay of every log."""
    snapshot = wait_until_caught_up(base, dbs)
    held = archive(folder / "club.sqlite3")
    games = 0
    for table, db in dbs.items():
        for key, messages in outbox(db).items():
            games += 1
            got = held.get((table, key), {})
            assert sorted(got) == list(range(len(messages))), (
                f"after {after}: {table} {key}: seqs {sorted(got)}"
            )
            assert got == messages, f"after {after}: {table} {key}: a message differs from the kiosk's"
    assert {t for t, _ in held} == set(dbs)
    expected = {}
    for table, db in dbs.items():
        expected.update(expected_games(db, table))
    assert compare(snapshot, expected) == [], f"after {after}"
    board = {
        row["player"]: {k: row[k] for k in ("games", "wins", "best_turn")} for row in snapshot["leaderboard"]
    }
    assert board == expected_leaderboard(expected), f"after {after}"
    return snapshot, games


def _playing(dbs: dict[str, Path], at_least: dict[str, int]) -> None:
    """Wait until every table has logged a few more events: the evening is in full swing.

    The tables play until told to stop, so a fault injected after this falls mid-play. (When
    they stopped by themselves after a fixed number of events, a loaded machine let the first
    tables finish, and disconnect, before the broker was killed: nobody was left to send again
    what died with it, and the test failed one run in three for a reason of its own making.)"""

    def behind() -> dict[str, int]:
        return {t: n for t, db in dbs.items() if (n := _logged(db)) < at_least[t] + 5}

    wait_for(lambda: not behind(), lambda: f"the tables to play (events logged, behind): {behind()}",
             timeout=120, every=0.05)


def _connections(folder: Path) -> int:
    """How many times the club server has connected to the broker (its log says each)."""
    log = folder / "server.log"
    return log.read_text().count("club server connected to") if log.exists() else 0


def test_a_club_evening_survives_broker_kiosk_and_server_crashes(tmp_path: Path) -> None:
    """Three rounds of play, one fault in the middle of each; checked after each round."""
    need_mosquitto()
    broker, http = _club(tmp_path, TABLES)
    base = f"http://127.0.0.1:{http}"
    server = _server(tmp_path, broker.port, http)
    dbs = {t: tmp_path / f"{t}.sqlite3" for t in TABLES}
    kiosks: dict[str, subprocess.Popen[str]] = {}
    try:
        # 1. The broker dies (SIGKILL) while every table is playing and comes back. The
        # hardest case: the club server was away, so the broker held (and acknowledged)
        # messages for it, and they die with the broker: only the kiosks' resend saves them.
        kiosks = {t: _table(tmp_path, t, broker.port, ROUND) for t in TABLES}
        _playing(dbs, dict.fromkeys(TABLES, 0))
        server.kill()
        server.wait(10)
        _playing(dbs, {t: _logged(db) for t, db in dbs.items()})
        broker.kill(signal.SIGKILL)
        _playing(dbs, {t: _logged(db) for t, db in dbs.items()})  # on, with no broker: the logs keep it
        broker.start()
        server = _server(tmp_path, broker.port, http)
        _finish(kiosks)
        _every_event_once_and_standings_right(tmp_path, base, dbs, "the broker was killed")

        # 2. One kiosk is SIGKILLed mid-publish (with messages unsent), then started again.
        before = {t: _logged(db) for t, db in dbs.items()}
        kiosks = {t: _table(tmp_path, t, broker.port, ROUND, seed="2") for t in TABLES}
        _playing(dbs, before)
        victim = "t03"
        broker.pause()  # a frozen broker: the victim's messages pile up unacknowledged
        _playing({victim: dbs[victim]}, {victim: _logged(dbs[victim])})
        kiosks[victim].kill()
        kiosks[victim].wait(10)
        broker.resume()
        assert unsent(dbs[victim]) > 0, "the kiosk must be killed with messages still unsent"
        kiosks[victim] = _table(tmp_path, victim, broker.port, 10, seed="3")
        _finish(kiosks)
        _every_event_once_and_standings_right(tmp_path, base, dbs, "a kiosk was killed")

        # 3. The club server dies (SIGKILL) mid-round and comes back on the same address.
        before = {t: _logged(db) for t, db in dbs.items()}
        kiosks = {t: _table(tmp_path, t, broker.port, ROUND, seed="4") for t in TABLES}
        _playing(dbs, before)
        server.kill()
        server.wait(10)
        _playing(dbs, {t: _logged(db) for t, db in dbs.items()})  # on, while the broker keeps it for the club
        server = _server(tmp_path, broker.port, http)
        _finish(kiosks)
        snapshot, games = _every_event_once_and_standings_right(tmp_path, base, dbs, "the server was killed")
    finally:
        for kiosk in kiosks.values():
            if kiosk.poll() is None:
                kiosk.kill()
        server.terminate()
        server.wait(10)
        broker.stop()
    assert games >= 20
    assert {g["game"] for t in snapshot["tables"] for g in t["games"]} == {
        "word-on-the-street",
        "wordspiel",
        "tosswords",
        "option",
        "upwords",
    }
    assert any(row["wins"] for row in snapshot["leaderboard"]), "some games must have finished"


def test_a_kiosk_switched_off_before_a_broker_crash_sends_again_at_its_next_start(tmp_path: Path) -> None:
    """The limit docs/club.md states, and how it heals: the broker acknowledged a table's game
    and held it for the absent club server, the kiosk was switched off, the broker crashed.
    The club cannot have that game until the kiosk is on again; then it has all of it.

    That the club does not have it is checked once a game another table played after the
    restart has reached the club: the club server had connected and subscribed by then, and
    whatever the broker still held for it would have come first."""
    need_mosquitto()
    broker, http = _club(tmp_path, ["t01", "t02"])
    base = f"http://127.0.0.1:{http}"
    db = tmp_path / "t01.sqlite3"
    other = tmp_path / "t02.sqlite3"
    server = _server(tmp_path, broker.port, http)
    try:
        server.kill()  # its session stays on the broker, which queues the game for it
        server.wait(10)
        kiosk = _table(tmp_path, "t01", broker.port, 15, until_told=False)
        out, err = kiosk.communicate(timeout=90)
        assert kiosk.returncode == 0 and '"unacknowledged": 0' in out, err[-2000:]
        broker.kill(signal.SIGKILL)
        broker.start()
        connected = _connections(tmp_path)
        server = _server(tmp_path, broker.port, http)
        wait_for(lambda: _connections(tmp_path) > connected, "the club server to connect to the new broker")
        marker = _table(tmp_path, "t02", broker.port, 5, until_told=False)
        out, err = marker.communicate(timeout=90)
        assert marker.returncode == 0 and '"unacknowledged": 0' in out, err[-2000:]
        wait_until_caught_up(base, {"t02": other})
        held = archive(tmp_path / "club.sqlite3")
        assert all(held.get(("t02", key)) == sent for key, sent in outbox(other).items()), "no marker came"
        assert not any(table == "t01" for table, _ in held), "the club has t01's game, which the crash lost"
        kiosk = _table(tmp_path, "t01", broker.port, 0, seed="2", until_told=False)
        out, err = kiosk.communicate(timeout=90)
        assert kiosk.returncode == 0 and '"logged": 0' in out, err[-2000:]
        _every_event_once_and_standings_right(tmp_path, base, {"t01": db, "t02": other},
                                              "the kiosk's next start")
    finally:
        server.terminate()
        server.wait(10)
        broker.stop()


def test_the_standings_page_is_served_and_read_only(tmp_path: Path) -> None:
    need_mosquitto()
    broker, http = _club(tmp_path, ["t01"], secret="pw-server\n")  # a file ending in a newline
    base = f"http://127.0.0.1:{http}"
    server = _server(tmp_path, broker.port, http)
    try:
        kiosk = _table(tmp_path, "t01", broker.port, 25, until_told=False)
        assert kiosk.wait(60) == 0, kiosk.stderr.read() if kiosk.stderr else ""
        snapshot = wait_until_caught_up(base, {"t01": tmp_path / "t01.sqlite3"})
        current = snapshot["tables"][0]["current"]
        status, page, headers = fetch(f"{base}/")
        assert status == 200 and b"t01" in page and headers["Content-Type"].startswith("text/html")
        status, table_page, _ = fetch(f"{base}/table/t01")
        assert status == 200
        for player in current["players"]:
            assert player.encode() in table_page
        assert b"Score sheet" in table_page
        assert fetch(f"{base}/table/nobody")[0] == 404
        assert fetch(f"{base}/nothing-here")[0] == 404
        status, head, _ = fetch(f"{base}/", method="HEAD")
        assert status == 200 and head == b""
        for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "FROB"):
            status, _, headers = fetch(f"{base}/standings.json", method=method)
            assert status == 405, method
            assert headers["Allow"] == "GET, HEAD"
    finally:
        server.terminate()
        server.wait(10)
        broker.stop()

"""The game log under a damaged file, a full disk and an unwritable folder.

Each fault is produced for real: bytes overwritten in the file, a tiny tmpfs that really
fills up (or a file-size limit, ``RLIMIT_FSIZE``, where mounting is not allowed), a data
folder path that runs through a file, a read-only mount, and a process that has dropped
root. Every time: a plain message, and nothing recorded before the fault is lost.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import storekit
from gui.faults import remount_read_only, tmpfs

from kiosk.gamelog.store import GameLog, StoreError

ROOT = Path(__file__).resolve().parents[1]


def _filled_log(path: Path, games: int = 3, events: int = 5) -> list[list[dict]]:
    with GameLog(path) as log:
        out = []
        for g in range(games):
            gid = log.start_game(storekit.header([f"P{g}a", f"P{g}b"], target=10**6))
            for n in range(events):
                log.append(gid, {"type": "add", "n": n + g})
            out.append(log.events(gid))
        return out


# ------------------------------------------------------------------ a damaged file
def test_a_file_that_is_not_a_database_is_kept_aside_and_a_new_log_started(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    garbage = b"this is not a database, it is a shopping list\n" * 200
    path.write_bytes(garbage)
    with GameLog(path) as log:
        assert log.kept_aside is not None and log.kept_aside.read_bytes() == garbage
        assert len(log.problems) == 1
        assert "damaged" in log.problems[0] and str(log.kept_aside) in log.problems[0]
        assert log.games() == [] and log.integrity() == "ok"
        gid = log.start_game(storekit.header())
        assert log.append(gid, {"type": "add"}) == 1


def test_a_damaged_index_is_repaired_by_copying_every_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storekit.register(monkeypatch)
    path = tmp_path / "games.sqlite3"
    before = _filled_log(path)
    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'players_by_name'").fetchone()[0]
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    with open(path, "r+b") as fh:  # scribble over the index's page, as a failing SD card might
        fh.seek((root - 1) * page_size)
        fh.write(b"\xde\xad\xbe\xef" * (page_size // 4))
    damaged = path.read_bytes()
    with GameLog(path) as log:
        assert log.kept_aside is not None and log.kept_aside.read_bytes() == damaged
        assert "Recovered 3 of 3 game(s): 3 whole, 0 in part." in log.problems[0]
        assert [log.events(s.id) for s in reversed(log.games())] == before
        assert log.integrity() == "ok" and log.recent_players()[:2] == ["P2a", "P2b"]


def test_a_truncated_file_is_kept_aside(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    _filled_log(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])  # half-written copy
    with GameLog(path) as log:
        assert log.kept_aside is not None and log.kept_aside.stat().st_size == len(data) // 2 + 100
        assert log.problems and log.integrity() == "ok"


# ------------------------------------------------------------------ a full disk
def _tmpfs(where: Path, size: str) -> contextlib.AbstractContextManager[Path]:
    return tmpfs(where, size, skip_note="; the RLIMIT_FSIZE test covers it")


def test_a_really_full_disk_loses_only_the_entry_being_written(tmp_path: Path) -> None:
    with _tmpfs(tmp_path / "small", "512k") as disk:
        path = disk / "games.sqlite3"
        log = GameLog(path)
        gid = log.start_game(storekit.header(target=10**9))
        filler = disk / "photos.bin"
        with contextlib.suppress(OSError), open(filler, "wb") as fh:
            while True:  # a camera that filled the card with photos
                fh.write(b"\0" * 4096)
                fh.flush()
        saved = []
        with pytest.raises(StoreError) as err:
            for n in range(10_000):
                log.append(gid, {"type": "add", "n": n, "pad": "x" * 300})
                saved.append(n)
        assert err.value.kind == "disk-full"
        assert str(err.value).startswith("the disk is full: the last entry was not saved; everything before")
        assert [e["n"] for e in log.events(gid)] == saved
        filler.unlink()  # someone frees space: the same log carries on
        log.append(gid, {"type": "add", "n": -1})
        log.close()
        with GameLog(path) as again:
            assert [e["n"] for e in again.events(gid)] == [*saved, -1]
            assert again.integrity() == "ok"


FSIZE_CHILD = r"""
import json, os, resource, signal, sys
from kiosk.gamelog.store import GameLog, StoreError
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # get EFBIG instead of being killed
path, gid = sys.argv[1], int(sys.argv[2])
log = GameLog(path)
limit = os.path.getsize(path + "-wal") + 60_000  # an entry rewrites its game row too: 2 pages
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
saved, error = [], None
try:
    for n in range(100_000):
        log.append(gid, {"type": "add", "n": n, "pad": "x" * 300})
        saved.append(n)
except StoreError as exc:
    error = [exc.kind, str(exc)]
print(json.dumps({"saved": saved, "error": error, "events": [e["n"] for e in log.events(gid)]}))
"""


def test_a_file_size_limit_reports_a_full_disk_and_keeps_the_log(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with GameLog(path) as log:
        gid = log.start_game(storekit.header(target=10**9))
    done = subprocess.run([sys.executable, "-c", FSIZE_CHILD, str(path), str(gid)], cwd=ROOT,
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    kind, message = result["error"]
    assert kind == "disk-full" and "the last entry was not saved; everything before it is safe" in message
    assert len(result["saved"]) > 5 and result["events"] == result["saved"]
    with GameLog(path) as log:
        assert [e["n"] for e in log.events(gid)] == result["saved"] and log.integrity() == "ok"


# ------------------------------------------------------------------ an unwritable folder
def test_a_data_folder_that_cannot_exist_is_a_plain_error(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(StoreError, match="cannot write the game log") as err:
        GameLog(blocker / "games.sqlite3")
    assert err.value.kind == "unwritable" and blocker.read_text() == "a file where the folder should be"


def test_a_read_only_mount_is_a_plain_error_and_the_games_stay(tmp_path: Path) -> None:
    with _tmpfs(tmp_path / "card", "4m") as card:
        path = card / "games.sqlite3"
        before = _filled_log(path, games=1)
        remount_read_only(card)
        with pytest.raises(StoreError) as err:
            GameLog(path)
        assert err.value.kind == "unwritable" and "cannot write the game log" in str(err.value)
        subprocess.run(["mount", "-o", "remount,rw", str(card)], check=True)
        with GameLog(path) as log:
            assert [log.events(s.id) for s in log.games()] == before


NOBODY_CHILD = r"""
import json, os, pwd, sys
from kiosk.gamelog.store import GameLog, StoreError
nobody = pwd.getpwnam("nobody")
os.setgid(nobody.pw_gid)       # drop root after the interpreter (under /root) has started
os.setgroups([])
os.setuid(nobody.pw_uid)
try:
    GameLog(sys.argv[1])
    print(json.dumps(None))
except StoreError as exc:
    print(json.dumps([exc.kind, str(exc)]))
"""


def test_a_folder_the_kiosk_user_may_not_write_is_a_plain_error(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to drop to the 'nobody' user")
    folder = tmp_path / "data"
    folder.mkdir(mode=0o755)  # root's, as after a careless 'sudo tablekeeper'
    tmp_path.chmod(0o755)

    done = subprocess.run([sys.executable, "-c", NOBODY_CHILD, str(folder / "games.sqlite3")],
                          cwd=ROOT, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.returncode == 0, done.stderr
    kind, message = json.loads(done.stdout)
    assert kind == "unwritable" and f"cannot write the game log in {folder}" in message
    assert list(folder.iterdir()) == []


def test_the_kiosk_starts_on_a_temporary_log_when_the_data_folder_is_unusable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No crash loop: the kiosk's composition root turns the StoreError into a banner."""
    from kiosk.app.wiring import open_log

    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be")
    monkeypatch.setenv("TABLEKEEPER_DATA", str(blocker))
    problems: list[str] = []
    store = open_log(problems)
    try:
        assert store.path.parent != blocker and store.integrity() == "ok"
        assert len(problems) == 1 and "cannot write the game log" in problems[0]
        gid = store.start_game(storekit.header())
        assert store.append(gid, {"type": "add"}) == 1
    finally:
        store.close()
    assert blocker.read_text() == "a file where the folder should be"


def test_the_kiosk_recovers_a_damaged_log_at_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk.app.wiring import open_log

    monkeypatch.setenv("TABLEKEEPER_DATA", str(tmp_path))
    (tmp_path / "games.sqlite3").write_bytes(b"\x00" * 4096)
    problems: list[str] = []
    store = open_log(problems)
    try:
        assert store.path == tmp_path / "games.sqlite3" and store.kept_aside is not None
        assert problems and "kept as" in problems[0]
    finally:
        store.close()

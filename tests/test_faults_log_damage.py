"""A damaged game log: nothing is ever silently replaced, and everything that reads is kept.

Each damage is done for real to a real SQLite file: truncated to 0 bytes, replaced by a
database without the game tables, one page of entries overwritten, 200 random bytes
flipped. Every time the file is kept aside, the banner (``GameLog.problems``) and the
journal say what was kept and what was not, and ``tablekeeper doctor`` says so too.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
import storekit
from test_doctor import SCRIPT, doctor, findings

from kiosk.gamelog.store import GameLog


def doctor_report(tmp_path: Path) -> dict[str, dict[str, str]]:
    return findings(doctor(tmp_path, "--json"))


def _filled(path: Path, games: int = 4, events: int = 30, pad: int = 0) -> dict[int, list[dict]]:
    with GameLog(path) as log:
        out = {}
        for g in range(games):
            gid = log.start_game(storekit.header([f"P{g}a", f"P{g}b"], target=10**6))
            for n in range(events):
                log.append(gid, {"type": "add", "n": n, "g": g, "pad": "x" * pad})
            out[gid] = log.events(gid)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return out


def _salvaged(log: GameLog) -> dict[int, list[dict]]:
    """Original game number (kept in each event as ``g``) -> the events the new log holds."""
    out = {}
    for summary in log.games():
        events = log.events(summary.id)
        players = log.header(summary.id)["players"]
        g = events[0].get("g") if events else players[0][1:-1]
        with contextlib.suppress(TypeError, ValueError):
            out[int(g)] = events
    return out


def test_a_log_truncated_to_zero_bytes_is_damaged_not_a_new_empty_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = data / "games.sqlite3"
    _filled(path)
    path.write_bytes(b"")  # a copy cut short, a card that lost the file's blocks

    report = doctor_report(tmp_path)
    assert report["game log"]["status"] == "fail"
    assert "empty (0 bytes)" in report["game log"]["detail"]
    assert path.stat().st_size == 0, "doctor must not touch the file"

    with caplog.at_level(logging.ERROR, logger="kiosk.gamelog.store"), GameLog(path) as log:
        assert log.kept_aside is not None and log.kept_aside.stat().st_size == 0
        assert log.problems[0] == (
            f"The game log was damaged (it is empty (0 bytes)). It was kept as {log.kept_aside.name} "
            f"beside the new log. It held no games."
        )
        lost = "The game log no longer holds game 4 (counting: P3a, P3b) and its 30"
        assert log.problems[1].startswith(lost)
        assert log.games() == [] and log.integrity() == "ok"
    assert log.problems[0] in caplog.text  # the banner's words are in the journal too

    report = doctor_report(tmp_path)
    assert report["game log"]["status"] == "warn"
    assert "1 damaged log(s) kept aside" in report["game log"]["detail"]
    assert str(log.kept_aside) in report["game log"]["fix"]


def test_a_database_without_the_game_tables_is_damaged(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE photos (name TEXT)")  # somebody's other database, copied over ours
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with GameLog(path) as log:
        assert log.kept_aside is not None and log.kept_aside.read_bytes() == before
        assert "it holds no game tables" in log.problems[0] and log.problems[0].endswith("It held no games.")


def test_a_new_log_is_not_damaged(tmp_path: Path) -> None:
    with GameLog(tmp_path / "games.sqlite3") as log:
        assert log.problems == [] and log.kept_aside is None
    with GameLog(tmp_path / "games.sqlite3") as log:
        assert log.problems == [] and log.kept_aside is None


def test_one_damaged_page_of_entries_loses_only_those_entries(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    original = _filled(path, games=3, events=40, pad=300)
    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    leaves = [r[0] for r in conn.execute(
        "SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf' ORDER BY pageno")]
    conn.close()
    victim = leaves[len(leaves) // 2]
    with open(path, "r+b") as fh:  # a failing card: one page of entries turned to noise
        fh.seek((victim - 1) * page_size + 8)
        fh.write(random.Random(1).randbytes(page_size - 8))

    with GameLog(path) as log:
        salvage = log.salvage
        assert salvage is not None and len(salvage) == 3 and salvage.lost_games == []
        kept = _salvaged(log)
    lost_total = 0
    for events in original.values():
        g = events[0]["g"]
        assert kept[g] == events[: len(kept[g])], "a game keeps its entries up to the first lost one"
        lost_total += len(events) - len(kept[g])
    assert 0 < lost_total < 120
    damaged = [s for s in salvage.saved if not s.whole]
    assert damaged and all(s.total == 40 and s.kept < 40 for s in damaged)
    sentence = salvage.sentence()
    assert sentence.startswith(f"Recovered 3 of 3 game(s): {3 - len(damaged)} whole, {len(damaged)} in part")
    for s in damaged:
        assert f"{s.label} recovered up to turn {s.kept} of 40" in sentence
    assert salvage.dropped == lost_total


@pytest.mark.parametrize("seed", range(6))
def test_200_flipped_bytes_keep_only_entries_that_are_true(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "games.sqlite3"
    original = _filled(path, games=40, events=25, pad=120)
    data = bytearray(path.read_bytes())
    rng = random.Random(seed)
    for _ in range(200):
        # Page 1 is spared: it holds the schema, and with it damaged nothing can be read by SQL
        # (then the banner says how many bytes could not be read; see test_faults_log_salvage).
        data[rng.randrange(4096, len(data))] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))

    started = time.monotonic()
    with GameLog(path) as log:
        took = time.monotonic() - started
        salvage = log.salvage
        assert salvage is not None and not salvage.stopped_after
        kept = {g.old_id: log.events(g.new_id) for g in salvage.saved}
        sentence = log.problems[0]
    assert took < 10, f"salvage took {took:.1f} s"
    assert len(salvage) >= 30, "the damage is meant to leave most games readable"
    for saved in salvage.saved:
        events = kept[saved.old_id]
        written = original[saved.old_id]
        assert events == written[: len(events)], f"game {saved.old_id}: an altered entry came back"
        assert saved.kept == len(events) and saved.whole == (len(events) == 25)
    lost_in_kept = sum(25 - len(events) for events in kept.values())
    # A lost game's entries are counted as far as they are seen (its header held the count).
    assert lost_in_kept <= salvage.dropped <= lost_in_kept + 25 * len(salvage.lost_games)
    total = len(salvage) + len(salvage.lost_games)
    assert f"Recovered {len(salvage)} of {total} game(s): {len(salvage.whole)} whole" in sentence


def test_a_log_named_by_a_relative_path_opens_and_is_recovered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tablekeeper kiosk --data here`` names the log relative to the working directory: it
    must reopen with its games, be checked by ``doctor``, and be kept aside when damaged."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "here").mkdir()
    games = _filled(Path("here/games.sqlite3"), games=2, events=3)
    with GameLog(Path("here/games.sqlite3")) as log:
        assert log.problems == [] and _salvaged(log) == {g: evs for g, evs in enumerate(games.values())}
    done = subprocess.run(
        [str(SCRIPT), "doctor", "--json"], capture_output=True, text=True, timeout=120, check=False,
        cwd=tmp_path,
        env={**os.environ, "TABLEKEEPER_DATA": "here", "TABLEKEEPER_CONFIG": "here/tablekeeper.toml"},
    )
    assert findings(done)["game log"]["status"] == "ok", done.stdout
    Path("here/games.sqlite3").unlink()
    conn = sqlite3.connect("here/games.sqlite3")
    conn.execute("CREATE TABLE photos (name TEXT)")  # another database copied over the log
    conn.commit()
    conn.close()
    before = Path("here/games.sqlite3").read_bytes()
    with GameLog(Path("here/games.sqlite3")) as log:
        assert log.kept_aside is not None and log.kept_aside.read_bytes() == before
        assert "it holds no game tables" in log.problems[0]

"""Power loss: a writer is killed (SIGKILL) at random moments, over and over; nothing shown is lost.

A child process appends (and now and then undoes) events in a loop on a real SQLite file
and prints, flushed, what it did *after* the call returned: that is what the kiosk would
have shown. The children are forked from one warm interpreter (:mod:`zygote`), so each
starts at opening the log, not at starting Python. The test kills each at a random moment,
at least 100 times, and after every kill
reopens the log and checks that the file is intact, that every event whose append had
returned is there, that at most the one call in flight differs, and that the game rebuilt
through the engine is exactly the one of those events.

SIGKILL loses what the process had not handed to the kernel; a real power cut also loses
what the kernel had not written to the SD card. The second is what ``synchronous=FULL``
(an fsync per commit) covers, and this test cannot pull the plug on the kernel: see
docs/faults.md.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import storekit
from gui.faults import run_and_kill, warm_children
from zygote import Zygote

from kiosk.gamelog.store import GameLog

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import random, sys
from kiosk.gamelog.store import GameLog
path, gid, k, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
log = GameLog(path)
print("open", flush=True)
while True:
    if rng.random() < 0.2:
        log.drop_last(gid)
        print("drop", flush=True)
    else:
        log.append(gid, {"type": "add", "n": k % 7, "k": k})
        print("add", k, flush=True)
        k += 1
"""

KILLS = 120


@pytest.fixture(scope="module")
def zygote(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Zygote]:
    errors = tmp_path_factory.mktemp("zygote") / "stderr.txt"
    with warm_children(["kiosk.gamelog.store", "games.registry"], errors) as warm:
        yield warm


@pytest.mark.slow
def test_sigkill_at_random_points_loses_nothing_that_was_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, zygote: Zygote
) -> None:
    storekit.register(monkeypatch)
    path = tmp_path / "games.sqlite3"
    with GameLog(path) as log:
        gid = log.start_game(storekit.header(["Ann", "Bob", "Cy"], target=10**9))
    rng = random.Random(20261121)
    shown: list[int] = []  # the k of each event in the log, as far as the writer reported
    k = 0
    total_shown = 0
    for round_ in range(KILLS):
        argv = [str(path), str(gid), str(k), str(rng.randrange(1 << 30))]
        for line in run_and_kill(zygote, CHILD, argv, b"open\n", rng, early=0.02, wait=10.0, window=0.06):
            if line.startswith("add"):
                shown.append(int(line.split()[1]))
                k = shown[-1] + 1
                total_shown += 1
            elif line == "drop":
                shown.pop()
        with GameLog(path) as log:
            assert log.integrity() == "ok", f"round {round_}: the log is damaged"
            assert log.problems == []
            stored = [e["k"] for e in log.events(gid)]
            # Exactly what was shown, or that plus the one call in flight when the power went.
            in_flight_add = stored[:-1] == shown and stored[-1:] == [k]
            in_flight_drop = stored == shown[:-1]
            assert stored == shown or in_flight_add or in_flight_drop, (
                f"round {round_}: log {stored[-5:]} but the screen showed {shown[-5:]}"
            )
            game = log.rebuild(gid)
            assert [e["k"] for e in game.events] == stored
            expected = {"Ann": 0, "Bob": 0, "Cy": 0}
            for i, kk in enumerate(stored):
                expected[("Ann", "Bob", "Cy")[i % 3]] += kk % 7
            assert game.scores() == expected
        shown = stored
        k = max(k, (stored[-1] + 1) if stored else 0)
    # The test is worth something only if the writer got real work done between kills.
    assert total_shown > KILLS


CHILD_GAMES = r"""
import sys
from kiosk.gamelog.store import GameLog
sys.path.insert(0, sys.argv[2])
import storekit
from games import registry
registry.ENGINES["counting"] = "storekit:Counting"
path = sys.argv[1]
log = GameLog(path)
print("open", flush=True)
while True:
    gid = log.start_game(storekit.header(["Ann", "Bob"], target=3))
    print("start", gid, flush=True)
    for n in (1, 1, 3):
        log.append(gid, {"type": "add", "n": n})
    game = log.rebuild(gid)
    log.finish(gid, game.outcome())
    print("finish", gid, flush=True)
"""


@pytest.mark.slow
def test_sigkill_while_games_start_and_finish_keeps_results_whole(tmp_path: Path, zygote: Zygote) -> None:
    """Ending a game writes the outcome and every player's result in one transaction."""
    path = tmp_path / "games.sqlite3"
    GameLog(path).close()
    rng = random.Random(7)
    finished: set[int] = set()
    for round_ in range(40):
        child = zygote.spawn(CHILD_GAMES, [str(path), str(ROOT / "tests")])
        output = b""
        deadline = time.monotonic() + 10
        while b"\n" not in output and time.monotonic() < deadline:
            output += child.read(0.1)
        assert output.startswith(b"open\n"), output
        time.sleep(rng.uniform(0.0, 0.08))  # the kill's random moment: the thing under test
        code, rest, errors = child.kill()
        assert code == -signal.SIGKILL, f"the writer failed on its own: {code} {errors[-2000:]}"
        for line in (output + rest).decode().split("\n")[:-1]:
            if line.startswith("finish"):
                finished.add(int(line.split()[1]))
        conn = sqlite3.connect(path)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", f"round {round_}"
            done = {gid for (gid,) in conn.execute("SELECT id FROM games WHERE finished IS NOT NULL")}
            assert finished <= done, f"round {round_}: a finish that returned is missing"
            # A finished game has every player's result; an unfinished one has none.
            rows = conn.execute(
                "SELECT g.id, g.finished IS NOT NULL, COUNT(p.won), COUNT(*) FROM games g "
                "JOIN players p ON p.game_id = g.id GROUP BY g.id"
            ).fetchall()
            for gid, is_done, with_result, seats in rows:
                assert with_result == (seats if is_done else 0), f"round {round_}: game {gid} half-ended"
        finally:
            conn.close()
    assert len(finished) > 10
    with GameLog(path) as log:
        stats = log.player_stats()
        assert stats["Ann"]["games"] == len(done) and stats["Ann"]["wins"] == len(done)
        assert stats["Bob"]["wins"] == 0

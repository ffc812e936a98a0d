"""The audit's kill test through the kiosk's own controller: 100 SIGKILLs, 0 acknowledged events lost.

A child process does what the kiosk does — ``Session.resume()`` on the real SQLite log, then
turns (``Session.submit``) and undos (``Session.undo``) in a loop — and prints, flushed,
each call *before* it is made ("try") and once it returned ok ("ack": what the screen would
show). The test kills it with SIGKILL at a random moment, 100 times; after every kill the
log must hold exactly the acknowledged events, give or take the one call in flight, and
the next child must resume that game. The children are forked from one warm interpreter
(:mod:`zygote`), so each starts at resuming the game, not at starting Python.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import storekit
from gui.faults import run_and_kill, warm_children
from zygote import Zygote

from kiosk.gamelog.store import GameLog

ROOT = Path(__file__).resolve().parents[1]
KILLS = 100

CHILD = r"""
import random, sys
sys.path.insert(0, sys.argv[2])
import storekit
from games import registry
registry.ENGINES["counting"] = "storekit:Counting"
from kiosk.play.session import Session
from kiosk.gamelog.store import GameLog
path, seed = sys.argv[1], int(sys.argv[3])
rng = random.Random(seed)
session = Session(GameLog(path), now=lambda: 1_800_000_000.0)
if not session.resume():
    result = session.new_game("counting", ["Ann", "Bob", "Cy"], {"target": 10**9})
    assert result.ok, result.message
k = max([e["k"] for e in session.game.events], default=-1) + 1
print("ready", session.game_id, len(session.game.events), flush=True)
while True:
    if session.game.events and rng.random() < 0.2:
        print("try undo", flush=True)
        assert session.undo().ok
        print("ack undo", flush=True)
    else:
        print("try add", k, flush=True)
        result = session.submit({"type": "add", "n": k % 7, "k": k})
        assert result.ok, result.message
        print("ack add", k, flush=True)
        k += 1
"""


@pytest.fixture
def zygote(tmp_path: Path) -> Iterator[Zygote]:
    with warm_children(["kiosk.play.session", "kiosk.gamelog.store", "games.registry"],
                       tmp_path / "zygote-stderr.txt") as warm:
        yield warm


@pytest.mark.slow
def test_100_sigkills_through_the_session_lose_no_acknowledged_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, zygote: Zygote
) -> None:
    storekit.register(monkeypatch)
    path = tmp_path / "games.sqlite3"
    rng = random.Random(20261124)
    acked: list[int] = []  # the k of each event the screen showed, in order
    acknowledged = in_flight_applied = resumed = 0
    game_id = None
    for round_ in range(KILLS):
        argv = [str(path), str(ROOT / "tests"), str(rng.randrange(1 << 30))]
        lines = run_and_kill(zygote, CHILD, argv, b"ready", rng, early=0.04, wait=20.0, window=0.08)
        pending = None
        for line in lines:
            word = line.split()
            if word[0] == "ready":
                resumed += 1
                assert int(word[2]) == len(acked), f"round {round_}: resumed {word[2]}, shown {len(acked)}"
                game_id = game_id or int(word[1])
                assert int(word[1]) == game_id, "the same game is resumed every time"
            elif word[0] == "try":
                pending = word[1:]
            elif word[:2] == ["ack", "add"]:
                acked.append(int(word[2]))
                acknowledged += 1
                pending = None
            elif word[:2] == ["ack", "undo"]:
                acked.pop()
                acknowledged += 1
                pending = None
        if game_id is None:
            continue  # killed before the first game was even started
        with GameLog(path) as log:
            assert log.integrity() == "ok" and log.problems == [], f"round {round_}"
            stored = [e["k"] for e in log.events(game_id)]
            if stored != acked:  # only the call in flight may differ, and only by itself
                if pending and pending[0] == "add":
                    assert stored == [*acked, int(pending[1])], f"round {round_}: {stored[-4:]}, {acked[-4:]}"
                else:
                    assert pending == ["undo"] and stored == acked[:-1], f"round {round_}"
                in_flight_applied += 1
            game = log.rebuild(game_id)
            assert [e["k"] for e in game.events] == stored
        acked = stored
    print(f"\n{KILLS} kills, {acknowledged} acknowledged calls, 0 lost; {in_flight_applied} in-flight "
          f"calls had reached the disk; {resumed} resumes")
    assert acknowledged > 3 * KILLS, "the child must get real work done between kills"
    assert resumed >= KILLS * 0.8

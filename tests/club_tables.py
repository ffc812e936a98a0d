"""Simulated club tables: kiosks playing random legal games of all five games through ``Session``.

Each table is what a kiosk is: a real :class:`kiosk.gamelog.store.GameLog`, a :class:`Session`
on it (behind the club seam :class:`kiosk.club.publish.publisher.ClubLog`) and a real MQTT
publisher. Events are proposed at random by the replay benchmark's generators (the
engines' own public API decides: a refused event is never logged), with an occasional
undo, so the log also holds take-backs. Game after game, a table goes round the five
games; short options make some games finish, so the leaderboard has winners.

Run as a child process (one kiosk = one process, so a test can SIGKILL it):
``python tests/club_tables.py DB CLUB TABLE PORT SEED EVENTS PACE``. The table plays at
least EVENTS events and then goes on playing, connected like a real kiosk, until its
standard input closes (start it with ``stdin=DEVNULL`` to play exactly EVENTS): a test's
fault then always falls while every table is alive and playing, however slowly a loaded
machine started the tables.
"""

from __future__ import annotations

import json
import os
import random
import select
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from waiting import wait_for

# Run as a script (``python tests/club_tables.py``), so the project root is not on the path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_replay import GAMES
from games.transcript import loads
from kiosk.play.session import Session

ORDER = ["word-on-the-street", "wordspiel", "tosswords", "option", "upwords"]
#: Options that let a random game finish now and then (the benchmark's keep them going).
SHORT: dict[str, dict[str, Any]] = {
    "word-on-the-street": {"tiles_to_win": 3},
    "wordspiel": {"rounds": 1, "hand": 5},
    "tosswords": {},
    "option": {},
    "upwords": {"size": 8},
}
GAME_LENGTH = 40  # events before a table moves on to the next game


def play_events(
    session: Session,
    rng: random.Random,
    count: int,
    table: str,
    pace: float = 0.0,
    more: Callable[[], bool] = lambda: False,
) -> int:
    """Submit ``count`` accepted events, then more while ``more()`` says so (starting games as
    needed); return how many were logged."""
    logged = 0
    while logged < count or more():
        game = session.game
        if game is None or game.is_over() or len(game.events) >= GAME_LENGTH:
            played = session.log.games(1)
            turn = len(session.log.games(1000)) if played else rng.randrange(5)
            name = ORDER[(turn + sum(map(ord, table))) % len(ORDER)]
            players = list(GAMES[name][0])
            result = session.new_game(name, players, SHORT[name])
            assert result.ok, result.message
            continue
        if game.events and rng.random() < 0.05:
            if session.undo().ok:
                logged += 1
            continue
        _players, _options, propose = GAMES[game.name]
        for _ in range(300):
            if session.submit(_worded(propose(game, rng), game.title)).ok:
                logged += 1
                break
        else:  # nothing the generator offers is legal any more: the table starts another game
            session.abandon()
        if pace:
            time.sleep(pace)  # a table's rhythm of play, not a wait: faults fall mid-play
    return logged


def _worded(event: dict[str, Any], title: str) -> dict[str, Any]:
    """The generators' rulings say "bench"; a club's page would show the word list's words."""
    ruling = event.get("ruling")
    if isinstance(ruling, dict):
        verdict = "is in the word list" if ruling.get("legal") else "is not in the word list"
        event = {
            **event,
            "ruling": {**ruling, "reason": f"the word {verdict}", "rule": f"{title}, challenges"},
        }
    return event


def replay_log(store: Any, game_id: int) -> Any:
    """What the club must show for this game: the table's own log replayed through its engine."""
    return loads(store.export(game_id))


def settle(publisher: Any, timeout: float = 40.0) -> bool:
    """Wait until the publisher has connected, everything in the log is planned, and the broker
    has acknowledged it all (a kiosk started only to send again must first learn whether the
    broker kept its session)."""

    def settled() -> bool:
        publisher.wake()
        return (
            publisher.connections_handled > 0
            and publisher.outbox.plan() == 0
            and publisher.outbox.counts()["unacknowledged"] == 0
        )

    try:
        wait_for(settled, "the broker to acknowledge the whole log", timeout=timeout, every=0.05)
    except AssertionError:
        return False  # the table prints what is still unacknowledged, and the test says so
    return True


def stdin_open() -> bool:
    """False once our standard input is at its end: the test has called the evening over."""
    ready, _, _ = select.select([sys.stdin], [], [], 0)
    return not ready or os.read(sys.stdin.fileno(), 1) != b""


def main(argv: list[str]) -> int:
    from kiosk.club.publish.config import ClubConfig
    from kiosk.club.publish.outbox import Outbox
    from kiosk.club.publish.publisher import ClubLog, Publisher
    from kiosk.gamelog.store import GameLog

    db, club, table, port, seed, events, pace = argv
    store = GameLog(Path(db))
    config = ClubConfig(
        host="127.0.0.1", port=int(port), club=club, table=table, username=table, password=f"pw-{table}"
    )
    publisher = Publisher(config, Outbox(Path(db), club, table)).start()
    session = Session(ClubLog(store, publisher))
    session.resume()
    rng = random.Random(f"{seed}-{table}-{len(store.games(1000))}")
    print(json.dumps({"table": table, "started": True}), flush=True)
    done = play_events(session, rng, int(events), table, float(pace), more=stdin_open)
    settle(publisher)
    print(json.dumps({"table": table, "logged": done, **publisher.outbox.counts()}), flush=True)
    publisher.close()
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

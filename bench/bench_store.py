"""The game log's cost: how long one durable append takes, and a resume at start.

A durable append (WAL, ``synchronous=FULL``: an fsync per event) is what lets the power be
pulled at any moment; the kiosk waits for it before showing a move. The baseline, measured
in the same run on the same disk, is the same append with ``synchronous=OFF`` (no fsync:
what durability costs). Targets: an append well under 50 ms on a Pi's SD card (a tap must
feel instant), a resume of a long game (300 events) under 100 ms.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from kiosk.gamelog.store import GameLog

EVENTS = 200
ROUNDS = 5
HEADER = {"tablekeeper": "transcript", "version": 1, "game": "word-on-the-street",
          "players": ["Team A", "Team B"], "options": {}}
WORDS = ["PURPLE", "TRICK", "BLOCK", "STRONG", "CHARM", "FLIGHT", "SPRING", "GLOBE"]


def _appends(folder: Path, synchronous: str) -> list[float]:
    times = []
    with GameLog(folder / f"{synchronous}.sqlite3") as log:
        log._db.execute(f"PRAGMA synchronous = {synchronous}")
        gid = log.start_game(HEADER)
        for i in range(EVENTS):
            event = {"type": "word", "word": WORDS[i % len(WORDS)], "category": "bench"}
            t0 = time.perf_counter()
            log.append(gid, event)
            times.append(time.perf_counter() - t0)
    return times


def _resume(folder: Path) -> float:
    path = folder / "resume.sqlite3"
    with GameLog(path) as log:
        gid = log.start_game(HEADER)
        for i in range(300):
            word = {"type": "word", "word": WORDS[i % len(WORDS)]}
            log.append(gid, word if i % 3 else {"type": "no_word"})
    t0 = time.perf_counter()
    with GameLog(path) as log:
        found = log.game_in_progress()
        assert found is not None
        log.rebuild(found)
    return time.perf_counter() - t0


def main() -> None:
    with tempfile.TemporaryDirectory(dir=Path.home()) as tmp:  # a real disk, not a tmpfs
        folder = Path(tmp)
        full, off, resume = [], [], []
        for _ in range(ROUNDS):
            full.append(statistics.median(_appends(folder, "FULL")))
            off.append(statistics.median(_appends(folder, "OFF")))
            resume.append(_resume(folder))
            for p in folder.iterdir():
                p.unlink()
    f, o, r = statistics.median(full), statistics.median(off), statistics.median(resume)
    print(f"{'measure':<44}{'median':>12}")
    print(f"{'durable append (synchronous=FULL)':<44}{f * 1000:>10.2f} ms")
    print(f"{'baseline append (synchronous=OFF, no fsync)':<44}{o * 1000:>10.2f} ms")
    print(f"{'ratio durable / baseline':<44}{f / o:>11.1f}x")
    print(f"{'resume: open + rebuild a 300-event game':<44}{r * 1000:>10.2f} ms")
    print(f"({ROUNDS} rounds of {EVENTS} appends; medians of per-round medians)")


if __name__ == "__main__":
    main()

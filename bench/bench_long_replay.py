"""A 100,000-event replay of every game: time and peak memory.

Why it matters: the kiosk replays the whole event log on every boot and every undo, and
a long club session or a solitaire marathon can run to thousands of events. An engine
whose state grows with the square of the game (the WordSpiel spiral used to be copied
whole into every kept state: 16.5 s and 5.1 GB for 100,000 events) would take the kiosk
down. Target: under 5 s and 500 MB for each game.

Each transcript is generated once with a fixed seed through the engines' public API
(``bench_replay``'s proposers, with options that keep a game going), written to a file,
then replayed in a fresh Python process (``tablekeeper replay``'s own reader,
``games.transcript.replay_lines``) whose peak resident memory is read from the kernel.
The baseline, in the same run: a fresh process that only parses the transcript's JSON
(the memory and time any replay needs before a rule is checked).

Run: ``.venv/bin/python -m bench long_replay`` (about a minute per game on a Pi 4).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_replay import GAMES, SEED, apply_first_legal
from games.registry import new_game
from games.transcript import dumps

EVENTS = 100_000
TARGET_S = 5.0
TARGET_MB = 500.0
#: options that keep each random game going for 100,000 events
LONG_OPTIONS: dict[str, dict[str, Any]] = {"wordspiel": {"rounds": 99}}


def _long(name: str, event: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Make the moves that end a game rare, so that it lasts: a Tosswords word retires
    tiles, a WordSpiel word empties a hand (a card drawn onto the spiral instead: the
    spiral grows by draws, the case that used to be quadratic), an Option play."""
    if rng.random() < 0.9995:
        if name == "tosswords" and event.get("word"):
            return {**event, "word": None}
        if name == "wordspiel" and event.get("type") == "word":
            return {"type": "draw", "keep": False, "letter": rng.choice("AEIOURST")}
        if name == "upwords" and event.get("type") == "play":
            return {"type": "exchange"}
        if name == "option" and event.get("type") == "play" and game_started(event):
            return {"type": "exchange", "count": 1}
    return event


def game_started(event: dict[str, Any]) -> bool:
    return event.get("prisms", 0) < len(event.get("words", [{}])[0].get("letters", []))

def generate(name: str, events: int = EVENTS, seed: int = SEED) -> str:
    """``bench_replay.generate`` for long games: it counts accepted events itself, because
    ``Game.events`` hands out copies (fine for 200 events, quadratic for 100,000)."""
    players, options, propose = GAMES[name]
    game = new_game(name, players, {**options, **LONG_OPTIONS.get(name, {})})
    rng = random.Random(f"{seed}-{name}")
    accepted = 0
    while accepted < events and not game.is_over():
        if not apply_first_legal(game, lambda: _long(name, propose(game, rng), rng)):
            break  # nothing the proposer offers is legal any more
        accepted += 1
    return dumps(game)


_CHILD = """
import json, sys, time
from games.transcript import replay_lines, split_lines
start, cpu = time.perf_counter(), time.process_time()
lines = [x for x in split_lines(open(sys.argv[1], encoding="utf-8").read()) if x.strip()]
if sys.argv[2] == "replay":
    game = replay_lines(lines)
    count = game.event_count  # (game.events would copy all 100,000 events: not the replay's cost)
else:
    count = len([json.loads(x) for x in lines]) - 1
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
# VmHWM: this process's own peak (ru_maxrss would count the parent's pages from before exec)
peak = next(int(x.split()[1]) for x in open("/proc/self/status") if x.startswith("VmHWM"))
print(json.dumps({"events": count, "s": seconds, "cpu": cpu, "mb": peak / 1024}))
"""


def _run(path: Path, mode: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), mode], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def main() -> int:
    print(
        f"{'game':<20} {'events':>7} {'replay s':>9} {'cpu s':>6} {'peak MB':>8} "
        f"{'json-only s':>12} {'MB':>6}  target"
    )
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for name in GAMES:
            start = time.perf_counter()
            text = generate(name)
            made = time.perf_counter() - start
            path = Path(tmp) / f"{name}.jsonl"
            path.write_text(text, encoding="utf-8")
            replay = _run(path, "replay")
            baseline = _run(path, "json")
            ok = replay["cpu"] < TARGET_S and replay["mb"] < TARGET_MB
            failed |= not ok
            print(
                f"{name:<20} {replay['events']:>7,} {replay['s']:>9.2f} {replay['cpu']:>6.2f} "
                f"{replay['mb']:>8.0f} "
                f"{baseline['s']:>12.2f} {baseline['mb']:>6.0f}  "
                f"{'ok' if ok else 'OVER'} (< {TARGET_S:.0f} s, < {TARGET_MB:.0f} MB; "
                f"generated in {made:.0f} s)"
            )
    print(
        f"one run each, in a fresh process; the target is on CPU time (a shared machine's wall "
        f"clock also counts the others); seed {SEED}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

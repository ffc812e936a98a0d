"""Upwords on a busy board: replaying a long game, and turning a camera read into a play.

Why it matters: the kiosk replays the event log on every boot and every undo, and the
camera calls ``infer_play`` on every steady frame; both must be instant on a Pi. The
replay benchmark in ``bench_replay.py`` drives Upwords with random plays that mostly miss
the board; this one builds a real game: up to 200 accepted events (it ends a little sooner when a
player goes out with the bag empty), nearly all plays built on
the tiles already there (stacks up to 5) on the 10x10 board, with a fixed seed.

Figures (medians of repeated runs):
- replay of the 200-event transcript, against parsing its JSON alone (baseline);
- ``infer_play`` on the 10x10 board after each play, against the least any comparison must
  do: a Python loop comparing the two grids of top letters (baseline).

Run: ``python -m bench upwords``.
"""

from __future__ import annotations

import json
import random
from typing import Any

from bench.bench_replay import REPEATS, apply_first_legal, median_ms
from games.transcript import dumps, replay_lines
from games.upwords import Upwords
from games.upwords_board import Board
from games.upwords_read import infer_play

SEED = 20261121
EVENTS = 200
LETTERS = "AAEEEIIOOUBCDDGHLLMNNPRRSSTTWY"


def _propose(game: Upwords, rng: random.Random) -> dict[str, Any]:
    board = game.board
    if rng.random() < 0.04:
        return {
            "type": "challenge",
            "ruling": {"legal": rng.random() < 0.5, "reason": "bench", "rule": "bench"},
        }
    cells = [(v.row, v.col) for v in board] or sorted(board.centre())
    r0, c0 = rng.choice(cells)
    down = rng.random() < 0.5
    pos = r0 if down else c0
    lo, hi = max(0, pos - rng.randint(0, 3)), min(board.size - 1, pos + rng.randint(0, 3))
    tiles = []
    for k in range(lo, hi + 1):
        r, c = (k, c0) if down else (r0, k)
        top = board.top(r, c)
        if top is None or rng.random() < 0.5:
            tiles.append({"row": r, "col": c, "letter": rng.choice([ch for ch in LETTERS if ch != top])})
    return {"type": "play", "tiles": tiles}


def build_game() -> Upwords:
    """A game of up to 200 accepted events on the 10x10 board, from a fixed seed."""
    game = Upwords(["Ann", "Bob"], {"size": 10, "tiles": 400})
    rng = random.Random(SEED)
    while len(game.events) < EVENTS and not game.is_over():
        if not apply_first_legal(game, lambda: _propose(game, rng), tries=1000):
            break
    return game


def _compare_tops(a: Board, tops: tuple[tuple[str | None, ...], ...]) -> int:
    before = a.tops()
    return sum(1 for r, row in enumerate(tops) for c, x in enumerate(row) if x != before[r][c])


def main() -> None:
    game = build_game()
    text = dumps(game)
    lines = text.splitlines()
    plays = sum(1 for e in game.events if e["type"] == "play")
    tallest = max((v.height for v in game.board), default=0)
    replay_ms = median_ms(lambda: replay_lines(lines))
    json_ms = median_ms(lambda: [json.loads(x) for x in lines])
    print(
        f"game: {len(game.events)} events ({plays} plays), {game.board.tile_count()} tiles on the board, "
        f"tallest stack {tallest}"
    )
    print(f"{'what':<36} {'median':>10} {'baseline':>10} {'ratio':>7}")
    label = f"replay {len(game.events)} events"
    print(f"{label:<36} {replay_ms:>8.2f}ms {json_ms:>8.3f}ms {replay_ms / json_ms:>6.1f}x")

    # The camera read after each play, compared with the board before it.
    twin = Upwords(game.players, game.options)
    reads = []
    for event in game.events:
        before = twin.board
        twin.apply(event)
        if event["type"] == "play":
            reads.append((before, twin.board.tops(), twin.board.heights()))

    def infer_all() -> None:
        for before, tops, heights in reads:
            assert infer_play(before, tops, heights).ok

    def compare_all() -> None:
        for before, tops, _ in reads:
            _compare_tops(before, tops)

    infer_ms = median_ms(infer_all) / len(reads)
    compare_ms = median_ms(compare_all) / len(reads)
    print(
        f"{'infer_play, one 10x10 read':<36} {infer_ms * 1000:>8.1f}us {compare_ms * 1000:>8.1f}us "
        f"{infer_ms / compare_ms:>6.1f}x"
    )
    print(
        f"medians of {REPEATS} runs; seed {SEED}; baselines: json.loads of the transcript lines, "
        f"a bare grid comparison of top letters"
    )


if __name__ == "__main__":
    main()

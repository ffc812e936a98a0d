"""Property tests: random Upwords games never break an invariant.

Hypothesis plays random games: plays built around the tiles already on the board (new
tiles and stacked ones, sometimes illegal on purpose), passes, exchanges, challenges both
ways, and the end. Every refused event must leave the game exactly as it was; after every
accepted one the invariants below must hold. The score of each play is recounted by a
second, deliberately naive scorer written here from rule 6 (scan the whole board before and
after, find each line of two or more tiles that contains a tile that grew), and the camera
helper must recover each play's tiles from the board as seen from above.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import hypothesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import Step
from games.rulings import IllegalEvent
from games.transcript import dumps, loads
from games.upwords import Upwords
from games.upwords_board import LETTERS, Board
from games.upwords_read import infer_play

ALPHABET = sorted(LETTERS)


def naive_points(before: Board, after: Board, rack_size: int) -> int:
    """Rule 6 from scratch: every maximal line of 2+ tiles holding a grown cell scores."""
    n = after.size
    grown = {(r, c) for r in range(n) for c in range(n) if after.height(r, c) != before.height(r, c)}
    total = 0
    for down in (False, True):
        for fixed in range(n):
            line: list[tuple[int, int]] = []
            for k in range(n + 1):
                cell = (k, fixed) if down else (fixed, k)
                if k < n and after.height(*cell):
                    line.append(cell)
                    continue
                if len(line) >= 2 and grown & set(line):
                    heights = [after.height(*c) for c in line]
                    if max(heights) == 1:
                        total += 2 * len(line) + (2 if any(after.top(*c) == "Qu" for c in line) else 0)
                    else:
                        total += sum(heights)
                line = []
    return total + (20 if len(grown) == rack_size else 0)


def check_invariants(game: Upwords) -> None:
    board = game.board
    for view in board:
        assert view.height <= game.options["max_height"]
        assert all(a != b for a, b in zip(view.stack, view.stack[1:], strict=False)), view
    assert Board.from_text(board.text()) == board
    assert board.tile_count() + sum(game.racks.values()) + game.bag == game.total_tiles
    assert all(0 <= n <= game.options["rack"] for n in game.racks.values())
    sheet: Counter[str] = Counter({p: 0 for p in game.players})
    for turn in game.turns:
        sheet[turn.player] += turn.points
    assert dict(sheet) == game.scores()
    assert (game.to_move is None) == game.is_over()
    twin = loads(dumps(game))
    assert twin.state == game.state
    if game.events:
        again = game.copy()
        again.apply(again.undo())
        assert again.state == game.state


def random_play(data: st.DataObject, board: Board) -> dict[str, Any]:
    n = board.size
    occupied = [(v.row, v.col) for v in board]
    down = data.draw(st.booleans())
    if not occupied:
        anchor = data.draw(st.sampled_from(sorted(board.centre())))
    else:
        anchor = data.draw(st.sampled_from(occupied))
    pos = anchor[0] if down else anchor[1]
    start = max(0, pos - data.draw(st.integers(0, 3)))
    end = min(n - 1, pos + data.draw(st.integers(0, 3)))
    tiles = []
    for k in range(start, end + 1):
        r, c = (k, anchor[1]) if down else (anchor[0], k)
        top = board.top(r, c)
        if top is not None and data.draw(st.integers(0, 2)) != 0:
            continue  # leave most old tiles uncovered
        choices = [ch for ch in ALPHABET if ch != top] if data.draw(st.integers(0, 9)) else ALPHABET
        tiles.append({"row": r, "col": c, "letter": data.draw(st.sampled_from(choices))})
    if not tiles or data.draw(st.integers(0, 19)) == 0:  # now and then a tile out of line
        tiles.append(
            {
                "row": data.draw(st.integers(0, n - 1)),
                "col": data.draw(st.integers(0, n - 1)),
                "letter": data.draw(st.sampled_from(ALPHABET)),
            }
        )
    return {"type": "play", "tiles": tiles}


def random_event(data: st.DataObject, game: Upwords) -> dict[str, Any]:
    kind = data.draw(st.sampled_from(["play"] * 14 + ["pass", "exchange", "challenge", "challenge", "end"]))
    if kind == "play":
        return random_play(data, game.board)
    if kind == "challenge":
        legal = data.draw(st.booleans())
        return {"type": "challenge", "ruling": {"legal": legal, "reason": "random", "rule": "test"}}
    if kind == "exchange" and game.solo:
        return {"type": "exchange", "count": data.draw(st.integers(1, 3))}
    return {"type": kind}


def apply_or_refuse(game: Upwords, event: dict[str, Any]) -> Step | None:
    """Apply ``event``; when the rules refuse it, check that nothing changed and return None."""
    state, events, turns = game.state, game.events, game.turns
    try:
        return game.apply(event)
    except IllegalEvent as exc:
        assert exc.reason and exc.rule
        assert game.state is state and game.events == events and game.turns == turns
        return None


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    players=st.integers(1, 4),
    size=st.sampled_from([8, 10]),
    tiles=st.sampled_from([None, 40]),
)
def test_random_games_keep_every_invariant(
    data: st.DataObject, players: int, size: int, tiles: int | None
) -> None:
    game = Upwords([f"P{i}" for i in range(players)], {"size": size, "tiles": tiles})
    plays = 0
    for _ in range(50):
        event = random_event(data, game)
        before = game.board
        step = apply_or_refuse(game, event)
        if step is None:
            continue
        if event["type"] == "play":
            plays += 1
            last = game.last_play
            assert last is not None
            assert last.points == naive_points(before, game.board, game.options["rack"])
            # The camera helper recovers exactly the tiles played from a top-down read.
            reading = infer_play(before, game.board.tops(), game.board.heights())
            assert reading.ok and set(reading.tiles) == set(last.tiles)
            assert step.turns[0].points == last.points and step.turns[0].player == game.players[last.player]
        elif event["type"] == "challenge" and not event["ruling"]["legal"]:
            hypothesis.event("an illegal play came off")
        check_invariants(game)
        if game.is_over():
            hypothesis.event(f"game over: {game.outcome().termination}")  # type: ignore[union-attr]
            assert apply_or_refuse(game, {"type": "pass"}) is None
            break
    hypothesis.event(f"plays accepted: {min(plays, 10) // 5 * 5}+")
    hypothesis.event(f"tallest stack: {max((v.height for v in game.board), default=0)}")

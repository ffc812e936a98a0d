"""How fast a transcript replays: a 200-turn game of each engine, parsed and applied event by event.

Why it matters: the kiosk rebuilds the game from its event log on every boot and on every
undo (undo = drop the last event and replay), so a replay must feel instant on a Pi.
Target: under 50 ms for a 200-turn game.

Each game's 200 events are generated once with a fixed seed, through the engines' public
API only (an event joins the transcript only if the engine accepts it). The baseline,
timed in the same run on the same text, is parsing the transcript's JSON alone; the ratio
says what the rules cost on top of reading the file. Upwords and Option are included when
their engines are installed.

Run: ``python -m bench replay``.
"""

from __future__ import annotations

import json
import random
import statistics
import string
import time
from collections.abc import Callable
from typing import Any

from games.base import Game
from games.registry import new_game
from games.rulings import IllegalEvent
from games.transcript import dumps, replay_lines, split_lines

TURNS = 200
SEED = 20261121
REPEATS = 25
TARGET_MS = 50.0

Proposer = Callable[[Game[Any], random.Random], dict[str, Any]]


def _ruling(rng: random.Random) -> dict[str, Any]:
    legal = rng.random() < 0.5
    return {"legal": legal, "reason": "bench", "rule": "bench", "source": "dictionary"}


def _wots(game: Game[Any], rng: random.Random) -> dict[str, Any]:
    r = rng.random()
    if r < 0.08:
        return {"type": "no_word"}
    if r < 0.16:
        kind = rng.choice(["spelling", "compound", "selection"])
        if kind == "selection":
            return {
                "type": "challenge",
                "kind": kind,
                "votes": {"accept": rng.randint(0, 3), "reject": rng.randint(0, 3)},
            }
        return {"type": "challenge", "kind": kind, "ruling": _ruling(rng), "first_error": rng.randint(0, 3)}
    word = "".join(rng.choice("BCDFGHKLMNPRSTVWYAEIOU") for _ in range(rng.randint(3, 10)))
    return {"type": "word", "word": word, "category": "bench"}


def _tosswords(game: Game[Any], rng: random.Random) -> dict[str, Any]:
    pile = game.unretired()[game.to_move]  # type: ignore[attr-defined]
    r = rng.random()
    if r < 0.1:
        return {"type": "challenge", "ruling": _ruling(rng)}
    if r < 0.2:
        return {"type": "timeout"}
    n = len(pile) if len(pile) <= 3 else rng.randint(2, min(4, len(pile)))
    tiles = rng.sample(pile, n)
    die = rng.randint(0, 5)
    word = None
    if rng.random() < 0.06:  # a word of the right shape (the engine never consults a dictionary)
        extras = "".join(t for t in tiles if t not in tiles[:2])
        word = (tiles[0] + "E" * die + tiles[1] + extras + "S")[:12]
    return {"type": "move", "tiles": tiles, "keys": tiles[:2], "die": die, "word": word}


def _wordspiel(game: Game[Any], rng: random.Random) -> dict[str, Any]:
    if game.phase == "deal":  # type: ignore[attr-defined]
        return {"type": "start_round", "flipped": rng.choice(string.ascii_uppercase)}
    r = rng.random()
    if r < 0.15:
        return {"type": "draw", "keep": rng.random() < 0.5, "letter": rng.choice("AEIOURST")}
    if r < 0.2:
        return {"type": "exchange", "player": rng.choice(game.players)}
    if r < 0.25:
        return {"type": "challenge", "ruling": _ruling(rng)}
    tail = "".join(rng.choice("AEIOURSTLN") for _ in range(rng.randint(1, 4)))
    return {"type": "word", "word": game.state.spiral.tail(1) + tail}  # type: ignore[attr-defined]


def _upwords(game: Game[Any], rng: random.Random) -> dict[str, Any]:
    size = game.board.size  # type: ignore[attr-defined]
    r = rng.random()
    if r < 0.8:  # exchanges and challenges keep tiles in play, so the game lasts 200 turns
        return {"type": "exchange"}
    if r < 0.88:
        return {"type": "challenge", "ruling": _ruling(rng)}
    n = rng.randint(2, 4)
    across = rng.random() < 0.5
    row, col = rng.randrange(size - (0 if across else n)), rng.randrange(size - (n if across else 0))
    letters = "".join(rng.choice("ABCDEFGHILMNOPRSTUW") for _ in range(n))
    tiles = [
        {"row": row + (0 if across else i), "col": col + (i if across else 0), "letter": ch}
        for i, ch in enumerate(letters)
    ]
    return {"type": "play", "tiles": tiles}


def _option(game: Game[Any], rng: random.Random) -> dict[str, Any]:
    r = rng.random()
    if r < 0.15:
        return {"type": "exchange", "count": 1}
    if r < 0.2:
        return {"type": "challenge", "by": rng.choice(game.players), "ruling": _ruling(rng)}
    length = rng.randint(4, 7)
    letters = [
        {
            "letter": rng.choice(string.ascii_uppercase),
            "points": rng.randint(1, 10),
            "color": rng.choice(["dark", "light"]),
        }
        for _ in range(length)
    ]
    word = "".join(x["letter"] for x in letters)
    prisms = length if not game.state.started else rng.randint(1, min(3, length))  # type: ignore[attr-defined]
    return {"type": "play", "prisms": prisms, "words": [{"word": word, "letters": letters}]}


#: game -> (players, options that keep a random game going for 200 turns, proposer)
GAMES: dict[str, tuple[list[str], dict[str, Any], Proposer]] = {
    "word-on-the-street": (["Team A", "Team B"], {"tiles_to_win": 17}, _wots),
    "tosswords": (["Ann", "Bob"], {}, _tosswords),
    "wordspiel": (["Ann", "Bob", "Cy"], {"rounds": 99}, _wordspiel),
    "upwords": (["Ann", "Bob"], {"size": 10}, _upwords),
    "option": (["Ann", "Bob"], {"prisms": 500}, _option),
}


def generate(name: str, turns: int = TURNS, seed: int = SEED) -> str:
    """A transcript of up to ``turns`` accepted events (fewer only if the game ends first)."""
    players, options, propose = GAMES[name]
    game = new_game(name, players, options)
    rng = random.Random(f"{seed}-{name}")
    while len(game.events) < turns and not game.is_over():
        if not apply_first_legal(game, lambda: propose(game, rng)):
            break  # nothing the proposer offers is legal any more
    return dumps(game)


def apply_first_legal(game: Game[Any], propose: Callable[[], dict[str, Any]], tries: int = 500) -> bool:
    """Apply the first event ``propose()`` offers that the engine accepts; False if none of
    ``tries`` was: random proposals are mostly illegal, and only legal ones make a transcript."""
    for _ in range(tries):
        try:
            game.apply(propose())
            return True
        except IllegalEvent:
            continue
    return False


def median_ms(fn: Callable[[], object], repeats: int = REPEATS) -> float:
    """The median of ``repeats`` timed calls (ms), after one to warm up (imports, caches)."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    print(f"{'game':<20} {'events':>6} {'replay ms':>10} {'json ms':>8} {'ratio':>7} {'ms/200':>7}  target")
    for name in GAMES:
        try:
            text = generate(name)
        except (KeyError, ImportError) as exc:
            print(f"{name:<20} skipped: {exc}")
            continue
        lines = [x for x in split_lines(text) if x.strip()]
        events = len(lines) - 1  # every line but the header
        replayed = replay_lines(lines)
        assert len(replayed.events) == events, "the generated transcript must replay in full"
        replay_ms = median_ms(lambda lines=lines: replay_lines(lines))
        json_ms = median_ms(lambda lines=lines: [json.loads(x) for x in lines])
        per_200 = replay_ms * TURNS / max(events, 1)
        verdict = "ok" if per_200 < TARGET_MS else "SLOW"
        print(
            f"{name:<20} {events:>6} {replay_ms:>10.2f} {json_ms:>8.3f} {replay_ms / json_ms:>6.0f}x "
            f"{per_200:>7.2f}  {verdict} (< {TARGET_MS:.0f} ms)"
        )
    print(f"medians of {REPEATS} runs; baseline = json.loads of the same lines; seed {SEED}")


if __name__ == "__main__":
    main()

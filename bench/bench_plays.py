"""Does the camera offer the play? Upwords games under one fixed camera, read as the kiosk reads.

    python -m bench plays                   # 8 games of 14 plays per family and board
    python -m bench plays --quick           # 2 games
    python -m bench plays --seeds 800000    # games nobody has looked at
    python -m bench plays --light-change    # on skin-toned tables, the light changed since calibration

Randomised Upwords games (:func:`vision.synthetic.scenes.grid_scene` with ``sequence``: 14
plays from the empty board, 1-5 tiles a play, stacks up to 5) on 8x8 and 10x10 boards, each
under one camera that stays put while the room's light changes from picture to picture (the
renderer's per-picture gradient, brightness, soft shadows and colour cast), no hands. Each game
is calibrated as the docs say: the empty board, then the letters (and the set's thickness,
:mod:`vision.set_geometry`) taught from a photo of the tiles laid out.

After every play the picture is read the way the kiosk reads it: with the game's board before
the play as history (the players confirmed it), and the play proposed by
:func:`vision.upwords_reader.play_from_reading` only when no cell is in doubt, or the rules leave
each doubtful cell as it was (off the line of the tiles surely placed). Counted per play:
offered exactly (the tiles placed), **offered wrong** (the one failure not allowed), or not
offered, and why (a hand seen where there is none, or cells in doubt). Baselines in the same run,
same pictures: the kiosk's reading with no doubt settled by the play's rules; then, so too, the
kiosk's reader without the kept-stack decision (:mod:`vision.kept_decision`: a
stack the history has settled by the reader's own confidence), without the cell decision either
(:mod:`vision.cell_decision`: a cell the history has empty settled by its look alone), and each
picture read alone, without history.
"""

from __future__ import annotations

import sys
from collections import Counter

from bench import options
from games.upwords_board import Board, Placement
from kiosk.camera.view import history
from vision.reading import BoardReading
from vision.synthetic.render import Rendered
from vision.synthetic.scenes import Scene, grid_scene
from vision.synthetic.train import taught_grid_reader
from vision.upwords_reader import play_from_reading

PLAYS = 14
KINDS = ("upwords8", "upwords10")
#: the kiosk's way of reading a game and its baselines, as the bench prints them
WAYS = ("with history (kiosk)", "no doubt settled by the play", "no kept decision", "history, look only",
        "alone (baseline)")


def _boards(s: Scene) -> list[tuple[Board, set[Placement]]]:
    """The board before each play and the tiles that play placed, from the scene's truth."""
    out, board = [], Board.empty(s.rows)
    for frame in s.frames:
        placed = {Placement(r, c, frame.letters[r][c]) for r in range(s.rows) for c in range(s.cols)
                  if frame.heights[r][c] > board.height(r, c)}
        out.append((board, placed))
        board = board.place(placed)
    return out


def wrong_and_sure(reading: BoardReading, frame: Rendered) -> int:
    """Cells the reading is sure of whose emptiness, top letter or height the picture's truth
    contradicts: the failure behind a wrong play, counted even where another cell's doubt held
    the play back."""
    wrong = 0
    for c in reading.cells:
        height, letter = int(frame.heights[c.row][c.col]), frame.letters[c.row][c.col]
        wrong += not c.uncertain and (c.height != height or (bool(height) and c.letter != letter))
    return wrong


def _judge(tally: Counter, before: Board, placed: set[Placement], reading: BoardReading,
           frame: Rendered | None = None, settle: bool = True) -> None:
    """Count one play's outcome in ``tally``; with the picture's truth ``frame``, its cells wrong
    and sure too; ``settle``: as :func:`vision.upwords_reader.play_from_reading`'s."""
    if frame is not None:
        tally["sure_wrong_cells"] += wrong_and_sure(reading, frame)
    proposal = play_from_reading(before, reading, settle=settle)
    if proposal.ok:
        tally["exact" if set(proposal.tiles) == placed else "WRONG"] += 1
    elif any("hand" in f for c in reading.cells for f in c.flags):
        tally["hand"] += 1
    else:
        tally["doubt"] += 1


def run(kind: str, family: str, seeds: range, light_change: bool = False
        ) -> tuple[dict[str, Counter], list[str]]:
    """The kiosk's tally and its baselines' (by name), and the kiosk's plays a game: the same
    reading with no doubt settled by the play's rules; then, so too, the reader without the
    kept-stack decision, without the cell decision too (occupancy alone settles a cell the history
    has empty), and each picture read alone."""
    ways: dict[str, Counter] = {name: Counter() for name in WAYS}
    per_game = []
    for seed in seeds:
        s = grid_scene(seed, family, kind, n_frames=PLAYS, hand_chance=0.0, sequence=True,
                       light_change=light_change)
        reader = taught_grid_reader(s)
        cells, kept = reader.cell_decision, reader.kept_decision
        game = Counter()
        for frame, (before, placed) in zip(s.frames, _boards(s), strict=True):
            reading = reader.read(frame.image, previous=history(before))
            _judge(game, before, placed, reading, frame)
            _judge(ways[WAYS[1]], before, placed, reading, frame, settle=False)
            reader.kept_decision = None
            _judge(ways[WAYS[2]], before, placed, reader.read(frame.image, previous=history(before)), frame,
                   settle=False)
            reader.cell_decision = None
            _judge(ways[WAYS[3]], before, placed, reader.read(frame.image, previous=history(before)), frame,
                   settle=False)
            _judge(ways[WAYS[4]], before, placed, reader.read(frame.image), frame, settle=False)
            reader.cell_decision, reader.kept_decision = cells, kept
        ways[WAYS[0]].update(game)
        per_game.append(f"{game['exact']}/{PLAYS}")
    return ways, per_game


def outcome_line(name: str, t: Counter, width: int = 22, what: str = "cells") -> str:
    """One way's tally (offered exactly, WRONG, not offered and why) on one line; ``what``: the
    things a doubt is about."""
    n = max(sum(t[k] for k in ("exact", "WRONG", "hand", "doubt")), 1)
    return (f"  {name:<{width}} offered exactly {t['exact']:>3}/{n} ({t['exact'] / n:5.1%})  "
            f"WRONG {t['WRONG']:>2}  not offered: a hand seen {t['hand']:>3}, "
            f"{what} in doubt {t['doubt']:>3}" + (f"  {what} wrong and sure {t['sure_wrong_cells']}"
                                                  if "sure_wrong_cells" in t else ""))


def main() -> None:
    args = options(seeds=0, seeds_help="first game seed (held-out runs: 800000 and up)")
    light_change = "--light-change" in sys.argv
    games = 2 if args.quick else 8
    for family in ("train", "held_out"):
        for kind in KINDS:
            seeds = range(args.seeds, args.seeds + games)
            ways, per_game = run(kind, family, seeds, light_change)
            print(f"\n{kind}, {family} family, seeds {seeds.start}-{seeds.stop - 1} "
                  f"({games} games of {PLAYS} plays{', light changed' if light_change else ''})")
            for name, tally in ways.items():
                games_line = f"   per game: {' '.join(per_game)}" if name == WAYS[0] else ""
                print(outcome_line(name, tally) + games_line)


if __name__ == "__main__":
    main()

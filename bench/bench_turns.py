"""Does the camera see a Word on the Street turn? Streets under one fixed camera, read as the kiosk reads.

    python -m bench turns                   # 6 games of 14 turns per family
    python -m bench turns --quick           # 2 games
    python -m bench turns --seeds 900000    # games nobody has looked at

Randomised Word on the Street games (:func:`vision.synthetic.scenes.street_scene` with
``sequence``: from the start position the teams take turns, each a word whose tiles move a
space toward the team, those pulled off the street captured for good; no hands), 14 turns under
one camera, each game calibrated as the docs say (the start position, its letters taught from
it). After every turn the kiosk reads the street and compares it with where the game had the
tiles and whose turn it was (:func:`kiosk.camera.view.street_by_rules`: a captured tile never
comes back, so the camera's doubt about its column is settled; a tile moved away from the team
on the street, or pulled off from anywhere but its last space, is asked); the turn's
moves are what :func:`games.wots_moves.seen_moves` makes of the two. Counted per turn: offered exactly (the
moves right, no tile in doubt), **offered wrong** (a move wrong on a tile not in doubt: the one
failure not allowed), not offered (a hand seen where there is none, or tiles in doubt). The kiosk
reads each picture with the game's street before the turn (:mod:`vision.median_kept` may keep a
tile the game had on the median). Baselines in the same run, same pictures, each read without the
game's street: the kiosk's rules and dictionary; the rules without the dictionary (it settles
doubts the one way a word makes the turn, and believes unlikely moves a word makes); each read
alone, without the rules.

Two lights, same games, same tiles and camera: the light as the renderer varies it between
pictures, and on skin-toned tables with the light changed since calibration (``light_change``:
brightness x0.6-1.6, white balance +-25 %, soft shadows, glare). Two kinds of turn on the same
streets, cameras and lights: real words (SCOWL's commonest, :func:`game_words`: what teams
say; one in eighteen has a letter thrice, which pulls a median tile off from afar) and 3-7
letters drawn at random (a harder test: repeated letters, so captures from afar, far more often).
The kiosk's rules consult its own dictionary (:func:`kiosk_dictionary`), as at the table.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator

from bench import options
from bench.bench_hands import _street_reader
from bench.bench_plays import outcome_line
from games.wots_moves import seen_moves
from kiosk.camera.view import street_by_rules
from vision.reading import StreetReading
from vision.synthetic.render import Rendered
from vision.synthetic.scenes import Scene, game_words, street_scene
from vision.synthetic.textures import STREET_LETTERS

TURNS = 14
#: the kiosk, then the baselines on the same pictures, each read without the game's street
WAYS = ("with the game's street (kiosk)", "picture read without it", "  and the rules without the dictionary",
        "  read alone (baseline)")
LIGHTS = {"light as the renderer varies it": False, "light changed, skin-toned table": True}
def kiosk_dictionary() -> list[str]:
    """The words the kiosk's rules consult (SCOWL at the kiosk's default size, far more words
    than teams say): the larger the list, the likelier a misread's moves make some word."""
    from games.lexicon import Lexicon
    from games.wots_moves import dictionary_words

    return list(dictionary_words(Lexicon.load()))


def judge(tally: Counter, before: dict[str, int], reading: StreetReading, after: dict[str, int], team: int,
          history: bool = True, words: list[str] | None = None) -> None:
    """One turn of ``team``: offered exactly, WRONG, or not offered (a hand; doubt). ``history``:
    with what the rules settle from the game's street before the turn (the kiosk), else the read
    alone."""
    if history:
        seen, doubted = street_by_rules(before, reading, team, words)
    else:
        seen, doubted = reading.positions, frozenset(c.letter for c in reading.columns if c.uncertain)
    moves, truth = seen_moves(before, seen, team), seen_moves(before, after)
    differ = {letter for letter in set(moves) | set(truth) if moves.get(letter) != truth.get(letter)}
    if differ - doubted:
        tally["WRONG"] += 1
    elif not doubted:
        tally["exact"] += 1
    elif any("hand" in f for c in reading.columns if c.letter in doubted for f in c.flags):
        tally["hand"] += 1
    else:
        tally["doubt"] += 1


def turns(s: Scene) -> Iterator[tuple[dict[str, int], Rendered, dict[str, int], int]]:
    """Each turn of a street game ``s``: the street before it, its picture, the street after it
    and the team on the street (the first team starts)."""
    before = dict.fromkeys(STREET_LETTERS, 0)
    for turn, frame in enumerate(s.frames):
        after = {letter: int(at) for letter, at in frame.positions.items() if at is not None}
        yield before, frame, after, turn % 2
        before = after


def run(family: str, seeds: range, light_change: bool, words: list[str] | None,
        dictionary: list[str] | None = None) -> tuple[dict[str, Counter], list[str]]:
    """Each way's tallies (:data:`WAYS`), and the kiosk's per game. ``words``: the turns' words
    (None: random letters); ``dictionary``: the kiosk's."""
    tallies, per_game = {way: Counter() for way in WAYS}, []
    for seed in seeds:
        s = street_scene(seed, family, n_frames=TURNS, hand_chance=0.0, light_change=light_change,
                         sequence=True, words=words)
        reader = _street_reader(s, True)
        game = Counter()
        for before, frame, after, team in turns(s):
            reading = reader.read(frame.image, previous=StreetReading.from_positions(before))
            without = reader.read(frame.image)
            judge(game, before, reading, after, team, words=dictionary)
            judge(tallies[WAYS[1]], before, without, after, team, words=dictionary)
            judge(tallies[WAYS[2]], before, without, after, team)
            judge(tallies[WAYS[3]], before, without, after, team, history=False)
        tallies[WAYS[0]].update(game)
        per_game.append(f"{game['exact']}/{TURNS}")
    return tallies, per_game


def main() -> None:
    args = options(seeds=0, seeds_help="first game seed (held-out runs: 900000 and up)")
    games = 2 if args.quick else 6
    dictionary = kiosk_dictionary()
    plays = {"words": game_words(), "random letters": None}
    for family in ("train", "held_out"):
        seeds = range(args.seeds, args.seeds + games)
        for name, light_change in LIGHTS.items():
            for play, words in plays.items():
                start = time.perf_counter()
                tallies, per_game = run(family, seeds, light_change, words, dictionary)
                took = time.perf_counter() - start
                print(f"\nWord on the Street, {family} family, {name}, {play}, seeds {seeds.start}-"
                      f"{seeds.stop - 1} ({games} games of {TURNS} turns; {took:.0f} s)")
                for way, tally in tallies.items():
                    print(outcome_line(way, tally, 40, "columns")
                          + (f"  per game: {' '.join(per_game)}" if way == WAYS[0] else ""))


if __name__ == "__main__":
    main()

"""Does the kiosk see a Word on the Street turn from its camera's stream? Filmed streets, as the kiosk reads.

    python -m bench street_stream                   # 4 games per family
    python -m bench street_stream --quick           # 1 game
    python -m bench street_stream --seeds 2030000   # games nobody has looked at
    python -m bench street_stream --light-change    # skin-toned tables, the light changed since calibration

Randomised Word on the Street games of 14 turns (real words, :func:`vision.synthetic.scenes.game_words`)
under one fixed camera, filmed at 10 frames a second as ``bench stream`` films Upwords
(:mod:`vision.synthetic.stream`: for every turn a hand comes in from beyond the picture's edge to a
tile on the street and leaves; the light changes with it, at once after it, or over half a
second), each calibrated as the docs say (the start position, its letters taught from it).

Every frame goes through the kiosk's own path (:class:`vision.stability.BoardWatcher` with the
calibration's hand check, the stillness decisions fitted on filmed *Upwords* games, and
:func:`kiosk.camera.live.street_read`), the game's street before the turn as history; the first
street it reports after a turn is judged as ``bench turns`` judges it (the kiosk's rules and
dictionary): offered exactly, **offered wrong**, or not offered; a turn that moves no tile (its
letters all off the street) is judged on the street the kiosk read steady after it. Per frame: false
alarms and hands missed, as ``bench stream`` counts them. Baselines in the same run, same frames, as
there: players who answer the kiosk's question, the hand check on every frame alone, the turn's last
frame alone.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from bench import options
from bench.bench_hands import _street_reader
from bench.bench_stream import Players, _play, _watcher, _ways, report
from bench.bench_turns import TURNS, judge, kiosk_dictionary, turns
from vision.reading import StreetReading
from vision.stability import Reading
from vision.synthetic.scenes import game_words, street_scene
from vision.synthetic.stream import film


def run(family: str, seeds: range, light_change: bool, dictionary: list[str]
        ) -> dict[str, tuple[Counter, Counter]]:
    out, words = _ways(), game_words()
    for seed in seeds:
        s = street_scene(seed, family, n_frames=TURNS, hand_chance=0.0, sequence=True,
                         light_change=light_change, clean_frames=True, words=words)
        reader = _street_reader(s, True)
        watcher, per_frame = _watcher(reader), _watcher(reader, stillness=False)
        answered, players = _watcher(reader), Players()
        for (street, _shot, after, team), play in zip(turns(s), film(s, seed), strict=True):
            before = StreetReading.from_positions(street)

            def judged(tally: Counter, reading: Reading, street=street, after=after, team=team) -> None:
                assert isinstance(reading, StreetReading)
                judge(tally, street, reading, after, team, words=dictionary)

            _play(*out["stream (kiosk)"], watcher, before, judged, play.frames, None, True)
            _play(*out["players answer the kiosk"], answered, before, judged, play.frames, players, True)
            _play(*out["each frame's hand check"], per_frame, before, judged, play.frames, None, True)
            judged(out["last frame alone"][0], reader.read(play.frames[-1].image, previous=before))
    return out


def main() -> None:
    args = options(seeds=0, seeds_help="first game seed (held-out runs: 2030000 and up)")
    light_change = "--light-change" in sys.argv
    games = 1 if args.quick else 4
    dictionary = kiosk_dictionary()
    for family in ("train", "held_out"):
        seeds = range(args.seeds, args.seeds + games)
        start = time.perf_counter()
        out = run(family, seeds, light_change, dictionary)
        report(f"Word on the Street, {family} family", seeds, f"{games} games of {TURNS} turns", light_change,
               start, out)


if __name__ == "__main__":
    main()

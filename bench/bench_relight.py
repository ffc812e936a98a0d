"""Does steering the held camera controls win back the plays a lasting change of light costs?

    python -m bench relight                  # 4 games per family and board
    python -m bench relight --quick          # 1 game
    python -m bench relight --seeds 900000   # games nobody has looked at

Randomised Upwords games of 14 plays (8x8 and 10x10) and Word on the Street games of 14 turns
on skin-toned tables, calibrated as the docs say, then the room's light changes once and stays
(one draw of the renderer's changes: brightness x0.6-1.6, white balance +-25 %, sometimes a soft
shadow or a lamp's glare). A Pi camera on held controls
(:class:`vision.synthetic.held_camera.HeldCamera`: linear sensor, colour gains, a gamma drawn
from 1.6-2.8, controls applied two frames late) films each play's board. Three ways, same
boards, same lights, read as the kiosk reads (the board before the play as history, the play
offered only when nothing is in doubt, judged as :mod:`bench.bench_plays` and
:mod:`bench.bench_turns` judge):

- the light as at calibration (what the reader does when nothing changed),
- changed, the camera held at calibration's values (the baseline: the kiosk without steering),
- changed, after :class:`vision.hold_keeper.HoldKeeper` steered the held values on the empty
  board's surround (steps taken; the surround's departure from calibration before and after).
"""

from __future__ import annotations

import statistics
import time
from collections import Counter

import numpy as np

from bench import options
from bench.bench_hands import _street_reader
from bench.bench_plays import KINDS, PLAYS, _boards, _judge, outcome_line
from bench.bench_turns import judge, turns
from kiosk.camera.view import history
from vision.arms import surround_light
from vision.hold_keeper import HoldKeeper, KeeperPolicy, departure
from vision.reading import StreetReading
from vision.street import StreetReader
from vision.synthetic.held_camera import HeldCamera
from vision.synthetic.scenes import Scene, grid_scene, street_scene
from vision.synthetic.train import taught_grid_reader
from vision.upwords_reader import UpwordsReader

WAYS = ("light as at calibration", "changed, held (baseline)", "changed, steered")
#: The most frames steering may take (it needs settle_frames + 1 a step).
MOST_FRAMES = 60
#: The cameras' tone curves, drawn per game (the steering starts from 2.2's).
GAMMAS = (1.6, 2.8)
#: Steps taken, the surround's departure before and after, settled.
Steering = tuple[int, float, float, bool]


def _steer(camera: HeldCamera, reader: UpwordsReader | StreetReader) -> Steering:
    """Steer ``camera`` at once (no waiting for the change to last): steps, the surround's
    departure before and after (the larger of overall and colour, log), settled or not."""
    scene = reader.appearance.scene if reader.appearance is not None else None
    assert scene is not None
    keeper = HoldKeeper(camera.hold(), KeeperPolicy(lasting=0.0, look_every=0.0))

    def change() -> np.ndarray | None:
        light = surround_light(camera.read(), reader.corners, reader.rows, reader.cols, scene)
        return None if light is None else light.gains

    def size(c: np.ndarray | None) -> float:
        return float("nan") if c is None else max(abs(departure(c)[0]), departure(c)[1])

    first = change()
    asked, steps, now = keeper.look(first, 0.0), 0, 0.0
    for _ in range(MOST_FRAMES):
        if asked is not None:
            camera.apply_hold(asked.hold)
            steps += not asked.final
            if asked.final:
                break
        now += 0.1
        asked = keeper.look(change(), now)
    for _ in range(3):  # the last values in force
        camera.read()
    return steps, size(first), size(change()), bool(asked and asked.final and asked.settled)


def run(kind: str, family: str, seeds: range) -> tuple[dict[str, Counter], list[Steering]]:
    out: dict[str, Counter] = {way: Counter() for way in WAYS}
    steering = []
    for seed in seeds:
        street = kind == "street"
        drawn = {"n_frames": PLAYS, "hand_chance": 0.0, "sequence": True, "light_change": True,
                 "clean_frames": True}
        s: Scene = street_scene(seed, family, **drawn) if street else grid_scene(seed, family, kind, **drawn)
        assert s.clean_start is not None and s.calibration_effects is not None
        reader = _street_reader(s, True) if street else taught_grid_reader(s)
        lasting = s.frame_effects[0]
        gamma = float(np.random.default_rng([seed, 0x6A]).uniform(*GAMMAS))
        calm, held, steered = (HeldCamera(s.clean_start, light, seed, gamma=gamma)
                               for light in (s.calibration_effects, lasting, lasting))
        steering.append(_steer(steered, reader))
        for way, camera in zip(WAYS, (calm, held, steered), strict=True):
            if street:
                _turns(out[way], s, reader, camera)
            else:
                for (before, placed), board in zip(_boards(s), s.frames, strict=True):
                    camera.board = board
                    _judge(out[way], before, placed, reader.read(camera.read(), previous=history(before)))
    return out, steering


def _turns(tally: Counter, s: Scene, reader: StreetReader, camera: HeldCamera) -> None:
    """A street's turns filmed by ``camera``, judged as :mod:`bench.bench_turns` judges them."""
    for before, board, after, team in turns(s):
        camera.board = board
        reading = reader.read(camera.read(), previous=StreetReading.from_positions(before))
        judge(tally, before, reading, after, team)


def main() -> None:
    args = options(seeds=0, seeds_help="first game seed (held-out runs: 900000 and up)")
    games = 1 if args.quick else 4
    for family in ("train", "held_out"):
        for kind in (*KINDS, "street"):
            seeds = range(args.seeds, args.seeds + games)
            start = time.perf_counter()
            out, steering = run(kind, family, seeds)
            print(f"\n{kind}, {family} family, seeds {seeds.start}-{seeds.stop - 1} ({games} games of {PLAYS}"
                  f" {'turns' if kind == 'street' else 'plays'}, the light changed for good;"
                  f" {time.perf_counter() - start:.0f} s)")
            for way, tally in out.items():
                print(outcome_line(way, tally, 26))
            steps = [st for st, *_ in steering]
            print(f"  steering: {sum(ok for *_, ok in steering)}/{len(steering)} settled, steps "
                  f"{' '.join(map(str, steps))}; surround off calibration's look (log, median) "
                  f"{statistics.median(b for _, b, _, _ in steering):.3f} -> "
                  f"{statistics.median(a for _, _, a, _ in steering):.3f}")


if __name__ == "__main__":
    main()

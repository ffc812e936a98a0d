"""How long a full read takes, by how full the board is.

    python -m bench read_speed                 # 4 held-out scenes per board and fill (a few minutes)
    python -m bench read_speed --quick         # 2 scenes
    python -m bench read_speed --seeds 140000  # scenes nobody has looked at

Why a benchmark of its own: the speed target is a full 8x8 read under 25 ms and a 15x15 under
60 ms *whatever the board shows*, and a read's cost grows with the tiles on the board (each
tile's letter and height are read). ``bench generalise`` times games from their first move
(2-21 tiles); this one times boards from empty to full.

Randomised renders of the held-out style family (:mod:`vision.scenes`), each scene calibrated
and taught as a family does it, pictures without hands. Each picture is read three times and
the fastest kept (the machine's noise only ever adds time); the figure is the median over the
pictures. Baseline, same pictures, same run: the fixed rules (no learnt references).

It also counts what the learnt reader read on these boards, a single picture each: cells right,
wrong but flagged, and wrong *and sure* (the one failure that is not allowed); and, since no
picture has a hand, every picture the arm check flags is a false alarm (the kiosk would wait for
a hand that is not there). Full random boards are harder than games (stacks of 4 and 5
anywhere, no free cell to see the light on), so this is a second, sterner accuracy figure
beside ``bench generalise``'s.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import options, pi5  # noqa: E402
from bench.bench_generalise import grid_readers  # noqa: E402
from vision.hands import UNDER_HAND_FLAG  # noqa: E402
from vision.scenes import grid_scene  # noqa: E402

KINDS = {"upwords8": 25.0, "upwords10": None, "grid15": 60.0}  # board -> target (ms), where set
FILLS = (0.0, 0.25, 0.5, 1.0)
TRIES = 3


def fastest_read(reader, image) -> float:
    best = float("inf")
    for _ in range(TRIES):
        start = time.perf_counter()
        reader.read(image)
        best = min(best, time.perf_counter() - start)
    return best


def judged(reading, frame) -> Counter:
    """Each cell of a single-picture reading against the truth: right (and sure), flagged
    (uncertain, whether right or not), or wrong and sure (occupancy, height or letter); and
    whether the picture was taken for one with a hand over the board."""
    out: Counter = Counter()
    for cell in reading.cells:
        height, letter = frame.heights[cell.row][cell.col], frame.letters[cell.row][cell.col]
        right = cell.height == height and (not height or cell.letter == letter)
        out["flagged" if cell.uncertain else "right" if right else "wrong and sure"] += 1
    # No picture here has a hand: a hand's flag anywhere is a false alarm (the kiosk would wait).
    out["false hand alarms"] += any(UNDER_HAND_FLAG in cell.flags for cell in reading.cells)
    out["pictures"] += 1
    return out


def measure(kind: str, fill: float, seeds: range, frames: int
            ) -> tuple[list[float], list[float], list[int], Counter]:
    learnt, fixed, tiles, cells = [], [], [], Counter()
    for seed in seeds:
        s = grid_scene(seed, "held_out", kind, n_frames=frames, hand_chance=0.0, fill=fill)
        readers = grid_readers(s, True), grid_readers(s, False)
        for frame in s.frames:
            learnt.append(fastest_read(readers[0], frame.image))
            fixed.append(fastest_read(readers[1], frame.image))
            tiles.append(sum(1 for row in frame.heights for h in row if h))
            cells += judged(readers[0].read(frame.image), frame)
    return learnt, fixed, tiles, cells


def main() -> int:
    args = options(150000, "first scene seed: pick a new one to measure on scenes nobody has looked at")
    scenes, frames = (2, 2) if args.quick else (4, 3)
    factor = pi5.slowdown()
    print(f"held-out scenes per board and fill: {scenes}, {frames} pictures each, seeds from {args.seeds}; "
          f"fastest of {TRIES} reads per picture, median over pictures")
    accuracy = []
    for k, (kind, target) in enumerate(KINDS.items()):
        met = []
        for j, fill in enumerate(FILLS):
            base = args.seeds + 1000 * k + 100 * j
            learnt, fixed, tiles, cells = measure(kind, fill, range(base, base + scenes), frames)
            accuracy.append((kind, fill, cells))
            new, old = statistics.median(learnt) * 1000, statistics.median(fixed) * 1000
            pi = f"  Pi 5 estimate {new * factor:5.0f} ms" if factor else ""
            print(f"{kind:9s} fill {fill:4.0%}  tiles {statistics.median(tiles):5.1f}  "
                  f"learnt {new:6.1f} ms (slowest picture {max(learnt) * 1000:6.1f})  "
                  f"fixed rules {old:6.1f} ms  ratio {new / old:4.2f}{pi}")
            if target is not None:
                met.append((fill, new < target))
        if target is not None:
            upto = [fill for fill, ok in met if ok]
            print(f"  target {target:.0f} ms (median): "
                  + ("met at every fill" if len(upto) == len(met) else
                     f"met at fills {', '.join(f'{f:.0%}' for f in upto) or 'none'}; "
                     f"not at {', '.join(f'{f:.0%}' for f, ok in met if not ok)}"))
    print("what the learnt reader read on the same pictures (single pictures, no history):")
    for kind, fill, cells in accuracy:
        total = cells["right"] + cells["flagged"] + cells["wrong and sure"]
        print(f"{kind:9s} fill {fill:4.0%}  cells {total:5d}  right and sure {cells['right'] / total:7.2%}  "
              f"flagged {cells['flagged']:4d}  wrong and sure {cells['wrong and sure']:3d}  "
              f"pictures taken for a hand over the board {cells['false hand alarms']}/{cells['pictures']}")
    if factor:
        print(f"(Pi 5 estimate: x {factor:.2f}, {pi5.BASIS})")
    else:
        print("(no Pi 5 estimate: install sysbench to measure this machine's single-core speed in the run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Stack heights on sets of any make: the set's thickness measured, given, assumed.

    python -m bench geometry                 # 16 scenes per family (a few minutes)
    python -m bench geometry --quick         # 4 scenes
    python -m bench geometry --seeds 700000  # scenes nobody has looked at

Randomised Upwords 8x8 renders (:func:`vision.synthetic.scenes.grid_scene` with ``any_set``:
cells 18-26 mm apart, tiles 2-5 mm thick; cameras from overhead to 40 degrees, every other one
at least 20), no hands, each picture read alone (no history: the hardest case; the kiosk's
history settles most heights).
Four readers on the same pictures, the same learnt look and taught letters:

* **given**: the render's true proportions (what no family knows; the ceiling);
* **assumed**: a 22 mm pitch and 3.6 mm tiles, heights trusted (the reader before the
  thickness was measured);
* **unmeasured**: the same proportions, heights from one picture in doubt (what a calibration
  without a measure now gives);
* **measured**: the thickness measured from the teaching photo (:mod:`vision.set_geometry`),
  unmeasured where the camera is too near overhead to measure it; heights by the fitted
  :mod:`vision.height_decision`;
* **rules**: the same measure, heights sure by the planes' lead alone (the hand-set thresholds of
  :func:`vision.upwords_reader.plane_height`: the reader before the fitted decision; the baseline);
* **played**: measured from the teaching photo, or where that measures nothing, from a picture of
  a board the players confirmed (the scene's other picture, its stacks as the game has them:
  a stack slides as far as its height, so a camera nearer overhead still tells the thickness).

Counted over every tile: height right and sure, in doubt (right or not), wrong and sure (the
one failure not allowed), split by the camera's tilt (20 degrees is where the planes start to
tell heights apart). Also the measure's error against the render's true ratio.
"""

from __future__ import annotations

import statistics
from collections import Counter

from bench import options
from vision.appearance import BoardAppearance
from vision.learn_board import learn_grid
from vision.planes import BoardPlanes
from vision.set_geometry import TileHeight, measure_tile_height
from vision.synthetic.render import Rendered
from vision.synthetic.scenes import Scene, grid_scene
from vision.synthetic.train import taught_letters
from vision.upwords_reader import TileGeometry, UpwordsReader

READERS = ("given", "assumed", "unmeasured", "measured", "rules", "played")
STEEP_FROM_DEG = 20.0


def _geometries(s: Scene) -> tuple[dict[str, TileGeometry], float | None]:
    pitch = s.calibration.cell_mm[0]
    cal = s.calibration
    found = measure_tile_height(s.teaching.image, cal.corners, cal.rows, cal.cols, s.face_frac,
                                s.teaching_layout.keys())
    assumed = TileGeometry.from_shape(s.face_frac, 3.6, 5, 22.0)
    geometries = {
        "given": TileGeometry.from_shape(s.face_frac, s.thickness_mm, 5, pitch),
        "assumed": assumed,
        "unmeasured": TileGeometry.from_shape(s.face_frac, 3.6, 5, 22.0, measured=False),
        "measured": _measured(s, found) or TileGeometry.from_shape(s.face_frac, 3.6, 5, 22.0, measured=False),
    }
    geometries["rules"] = geometries["measured"]
    return geometries, (None if found is None else found.ratio - s.thickness_mm / pitch)


def _measured(s: Scene, found: TileHeight | None) -> TileGeometry | None:
    """The reader's geometry from a measure (None: nothing measured)."""
    return None if found is None else TileGeometry.from_shape(s.face_frac, found.thickness_mm(22.0), 5, 22.0)


def _measured_from_play(s: Scene, frame: Rendered) -> TileGeometry | None:
    """The geometry measured from a picture of a confirmed board: ``frame`` and its stacks."""
    cal = s.calibration
    stacks = {(r, c): h for r, row in enumerate(frame.heights) for c, h in enumerate(row) if h}
    found = measure_tile_height(frame.image, cal.corners, cal.rows, cal.cols, s.face_frac, stacks)
    return _measured(s, found)


def _reader(s: Scene, appearance: BoardAppearance, geometry: TileGeometry) -> UpwordsReader:
    cal = s.calibration
    reader = UpwordsReader(cal.corners, cal.image_size, rows=cal.rows, cols=cal.cols, geometry=geometry,
                           appearance=appearance)
    reader.letters = taught_letters(reader, s.teaching.image, s.teaching_layout, 1)
    return reader


def _count(tally: Counter, reader: UpwordsReader, frame: Rendered) -> None:
    for cell in reader.read(frame.image).cells:
        truth = frame.heights[cell.row][cell.col]
        if not truth:
            continue
        tally["tiles"] += 1
        if cell.uncertain:
            tally["doubt"] += 1
        elif cell.height == truth:
            tally["right"] += 1
        else:
            tally["wrong_sure"] += 1


def run(family: str, seeds: range) -> tuple[dict[str, Counter], list[float], int]:
    counts = {f"{name} {slope}": Counter() for name in READERS for slope in ("steep", "flat")}
    errors: list[float] = []
    from_plays = 0
    for seed in seeds:
        # every other set under a camera leaning 20 degrees or more: the case a measure is for
        steep = STEEP_FROM_DEG if seed % 2 else 0.0
        s = grid_scene(seed, family, "upwords8", n_frames=2, hand_chance=0.0, any_set=True, min_tilt=steep,
                       max_tilt=40.0)
        cal = s.calibration
        tilt = BoardPlanes.from_corners(cal.corners, cal.rows, cal.cols, cal.image_size).tilt_deg
        slope = "steep" if tilt >= STEEP_FROM_DEG else "flat"
        appearance = learn_grid(cal.image, cal.corners, cal.rows, cal.cols, s.face_frac, s.teaching.image,
                                s.teaching_layout.keys())
        geometries, error = _geometries(s)
        if error is not None:
            errors.append(error)

        for name, geometry in geometries.items():
            reader = _reader(s, appearance, geometry)
            if name == "rules":
                reader.height_decision = None
            for frame in s.frames:
                _count(counts[f"{name} {slope}"], reader, frame)
        for i, frame in enumerate(s.frames):  # each picture read with a measure from the other
            played = geometries["measured"] if error is not None else _measured_from_play(s, s.frames[1 - i])
            from_plays += error is None and played is not None
            _count(counts[f"played {slope}"], _reader(s, appearance, played or geometries["measured"]), frame)
    return counts, errors, from_plays


def report(family: str, seeds: range) -> None:
    counts, errors, from_plays = run(family, seeds)
    print(f"\n{family} family, seeds {seeds.start}-{seeds.stop - 1}: {len(seeds)} sets, "
          "one picture at a time")
    print(f"{'reader':<11} {'camera':<13} {'tiles':>6} {'right+sure':>11} {'in doubt':>9} {'WRONG+sure':>11}")
    for name in READERS:
        for slope, words in (("steep", f">= {STEEP_FROM_DEG:.0f} deg"),
                             ("flat", f"< {STEEP_FROM_DEG:.0f} deg")):
            c = counts[f"{name} {slope}"]
            n = max(c["tiles"], 1)
            print(f"{name:<11} {words:<13} {c['tiles']:>6} {c['right'] / n:>10.1%} {c['doubt'] / n:>8.1%} "
                  f"{c['wrong_sure']:>11}")
    if errors:
        med, worst = statistics.median(abs(e) for e in errors), max(abs(e) for e in errors)
        print(f"thickness measured on {len(errors)} of {len(seeds)} sets (the rest: camera too near "
              f"overhead); error as a share of the pitch: median {med:.4f}, worst {worst:.4f}, "
              f"bias {statistics.mean(errors):+.4f}")
    print("played: pictures whose teaching photo measured nothing, read with a measure from the other "
          f"picture's confirmed board: {from_plays}")


def main() -> None:
    args = options(seeds=0, seeds_help="first scene seed (held-out runs: 700000 and up)")
    n = 4 if args.quick else 16
    for family in ("train", "held_out"):
        report(family, range(args.seeds, args.seeds + n))


if __name__ == "__main__":
    main()

"""Are hands seen, whatever their colour, and nothing else taken for one?

    python -m bench hands                    # 8 scenes per kind and family (several minutes)
    python -m bench hands --quick            # 3 scenes
    python -m bench hands --seeds 81000      # scenes nobody has looked at (held-out: +10,000)
    python -m bench hands --light-change     # skin-toned tables, the light changed since calibration
    python -m bench hands --light-change --scenes 5 --seeds 87000   # 5 scenes per kind and family

Randomised renders (:mod:`vision.synthetic.scenes`) of Upwords 8x8, crossword 15x15 and Word on the
Street, a hand in about half the pictures, each scene calibrated as a family does it. For the
``train`` and ``held_out`` style families (other skin tones, tables and boards in the second):

* pictures with a hand over the board's cells (as drawn, over :data:`vision.hands.UNDER_HAND`
  of a cell at least) that the reader flags where the hand is (a cell, or the street's column,
  the hand covers is ``under a hand or arm``: a change of light taken for an arm elsewhere
  does not see the hand);
* pictures without a hand that it flags (false alarms: the kiosk would wait for nothing);
* pictures with a hand that stops short of the cells, and how many of them it flags (neither
  answer is wrong: nothing is hidden, and waiting costs a picture);
* cells wrong and not flagged, over all pictures (the one failure not allowed);
* the median time of a full read.

Baseline, same pictures: the skin-colour check (:mod:`vision.hands`), which is what the reader
uses when the calibration kept no picture.

``--light-change``: the same kinds (and Upwords 10x10) on skin-toned tables
(:data:`vision.synthetic.scenes.LIGHT_CHANGE_TABLES`), every later picture in a light changed
since calibration (brightness x0.6-1.6, white balance +-25 % per channel, a moving soft shadow,
glare: :func:`vision.synthetic.scenes.changed_light`); train and held-out families side by side,
today's arm check beside its rules alone (without the fitted decision that clears a change of
light: :data:`vision.arms.FITTED_DECISION` off) and the arm check that takes out only the whole
picture's colour cast (:data:`vision.arms.LIGHT_FIELD` off too) as the baseline.
``--any-skin``: the hands of any skin tone, darkest to palest
(:func:`vision.synthetic.style.with_any_skin`), not the family's two; the rules are also run
without the glare's edge check (:data:`vision.arms.GLARE_EDGE` off: a pale hand in a bright warm
light adds light as a lamp does).
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import replace
from functools import lru_cache

import vision.arms
from bench import options
from bench.bench_generalise import grid_readers, judge_cell
from vision.hands import UNDER_HAND, UNDER_HAND_FLAG
from vision.street import StreetReader
from vision.synthetic.scenes import Scene, grid_scene, street_scene
from vision.synthetic.train import learn_scene, taught_street_reader

KINDS = ("upwords8", "grid15", "street")
LIGHT_KINDS = ("upwords8", "upwords10", "grid15", "street")


def _street_reader(s, keep_picture: bool) -> StreetReader:
    appearance = learn_scene(s)
    if not keep_picture:
        appearance = replace(appearance, scene=None)
    return taught_street_reader(s, appearance)


@lru_cache(maxsize=16)  # both checks read the same scenes: rendered once
def _scene(kind: str, family: str, seed: int, light_change: bool, any_skin: bool = False) -> Scene:
    if kind == "street":
        return street_scene(seed, family, n_frames=6, hand_chance=0.5, light_change=light_change,
                            any_skin=any_skin)
    return grid_scene(seed, family, kind, n_frames=6, hand_chance=0.5, sequence=True,
                      light_change=light_change, any_skin=any_skin)


def _flagged(flags) -> bool:
    return any("hand" in f for f in flags)


def run(kind: str, family: str, seeds: range, keep_picture: bool, light_change: bool = False,
        any_skin: bool = False) -> dict:
    out = {"hand": 0, "hand_flagged": 0, "calm": 0, "calm_flagged": 0, "beside": 0, "beside_flagged": 0,
           "silent": 0, "times": []}
    for seed in seeds:
        s = _scene(kind, family, seed, light_change, any_skin)
        if kind == "street":
            reader = _street_reader(s, keep_picture)
        else:
            reader = grid_readers(s, True)
            if not keep_picture:
                reader.appearance = replace(reader.appearance, scene=None)
        for frame in s.frames:
            start = time.perf_counter()
            reading = reader.read(frame.image)
            out["times"].append(time.perf_counter() - start)
            share = frame.hand_cover()
            cover = share > UNDER_HAND
            if kind == "street":
                flagged = any(_flagged(c.flags) for c in reading.columns)
                # a hand is seen where it is: a column it covers says so
                seen = any(UNDER_HAND_FLAG in c.flags and cover[:, i].any()
                           for i, c in enumerate(reading.columns))
                for col in reading.columns:
                    truth = frame.positions.get(col.letter)
                    truth = truth if truth is not None and -2 <= truth <= 2 else None
                    out["silent"] += col.position != truth and not col.uncertain
            else:
                flagged = any(_flagged(c.flags) for c in reading.cells)
                seen = any(UNDER_HAND_FLAG in c.flags and cover[c.row, c.col] for c in reading.cells)
                for c in reading.cells:
                    right = judge_cell(c, frame.heights[c.row][c.col], frame.letters[c.row][c.col])[1]
                    out["silent"] += not right and not c.uncertain
            key = "calm" if not frame.hand else "hand" if share.max() >= UNDER_HAND else "beside"
            out[key] += 1
            out[f"{key}_flagged"] += seen if key == "hand" else flagged
    return out


def _line(r: dict) -> str:
    return (f"hands flagged {r['hand_flagged']:3d}/{r['hand']:<3d} "
            f"false alarms {r['calm_flagged']:3d}/{r['calm']:<3d} "
            f"silently wrong {r['silent']:3d}")


#: (light field, fitted decision, glare's edge, label): today's arm check, its rules alone, and
#: the baseline
CHECKS = ((True, True, True, "today"), (True, False, True, "rules alone"), (False, False, True, "baseline"))
#: ... and with hands of any skin, the rules without the glare's edge check
NO_EDGE = (True, False, False, "no edge")


def light_change(base: int, n: int, any_skin: bool = False) -> None:
    """Both families under a changed light, today's arm check beside its rules alone and the
    baseline (:data:`CHECKS`; ``any_skin``: hands of any tone, and :data:`NO_EDGE`)."""
    skins = "hands of any skin tone" if any_skin else "the families' skin tones"
    print(f"light changed since calibration, skin-toned tables, {skins}: {n} scenes per kind and family, "
          f"6 pictures each, a hand in about half; train seeds from {base}, held-out from {base + 10000}")
    totals: dict = {}
    checks = (*CHECKS, NO_EDGE) if any_skin else CHECKS
    arms = vision.arms
    for kind in LIGHT_KINDS:
        cols = []
        for family, start in (("train", base), ("held_out", base + 10000)):
            for field, decided, edge, label in checks:
                arms.LIGHT_FIELD, arms.FITTED_DECISION, arms.GLARE_EDGE = field, decided, edge
                try:
                    r = run(kind, family, range(start, start + n), True, light_change=True, any_skin=any_skin)
                finally:
                    arms.LIGHT_FIELD, arms.FITTED_DECISION, arms.GLARE_EDGE = True, True, True
                total = totals.setdefault((family, label), {})
                for key in ("hand", "hand_flagged", "calm", "calm_flagged", "silent"):
                    total[key] = total.get(key, 0) + r[key]
                cols.append(f"{family:8s} {kind:9s} {label:11s} {_line(r)}")
        print("\n".join(cols), flush=True)
    for (family, label), r in totals.items():
        print(f"{family:8s} {'all':9s} {label:11s} {_line(r)}")


def main() -> int:
    args, rest = options(81000, "first scene seed (held-out scenes start 10,000 later)"), sys.argv[1:]
    quick = args.quick
    n = 3 if quick else 8
    if "--light-change" in rest:
        scenes = rest[rest.index("--scenes") + 1] if "--scenes" in rest[:-1] else None
        light_change(args.seeds, int(scenes) if scenes and scenes.isdigit() else n, "--any-skin" in rest)
        return 0
    print(f"{n} scenes per kind and family, 6 pictures each, a hand in about half; seeds from {args.seeds}")
    for family, base in (("train", args.seeds), ("held_out", args.seeds + 10000)):
        for kind in KINDS:
            for keep, label in ((True, "arm check"), (False, "skin check (baseline)")):
                r = run(kind, family, range(base, base + n), keep)
                ms = 1000 * statistics.median(r["times"])
                print(f"{family:8s} {kind:8s} {label:22s} "
                      f"hands flagged {r['hand_flagged']:3d}/{r['hand']:<3d} "
                      f"false alarms {r['calm_flagged']:3d}/{r['calm']:<3d} "
                      f"cells silently wrong {r['silent']:3d}  read {ms:5.1f} ms  "
                      f"(hands short of the cells: flagged {r['beside_flagged']}/{r['beside']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

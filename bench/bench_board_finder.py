"""Board finder benchmark: finding the board without markers, against finding it by its markers.

    python -m bench board_finder

* **Upwords renders** (1024x768, tilt 0-40 degrees, turned, each with markers in the margin):
  median time and worst corner error (% of the board's size) of the marker-free finder
  (``vision.board_finder.find_board``, grid lines) against the baseline of the ArUco
  marker finder (``calibration.markers.find_board`` with the renderer's marker layout) on
  the very same pictures, measured in the same run.
* **Word on the Street renders** (same poses as the tests' street renders, markers in the
  pavement): the marker-free finder (its lanes, then :mod:`vision.street_outline`'s fit of the
  street's edges) against the marker finder on the same pictures, and the share of the time
  the outline fit itself takes.
* **Real photos** (``../shared/data/real-scrabble-photos``, 3264x2448, when present): median
  time of the marker-free finder on a phone photo.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from calibration.markers import MarkerLayout
from calibration.markers import find_board as find_by_markers
from vision.board_finder import find_board
from vision.street_outline import refine_street
from vision.synthetic.render import Pose, StreetSpec, UpwordsSpec, render_street, render_upwords
from vision.synthetic.textures import marker_layout_mm

ROOT = Path(__file__).resolve().parent.parent

PHOTOS = ROOT.parent / "shared" / "data" / "real-scrabble-photos"


def _error(found: np.ndarray, truth: np.ndarray, turns: tuple[int, ...] = (0, 1, 2, 3)) -> float:
    size = float(np.sqrt(cv2.contourArea(truth.astype(np.float32))))
    worst = min(float(np.linalg.norm(np.roll(found, -k, axis=0) - truth, axis=1).max()) for k in turns)
    return worst / size


def bench_renders(n: int = 8) -> None:
    spec = UpwordsSpec()
    w_mm, h_mm = spec.cols * spec.pitch_mm, spec.rows * spec.pitch_mm
    layout = MarkerLayout((w_mm, h_mm), dict(enumerate(marker_layout_mm(w_mm, h_mm, spec.margin_mm))))
    shots = []
    for seed in range(n):
        rng = np.random.default_rng(100 + seed)
        pose = Pose.random(rng, max_tilt=40, yaw_deg=float(rng.uniform(-30, 30)))
        shots.append(render_upwords({(3, 3): ("M", 1), (3, 4): ("O", 2)}, pose=pose, seed=seed, markers=True))
    rows = []
    for name, fn in (("grid lines (no markers)", lambda im: find_board(im, 8, 8).corners),
                     ("markers (baseline)", lambda im: find_by_markers(im, layout))):
        times, errors = [], []
        for shot in shots:
            t0 = time.perf_counter()
            corners = fn(shot.image)
            times.append(time.perf_counter() - t0)
            errors.append(_error(np.asarray(corners), shot.corners))
        rows.append((name, statistics.median(times), max(errors)))
    base = rows[1][1]
    print(f"{'Upwords renders, 1024x768':32s} {'median ms':>10s} {'x baseline':>10s} {'worst error':>12s}")
    for name, t, err in rows:
        print(f"{name:32s} {t * 1000:10.0f} {t / base:10.1f} {err * 100:11.2f}%")


def bench_streets(n: int = 8) -> None:
    spec = StreetSpec()
    w_mm, h_mm = spec.cols * spec.pitch_mm, spec.rows * spec.lane_mm
    layout = MarkerLayout((w_mm, h_mm), dict(enumerate(marker_layout_mm(w_mm, h_mm, spec.margin_mm))))
    shots = []
    for seed in range(n):
        rng = np.random.default_rng(500 + seed)
        pose = Pose.random(rng, max_tilt=40, yaw_deg=float(rng.uniform(-40, 40)),
                           roll_deg=float(rng.uniform(-20, 20)))
        positions = {letter: int(rng.integers(-2, 3)) for letter in "BCDFGHKLMNPRSTVWY"}
        shots.append(render_street(positions, pose=pose, seed=500 + seed, markers=True))
    rows = []
    fit_times = []
    finders = (("lanes + street outline (no markers)", lambda im: find_board(im, 5, 17, (5, 1)).corners),
               ("markers (baseline)", lambda im: find_by_markers(im, layout)))
    for name, fn in finders:
        times, errors = [], []
        for shot in shots:
            t0 = time.perf_counter()
            corners = np.asarray(fn(shot.image))
            times.append(time.perf_counter() - t0)
            errors.append(_error(corners, shot.corners, (0, 2)))
            if name.startswith("lanes"):
                t0 = time.perf_counter()
                refine_street(shot.image, corners)
                fit_times.append(time.perf_counter() - t0)
        rows.append((name, statistics.median(times), max(errors)))
    base = rows[1][1]
    print(f"{'Street renders, 1024x768':36s} {'median ms':>10s} {'x baseline':>10s} {'worst error':>12s}")
    for name, t, err in rows:
        print(f"{name:36s} {t * 1000:10.0f} {t / base:10.1f} {err * 100:11.2f}%")
    print(f"{'  of which the street outline fit':36s} {statistics.median(fit_times) * 1000:10.0f}")


def bench_photos() -> None:
    files = sorted(PHOTOS.glob("*.jpg"))[:4]
    if not files:
        print("real photos: not present, skipped")
        return
    times = []
    for path in files:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        t0 = time.perf_counter()
        find_board(image, 15, 15)
        times.append(time.perf_counter() - t0)
    print(f"real photos (3264x2448), grid lines: median {statistics.median(times) * 1000:.0f} ms "
          f"over {len(files)}")


if __name__ == "__main__":
    bench_renders()
    bench_streets()
    bench_photos()

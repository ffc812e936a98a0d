"""Calibration and camera benchmark: finding the board by its markers, the lost-camera wrapper,
and teaching from a photo.

    python -m bench calibration

* **find_board**: 40 synthetic photos (1024x768, JPEG) of a board with corner markers under
  random perspective; median time and corner error of ``calibration.markers.find_board``
  (sub-pixel corner refinement) against the baseline of the same ArUco detector without
  refinement, measured in the same run.
* **ResilientCamera**: median cost per ``read()`` of a replayed folder, wrapped vs raw.
* **teach from a photo**: 26 tiles cut from a rendered teaching photo, without and with the
  Tesseract check (the check's cost per cell is what a person waits for).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "tests"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from calibration_scenes import board_texture, photograph  # noqa: E402

from calibration.file import Calibration  # noqa: E402
from calibration.markers import INNER_CORNER, MARKER_IDS, dictionary, find_board  # noqa: E402
from vision.camera import ReplaySource, ResilientCamera  # noqa: E402
from vision.teach_letters import parse_layout, samples_from_photo  # noqa: E402


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


def _random_quad(rng: np.random.Generator) -> list[list[float]]:
    cx, cy = rng.uniform(420, 600), rng.uniform(330, 440)
    half_w, half_h = rng.uniform(220, 320), rng.uniform(170, 240)  # markers stay in the frame
    squeeze = rng.uniform(0.0, 0.35)  # perspective: the far edge is shorter
    quad = np.array([[-half_w * (1 - squeeze), -half_h], [half_w * (1 - squeeze), -half_h],
                     [half_w, half_h], [-half_w, half_h]])
    a = rng.uniform(-0.4, 0.4)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return (quad @ rot.T + [cx, cy]).tolist()


def _baseline(image: np.ndarray) -> np.ndarray | None:
    """The same detector without sub-pixel refinement: the inner corners as detected."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(dictionary(), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    if ids is None:
        return None
    found = {int(i): q.reshape(4, 2) for q, i in zip(corners, ids.ravel(), strict=True)}
    if any(i not in found for i in MARKER_IDS):
        return None
    return np.array([found[i][INNER_CORNER[i]] for i in MARKER_IDS])


def bench_find_board(n: int = 40) -> None:
    rng = np.random.default_rng(7)
    tex, area = board_texture()
    shots = [photograph(tex, area, _random_quad(rng), seed=i) for i in range(n)]
    rows = []
    for name, fn in (("find_board (subpixel)", find_board), ("baseline (no refinement)", _baseline)):
        times, errors, missed = [], [], 0
        for photo, truth in shots:
            t0 = time.perf_counter()
            try:
                corners = fn(photo)
            except Exception as exc:
                corners = None
                if fn is find_board:
                    print(f"  missed: {exc}")
            times.append(time.perf_counter() - t0)
            if corners is None:
                missed += 1
            else:
                errors.append(float(np.abs(np.asarray(corners) - truth).max()))
        rows.append((name, _median_ms(times), statistics.median(errors), max(errors), missed))
    print(f"{'find the board (1024x768)':28s} {'median ms':>10s} {'median err px':>14s} {'max err px':>11s} "
          f"{'missed':>7s}")
    for name, ms, med, worst, missed in rows:
        print(f"{name:28s} {ms:10.2f} {med:14.3f} {worst:11.3f} {missed:7d}")
    print(f"time ratio find_board / baseline: {rows[0][1] / rows[1][1]:.2f}; "
          f"median error ratio: {rows[0][2] / rows[1][2]:.2f}")


def bench_resilient(n: int = 300) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(5):
            cv2.imwrite(str(Path(tmp) / f"{i}.png"), np.full((480, 640, 3), 40 * i, np.uint8))
        raw = ReplaySource(tmp)
        wrapped = ResilientCamera(lambda: ReplaySource(tmp), time.monotonic)
        t_raw, t_wrapped = [], []
        for _ in range(n):
            t0 = time.perf_counter()
            raw.read()
            t_raw.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            wrapped.read()
            t_wrapped.append(time.perf_counter() - t0)
        raw.close()
        wrapped.close()
    a, b = _median_ms(t_wrapped), _median_ms(t_raw)
    print(f"replay read 640x480 PNG: ResilientCamera {a:.3f} ms, raw ReplaySource {b:.3f} ms, "
          f"ratio {a / b:.3f}")


def bench_teach() -> None:
    from vision.synthetic.render import Effects, Pose, render_upwords
    from vision.synthetic.teach import UPWORDS_ALPHABET

    layout = parse_layout("ABCDEFGH\nIJKLMNOP\nQuRSTUVWX\nYZ\n", 8, 8, UPWORDS_ALPHABET)
    shot = render_upwords({rc: (letter, 1) for rc, letter in layout.items()}, pose=Pose(tilt_deg=25),
                          seed=5, effects=Effects(noise_sigma=2.0, jpeg_quality=90))
    cal = Calibration(kind="upwords", rows=8, cols=8, corners=tuple(map(tuple, shot.corners)),
                      image_size=shot.image_size, alphabet=UPWORDS_ALPHABET)
    t_plain, t_tess, agree = [], [], 0
    for _ in range(3):
        t0 = time.perf_counter()
        samples_from_photo(shot.image, cal, layout, check_with_tesseract=False)
        t_plain.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    checked = samples_from_photo(shot.image, cal, layout, check_with_tesseract=True)
    t_tess.append(time.perf_counter() - t0)
    agree = sum(not s.disagrees for s in checked)
    a, b = _median_ms(t_tess), _median_ms(t_plain)
    print(f"teach from a photo (26 tiles): cut only {b:.0f} ms, with the Tesseract check {a:.0f} ms "
          f"(ratio {a / b:.0f}, {a / 26:.0f} ms per cell); Tesseract agrees with the layout on {agree}/26")


if __name__ == "__main__":
    bench_find_board()
    bench_resilient()
    bench_teach()

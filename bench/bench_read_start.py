"""How long ``tablekeeper read`` takes for one photo, start to finish, as a person runs it.

    python -m bench read_start            # 9 runs each
    python -m bench read_start --quick    # 3 runs

A calibrated, taught Upwords 8x8 (rendered once into a scratch folder, the calibration made as
the docs say) and one photo of a game on it, read by the installed command in a fresh process
each time: nearly all of it is starting Python and importing what the read needs. Baseline in
the same run: a bare ``python -c pass`` of the same interpreter (the floor no command goes
under), and ``tablekeeper --help`` (the command line alone). Medians; target under 0.5 s.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2

from bench import options
from calibration.file import Calibration, save_calibration
from vision.synthetic.render import Effects, Pose, render_upwords
from vision.synthetic.teach import UPWORDS_ALPHABET

BIN = Path(sys.executable).parent
LAYOUT = "ABCDEFGH\nIJKLMNOP\nQuRSTUVWX\nYZ\n"


def _setup(folder: Path) -> dict[str, str]:
    cells = {(r, c): (letter, 1) for r, row in enumerate(["ABCDEFGH", "IJKLMNOP", "", "YZ"])
             for c, letter in enumerate(row)}
    cells.update({(2, c): (letter, 1) for c, letter in enumerate(["Qu", *"RSTUVWX"])})
    pose, fx = Pose(tilt_deg=25, yaw_deg=5), Effects(noise_sigma=2.0, jpeg_quality=90)
    shot = render_upwords(cells, pose=pose, seed=5, effects=fx)
    cv2.imwrite(str(folder / "teach.png"), shot.image)
    (folder / "layout.txt").write_text(LAYOUT)
    save_calibration(Calibration(kind="upwords", rows=8, cols=8, corners=tuple(map(tuple, shot.corners)),
                                 image_size=shot.image_size, alphabet=UPWORDS_ALPHABET),
                     folder / "data" / "calibration.json")
    env = dict(os.environ, TABLEKEEPER_DATA=str(folder / "data"), TABLEKEEPER_CONFIG=str(folder / "t.toml"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed kiosk keeps its compiled modules
    subprocess.run([str(BIN / "tablekeeper"), "calibrate", "teach", "--from-photo", str(folder / "teach.png"),
                    "--layout", str(folder / "layout.txt"), "--accept"], env=env, check=True,
                   capture_output=True)
    game = {(3, 2): ("W", 1), (3, 3): ("O", 2), (3, 4): ("R", 1), (3, 5): ("D", 1)}
    cv2.imwrite(str(folder / "game.png"), render_upwords(game, pose=pose, seed=11, effects=fx).image)
    return env


def _median_time(command: list[str], env: dict[str, str], runs: int) -> float:
    times = []
    for _ in range(runs + 1):  # the first run warms the disk cache and writes the bytecode
        start = time.perf_counter()
        subprocess.run(command, env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times[1:])


def main() -> None:
    runs = 3 if options().quick else 9
    with tempfile.TemporaryDirectory(prefix="tk-read-start-") as scratch:
        env = _setup(Path(scratch))
        bare = _median_time([sys.executable, "-c", "pass"], env, runs)
        cli = _median_time([str(BIN / "tablekeeper"), "--help"], env, runs)
        read = _median_time([str(BIN / "tablekeeper"), "read", "upwords", str(Path(scratch) / "game.png")],
                            env, runs)
    print(f"tablekeeper read, one 1024x768 photo, calibrated 8x8 (median of {runs}):")
    print(f"  python -c pass        {bare * 1000:6.0f} ms")
    print(f"  tablekeeper --help    {cli * 1000:6.0f} ms")
    print(f"  tablekeeper read      {read * 1000:6.0f} ms   ({read / bare:.1f} x a bare interpreter; "
          f"target < 500 ms)")


if __name__ == "__main__":
    main()

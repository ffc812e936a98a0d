"""``tablekeeper read`` refuses what is not a board: exit 2, one plain sentence, bounded memory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.synthetic.render import Pose, render_upwords

SCRIPT = Path(sys.executable).parent / "tablekeeper"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), "read", *args], capture_output=True, text=True, timeout=300)


def edges(w: int, h: int) -> str:
    return f"0,0,{w - 1},0,{w - 1},{h - 1},0,{h - 1}"


def test_a_1x1_picture_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "dot.png"
    cv2.imwrite(str(path), np.zeros((1, 1, 3), np.uint8))
    done = run("wots", str(path), "--corners", edges(1, 1))
    assert done.returncode == 2
    assert "too small" in done.stderr and "captured" not in done.stdout


@pytest.mark.parametrize("game", ["wots", "upwords"])
def test_a_picture_with_no_board_is_refused_not_read_as_empty(tmp_path: Path, game: str) -> None:
    rng = np.random.default_rng(1)
    path = tmp_path / "wall.png"
    cv2.imwrite(str(path), cv2.GaussianBlur(rng.integers(90, 160, (480, 640, 3), dtype=np.uint8), (9, 9), 0))
    done = run(game, str(path), "--corners", edges(640, 480))
    assert done.returncode == 2, done.stdout
    assert "no board found inside the corners" in done.stderr and done.stdout == ""


def test_corners_around_the_table_beside_the_board_are_refused(tmp_path: Path) -> None:
    shot = render_upwords({(3, 3): ("A", 1)}, pose=Pose(tilt_deg=0, fill=0.45), seed=2)
    path = tmp_path / "shot.png"
    cv2.imwrite(str(path), shot.image)
    table = "5,5,200,5,200,200,5,200"  # the wooden table in the picture's corner
    done = run("upwords", str(path), "--corners", table)
    assert done.returncode == 2 and "no board found inside the corners" in done.stderr
    good = ",".join(f"{v:.1f}" for v in shot.corners.ravel())
    assert run("upwords", str(path), "--corners", good).returncode == 0


def test_negative_corner_values_parse(tmp_path: Path) -> None:
    shot = render_upwords({}, pose=Pose(tilt_deg=0, fill=0.99), seed=2)
    path = tmp_path / "shot.png"
    cv2.imwrite(str(path), shot.image)
    corners = shot.corners.copy()
    corners[0] = (-3.0, -2.0)  # a corner a little off the picture, as a tight camera gives
    done = run("upwords", str(path), "--corners", ",".join(f"{v:.1f}" for v in corners.ravel()))
    assert "expected one argument" not in done.stderr
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_a_12000_pixel_picture_is_read_in_bounded_memory(tmp_path: Path, suffix: str) -> None:
    big = np.full((12000, 12000, 3), 120, np.uint8)
    cv2.rectangle(big, (3000, 3000), (9000, 9000), (230, 230, 230), 40)
    path = tmp_path / f"big{suffix}"
    cv2.imwrite(str(path), big)
    del big
    probe = (
        "import resource, subprocess, sys\n"
        f"done = subprocess.run([{str(SCRIPT)!r}, 'read', 'upwords', {str(path)!r}, '--corners', "
        f"{edges(12000, 12000)!r}], capture_output=True, text=True)\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "print(done.stderr, file=sys.stderr)\n"
    )
    measured = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=600)
    code, peak_kb = (int(v) for v in measured.stdout.split())
    assert code == 2 and "no board found" in measured.stderr  # a frame, not a board: refused
    assert peak_kb < 300 * 1024, f"peak RSS {peak_kb / 1024:.0f} MB"


def calibrate(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    import os

    env = {**os.environ, "TABLEKEEPER_DATA": str(tmp / "data"), "TABLEKEEPER_CONFIG": str(tmp / "tk.toml")}
    return subprocess.run([str(SCRIPT), "calibrate", *args], capture_output=True, text=True, timeout=300,
                          env=env)


def test_calibrate_refuses_a_1x1_picture_and_a_huge_one(tmp_path: Path) -> None:
    dot = tmp_path / "dot.png"
    cv2.imwrite(str(dot), np.zeros((1, 1, 3), np.uint8))
    done = calibrate(tmp_path, "board", str(dot), "--board", "wots", "--corners", edges(1, 1))
    assert done.returncode == 2 and "too small" in done.stderr
    huge = tmp_path / "huge.png"
    cv2.imwrite(str(huge), np.zeros((9000, 9000), np.uint8))
    done = calibrate(tmp_path, "board", str(huge), "--board", "upwords")
    assert done.returncode == 2 and "calibrate on a photo from the kiosk's camera" in done.stderr
    assert not (tmp_path / "data" / "calibration.json").exists()

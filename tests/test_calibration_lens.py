"""ChArUco lens calibration on rendered views of the printed board with a known camera."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.file import CalibrationError
from calibration.lens import SQUARE_MM, SQUARES, calibrate_lens, charuco_board, write_charuco_sheet

K_TRUE = np.array([[900.0, 0, 530.0], [0, 900.0, 370.0], [0, 0, 1]])
SIZE = (1024, 768)
PX_PER_MM = 6.0
MARGIN_PX = 60


def texture() -> np.ndarray:
    board = charuco_board()
    w = round(SQUARES[0] * SQUARE_MM * PX_PER_MM) + 2 * MARGIN_PX
    h = round(SQUARES[1] * SQUARE_MM * PX_PER_MM) + 2 * MARGIN_PX
    return board.generateImage((w, h), marginSize=MARGIN_PX, borderBits=1)


def view(tex: np.ndarray, rvec, shift=(0.0, 0.0), distance=320.0, seed=0) -> np.ndarray:
    """Photograph the flat board with the pinhole camera K_TRUE from pose (rvec, translation)."""
    R, _ = cv2.Rodrigues(np.array(rvec, np.float64))
    centre = np.array([SQUARES[0] * SQUARE_MM / 2, SQUARES[1] * SQUARE_MM / 2, 0.0])
    t = -R @ centre + np.array([shift[0], shift[1], distance])
    to_mm = np.array([[1 / PX_PER_MM, 0, -MARGIN_PX / PX_PER_MM], [0, 1 / PX_PER_MM, -MARGIN_PX / PX_PER_MM],
                      [0, 0, 1.0]])
    H = K_TRUE @ np.column_stack([R[:, 0], R[:, 1], t]) @ to_mm
    rng = np.random.default_rng(seed)
    table = rng.normal(110, 10, (SIZE[1], SIZE[0])).clip(0, 255).astype(np.uint8)
    img = cv2.warpPerspective(tex, H, SIZE, dst=table, borderMode=cv2.BORDER_TRANSPARENT)
    noisy = img.astype(np.float32) + rng.normal(0, 2.0, img.shape)
    return cv2.cvtColor(noisy.clip(0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)


POSES = [((0.35, 0.0, 0.0), (0, 0)), ((-0.3, 0.2, 0.1), (20, -10)), ((0.0, 0.4, -0.1), (-15, 5)),
         ((0.25, -0.35, 0.3), (10, 15)), ((-0.2, -0.25, -0.2), (-20, -15))]


@pytest.fixture(scope="module")
def views() -> list[np.ndarray]:
    tex = texture()
    return [view(tex, r, s, seed=i) for i, (r, s) in enumerate(POSES)]


def test_the_lens_is_recovered_from_rendered_views(views) -> None:
    result = calibrate_lens(views)
    K = np.array(result.lens.camera_matrix)
    assert result.used == (0, 1, 2, 3, 4) and result.image_size == SIZE
    assert K[0, 0] == pytest.approx(900, rel=0.03) and K[1, 1] == pytest.approx(900, rel=0.03)
    assert abs(K[0, 2] - 530) < 15 and abs(K[1, 2] - 370) < 15
    assert result.rms < 0.5
    assert len(result.lens.distortion) == 5 and abs(result.lens.distortion[0]) < 0.1


def test_too_few_views_say_so(views) -> None:
    blank = np.full_like(views[0], 120)
    with pytest.raises(CalibrationError, match="found in 2 of 3 photos; at least 3"):
        calibrate_lens([views[0], blank, views[1]])
    with pytest.raises(CalibrationError, match="same size"):
        calibrate_lens([views[0], views[1][:500]])


def test_the_printable_sheet(tmp_path: Path) -> None:
    from PIL import Image

    path = write_charuco_sheet(tmp_path / "lens.png")
    with Image.open(path) as im:
        assert im.info["dpi"][0] == pytest.approx(300, abs=0.5)
        width_mm = im.size[0] / 300 * 25.4
    assert width_mm == pytest.approx(SQUARES[0] * SQUARE_MM + 20, abs=1)


def test_calibrate_lens_cli_stores_the_lens_and_read_uses_it(tmp_path: Path, views) -> None:
    import os
    import subprocess
    import sys

    from calibration.file import Calibration, load_calibration, save_calibration

    script = Path(sys.executable).parent / "tablekeeper"
    env = dict(os.environ, TABLEKEEPER_DATA=str(tmp_path / "data"))
    cal_path = tmp_path / "data" / "calibration.json"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(script), "calibrate", "lens", *args], capture_output=True, text=True,
                              env=env, timeout=120)

    photos = []
    for i, img in enumerate(views):
        photos.append(str(tmp_path / f"lens{i}.png"))
        cv2.imwrite(photos[-1], img)
    first = run(*photos)
    assert first.returncode == 2 and "calibrate board` first" in first.stderr
    save_calibration(Calibration(kind="upwords", rows=8, cols=8,
                                 corners=((200, 100), (800, 110), (850, 650), (150, 640)), image_size=SIZE),
                     cal_path)
    done = run(*photos)
    assert done.returncode == 0, done.stderr
    lens = load_calibration(cal_path).lens
    assert lens is not None and lens.camera_matrix[0][0] == pytest.approx(900, rel=0.03)
    assert "5 of 5 photos used" in done.stdout
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), cv2.resize(views[0], (640, 480)))
    wrong = run(str(small), str(small), str(small))
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
    sheet = run("--sheet", str(tmp_path / "board.png"))
    assert sheet.returncode == 0 and (tmp_path / "board.png").is_file()
    assert run().returncode == 2
    # `tablekeeper read` takes the lens from the calibration (its focal length is then "lens")
    read = subprocess.run([str(script), "read", "upwords", photos[0], "--json"], capture_output=True,
                          text=True, env=env, timeout=120)
    assert read.returncode == 0, read.stderr

"""``tablekeeper calibrate`` through the real console script: markers, board, teach, show."""

from __future__ import annotations

import functools
import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from calibration_scenes import board_texture, photograph

from calibration.file import Calibration, load_calibration, save_calibration
from vision.synthetic.render import Effects, Pose, render_street, render_upwords
from vision.synthetic.teach import UPWORDS_ALPHABET

SCRIPT = Path(sys.executable).parent / "tablekeeper"
QUAD = [[260, 120], [770, 120], [960, 700], [60, 700]]
LAYOUT = "ABCDEFGH\nIJKLMNOP\nQuRSTUVWX\nYZ\n"


def env_for(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["TABLEKEEPER_DATA"] = str(tmp / "data")
    env["TABLEKEEPER_CONFIG"] = str(tmp / "tablekeeper.toml")
    return env


def cli(tmp: Path, *args: str, stdin: str | None = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), "calibrate", *args], capture_output=True, text=True, input=stdin,
                          env=env_for(tmp), timeout=180)


@pytest.fixture(scope="module")
def marked_photo(tmp_path_factory):
    tex, area = board_texture()
    photo, truth = photograph(tex, area, QUAD)
    path = tmp_path_factory.mktemp("photos") / "board.png"
    cv2.imwrite(str(path), photo)
    return path, photo, truth


def test_markers_sheet(tmp_path: Path) -> None:
    done = cli(tmp_path, "markers", str(tmp_path / "sheet.png"), "--size-mm", "35")
    assert done.returncode == 0, done.stderr
    assert "35 mm" in done.stdout and (tmp_path / "sheet.png").stat().st_size > 10_000
    bad = cli(tmp_path, "markers", str(tmp_path / "sheet.jpg"))
    assert bad.returncode == 2 and "as .png or .pdf" in bad.stderr and "Traceback" not in bad.stderr


def test_board_found_by_markers_then_shown(tmp_path: Path, marked_photo) -> None:
    path, _, truth = marked_photo
    preview = tmp_path / "preview.png"
    done = cli(tmp_path, "board", str(path), "--board", "upwords", "--preview", str(preview))
    assert done.returncode == 0, done.stderr
    assert "corners found by the markers" in done.stdout and "calibrate teach" in done.stdout
    cal = load_calibration(tmp_path / "data" / "calibration.json")
    assert (cal.kind, cal.rows, cal.cols, cal.image_size) == ("upwords", 8, 8, (1024, 768))
    assert np.abs(np.array(cal.corners) - truth).max() < 1.5
    assert cv2.imread(str(preview)).shape == (768, 1024, 3)
    shown = cli(tmp_path, "show")
    assert shown.returncode == 0 and "upwords 8x8" in shown.stdout and "not taught yet" in shown.stdout
    as_json = json.loads(cli(tmp_path, "show", "--json").stdout)
    assert as_json["alphabet"][16] == "Qu" and as_json["version"] == 1


def test_a_hidden_marker_falls_back_to_the_grid_lines(tmp_path: Path, marked_photo) -> None:
    _, photo, truth = marked_photo
    hidden = photo.copy()
    x, y = truth[2]
    cv2.rectangle(hidden, (int(x) - 5, int(y) - 5), (int(x) + 90, int(y) + 60), (40, 90, 150), -1)
    path = tmp_path / "hand.png"
    cv2.imwrite(str(path), hidden)
    done = cli(tmp_path, "board", str(path), "--board", "upwords")
    assert done.returncode == 0, done.stderr
    assert "found by the grid lines" in done.stdout
    cal = load_calibration(tmp_path / "data" / "calibration.json")
    size = np.sqrt(cv2.contourArea(np.float32(truth)))
    assert np.linalg.norm(np.array(cal.corners) - np.array(truth), axis=1).max() < 0.01 * size


def test_no_markers_and_no_board_is_refused_and_nothing_is_saved(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    path = tmp_path / "carpet.png"
    cv2.imwrite(str(path), cv2.GaussianBlur(rng.integers(60, 200, (600, 800, 3), dtype=np.uint8), (5, 5), 0))
    done = cli(tmp_path, "board", str(path), "--board", "upwords")
    assert done.returncode == 2
    assert "no board found" in done.stderr and "no corner markers found" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "data" / "calibration.json").exists()


def test_board_from_given_corners_and_usage_errors(tmp_path: Path, marked_photo) -> None:
    path, _, _ = marked_photo
    out = tmp_path / "street.json"
    street = render_street({"B": 1}, pose=Pose(tilt_deg=20), seed=2)
    street_path = tmp_path / "street.png"
    cv2.imwrite(str(street_path), street.image)
    given = ",".join(f"{v:.1f}" for v in street.corners.ravel())
    done = cli(tmp_path, "board", str(street_path), "--board", "wots", "--corners", given, "--out", str(out))
    assert done.returncode == 0, done.stderr
    # Street corners on the Upwords photo enclose no street: refused, nothing saved.
    done = cli(tmp_path, "board", str(path), "--board", "wots", "--corners", "100,300,900,300,950,500,60,500",
               "--out", str(tmp_path / "wrong.json"))
    assert done.returncode == 2 and "no board found inside the corners" in done.stderr
    assert not (tmp_path / "wrong.json").exists()
    assert (load_calibration(out).rows, load_calibration(out).cols) == (5, 17)
    for args, words in [
        (("board", str(path), "--board", "wots", "--grid", "8x8"), "always 5x17"),
        (("board", "--board", "upwords"), "give a photo (IMAGE) or --camera"),
        (("board", str(tmp_path / "none.png"), "--board", "upwords"), "there is no file"),
        (("board", str(path), "--board", "grid", "--corners", "1,2,3"), "eight numbers"),
        (("board", str(path), "--board", "grid", "--corners", "100,80,90,410,560,420,540,90"), "wrong way"),
        ((), "say what to calibrate"),
        (("show",), "no calibration yet"),
        (("teach", "--from-photo", str(path)), "needs --layout"),
        (("teach", "--from-folder", str(tmp_path / "none")), "no folder of labelled letters"),
    ]:
        bad = cli(tmp_path, *args)
        assert bad.returncode == 2, (args, bad.stdout, bad.stderr)
        assert words in bad.stderr and "Traceback" not in bad.stderr, (args, bad.stderr)


def test_a_damaged_calibration_is_shown_plainly(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "calibration.json").write_text('{"version": 1, "kind": "upw')
    done = cli(tmp_path, "show")
    assert done.returncode == 2 and "cut short" in done.stderr and "Traceback" not in done.stderr


def test_board_from_the_camera_in_the_settings(tmp_path: Path, marked_photo) -> None:
    """The settings name a recording as the camera: the real ReplaySource takes the photo."""
    path, _, truth = marked_photo
    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(3):
        (frames / f"{i}.png").write_bytes(path.read_bytes())
    (tmp_path / "tablekeeper.toml").write_text(f'[camera]\nsource = "{frames}"\n')
    done = cli(tmp_path, "board", "--camera", "--board", "grid", "--grid", "8x8")
    assert done.returncode == 0, done.stderr
    assert f"replay of pictures {frames}" in done.stdout
    cal = load_calibration(tmp_path / "data" / "calibration.json")
    assert np.abs(np.array(cal.corners) - truth).max() < 1.5


# ------------------------------------------------------------------ teach, then read
@functools.cache
def _teaching_shot():
    """The teaching photo: rendered once for the module (the same picture for every test)."""
    cells = {}
    for r, line in enumerate(["ABCDEFGH", "IJKLMNOP", "Qu RSTUVWX", "YZ"]):
        tokens = line.split(" ") if " " in line else list(line)
        if r == 2:
            tokens = ["Qu", *"RSTUVWX"]
        for c, letter in enumerate(tokens):
            cells[(r, c)] = (letter, 1)
    return render_upwords(cells, pose=Pose(tilt_deg=25, yaw_deg=5), seed=5,
                          effects=Effects(noise_sigma=2.0, jpeg_quality=90))


def _teaching_setup(tmp_path: Path) -> Path:
    shot = _teaching_shot()
    cv2.imwrite(str(tmp_path / "teach.png"), shot.image)
    (tmp_path / "layout.txt").write_text(LAYOUT)
    cal = Calibration(kind="upwords", rows=8, cols=8, corners=tuple(map(tuple, shot.corners)),
                      image_size=shot.image_size, alphabet=UPWORDS_ALPHABET)
    save_calibration(cal, tmp_path / "data" / "calibration.json")
    return tmp_path / "teach.png"


def test_teach_from_a_photo_then_read_a_game(tmp_path: Path) -> None:
    photo = _teaching_setup(tmp_path)
    done = cli(tmp_path, "teach", "--from-photo", str(photo), "--layout", str(tmp_path / "layout.txt"),
               "--accept")
    assert done.returncode == 0, done.stderr
    assert "taught 26 examples of 26 letters" in done.stdout
    cal = load_calibration(tmp_path / "data" / "calibration.json")
    assert cal.letters_file == "letters.npz" and (tmp_path / "data" / "letters.npz").is_file()
    # the set's thickness, measured against its pitch from the tiles laid out (3.6 mm on 22 mm cells)
    assert cal.tile_height == pytest.approx(3.6 / 22, abs=0.02) and "of a cell thick" in done.stdout
    # a game, seen by the same camera: `tablekeeper read` uses the taught letters via the calibration
    game = {(3, 2): ("W", 1), (3, 3): ("O", 1), (3, 4): ("R", 1), (3, 5): ("D", 1)}
    shot = render_upwords(game, pose=Pose(tilt_deg=25, yaw_deg=5), seed=11,
                          effects=Effects(noise_sigma=2.0, jpeg_quality=90))
    cv2.imwrite(str(tmp_path / "game.png"), shot.image)
    read = subprocess.run([str(SCRIPT), "read", "upwords", str(tmp_path / "game.png"), "--json"],
                          capture_output=True, text=True, env=env_for(tmp_path), timeout=180)
    assert read.returncode == 0, read.stderr
    seen = {(c["row"], c["col"]): c["letter"] for c in json.loads(read.stdout)["cells"] if c["height"]}
    assert seen == {rc: letter for rc, (letter, _) in game.items()}


def test_teach_off_a_terminal_without_accept_lists_the_doubts(tmp_path: Path) -> None:
    photo = _teaching_setup(tmp_path)
    done = cli(tmp_path, "teach", "--from-photo", str(photo), "--layout", str(tmp_path / "layout.txt"))
    assert done.returncode == 2, done.stdout
    assert "disagree with Tesseract" in done.stderr and "--accept" in done.stderr
    assert not (tmp_path / "data" / "letters.npz").exists()


def _talk(argv: list[str], env: dict[str, str], answer, timeout: float = 180.0) -> tuple[int, str]:
    """Run a command on a pseudo-terminal, answering each prompt with ``answer(prompt_text)``."""
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.execve(argv[0], argv, env)
    out, pending, deadline = b"", b"", time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            pending += chunk
            if pending.rstrip().endswith(b"leaves it out:"):
                os.write(fd, answer(pending.decode("utf-8", "replace")).encode() + b"\n")
                pending = b""
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace")


def test_teach_on_a_terminal_asks_about_each_doubt(tmp_path: Path) -> None:
    photo = _teaching_setup(tmp_path)
    prompts: list[str] = []

    def answer(text: str) -> str:
        prompts.append(text)
        return "-" if len(prompts) == 1 else ""  # leave the first doubtful cell out, keep the rest

    code, out = _talk([str(SCRIPT), "calibrate", "teach", "--from-photo", str(photo), "--layout",
                       str(tmp_path / "layout.txt")], env_for(tmp_path), answer)
    assert code == 0, out
    assert prompts, "Tesseract agreed everywhere: nothing was asked"
    assert "taught 25 examples" in out and f"{len(prompts)} checked by hand" in out


CROPS = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-tile-crops"


@pytest.mark.skipif(not CROPS.is_dir(), reason="../shared/data/real-tile-crops is not beside the repo")
def test_real_crops_taught_before_the_board_are_used_by_the_board(tmp_path: Path, marked_photo) -> None:
    done = cli(tmp_path, "teach", "--from-folder", str(CROPS))
    assert done.returncode == 0, done.stderr
    assert "of 26 letters" in done.stdout
    assert "`tablekeeper calibrate board` will use these letters" in done.stdout
    assert (tmp_path / "data" / "letters.npz").is_file()
    path, _, _ = marked_photo
    board = cli(tmp_path, "board", str(path), "--board", "grid")
    assert board.returncode == 0, board.stderr
    assert load_calibration(tmp_path / "data" / "calibration.json").letters_file == "letters.npz"
    assert "letters.npz" in cli(tmp_path, "show").stdout

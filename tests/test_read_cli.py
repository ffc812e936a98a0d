"""``tablekeeper read`` through the real console script, on rendered photos saved to disk."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from vision.synthetic.render import Pose, render_street, render_upwords
from vision.synthetic.teach import teaching_samples

SCRIPT = Path(sys.executable).parent / "tablekeeper"


def run(*args: str, data_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if data_dir is not None:
        env["TABLEKEEPER_DATA"] = str(data_dir)
    return subprocess.run([str(SCRIPT), "read", *args], capture_output=True, text=True, env=env, timeout=120)


def _corners(shot) -> str:
    return ",".join(f"{v:.2f}" for v in shot.corners.ravel())


@pytest.fixture(scope="module")
def upwords_photo(tmp_path_factory):
    cells = {(3, 1): ("W", 2), (3, 2): ("O", 1), (3, 3): ("O", 1), (3, 4): ("L", 2), (4, 4): ("E", 1)}
    shot = render_upwords(cells, pose=Pose(tilt_deg=30, yaw_deg=5), seed=3)
    path = tmp_path_factory.mktemp("photos") / "upwords.png"
    cv2.imwrite(str(path), shot.image)
    return path, shot, cells


def test_upwords_text_shows_the_tiles_where_they_are(upwords_photo) -> None:
    path, shot, _ = upwords_photo
    result = run("upwords", str(path), "--corners", _corners(shot))
    assert result.returncode == 0, result.stderr
    rows = result.stdout.splitlines()
    assert rows[0].split() == [str(c) for c in range(8)]
    row3 = rows[1 + 3].split()
    assert row3[0] == "3" and row3[1] == "." and row3[2].startswith("?2") and row3[3].startswith("?1")
    assert "no taught letters" in result.stdout


def test_upwords_json_gives_every_cell_with_its_confidence(upwords_photo) -> None:
    path, shot, cells = upwords_photo
    result = run("upwords", str(path), "--grid", "8x8", "--corners", _corners(shot), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["game"] == "upwords" and len(data["cells"]) == 64
    occupied = {(c["row"], c["col"]): c["height"] for c in data["cells"] if c["height"]}
    assert set(occupied) == set(cells)
    assert occupied[(3, 1)] == 2 and occupied[(3, 2)] == 1
    assert all(0.0 <= c["confidence"] <= 1.0 and "uncertain" in c for c in data["cells"])


def test_upwords_with_taught_letters(upwords_photo, tmp_path) -> None:
    letters = pytest.importorskip("vision.letters", reason="vision/letters.py is missing")
    images, labels = teaching_samples()
    classifier = letters.LetterClassifier()
    classifier.fit(images, labels)
    model = tmp_path / "letters.npz"
    classifier.save(model)
    path, shot, cells = upwords_photo
    result = run("upwords", str(path), "--corners", _corners(shot), "--letters", str(model), "--json",
                 "--no-tesseract")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    got = {(c["row"], c["col"]): c["letter"] for c in data["cells"] if c["height"]}
    assert got == {rc: letter for rc, (letter, _) in cells.items()}


def test_word_on_the_street_positions(tmp_path) -> None:
    shot = render_street({"B": -2, "P": 2, "R": 3}, pose=Pose(tilt_deg=20), seed=2)
    path = tmp_path / "street.jpg"
    cv2.imwrite(str(path), shot.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    result = run("wots", str(path), "--corners", _corners(shot), "--json")
    assert result.returncode == 0, result.stderr
    positions = {c["letter"]: c["position"] for c in json.loads(result.stdout)["columns"]}
    assert positions["B"] == -2 and positions["P"] == 2 and positions["R"] is None and positions["M"] == 0
    text = run("word-on-the-street", str(path), "--corners", _corners(shot))
    assert text.returncode == 0 and "captured / not on the board: R" in text.stdout


def test_with_a_calibration_file(upwords_photo, tmp_path) -> None:
    cal_mod = pytest.importorskip("calibration.file", reason="calibration/file.py is missing")
    letters = pytest.importorskip("vision.letters", reason="vision/letters.py is missing")
    path, shot, cells = upwords_photo
    images, labels = teaching_samples()
    classifier = letters.LetterClassifier()
    classifier.fit(images, labels)
    classifier.save(tmp_path / "letters.npz")
    cal = cal_mod.Calibration(kind="upwords", rows=8, cols=8,
                              corners=tuple((float(x), float(y)) for x, y in shot.corners),
                              image_size=shot.image_size, letters_file="letters.npz",
                              lens=cal_mod.Lens.from_arrays(shot.camera.K), tile_height=3.6 / 22)
    cal_path = tmp_path / "calibration.json"
    cal_mod.save_calibration(cal, cal_path)
    result = run("upwords", str(path), "--calibration", str(cal_path), "--json", "--no-tesseract")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)["cells"]
    got = {(c["row"], c["col"]): (c["letter"], c["height"]) for c in data if c["height"]}
    assert got == cells
    # the kiosk's own calibration file is the default
    (tmp_path / "data").mkdir()
    cal_mod.save_calibration(cal, tmp_path / "data" / "calibration.json")
    (tmp_path / "data" / "letters.npz").write_bytes((tmp_path / "letters.npz").read_bytes())
    default = run("upwords", str(path), "--no-tesseract", data_dir=tmp_path / "data")
    assert default.returncode == 0, default.stderr
    assert " W2 " in default.stdout and "no taught letters" not in default.stdout
    other = run("wots", str(path), "--calibration", str(cal_path))
    assert other.returncode == 2 and "calibration for upwords" in other.stderr


def test_heights_are_in_doubt_until_the_sets_thickness_is_measured(upwords_photo, tmp_path) -> None:
    cal_mod = pytest.importorskip("calibration.file", reason="calibration/file.py is missing")
    path, shot, cells = upwords_photo
    cal = cal_mod.Calibration(kind="upwords", rows=8, cols=8,
                              corners=tuple((float(x), float(y)) for x, y in shot.corners),
                              image_size=shot.image_size)
    cal_path = tmp_path / "calibration.json"
    cal_mod.save_calibration(cal, cal_path)
    for where in (("--calibration", str(cal_path)), ("--corners", _corners(shot))):
        result = run("upwords", str(path), *where, "--json", "--no-tesseract")
        assert result.returncode == 0, result.stderr
        tiles = [c for c in json.loads(result.stdout)["cells"] if c["height"]]
        assert {(c["row"], c["col"]) for c in tiles} == set(cells)
        assert all(c["uncertain"] and any("never measured" in f for f in c["flags"]) for c in tiles), tiles


@pytest.mark.parametrize(("args", "message"), [
    (("upwords", "{missing}", "--corners", "1,2,3,4,5,6,7,8"), "no picture at"),
    (("upwords", "{photo}"), "no calibration yet"),
    (("upwords", "{photo}", "--calibration", "{missing}"), "no calibration file at"),
    (("upwords", "{photo}", "--grid", "8by8", "--corners", "{corners}"), "is not ROWSxCOLS"),
    (("upwords", "{photo}", "--corners", "1,2,3"), "needs eight numbers"),
    (("upwords", "{photo}", "--corners", "a,b,c,d,e,f,g,h"), "expected eight numbers"),
    (("upwords", "{photo}", "--corners", "0,0,5000,0,5000,5000,0,5000"), "outside the"),
    (("upwords", "{photo}", "--corners", "10,10,12,10,12,12,10,12"), "do not enclose a board"),
    (("chess", "{photo}", "--corners", "{corners}"), "not a board the camera reads"),
    (("wots", "{photo}", "--grid", "8x8", "--corners", "{corners}"), "always 5x17"),
    (("upwords", "{text}", "--corners", "{corners}"), "not a picture"),
    (("upwords", "{photo}", "--corners", "{corners}", "--letters", "{missing}"), "no letter classifier"),
])
def test_bad_usage_is_one_plain_line_and_exit_2(upwords_photo, tmp_path, args, message) -> None:
    path, shot, _ = upwords_photo
    text = tmp_path / "notes.png"
    text.write_text("not a picture")
    values = {"photo": str(path), "missing": str(tmp_path / "missing.png"), "corners": _corners(shot),
              "text": str(text)}
    result = run(*(a.format(**values) for a in args), data_dir=tmp_path / "empty-data")
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr

"""The calibration file: round trip, atomic writes, and plain errors for every kind of damage."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.file import (
    Calibration,
    CalibrationError,
    Lens,
    load_calibration,
    save_calibration,
)

CORNERS = ((100.0, 80.0), (540.0, 90.0), (560.0, 420.0), (90.0, 410.0))


def _cal(**kw) -> Calibration:
    base = dict(kind="upwords", rows=8, cols=8, corners=CORNERS, image_size=(640, 480))
    base.update(kw)
    return Calibration(**base)


def test_round_trip_with_lens_letters_and_special_alphabet(tmp_path: Path) -> None:
    lens = Lens.from_arrays(np.array([[800.0, 0, 320], [0, 810.0, 240], [0, 0, 1]]),
                            np.array([[0.1, -0.02, 0.0, 0.0, 0.001]]))
    cal = _cal(alphabet=("A", "B", "Qu", "Ä"), letters_file="letters.npz", lens=lens)
    path = tmp_path / "sub" / "calibration.json"
    save_calibration(cal, path)
    back = load_calibration(path)
    assert back == cal
    assert back.alphabet == ("A", "B", "Qu", "Ä")
    assert back.letters_path(path) == tmp_path / "sub" / "letters.npz"
    assert back.lens is not None and back.lens.camera_matrix[1][1] == 810.0
    assert json.loads(path.read_text("utf-8"))["version"] == 1
    assert not [p for p in path.parent.iterdir() if p.name != "calibration.json"], "temp file left behind"


def test_numpy_values_are_accepted_and_stored_as_plain_numbers(tmp_path: Path) -> None:
    cal = Calibration(kind="grid", rows=np.int64(5), cols=np.int32(6),
                      corners=np.array(CORNERS, np.float32), image_size=(np.int64(640), np.int64(480)))
    save_calibration(cal, tmp_path / "c.json")
    data = json.loads((tmp_path / "c.json").read_text())
    assert data["rows"] == 5 and data["image_size"] == [640, 480] and isinstance(data["corners"][0][0], float)


def test_a_string_alphabet_is_split_into_letters() -> None:
    assert _cal(alphabet="ABC").alphabet == ("A", "B", "C")


def test_saving_over_an_existing_file_replaces_it_whole(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    save_calibration(_cal(), path)
    inode_before = path.stat().st_ino
    save_calibration(_cal(kind="grid", rows=3, cols=4), path)
    assert load_calibration(path).rows == 3
    assert path.stat().st_ino != inode_before  # a new file renamed over the old, not rewritten in place


def test_a_failed_save_is_a_plain_error_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    path.mkdir()  # something that cannot be replaced by a file
    (path / "keep.txt").write_text("mine")
    with pytest.raises(CalibrationError, match="cannot write the calibration file"):
        save_calibration(_cal(), path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["calibration.json"]
    assert (path / "keep.txt").read_text() == "mine"


@pytest.mark.parametrize(("content", "words"), [
    (None, "no calibration file"),
    (b"", "empty"),
    (b"   \n", "empty"),
    (b'{"version": 1, "kind": "upwords", "rows": 8', "cut short"),
    (b'{"version": 1, "kind": }', "damaged"),
    (b"\xff\xfe\x00garbage", "not text"),
    (b'[1, 2]', "not a JSON object"),
    (b'{"version": 2, "kind": "upwords"}', "version 2"),
    (b'{"kind": "upwords"}', "version None"),
    (b'{"version": 1, "kind": "upwords"}', "lacks rows, cols, corners, image_size"),
])
def test_damaged_files_are_plain_errors_and_are_left_alone(tmp_path: Path, content, words) -> None:
    path = tmp_path / "calibration.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(CalibrationError, match=words) as err:
        load_calibration(path)
    assert "Traceback" not in str(err.value)
    if content is not None:
        assert path.read_bytes() == content


def test_a_truncated_save_is_recognised_as_half_written(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    save_calibration(_cal(lens=Lens(((500.0, 0, 1), (0, 500.0, 1), (0, 0, 1)))), path)
    whole = path.read_bytes()
    for cut in (len(whole) // 3, len(whole) // 2, len(whole) - 3):
        path.write_bytes(whole[:cut])
        with pytest.raises(CalibrationError, match="cut short"):
            load_calibration(path)


def _edit(tmp_path: Path, **changes) -> Path:
    data = _cal().to_dict()
    data.update(changes)
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(("changes", "words"), [
    ({"corners": [[0, 0], [1, 0], [1, 1]]}, "four points"),
    ({"corners": [[100, 80], [540, 90], [90, 410], [560, 420]]}, "not make a convex"),
    ({"corners": [[100, 80], [90, 410], [560, 420], [540, 90]]}, "wrong way"),
    ({"corners": [[100, 80], [300, 80], [500, 80], [90, 410]]}, "three in a line"),
    ({"corners": [[100, 80], [5000, 90], [560, 420], [90, 410]]}, "outside the 640x480"),
    ({"corners": "top left"}, "four"),
    ({"corners": [[1, "x"], [2, 0], [2, 2], [0, 2]]}, "malformed|four"),
    ({"rows": 0}, "rows must be"),
    ({"cols": 2.5}, "cols must be"),
    ({"rows": True}, "rows must be"),
    ({"kind": "chess"}, "board kind 'chess'"),
    ({"kind": "wots", "rows": 8, "cols": 8}, "5 rows x 17 columns"),
    ({"image_size": [640]}, "image size"),
    ({"image_size": [0, 480]}, "image size"),
    ({"alphabet": []}, "alphabet"),
    ({"alphabet": ["A", "A"]}, "twice"),
    ({"alphabet": 7}, "alphabet"),
    ({"lens": {"camera_matrix": [[1, 0], [0, 1]]}}, "3x3"),
    ({"lens": {"camera_matrix": [[0, 0, 1], [0, 5, 1], [0, 0, 1]]}}, "focal"),
    ({"lens": {"camera_matrix": [[5, 0, 1], [0, 5, 1], [0, 0, 1]], "distortion": [1, 2, 3]}}, "3 distortion"),
    ({"lens": "wide"}, "lens"),
    ({"letters_file": ""}, "letters_file"),
])
def test_impossible_values_are_refused_in_plain_words(tmp_path: Path, changes, words) -> None:
    path = _edit(tmp_path, **changes)
    with pytest.raises(CalibrationError, match=words) as err:
        load_calibration(path)
    assert str(path) in str(err.value)


def test_a_folder_in_place_of_the_file(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="folder"):
        load_calibration(tmp_path)


_coord = st.floats(0, 600, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(x0=_coord, y0=_coord, w=st.floats(20, 400), h=st.floats(20, 400), skew=st.floats(-15, 15),
       rows=st.integers(1, 50), cols=st.integers(1, 50))
def test_any_valid_calibration_survives_the_round_trip(tmp_path_factory, x0, y0, w, h, skew, rows,
                                                        cols) -> None:
    corners = ((x0 + skew, y0), (x0 + w, y0 + skew), (x0 + w - skew, y0 + h), (x0, y0 + h - skew))
    cal = Calibration(kind="grid", rows=rows, cols=cols, corners=corners, image_size=(1100, 1100))
    path = tmp_path_factory.mktemp("h") / "c.json"
    save_calibration(cal, path)
    assert load_calibration(path) == cal

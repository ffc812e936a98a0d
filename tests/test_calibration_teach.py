"""Teaching the letter reader: layouts, cells cut from a rendered teaching photo, confirmation."""

from __future__ import annotations

from pathlib import Path

import pytest

from calibration.file import Calibration, load_calibration, save_calibration
from vision.letters import LetterClassifier, LetterRead
from vision.synthetic.render import Effects, Pose, render_street, render_upwords
from vision.synthetic.teach import UPWORDS_ALPHABET
from vision.teach_letters import (
    Sample,
    TeachError,
    cell_crops,
    confirm,
    parse_layout,
    samples_from_folder,
    samples_from_photo,
    save_taught,
    teach,
)

TEACHING_LAYOUT = """\
# the players' tiles, alphabetical, from the top-left cell
ABCDEFGH
I J K L M N O P
QuRSTUVWX
YZ......
"""
CROPS = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-tile-crops"
EFFECTS = Effects(noise_sigma=2.0, jpeg_quality=90)


def calibration_for(shot, kind="upwords", alphabet=UPWORDS_ALPHABET) -> Calibration:
    return Calibration(kind=kind, rows=shot.rows, cols=shot.cols,
                       corners=tuple((float(x), float(y)) for x, y in shot.corners),
                       image_size=shot.image_size, alphabet=alphabet)


# ------------------------------------------------------------------ layouts
def test_layout_with_and_without_spaces_qu_and_comments() -> None:
    cells = parse_layout(TEACHING_LAYOUT, 8, 8, UPWORDS_ALPHABET)
    assert len(cells) == 26
    assert cells[(0, 0)] == "A" and cells[(1, 7)] == "P" and cells[(2, 0)] == "Qu" and cells[(2, 1)] == "R"
    assert cells[(3, 1)] == "Z" and (3, 2) not in cells


def test_layout_letters_match_the_alphabet_ignoring_case() -> None:
    cells = parse_layout("qu ä .\n", 2, 3, ("Qu", "Ä", "A"))
    assert cells == {(0, 0): "Qu", (0, 1): "Ä"}


@pytest.mark.parametrize(("text", "words"), [
    ("ABCDEFGHI\n", "row 1 has 9 cells; the board has 8 columns"),
    ("A\n" * 9, "the layout has 9 rows; the board has 8"),
    ("AB1\n", r"not letters: '1' \(row 1\)"),
    ("..\n# nothing\n", "places no tiles"),
])
def test_bad_layouts_are_plain_errors(text, words) -> None:
    with pytest.raises(TeachError, match=words):
        parse_layout(text, 8, 8, UPWORDS_ALPHABET)


# ------------------------------------------------------------------ teaching from a photo
@pytest.fixture(scope="module")
def teaching_photo():
    layout = parse_layout(TEACHING_LAYOUT, 8, 8, UPWORDS_ALPHABET)
    shot = render_upwords({rc: (letter, 1) for rc, letter in layout.items()},
                          pose=Pose(tilt_deg=25, yaw_deg=5), seed=5, effects=EFFECTS)
    return shot, layout


def test_taught_from_one_photo_it_reads_another_board(teaching_photo) -> None:
    shot, layout = teaching_photo
    samples = samples_from_photo(shot.image, calibration_for(shot), layout, check_with_tesseract=False)
    assert [s.label for s in samples][:3] == ["A", "B", "C"] and all(s.proposed is None for s in samples)
    classifier = teach(samples)
    assert set(classifier.alphabet) == set(UPWORDS_ALPHABET)
    # a different board, camera and lighting: every letter in a new place
    cells = {divmod(i + 30, 8): (letter, 1) for i, letter in enumerate(UPWORDS_ALPHABET)}
    play = render_upwords(cells, pose=Pose(tilt_deg=35, yaw_deg=-7), seed=9, effects=EFFECTS)
    crops = cell_crops(play.image, calibration_for(play), list(cells))
    right = sum(classifier.classify(crops[rc]).letter == letter for rc, (letter, _) in cells.items())
    assert right >= 25, f"{right} of 26"


def test_tesseract_checks_every_cell(teaching_photo) -> None:
    shot, layout = teaching_photo
    some = {rc: layout[rc] for rc in [(0, 0), (0, 4), (1, 4), (2, 3)]}  # A E M S
    samples = samples_from_photo(shot.image, calibration_for(shot), some)
    assert all(s.proposed is not None and s.proposed.source == "tesseract" for s in samples)
    assert sum(not s.disagrees for s in samples) >= 2  # Tesseract agrees on most clear letters


def test_a_wots_photo_is_cut_on_the_street_grid() -> None:
    shot = render_street({"B": -2, "C": 1}, pose=Pose(tilt_deg=20), seed=4, effects=EFFECTS)
    cal = calibration_for(shot, kind="wots", alphabet=tuple("BCDFGHKLMNPRSTVWY"))
    crops = cell_crops(shot.image, cal, [(0, 0), (3, 1), (2, 5)])
    assert all(c.size and c.shape[0] > 20 for c in crops.values())
    tile = LetterClassifier().fit([crops[(0, 0)], crops[(3, 1)]], ["B", "C"])
    assert tile.classify(crops[(0, 0)]).letter == "B"


def test_a_photo_of_another_size_is_scaled_or_refused(teaching_photo) -> None:
    import cv2

    shot, _ = teaching_photo
    cal = calibration_for(shot)
    half = cv2.resize(shot.image, (512, 384), interpolation=cv2.INTER_AREA)
    assert cell_crops(half, cal, [(0, 0)])[(0, 0)].size
    with pytest.raises(TeachError, match="1024x768 pictures; this photo is 500x500"):
        cell_crops(cv2.resize(shot.image, (500, 500)), cal, [(0, 0)])


def test_a_layout_off_the_board_is_refused(teaching_photo) -> None:
    shot, _ = teaching_photo
    cal = Calibration(kind="grid", rows=2, cols=2, corners=calibration_for(shot).corners,
                      image_size=shot.image_size)
    with pytest.raises(TeachError, match="row 3, column 1 is off the 2x2 board"):
        samples_from_photo(shot.image, cal, {(2, 0): "A"})


# ------------------------------------------------------------------ a person confirms
def _samples() -> list[Sample]:
    import numpy as np

    blank = np.zeros((8, 8), np.uint8)
    return [Sample(blank, "A", 0, 0, LetterRead("A", 0.9, "tesseract")),
            Sample(blank, "B", 0, 1, LetterRead("R", 0.7, "tesseract")),
            Sample(blank, "C", 0, 2, LetterRead(None, 0.0, "tesseract")),
            Sample(blank, "D", 0, 3, LetterRead("O", 0.5, "tesseract"))]


def test_confirm_asks_only_about_disagreements_and_takes_the_answers() -> None:
    answers = iter(["r", "", "?", "-"])  # correct B to R; keep C; a non-letter asks again; drop D
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    kept = confirm(_samples(), ask, tuple("ABCDR"))
    assert [s.label for s in kept] == ["A", "R", "C"]
    assert prompts[0].startswith("row 1, column 2: the layout says B, Tesseract reads R.")
    assert "Tesseract reads nothing" in prompts[1] and len(prompts) == 4


def test_accept_takes_the_layout_as_written() -> None:
    assert [s.label for s in confirm(_samples(), None, "ABCD")] == ["A", "B", "C", "D"]


def test_nothing_to_teach() -> None:
    with pytest.raises(TeachError, match="nothing to teach"):
        teach([])


# ------------------------------------------------------------------ folders and saving
@pytest.mark.skipif(not CROPS.is_dir(), reason="../shared/data/real-tile-crops is not beside the repo")
def test_teaching_from_real_crops_is_saved_beside_the_calibration(tmp_path: Path, teaching_photo) -> None:
    shot, _ = teaching_photo
    cal_path = tmp_path / "calibration.json"
    cal = calibration_for(shot)
    save_calibration(cal, cal_path)
    classifier = teach(samples_from_folder(CROPS))
    target = save_taught(classifier, cal_path, cal)
    assert target == tmp_path / "letters.npz" and target.is_file()
    again = load_calibration(cal_path)
    assert again.letters_file == "letters.npz" and again.letters_path(cal_path) == target
    assert "Q" in again.alphabet and "Qu" in again.alphabet  # the folder's Q joins the board's Qu
    assert LetterClassifier.load(target).alphabet == classifier.alphabet
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_missing_folder_is_a_plain_error(tmp_path: Path) -> None:
    with pytest.raises(TeachError, match="no folder of labelled letters"):
        samples_from_folder(tmp_path / "nope")

"""The letter reader on real Scrabble tile crops (../shared/data) and on rendered cells."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import letters as letters_module
from vision.glyphs import glyph_features, normalise_glyph, tight_glyph
from vision.letters import (
    LetterClassifier,
    LetterReader,
    load_labelled_folder,
    teach,
)
from vision.tesseract_labeller import tesseract_letter

CROPS = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-tile-crops"
needs_crops = pytest.mark.skipif(
    not CROPS.is_dir(), reason="../shared/data/real-tile-crops is not beside the repo"
)


@pytest.fixture(scope="module")
def crops() -> tuple[list[np.ndarray], list[str]]:
    return load_labelled_folder(CROPS)


def split(n: int, seed: int, taught: float = 0.8) -> tuple[np.ndarray, np.ndarray]:
    order = np.random.default_rng(seed).permutation(n)
    cut = int(n * taught)
    return order[:cut], order[cut:]


@needs_crops
def test_real_crops_read_at_least_99_percent_on_held_out_tiles(crops) -> None:
    images, labels = crops
    assert len(images) == 1067 and len(set(labels)) == 26
    right = total = 0
    for seed in range(5):  # five different 80/20 splits: the figure is not one lucky draw
        taught, held = split(len(images), seed)
        model = LetterClassifier().fit([images[i] for i in taught], [labels[i] for i in taught])
        reads = model.classify_many([images[i] for i in held])
        right += sum(r.letter == labels[i] for r, i in zip(reads, held, strict=True))
        total += len(held)
    assert right / total >= 0.99, f"{right}/{total} = {right / total:.4f}"


@needs_crops
def test_confidence_is_low_when_wrong(crops) -> None:
    images, labels = crops
    taught, held = split(len(images), 1)
    model = LetterClassifier().fit([images[i] for i in taught], [labels[i] for i in taught])
    reads = model.classify_many([images[i] for i in held])
    right = [r.confidence for r, i in zip(reads, held, strict=True) if r.letter == labels[i]]
    wrong = [r.confidence for r, i in zip(reads, held, strict=True) if r.letter != labels[i]]
    assert np.median(right) > 0.5
    assert not wrong or np.median(wrong) < np.median(right)


@needs_crops
def test_save_and_load_round_trip(tmp_path: Path, crops) -> None:
    images, labels = crops
    model = LetterClassifier().fit(images[::3], labels[::3])
    model.save(tmp_path / "letters.npz")
    again = LetterClassifier.load(tmp_path / "letters.npz")
    assert again.alphabet == model.alphabet
    assert [r.letter for r in again.classify_many(images[1::50])] == [
        r.letter for r in model.classify_many(images[1::50])
    ]


def test_a_damaged_letters_file_is_a_plain_error(tmp_path: Path) -> None:
    bad = tmp_path / "letters.npz"
    bad.write_bytes(b"not a numpy file")
    with pytest.raises(ValueError, match="cannot be read"):
        LetterClassifier.load(bad)


def rendered_cell(text: str, dark_on_light: bool = True, size: int = 48) -> np.ndarray:
    cell = np.full((size, size), 225 if dark_on_light else 30, np.uint8)
    scale = 1.2 if len(text) == 1 else 0.8
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 3)
    org = ((size - w) // 2, (size + h) // 2)
    cv2.putText(
        cell, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, 20 if dark_on_light else 235, 3, cv2.LINE_AA
    )
    return cell


def test_empty_cell_has_no_glyph() -> None:
    assert normalise_glyph(np.full((40, 40), 200, np.uint8)) is None
    assert (
        LetterClassifier().fit([rendered_cell("A")], ["A"]).classify(np.full((40, 40), 90, np.uint8)).letter
        is None
    )


def test_multi_letter_labels_and_either_polarity() -> None:
    alphabet = ["A", "B", "Qu", "O"]
    model = LetterClassifier().fit([rendered_cell(t) for t in alphabet], alphabet)
    assert [model.classify(rendered_cell(t, dark_on_light=False)).letter for t in alphabet] == alphabet


def test_tesseract_labels_at_teaching_time_but_never_reads_a_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """Real Tesseract proposes a label when teaching; the reader never calls it, even unsure."""
    assert tesseract_letter(rendered_cell("K"), list("ABCDEFGHIJKLMNOPRSTUVWXYZ")).letter == "K"
    import vision.tesseract_labeller as labeller

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("Tesseract was called while reading")

    monkeypatch.setattr(labeller, "tesseract_letter", refuse)
    model = LetterClassifier().fit([rendered_cell("O"), rendered_cell("C")], ["O", "C"])
    reader = LetterReader(model, threshold=1.01)  # never sure
    read = reader.read(rendered_cell("O"))
    assert read.letter == "O" and read.source == "knn" and read.confidence < reader.threshold


def test_opencv_apis_we_rely_on_exist() -> None:
    """opencv-python is pinned below 5 because 5.x drops these; a bump that breaks them fails here."""
    assert hasattr(cv2, "HOGDescriptor")
    assert hasattr(cv2.aruco, "ArucoDetector") and hasattr(cv2.aruco, "generateImageMarker")
    assert hasattr(cv2.aruco, "CharucoDetector")


def _face(letter: str, frame: bool) -> np.ndarray:
    """A small tile face as a crossword board's cut shows it: a dark serif letter on a light
    face, with (optionally) the tile's thin dark edge round it where the tile is smaller than
    the cut."""
    face = np.full((30, 30, 3), 200, np.uint8)
    cv2.putText(face, letter, (9, 21), cv2.FONT_HERSHEY_TRIPLEX, 0.5, (40, 40, 40), 1, cv2.LINE_AA)
    if frame:  # drawn 2 px wide: more ink than the letter, as on the held-out boards
        cv2.rectangle(face, (0, 0), (29, 29), (60, 60, 60), 2)
    return face


def test_the_tiles_edge_round_the_cut_is_not_part_of_the_letter() -> None:
    """The tight view of a letter framed by its tile's edge is the letter's own (with the edge
    in it, held-out serif F's were read as P and P's as E); an edge with nothing inside is no
    letter at all."""
    for letter in "FPE":
        framed, bare = tight_glyph(_face(letter, True)), tight_glyph(_face(letter, False))
        assert framed is not None and bare is not None
        framed, bare = framed > 127, bare > 127
        assert (framed & bare).sum() / (framed | bare).sum() > 0.7, letter  # the same strokes
    assert glyph_features(_face("", True)) is None


@needs_crops
def test_nearest_letter_and_margin_match_a_plain_search_over_every_example(crops, monkeypatch) -> None:
    """The taught set is grouped by letter so a read takes each letter's nearest example in one
    pass; the letter and the margin must be those of a plain search over every example, in the
    teaching order (interleaved letters, a letter taught once, real crops). Measured along every
    direction, so the distances are exact (the main directions alone: the next test)."""
    monkeypatch.setattr(letters_module, "DIRECTIONS", 324)
    images, labels = crops
    taught, held = split(len(images), seed=11, taught=0.3)
    model = LetterClassifier().fit([images[i] for i in taught], [labels[i] for i in taught])
    whole = np.stack([glyph_features(images[i])[0] for i in taught])
    names = np.array([labels[i] for i in taught])
    asked = np.stack([glyph_features(images[i])[0] for i in held[:150]])
    reads, per_letter = model._nearest(model._taught().whole, asked)  # all at once
    assert len(reads) == len(asked)
    for vec, read in zip(asked, reads, strict=True):
        dist = np.sqrt(((whole.astype(np.float64) - vec) ** 2).sum(axis=1))
        letter = names[int(np.argmin(dist))]
        same, other = dist[names == letter].min(), dist[names != letter].min()
        assert read.letter == letter
        assert read.confidence == pytest.approx(min(1.0, max(0.0, 4 * (other - same) / other)), abs=2e-3)
    # each letter's nearest example, as the second look's candidates are chosen from
    names_sorted = sorted(set(names.tolist()))
    for vec, row in zip(asked, per_letter, strict=True):
        dist = np.sqrt(((whole.astype(np.float64) - vec) ** 2).sum(axis=1))
        assert row == pytest.approx([dist[names == n].min() for n in names_sorted], abs=2e-3)
    one_by_one = [model.classify(images[i]) for i in held[:40]]
    together = model.classify_many([images[i] for i in held[:40]])
    assert [r.letter for r in together] == [r.letter for r in one_by_one]
    # (one product or forty: the BLAS may round the last bit differently)
    assert [r.confidence for r in together] == pytest.approx([r.confidence for r in one_by_one], abs=1e-3)


def _rendered_face(letter: str, font: int, scale: float, shift: int) -> np.ndarray:
    face = np.full((32, 32, 3), 205, np.uint8)
    cv2.putText(face, letter, (8 + shift, 23), font, scale, (35, 35, 35), 2, cv2.LINE_AA)
    return face


def test_distances_along_the_main_directions_stay_within_their_bound() -> None:
    """A read measures distances along the taught set's main directions only. Each squared
    distance differs from the exact one by 2 Rq.Rx, at most twice the product of the residuals
    (what the directions leave out of the cell and of the example); a taught set of several
    hundred examples, taught the usual way (small moves and softer copies), must then name the
    letter a plain search over every example names."""
    alphabet = "ABCDEFGHIJKLMNOPRSTUVWY"
    fonts = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX)
    model = teach([_rendered_face(a, f, 0.7, 0) for f in fonts for a in alphabet],
                  [a for _ in fonts for a in alphabet])
    view = model._taught().whole
    assert len(model) > 2 * letters_module.DIRECTIONS  # the projection leaves something out
    basis = view.basis.astype(np.float64)
    assert basis.T @ basis == pytest.approx(np.eye(basis.shape[1]), abs=1e-5)  # orthonormal
    examples = model._features.astype(np.float64)  # the whole view of every taught example
    moved = ((0.66, 1), (0.74, -1))  # other sizes and places than taught
    asked_faces = [_rendered_face(a, f, s, d) for f in fonts for a in alphabet for s, d in moved]
    asked = np.stack([glyph_features(face)[0] for face in asked_faces])
    reads, per_letter = model._nearest(view, asked)
    names = np.array(model._labels.tolist())
    order = np.argsort(names, kind="stable")
    names, examples = names[order], examples[order]
    # every pair: the projected bracket less 2 Rq.Rx is the exact squared distance
    rest_x = examples - (examples @ basis) @ basis.T
    for vec in asked[:6].astype(np.float64):
        rest_q = vec - (vec @ basis) @ basis.T
        bracket = view.examples.astype(np.float64) @ np.r_[-2.0 * (vec @ basis), 1.0]
        exact = ((examples - vec) ** 2).sum(axis=1)
        assert vec @ vec + bracket - 2 * rest_x @ rest_q == pytest.approx(exact, abs=1e-4)
    residual_x = np.sqrt(np.maximum((examples ** 2).sum(1) - ((examples @ basis) ** 2).sum(1), 0)).max()
    letters_sorted = sorted(set(names.tolist()))
    for vec, read, row in zip(asked.astype(np.float64), reads, per_letter, strict=True):
        exact = ((examples - vec) ** 2).sum(axis=1)
        residual_q = np.sqrt(max(vec @ vec - ((vec @ basis) ** 2).sum(), 0.0))
        nearest_each = np.array([exact[names == n].min() for n in letters_sorted])
        assert np.abs(row.astype(np.float64) ** 2 - nearest_each).max() <= 2 * residual_q * residual_x + 1e-4
        assert read.letter == names[int(np.argmin(exact))]


def test_a_read_runs_the_blas_on_one_thread_and_gives_it_back() -> None:
    """One small product per letter: a threaded BLAS is 8 ms instead of 0.05 ms when the other
    core is busy. The limit holds only while reading."""
    from threadpoolctl import threadpool_info

    from vision.letters import _one_blas_thread

    before = [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]
    with _one_blas_thread():
        assert {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"} == {1}
    assert [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"] == before

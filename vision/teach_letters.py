"""Teaching the letter reader the players' own tiles.

Why: every set's font differs (Upwords, Word on the Street, a German edition with Ä), and a
classifier taught on the very tiles it will read is far surer than any generic OCR. Two ways:

* **a folder of labelled crops**, one sub-folder per letter (``A/0001.png``, ``Qu/...``), as
  ``vision.letters.load_labelled_folder`` reads them;
* **a photo of tiles laid out in a known order** on the calibrated board, with the layout
  written as text (one line per board row, ``.`` for an empty cell). The cells are cut out
  exactly as the readers cut them when playing (``vision.upwords_reader`` /
  ``vision.street``), Tesseract reads each one as a check, and a person confirms every cell
  where the layout and Tesseract disagree (a tile put in the wrong place is caught before
  it is learnt). ``accept=True`` takes the layout as written.

The taught classifier is saved as ``letters.npz`` beside the calibration file, and the
calibration records it (``letters_file``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from calibration.file import Calibration, CalibrationError, save_calibration
from vision.letters import LetterClassifier, LetterRead, load_labelled_folder
from vision.letters import teach as teach_letters
from vision.tesseract_labeller import tesseract_letter

LETTERS_FILE = "letters.npz"


class TeachError(CalibrationError):
    """Teaching cannot go on: a bad layout, no usable cells, nothing confirmed."""


@dataclass(frozen=True)
class Sample:
    """One taught cell: its crop, the letter it is taught as, and Tesseract's opinion."""

    image: np.ndarray
    label: str
    row: int = -1
    col: int = -1
    proposed: LetterRead | None = None

    @property
    def disagrees(self) -> bool:
        return self.proposed is not None and self.proposed.letter != self.label

    def where(self) -> str:
        return f"row {self.row + 1}, column {self.col + 1}"


# ------------------------------------------------------------------ the layout text
#: How a layout (and a reading) writes a blank tile: a tile with no letter on it.
BLANK = "?"


def parse_layout(text: str, rows: int, cols: int, alphabet: Sequence[str]) -> dict[tuple[int, int], str]:
    """Read a layout: one line per board row from the top, one letter per cell, ``.`` empty.

    Letters may be separated by spaces or not (``ABC.D`` = ``A B C . D``); ``Qu`` is one
    cell; ``?`` is a blank tile (a tile with no letter); lines starting with ``#`` are comments;
    short lines and missing rows are empty. Letters are matched to the alphabet ignoring case
    (``qu`` is ``Qu``); a letter the alphabet lacks (``Ä``, ``Ö``, ``Ü``, ``ß``...) is a letter
    of this set and is taught as it is written.
    """
    by_upper = {a.upper(): a for a in alphabet}
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if len(lines) > rows:
        raise TeachError(f"the layout has {len(lines)} rows; the board has {rows}")
    cells: dict[tuple[int, int], str] = {}
    unknown: list[str] = []
    for r, line in enumerate(lines):
        tokens = _tokens(line, by_upper)
        if len(tokens) > cols:
            raise TeachError(f"layout row {r + 1} has {len(tokens)} cells; the board has {cols} columns")
        for c, token in enumerate(tokens):
            if token == ".":
                continue
            letter = by_upper.get(token.upper())
            if letter is None and token == BLANK:
                letter = BLANK
            elif letter is None and token.isalpha():
                letter = token.upper() if len(token) == 1 else token.capitalize()
            if letter is None:
                unknown.append(f"{token!r} (row {r + 1})")
                continue
            cells[(r, c)] = letter
    if unknown:
        raise TeachError(f"the layout has cells that are not letters: {', '.join(unknown)} "
                         "(use . for an empty cell and ? for a blank tile)")
    if not cells:
        raise TeachError("the layout places no tiles")
    return cells


def _tokens(line: str, by_upper: dict[str, str]) -> list[str]:
    """Split a layout line into cells: spaces separate; within a word the longest alphabet
    entry wins (``QU`` is one Qu cell where the alphabet has Qu), else one character."""
    out: list[str] = []
    longest = max(len(k) for k in by_upper)
    for word in line.split():
        i = 0
        while i < len(word):
            for n in range(min(longest, len(word) - i), 0, -1):
                chunk = word[i:i + n]
                if n == 1 or chunk.upper() in by_upper:
                    out.append(chunk)
                    i += n
                    break
    return out


# ------------------------------------------------------------------ cutting cells out
def cell_crops(image: np.ndarray, cal: Calibration, cells: Sequence[tuple[int, int]]
               ) -> dict[tuple[int, int], np.ndarray]:
    """The tile face of each cell, cut the way the readers cut it in play."""
    h, w = image.shape[:2]
    try:
        corners = cal.corners_for(w, h)
    except CalibrationError as exc:
        raise TeachError(str(exc)) from None
    matrix = np.array(cal.lens.camera_matrix) if cal.lens else None
    if cal.kind == "wots":
        from vision.street import StreetReader

        street = StreetReader(corners, (w, h), camera_matrix=matrix)
        top = street.warp(image)
        return {rc: street.face_crop(top, *rc) for rc in cells}
    from vision.upwords_reader import UpwordsReader

    reader = UpwordsReader(corners, (w, h), rows=cal.rows, cols=cal.cols, camera_matrix=matrix)
    plane = reader.warp_planes(image)[1]  # tiles lying one high on the board
    return {rc: reader.face_crop(plane, *rc) for rc in cells}


def samples_from_photo(image: np.ndarray, cal: Calibration, layout: dict[tuple[int, int], str],
                       check_with_tesseract: bool = True) -> list[Sample]:
    """Cut every laid-out cell; with Tesseract's proposal for each when asked."""
    for (r, c) in layout:
        if not (0 <= r < cal.rows and 0 <= c < cal.cols):
            raise TeachError(f"the layout's row {r + 1}, column {c + 1} is off the "
                             f"{cal.rows}x{cal.cols} board")
    letters = {rc: label for rc, label in layout.items() if label != BLANK}  # blanks have no letter to learn
    crops = cell_crops(image, cal, sorted(letters))
    alphabet = tuple(sorted(set(cal.alphabet) | set(letters.values())))
    out = []
    for (r, c), label in sorted(letters.items()):
        crop = crops[(r, c)]
        proposed = tesseract_letter(crop, alphabet) if check_with_tesseract else None
        out.append(Sample(crop, label, r, c, proposed))
    return out


def samples_from_folder(folder: str | Path) -> list[Sample]:
    try:
        images, labels = load_labelled_folder(folder)
    except FileNotFoundError as exc:
        raise TeachError(str(exc)) from None
    return [Sample(img, label) for img, label in zip(images, labels, strict=True)]


# ------------------------------------------------------------------ a person confirms
Ask = Callable[[str], str]


def confirm(samples: Sequence[Sample], ask: Ask | None, alphabet: Sequence[str]) -> list[Sample]:
    """Ask about each cell where the layout and Tesseract disagree; return what is to be taught.

    ``ask(prompt) -> answer``: Enter keeps the layout's letter, a letter relabels the cell,
    ``-`` leaves it out. ``ask=None`` keeps the layout as written (``--accept``).
    """
    by_upper = {a.upper(): a for a in alphabet}
    kept: list[Sample] = []
    for s in samples:
        if ask is None or not s.disagrees:
            kept.append(s)
            continue
        assert s.proposed is not None
        seen = s.proposed.letter or "nothing"
        while True:
            answer = ask(f"{s.where()}: the layout says {s.label}, Tesseract reads {seen}. "
                         f"Enter keeps {s.label}, a letter corrects it, - leaves it out: ").strip()
            if not answer:
                kept.append(s)
                break
            if answer == "-":
                break
            letter = by_upper.get(answer.upper())
            if letter is not None:
                kept.append(replace(s, label=letter))
                break
    return kept


# ------------------------------------------------------------------ teaching and saving
def teach(samples: Sequence[Sample]) -> LetterClassifier:
    if not samples:
        raise TeachError("nothing to teach: every cell was left out")
    try:
        return teach_letters([s.image for s in samples], [s.label for s in samples])
    except ValueError as exc:
        raise TeachError(f"{exc} (is the board lit and in focus, and the layout right?)") from None


def save_taught(classifier: LetterClassifier, calibration_path: str | Path, cal: Calibration | None
                ) -> Path:
    """Write ``letters.npz`` beside the calibration and record it there (when there is one)."""
    calibration_path = Path(calibration_path)
    target = calibration_path.parent / LETTERS_FILE
    try:
        classifier.save(target)
    except OSError as exc:
        raise TeachError(f"cannot write {target}: {exc.strerror or exc}") from None
    if cal is not None:
        alphabet = tuple(dict.fromkeys((*cal.alphabet, *classifier.alphabet)))
        save_calibration(replace(cal, letters_file=LETTERS_FILE, alphabet=alphabet), calibration_path)
    return target

"""``tablekeeper read GAME IMAGE``: read a board from one photo and print what the camera sees.

Where the board is comes from the calibration file (``--calibration``, else the kiosk's own
one) or from ``--grid ROWSxCOLS --corners X,Y,X,Y,X,Y,X,Y`` (the playing area's outer
corners, top-left, top-right, bottom-right, bottom-left). Letters are read by the classifier
taught at calibration (``--letters`` overrides it); without one the letters show as ``?``.
Output is documented in docs/reading.md. Exit 0 when the board was read (uncertain cells are
marked, not errors), 2 for bad usage (no picture, no calibration, a bad grid or corners).
"""

from __future__ import annotations

import argparse
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.cli.usage import UsageError

if TYPE_CHECKING:
    import numpy as np

    from calibration.file import Calibration
    from vision.letters import LetterReader
    from vision.readers import BoardReader

GAMES = {"upwords": "upwords", "word-on-the-street": "word-on-the-street", "wots": "word-on-the-street",
         "street": "word-on-the-street", "grid": "grid"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME",
                        help="upwords, word-on-the-street (wots), or grid (a crossword-style board)")
    parser.add_argument("image", metavar="IMAGE", help="a photo of the board (JPEG, PNG, ...)")
    parser.add_argument("--calibration", metavar="FILE", help="calibration file (default: the kiosk's own)")
    parser.add_argument("--grid", metavar="ROWSxCOLS", help="board size, e.g. 8x8 or 10x10 (Upwords)")
    parser.add_argument("--corners", metavar="X,Y,X,Y,X,Y,X,Y",
                        help="the playing area's corners in the photo: top-left, top-right, bottom-right, "
                             "bottom-left")
    parser.add_argument("--letters", metavar="FILE", help="a taught letter classifier (.npz)")
    parser.add_argument("--threshold", type=float, default=0.6,
                        help="confidence below which a cell is uncertain (0..1, default 0.6)")
    # Kept so old scripts still run: Tesseract is never on the read path any more.
    parser.add_argument("--no-tesseract", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print every cell's value and confidence as JSON")


@dataclass(frozen=True)
class Where:
    """Where the board is in the photo, and what reads its letters."""

    corners: list[tuple[float, float]]
    rows: int
    cols: int
    image_size: tuple[int, int] | None
    letters_file: str | None
    camera_matrix: tuple[tuple[float, float, float], ...] | None = None
    distortion: tuple[float, ...] | None = None
    calibration: Calibration | None = None    # when the board's place came from one
    calibration_path: Path | None = None


def parse_grid(text: str) -> tuple[int, int]:

    m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text or "")
    if not m:
        raise UsageError(f"--grid {text!r} is not ROWSxCOLS, e.g. 8x8")
    rows, cols = int(m.group(1)), int(m.group(2))
    if not (2 <= rows <= 30 and 2 <= cols <= 30):
        raise UsageError(f"--grid {text}: rows and columns must be between 2 and 30")
    return rows, cols


def parse_corners(text: str) -> list[tuple[float, float]]:

    try:
        values = [float(v) for v in text.replace(";", ",").split(",") if v.strip()]
    except ValueError:
        raise UsageError(f"--corners {text!r}: expected eight numbers X,Y,X,Y,X,Y,X,Y") from None
    if len(values) != 8:
        raise UsageError(f"--corners needs eight numbers (four corners), not {len(values)}")
    if not all(math.isfinite(v) for v in values):
        raise UsageError(f"--corners {text!r}: every corner must be a finite number of pixels")
    return [(values[i], values[i + 1]) for i in range(0, 8, 2)]


def _where(args: argparse.Namespace, game: str) -> Where:
    from kiosk.files.paths import calibration_file

    default_grid = {"upwords": (8, 8), "word-on-the-street": (5, 17), "grid": (15, 15)}[game]
    if args.corners:
        rows, cols = parse_grid(args.grid) if args.grid else default_grid
        return Where(parse_corners(args.corners), rows, cols, None, args.letters)
    path = Path(args.calibration) if args.calibration else calibration_file()
    if not path.exists():
        hint = "run `tablekeeper calibrate` first, or give --grid and --corners"
        if args.calibration:
            raise UsageError(f"no calibration file at {path}: {hint}")
        raise UsageError(f"no calibration yet: {hint}")
    try:
        from calibration.file import CalibrationError, load_calibration
    except ImportError:  # pragma: no cover - the calibration package ships with the kiosk
        raise UsageError("this installation cannot read calibration files; give --grid and --corners"
                         ) from None
    try:
        cal = load_calibration(path)
    except CalibrationError as exc:
        raise UsageError(str(exc)) from None
    kind = "upwords" if cal.kind == "upwords" else "word-on-the-street" if cal.kind == "wots" else cal.kind
    if kind != game:
        raise UsageError(f"{path} is a calibration for {kind}, not {game}")
    rows, cols = (parse_grid(args.grid) if args.grid else (cal.rows, cal.cols))
    lens = cal.lens
    matrix = distortion = None
    if lens:
        matrix = lens.camera_matrix
        distortion = lens.distortion or None
    letters = args.letters or cal.letters_file
    if letters and not Path(letters).is_absolute():
        letters = str(path.parent / letters)
    corners = [(float(p[0]), float(p[1])) for p in cal.corners]
    return Where(corners, rows, cols, cal.image_size, letters, matrix, distortion, cal, path)


def _letter_reader(path: str | None, threshold: float) -> LetterReader | None:

    if not path:
        return None
    if not Path(path).is_file():
        raise UsageError(f"no letter classifier at {path}")
    from vision.letters import LetterClassifier, LetterReader

    try:
        classifier = LetterClassifier.load(path)
    except Exception as exc:  # a corrupt or foreign file: say so plainly
        raise UsageError(f"{path} is not a taught letter classifier ({exc})") from None
    return LetterReader(classifier, threshold)


def _reader(where: Where, game: str, corners: np.ndarray, size: tuple[int, int], letters: LetterReader | None,
            matrix: np.ndarray | None, threshold: float, notes: list[str]) -> BoardReader:
    """The board reader: from the calibration (its tile geometry and learnt look) when there is
    one, else from the game's defaults."""

    if where.calibration is not None and where.calibration_path is not None:
        from calibration.file import CalibrationError
        from vision.board_look import load_appearance, reader_for

        try:
            appearance = load_appearance(where.calibration, where.calibration_path)
        except CalibrationError as exc:
            raise UsageError(str(exc)) from None
        if appearance is None:
            notes.append("the board's look was never learnt (`tablekeeper calibrate board "
                         "--start-position`): occupancy by fixed rules that suit only dark boards")
        return reader_for(where.calibration, corners, size, letters=letters, appearance=appearance,
                          camera_matrix=matrix, threshold=threshold)
    notes.append("no calibration: occupancy by fixed rules that suit only dark boards")
    if game == "word-on-the-street":
        from vision.street import StreetReader

        return StreetReader(corners, size, letters=letters, camera_matrix=matrix, threshold=threshold)
    from vision.upwords_reader import TileGeometry, UpwordsReader

    grid = game == "grid"
    # No calibration, so nothing measured the set's thickness: a height is a guess, said as one.
    geometry = TileGeometry.from_shape(0.9 if grid else None, None, 1 if grid else 5, measured=False)
    return UpwordsReader(corners, size, rows=where.rows, cols=where.cols, letters=letters,
                         camera_matrix=matrix, threshold=threshold, geometry=geometry, loose_tiles=grid)


def run(args: argparse.Namespace) -> int:

    game = GAMES.get(args.game.lower())
    if game is None:
        raise UsageError(f"{args.game!r} is not a board the camera reads: "
                         "choose upwords, word-on-the-street or grid")
    image_path = Path(args.image)
    if not image_path.is_file():
        raise UsageError(f"no picture at {image_path}")
    if not 0.0 <= args.threshold <= 1.0:
        raise UsageError("--threshold must be between 0 and 1")
    where = _where(args, game)
    if game == "word-on-the-street" and (where.rows, where.cols) != (5, 17):
        raise UsageError("Word on the Street is always 5x17 (five spaces by seventeen letters)")

    import cv2
    import numpy as np

    image, corners, notes = _picture_and_corners(image_path, where)
    h, w = image.shape[:2]
    if where.image_size is not None and tuple(where.image_size) != (w, h):
        cw, ch = where.image_size
        if abs(cw / ch - w / h) > 0.01:
            raise UsageError(f"the calibration is for {cw}x{ch} pictures; {image_path} is {w}x{h}")
        corners = corners * (w / cw)
        notes.append(f"calibration scaled from {cw}x{ch} to {w}x{h}")
    if (corners[:, 0] < -w * 0.05).any() or (corners[:, 0] > w * 1.05).any() or \
            (corners[:, 1] < -h * 0.05).any() or (corners[:, 1] > h * 1.05).any():
        raise UsageError(f"the corners lie outside the {w}x{h} picture")
    if abs(cv2.contourArea(corners.astype(np.float32))) < 0.01 * w * h:
        raise UsageError("the corners do not enclose a board (too small, or given in the wrong order)")
    _refuse_no_board(image, corners, where)
    matrix = None
    if where.camera_matrix is not None:
        matrix = np.array(where.camera_matrix, np.float64)
        if where.image_size is not None:  # a lens calibrated at another resolution, same aspect
            matrix = matrix * np.array([[w / where.image_size[0]], [w / where.image_size[0]], [1.0]])
        if where.distortion is not None and any(where.distortion):
            # Straighten the picture (and the corners, taken on the raw picture) so that the
            # board's planes are true planes again.
            dist = np.array(where.distortion, np.float64)
            image = cv2.undistort(image, matrix, dist)
            corners = cv2.undistortPoints(corners.reshape(-1, 1, 2), matrix, dist, P=matrix).reshape(4, 2)
            notes.append("lens distortion corrected")
    letters = _letter_reader(where.letters_file, args.threshold)
    if letters is None:
        notes.append("no taught letters (run `tablekeeper calibrate letters` or give --letters): "
                     "letters show as ?")
    reading = _reader(where, game, corners, (w, h), letters, matrix, args.threshold, notes).read(image)
    from dataclasses import replace

    reading = replace(reading, notes=tuple(reading.notes) + tuple(notes))
    if game == "grid":
        reading = replace(reading, game="grid")
    if args.json:
        print(json.dumps(reading.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(reading.to_text())
    return 0


# ------------------------------------------------------------------ refusing what is not a board
def _picture_and_corners(image_path: Path, where: Where) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The photo scaled down to a workable size (kiosk.cli.picture_checks) and the corners to match.

    Corners given with ``--corners`` are in the photo's own pixels, so they shrink with it; a
    calibration's corners are rescaled later from its recorded picture size.
    """
    import numpy as np

    from kiosk.cli.picture_checks import load_picture, refuse_tiny

    image, scale = load_picture(image_path)
    refuse_tiny(image)
    corners = np.array(where.corners, np.float64)
    notes: list[str] = []
    if scale < 1.0:
        h, w = image.shape[:2]
        notes.append(f"picture scaled down to {w}x{h} to read it")
        if where.image_size is None:
            corners = corners * scale
    return image, corners, notes


def _refuse_no_board(image: np.ndarray, corners: np.ndarray, where: Where) -> None:
    """Exit 2 in words when the corners enclose no board's lines (never an empty board)."""
    from kiosk.cli.picture_checks import refuse_not_a_board

    refuse_not_a_board(image, corners, where.rows, where.cols)

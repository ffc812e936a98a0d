"""Setting a board up from one picture: finding it, making its calibration, learning its look.

Shared by ``tablekeeper calibrate board`` and the kiosk's "Find the board" screen, so that
both find, keep and learn a board the same way; neither the command line nor the screen
owns it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: The letters each board's tiles carry (Upwords has a Qu tile; Word on the Street 17 consonants).
ALPHABETS: dict[str, tuple[str, ...]] = {
    "upwords": (*"ABCDEFGHIJKLMNOP", "Qu", *"RSTUVWXYZ"),
    "wots": tuple("BCDFGHKLMNPRSTVWY"),
    "grid": tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
}

#: The lines each board draws (rows, cols): Word on the Street draws its lanes, nothing between letters.
DRAWN_LINES = {"wots": (5, 1)}


def learn_board_look(cal: Any, image: Any, out: Path) -> str:
    """Learn the board's look from a start-position photo and save it beside the calibration;
    returns what was learnt, in words."""
    from vision.board_look import learn_start_position, measure_face, save_appearance

    appearance = learn_start_position(cal, image)
    changes = {}
    if cal.kind == "wots":
        face = measure_face(cal, image, [(2, c) for c in range(cal.cols)], appearance.tile_lab)
        if face is not None:
            changes["tile_face"] = face
    save_appearance(cal, out, appearance, **changes)
    if cal.kind == "wots":
        return "learnt the street from its start position (lanes empty, every tile on its letter)"
    return "learnt the empty board; teach the letters from a photo to learn the tiles' colour too"


def locate_board(image: Any, kind: str, rows: int, cols: int) -> tuple[tuple[tuple[float, float], ...], str]:
    """The playing area's corners and how they were found: the corner markers when all four are
    in the picture, else the board's own grid lines (vision.board_finder); raises
    CalibrationError saying why neither worked. Shared with the kiosk's Find-the-board screen."""
    from calibration.file import CalibrationError
    from calibration.markers import MarkersNotFound, find_board

    try:
        return tuple((float(x), float(y)) for x, y in find_board(image)), "found by the markers"
    except MarkersNotFound as exc:
        markers_said = str(exc)
    from vision.board_finder import NoBoardFound
    from vision.board_finder import find_board as find_by_lines

    try:
        found = find_by_lines(image, rows, cols, DRAWN_LINES.get(kind))
    except NoBoardFound as exc:
        raise CalibrationError(f"{exc}; and {markers_said}") from None
    return tuple(found.as_tuples()), f"found by the grid lines (confidence {found.confidence:.2f})"


def board_calibration(kind: str, rows: int, cols: int, corners: Any, image_size: tuple[int, int],
                      out: Path) -> Any:
    """The :class:`Calibration` of a board found at ``corners``, to be saved at ``out``.

    Shared by ``calibrate board`` and the kiosk's "Find the board" screen. What was taught
    is kept when the board kind did not change (the letters are the same tiles), and a
    ``letters.npz`` taught before any board calibration is picked up; raises
    CalibrationError (in plain words) for corners that do not make a board.
    """
    from calibration.file import Calibration, CalibrationError, load_calibration

    letters_file, alphabet = None, ALPHABETS[kind]
    if out.exists():  # keep what was taught if the board kind did not change
        try:
            old = load_calibration(out)
        except CalibrationError:
            old = None
        if old is not None and old.kind == kind and old.letters_path(out) and old.letters_path(out).exists():
            letters_file, alphabet = old.letters_file, old.alphabet
    elif (out.parent / "letters.npz").exists():
        letters_file = "letters.npz"
    points = tuple((float(x), float(y)) for x, y in corners)
    return Calibration(kind=kind, rows=rows, cols=cols, corners=points, image_size=image_size,  # type: ignore[arg-type]
                       alphabet=alphabet, letters_file=letters_file)

"""Refuse what is not a board, before any reader sees it: shared by ``read`` and ``calibrate``.

Why a module of its own: a picture with no board, a 1x1 picture, or corners that enclose the
carpet used to read as a valid *empty* board (exit 0, "all 17 captured"); a 12000x12000 picture
cost a gigabyte. Every check here turns such input into one plain sentence
(:class:`kiosk.cli.main.UsageError`, exit 2) and nothing is read or saved:

* :func:`load_picture` reads a photo scaled down *while decoding* (JPEG decodes at 1/2, 1/4
  or 1/8 scale), so a huge picture costs no more memory than a normal one;
* :func:`refuse_not_a_board` asks the board finder's grid-line evidence whether the corners
  enclose a board's lines at all;
* :func:`corner_option_argv` lets ``--corners -5,3,...`` (negative numbers) through argparse.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.cli.usage import UsageError

#: Pictures are worked on at most this many pixels on their longest side.
MAX_SIDE = 4000
#: The most memory a picture may take once decoded (checked from its header, before decoding):
#: a JPEG decoded at 1/8 scale may be huge on disk; other formats are decoded whole.
DECODE_BUDGET = 160 * 1024 * 1024


def _usage(text: str) -> Exception:

    return UsageError(text)


def picture_size(path: Path) -> tuple[int, int] | None:
    """(width, height) from the file's header without decoding it, or None when unknown."""
    try:
        from PIL import Image

        Image.MAX_IMAGE_PIXELS = None  # the size is all we want here; we decode scaled down
        with Image.open(path) as im:
            return int(im.size[0]), int(im.size[1])
    except Exception:  # not a picture PIL knows: OpenCV has the last word
        return None


def load_picture(path: str | Path, max_side: int = MAX_SIDE) -> tuple[Any, float]:
    """The picture as BGR, at most ``max_side`` pixels long, and the scale applied (<= 1).

    JPEGs are decoded straight at a reduced size; other formats too large to decode whole
    within a few hundred megabytes are decoded in grey at a reduced size (their colours are
    lost, which the message says). What decoding would cost is worked out from the header
    first: past :data:`DECODE_BUDGET` the picture is refused unread (:func:`refuse_oversized`).
    Raises UsageError for a missing, unreadable or oversized file.
    """
    import cv2

    path = Path(path)
    if not path.is_file():
        raise _usage(f"no picture at {path}")
    size = refuse_oversized(path, max_side)
    jpeg, k = _is_jpeg(path), _reduction(size, max_side)
    colour = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
              8: cv2.IMREAD_REDUCED_COLOR_8}
    grey = {1: cv2.IMREAD_GRAYSCALE, 2: cv2.IMREAD_REDUCED_GRAYSCALE_2, 4: cv2.IMREAD_REDUCED_GRAYSCALE_4,
            8: cv2.IMREAD_REDUCED_GRAYSCALE_8}
    # Not a JPEG: decoded whole before any reduction, in grey when colour would not fit the budget.
    flag = colour[k] if jpeg else grey[k] if _in_grey(size) else cv2.IMREAD_COLOR
    image = cv2.imread(str(path), flag)
    if image is None:
        raise _usage(f"{path} is not a picture OpenCV can read")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    scale = image.shape[1] / size[0]
    h, w = image.shape[:2]
    if max(h, w) > max_side:
        s = max_side / max(h, w)
        image = cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        scale *= s
    return image, scale


def _is_jpeg(path: Path) -> bool:
    with path.open("rb") as f:
        return f.read(3) == b"\xff\xd8\xff"


def _reduction(size: tuple[int, int], max_side: int) -> int:
    """1, or the 2, 4 or 8 a picture longer than ``max_side`` is decoded smaller by."""
    factor = max(size) / max_side
    return 1 if factor <= 1 else 2 if factor <= 2 else 4 if factor <= 4 else 8


def decoded_bytes(size: tuple[int, int], jpeg: bool, max_side: int = MAX_SIDE) -> int:
    """The memory :func:`load_picture` needs to decode a picture of ``size`` (w, h): a JPEG is
    decoded in colour at its reduced size; another format whole (in grey past 55 megapixels)."""
    w, h = size
    if jpeg:
        k = _reduction(size, max_side)
        return -(-w // k) * -(-h // k) * 3
    return w * h * (1 if _in_grey(size) else 3)


def _in_grey(size: tuple[int, int]) -> bool:
    """A picture (not a JPEG) whose colours would not fit :data:`DECODE_BUDGET` is read in grey."""
    return size[0] * size[1] * 3 > DECODE_BUDGET


def refuse_oversized(path: Path, max_side: int = MAX_SIDE) -> tuple[int, int]:
    """The picture's (width, height) from its header; refused, unread, when it has none or when
    decoding it would take more than :data:`DECODE_BUDGET` bytes."""
    if not path.is_file():
        raise _usage(f"no picture at {path}")
    size = picture_size(path)
    if size is None or min(size) <= 0:
        raise _usage(f"{path} is not a picture tablekeeper can read (its size is not in its header)")
    need = decoded_bytes(size, _is_jpeg(path), max_side)
    if need > DECODE_BUDGET:
        mb = 1024 * 1024
        raise _usage(f"{path} is {size[0]}x{size[1]} pixels: decoding it would take {need // mb} MB, more "
                     f"than the {DECODE_BUDGET // mb} MB a picture may use; scale it down (a camera's "
                     f"{MAX_SIDE} pixels a side is plenty)")
    return size


def refuse_tiny(image: Any) -> None:
    """A picture too small or too flat to show any board's cells is refused in words."""
    from vision.board_finder import NoBoardFound, check_picture

    try:
        check_picture(image)
    except NoBoardFound as exc:
        raise _usage(str(exc)) from None


def refuse_not_a_board(image: Any, corners: Any, rows: int, cols: int) -> float:
    """The grid-line evidence that ``corners`` enclose a ``rows`` x ``cols`` board; refuses when none.

    Returns the confidence (0..1). Corners at the picture's edges of a picture with no board,
    or around a patch of table, show no lines where the grid's lines should be.
    """
    import numpy as np

    from vision.board_finder import MIN_CONFIDENCE, board_evidence

    refuse_tiny(image)
    confidence, seen = board_evidence(image, np.asarray(corners, np.float64), rows, cols)
    if confidence < MIN_CONFIDENCE:
        raise _usage(f"no board found inside the corners: only {seen:.0%} of a {rows}x{cols} grid's lines "
                     "show there (check the corners, or calibrate again)")
    return confidence


def corner_option_argv(argv: list[str], option: str = "--corners") -> list[str]:
    """``--corners -5,3,...`` as ``--corners=-5,3,...``: argparse takes a value starting with "-"
    for an option unless it is glued on."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] == option and i + 1 < len(argv) and argv[i + 1].startswith("-") and \
                any(ch.isdigit() for ch in argv[i + 1]):
            out.append(f"{option}={argv[i + 1]}")
            i += 2
            continue
        out.append(argv[i])
        i += 1
    return out

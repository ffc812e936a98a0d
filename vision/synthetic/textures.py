"""Flat artwork for the renderer: tile faces with their letters, the two boards seen from above.

Letters are drawn with a clean bold sans-serif TrueType font through Pillow, because real
tiles use one and OpenCV's Hershey fonts have no Ä, Ö or Ü. The font is Roboto Bold, which
ships inside Kivy (a dependency of the kiosk); DejaVu Sans Bold from the system is the second
choice and Hershey (A–Z only) the last resort, so the renderer always works.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from games.word_on_the_street import LETTERS
from vision.synthetic.style import BoardStyle

#: Word on the Street's seventeen letters, one column each, left to right.
STREET_LETTERS = LETTERS

#: Texture resolution: pixels per millimetre of board.
PX_PER_MM = 4.0

_FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
)


def font_path() -> Path | None:
    """The TrueType font the tiles use, or None when only Hershey is available."""
    spec = importlib.util.find_spec("kivy")
    if spec is not None and spec.submodule_search_locations:
        roboto = Path(next(iter(spec.submodule_search_locations))) / "data" / "fonts" / "Roboto-Bold.ttf"
        if roboto.is_file():
            return roboto
    for candidate in _FONT_CANDIDATES:
        if Path(candidate).is_file():
            return Path(candidate)
    return None


@lru_cache(maxsize=256)
def _font(size: int, path: str | None = None) -> ImageFont.FreeTypeFont | None:
    chosen = path or font_path()
    return ImageFont.truetype(str(chosen), size) if chosen else None


def draw_letter(canvas: np.ndarray, text: str, box: tuple[int, int, int, int], colour: tuple[int, int, int],
                height_frac: float = 0.62, font_file: str | None = None) -> None:
    """Draw ``text`` centred in ``box`` (x0, y0, x1, y1) of a BGR image, in place
    (in ``font_file``, else the default typeface)."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    frac = height_frac * (0.78 if len(text) > 1 else 1.0)
    font = _font(max(6, int(bh * frac * 1.32)), font_file)
    if font is None:  # Hershey fallback: A–Z only
        scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_DUPLEX, int(bh * frac), 3)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 3)
        org = (x0 + (bw - tw) // 2, y0 + (bh + th) // 2)
        cv2.putText(canvas, text, org, cv2.FONT_HERSHEY_DUPLEX, scale, colour, 3, cv2.LINE_AA)
        return
    patch = Image.fromarray(cv2.cvtColor(canvas[y0:y1, x0:x1], cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(patch)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    org = ((bw - (right - left)) / 2 - left, (bh - (bottom - top)) / 2 - top)
    draw.text(org, text, font=font, fill=(colour[2], colour[1], colour[0]))
    canvas[y0:y1, x0:x1] = cv2.cvtColor(np.asarray(patch), cv2.COLOR_RGB2BGR)


@lru_cache(maxsize=1024)
def tile_face(letter: str, size_px: int, style: str = "upwords", look: BoardStyle | None = None
              ) -> np.ndarray:
    """The top face of one tile, ``size_px`` square, BGR, in the colours and typeface of ``look``
    (default: the original set). Cached: the same letter looks the same."""
    look = look or BoardStyle()
    if style == "street":
        body, rim, ink = look.street_tile_body, look.street_tile_rim, look.street_ink
    else:
        body, rim, ink = look.tile_body, look.tile_rim, look.ink
    face = np.full((size_px, size_px, 3), rim, np.uint8)
    inset = max(2, size_px // 14)
    cv2.rectangle(face, (inset, inset), (size_px - 1 - inset, size_px - 1 - inset), body, -1, cv2.LINE_AA)
    if letter:
        draw_letter(face, letter, (0, 0, size_px, size_px), ink, look.letter_frac, look.font)
    return face


def _noise_texture(rng: np.random.Generator, shape: tuple[int, int], base: tuple[int, int, int],
                   amount: float) -> np.ndarray:
    """A flat colour with low-frequency blotches, so surfaces are not perfectly uniform."""
    small = rng.normal(0.0, amount, (max(2, shape[0] // 24), max(2, shape[1] // 24), 1))
    blot = cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)[..., None]
    img = np.asarray(base, np.float32)[None, None, :] + blot
    return np.clip(img, 0, 255).astype(np.uint8)


def aruco_marker(marker_id: int, size_px: int) -> np.ndarray:
    """One 4x4 ArUco marker (dictionary DICT_4X4_50) as BGR, for board corners."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    gray = cv2.aruco.generateImageMarker(dictionary, marker_id, size_px)
    return cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)


#: what real crossword boards print on their bonus squares, and the lines it takes
PREMIUM_WORDS = (("DOUBLE", "LETTER", "SCORE"), ("TRIPLE", "WORD", "SCORE"), ("DOUBLE", "WORD", "SCORE"))


def _ink_on(colour: tuple[int, ...]) -> tuple[int, int, int]:
    """A print colour that stands out on ``colour``: darker on a light square, lighter on a dark one."""
    c = np.asarray(colour, np.float64)
    ink = c * 0.4 if c.mean() > 120 else c * 0.4 + 150
    return (int(ink[0]), int(ink[1]), int(ink[2]))


def _print_premium(board: np.ndarray, box: tuple[int, int, int, int], colour: tuple[int, ...],
                   which: int) -> None:
    """Print a bonus square's words on it, as real boards do: the square is no longer a flat colour,
    and a tile over it changes its structure less than over a plain square. No random draw: the
    boards of every seed keep the rest of their look."""
    x0, y0, x1, y1 = box
    words = PREMIUM_WORDS[which % len(PREMIUM_WORDS)]
    line = (y1 - y0) / (len(words) + 1)
    for k, word in enumerate(words):
        scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, max(4, int(0.55 * line)), 1)
        (tw, th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        scale *= min(1.0, 0.86 * (x1 - x0) / max(tw, 1))
        (tw, th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        org = (int((x0 + x1 - tw) / 2), int(y0 + (k + 1) * line + th / 2))
        cv2.putText(board, word, org, cv2.FONT_HERSHEY_SIMPLEX, scale, _ink_on(colour), 1, cv2.LINE_AA)


def _star(board: np.ndarray, centre: tuple[float, float], radius: float,
          colour: tuple[int, int, int]) -> None:
    """A five-pointed star, as on a crossword board's centre square."""
    angles = -np.pi / 2 + np.arange(10) * np.pi / 5
    radii = np.where(np.arange(10) % 2 == 0, radius, 0.42 * radius)
    points = np.stack([centre[0] + radii * np.cos(angles), centre[1] + radii * np.sin(angles)], axis=1)
    cv2.fillPoly(board, [np.round(points).astype(np.int32)], colour, cv2.LINE_AA)


def upwords_board(rows: int, cols: int, pitch_mm: float, margin_mm: float, rng: np.random.Generator,
                  markers: bool, look: BoardStyle | None = None) -> np.ndarray:
    """The empty Upwords board from above: a waffle grid (dark by default), the four centre squares marked."""
    look = look or BoardStyle()
    s = PX_PER_MM
    w_px, h_px = round((cols * pitch_mm + 2 * margin_mm) * s), round((rows * pitch_mm + 2 * margin_mm) * s)
    board = _noise_texture(rng, (h_px, w_px), look.board, 6.0)
    m = margin_mm * s
    cell = pitch_mm * s
    wall = max(2, int(0.09 * cell))
    for r in range(rows):
        for c in range(cols):
            x0, y0 = int(m + c * cell) + wall, int(m + r * cell) + wall
            x1, y1 = int(m + (c + 1) * cell) - wall, int(m + (r + 1) * cell) - wall
            floor = look.floor
            premium = bool(look.premium) and rng.random() < 0.2
            if premium:
                floor = look.premium[int(rng.integers(0, len(look.premium)))]
            cv2.rectangle(board, (x0, y0), (x1, y1), floor, -1)
            if premium:
                _print_premium(board, (x0, y0, x1, y1), floor, r + c)
    if look.premium and rows % 2 and cols % 2:  # a crossword board's centre star
        r = c = rows // 2
        x0, y0 = int(m + c * cell) + wall, int(m + r * cell) + wall
        x1, y1 = int(m + (c + 1) * cell) - wall, int(m + (r + 1) * cell) - wall
        star = look.premium[0]
        cv2.rectangle(board, (x0, y0), (x1, y1), star, -1)
        _star(board, ((x0 + x1) / 2, (y0 + y1) / 2), 0.38 * (x1 - x0), _ink_on(star))
    centre = [(rows // 2 - 1 + dr, cols // 2 - 1 + dc) for dr in (0, 1) for dc in (0, 1)]
    for r, c in centre:  # "the four game squares with cutout corners"
        x0, y0 = int(m + c * cell) + wall, int(m + r * cell) + wall
        x1, y1 = int(m + (c + 1) * cell) - wall, int(m + (r + 1) * cell) - wall
        k = int(0.22 * cell)
        for corner in ((x0, y0, 1, 1), (x1, y0, -1, 1), (x1, y1, -1, -1), (x0, y1, 1, -1)):
            cx, cy, sx, sy = corner
            tri = np.array([[cx, cy], [cx + sx * k, cy], [cx, cy + sy * k]], np.int32)
            cv2.fillConvexPoly(board, tri, look.centre_mark, cv2.LINE_AA)
    cv2.rectangle(board, (int(m) - 3, int(m) - 3), (int(m + cols * cell) + 3, int(m + rows * cell) + 3),
                  look.outline, 3)
    if markers:
        _place_markers(board, m, w_px, h_px)
    return board


def street_board(pitch_mm: float, lane_mm: float, margin_mm: float, rng: np.random.Generator,
                 markers: bool, look: BoardStyle | None = None) -> np.ndarray:
    """Word on the Street from above: five lanes of asphalt, a coloured median with the letters."""
    look = look or BoardStyle()
    s = PX_PER_MM
    cols, rows = len(STREET_LETTERS), 5
    w_px = round((cols * pitch_mm + 2 * margin_mm) * s)
    h_px = round((rows * lane_mm + 2 * margin_mm) * s)
    board = _noise_texture(rng, (h_px, w_px), look.pavement, 5.0)  # the pavement
    m = margin_mm * s
    top, left = int(m), int(m)
    right, bottom = int(m + cols * pitch_mm * s), int(m + rows * lane_mm * s)
    board[top:bottom, left:right] = _noise_texture(rng, (bottom - top, right - left), look.asphalt, 7.0)
    lane = lane_mm * s
    med0, med1 = int(m + 2 * lane), int(m + 3 * lane)
    board[med0:med1, left:right] = _noise_texture(rng, (med1 - med0, right - left), look.median, 5.0)
    for k in (1, 4):  # dashed lane lines between the outer lanes
        y = int(m + k * lane)
        for x in range(left, right, int(12 * s)):
            cv2.line(board, (x, y), (min(right, x + int(6 * s)), y), look.dashes, max(1, int(0.6 * s)))
    cv2.rectangle(board, (left, top), (right, bottom), (240, 240, 240), max(2, int(0.8 * s)))
    # Team colours along the two long edges (team A at the top, row 0).
    cv2.rectangle(board, (left, top - int(0.6 * m)), (right, top - int(0.25 * m)), (60, 60, 190), -1)
    cv2.rectangle(board, (left, bottom + int(0.25 * m)), (right, bottom + int(0.6 * m)), (190, 110, 40), -1)
    for c, letter in enumerate(STREET_LETTERS):  # the letters printed on the median strip
        x0 = int(m + c * pitch_mm * s)
        box = (x0 + int(0.2 * pitch_mm * s), med0 + int(0.2 * lane), x0 + int(0.8 * pitch_mm * s),
               med1 - int(0.2 * lane))
        draw_letter(board, letter, box, look.median_ink, height_frac=0.8, font_file=look.font)
    if markers:
        _place_markers(board, m, w_px, h_px)
    return board


def _place_markers(board: np.ndarray, margin_px: float, w_px: int, h_px: int) -> None:
    """ArUco ids 0, 1, 2, 3 in the margin at the TL, TR, BR, BL corners, on a white quiet zone."""
    size = int(margin_px * 0.7)
    quiet = max(2, size // 8)
    gap = int((margin_px - size) / 2)
    far_x, far_y = w_px - gap - size, h_px - gap - size
    spots = [(gap, gap), (far_x, gap), (far_x, far_y), (gap, far_y)]
    for marker_id, (x, y) in enumerate(spots):
        board[y - quiet:y + size + quiet, x - quiet:x + size + quiet] = 255
        board[y:y + size, x:x + size] = aruco_marker(marker_id, size)


def marker_layout_mm(w_mm: float, h_mm: float, margin_mm: float) -> list[np.ndarray]:
    """Board-plane corners (mm, relative to the playing area's top-left) of the four markers."""
    s = PX_PER_MM
    m_px = margin_mm * s
    w_px, h_px = round((w_mm + 2 * margin_mm) * s), round((h_mm + 2 * margin_mm) * s)
    size = int(m_px * 0.7)
    gap = int((m_px - size) / 2)
    far_x, far_y = w_px - gap - size, h_px - gap - size
    spots = [(gap, gap), (far_x, gap), (far_x, far_y), (gap, far_y)]
    out = []
    for x, y in spots:
        quad = np.array([[x, y], [x + size, y], [x + size, y + size], [x, y + size]], np.float64)
        out.append(quad / s - margin_mm)
    return out

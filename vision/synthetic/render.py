"""Synthetic photographs of the two boards, with the truth that produced them.

Tests, the vision benchmark and the kiosk's demo mode need pictures whose contents are known
exactly. This module builds them the way a camera would see a real board: the board is a
plane, every tile (or Upwords stack) is a box of real thickness, and a pinhole camera
(:mod:`vision.synthetic.camera`) projects it all, far objects first, visible side faces
included. Then the room happens to it (:mod:`vision.synthetic.effects`).

Example::

    from vision.synthetic.render import Pose, render_upwords
    shot = render_upwords({(3, 3): ("M", 1), (3, 4): ("O", 2)}, pose=Pose(tilt_deg=30), seed=1)
    shot.image        # BGR uint8, 1024x768
    shot.corners      # TL, TR, BR, BL of the playing area in the image (board plane)

Same arguments and seed -> the same image, byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import cv2
import numpy as np

from vision.synthetic.camera import PinholeCamera, Pose
from vision.synthetic.effects import Effects, Hand, apply_effects, hand_outline
from vision.synthetic.style import BoardStyle
from vision.synthetic.textures import (
    PX_PER_MM,
    STREET_LETTERS,
    _noise_texture,
    marker_layout_mm,
    street_board,
    tile_face,
    upwords_board,
)

__all__ = [
    "STREET_LETTERS",
    "Effects",
    "Hand",
    "Pose",
    "Rendered",
    "StreetSpec",
    "UpwordsSpec",
    "render_street",
    "render_upwords",
    "upwords_cells",
]

FACE_PX = 96  # resolution of a tile-face texture before it is projected


@dataclass(frozen=True, slots=True)
class UpwordsSpec:
    """Physical sizes of an Upwords set (mm): cell pitch, tile face, tile thickness, board margin."""

    rows: int = 8
    cols: int = 8
    pitch_mm: float = 22.0
    tile_mm: float = 19.5
    thickness_mm: float = 3.6
    margin_mm: float = 26.0

    STYLE: ClassVar[str] = "upwords"


@dataclass(frozen=True, slots=True)
class StreetSpec:
    """Physical sizes of the Word on the Street board (mm): column pitch, lane depth, tiles."""

    rows: int = 5
    cols: int = 17
    pitch_mm: float = 30.0
    lane_mm: float = 30.0
    tile_mm: float = 25.0
    thickness_mm: float = 4.0
    margin_mm: float = 28.0

    STYLE: ClassVar[str] = "street"


@dataclass(frozen=True, slots=True)
class Rendered:
    """One synthetic photo and its ground truth.

    ``corners``: the playing area's outer corners on the board plane, TL, TR, BR, BL (image
    pixels, float). ``markers``: ArUco id -> its four image corners (when drawn).
    ``letters`` / ``heights``: Upwords truth per cell (None / 0 when empty).
    ``positions``: Word on the Street truth, letter -> -2..+2 on the board, or -3/+3 when
    captured by the first/second team, or None when the tile is not in the picture.
    ``hand_drawn``: the hand reaching into the picture, if any (:attr:`hand`); it may stop short
    of the board (:meth:`hand_cover`).
    """

    image: np.ndarray
    corners: np.ndarray
    camera: PinholeCamera
    kind: str
    rows: int
    cols: int
    cell_mm: tuple[float, float]
    thickness_mm: float
    markers: dict[int, np.ndarray] = field(default_factory=dict)
    letters: tuple[tuple[str | None, ...], ...] = ()
    heights: tuple[tuple[int, ...], ...] = ()
    positions: Mapping[str, int | None] = field(default_factory=dict)
    hand_drawn: Hand | None = None

    @property
    def image_size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]

    @property
    def hand(self) -> bool:
        """Whether a hand reaches into the picture (over the board or not)."""
        return self.hand_drawn is not None

    def hand_cover(self, px: int = 24) -> np.ndarray:
        """The share of each cell (rows x cols) the drawn hand covers: a hand that stops short of
        the cells is in the picture but over none of them, and a reader is right not to wait for
        it."""
        if self.hand_drawn is None:
            return np.zeros((self.rows, self.cols))
        w, h = self.cols * px, self.rows * px
        grid = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        to_grid = cv2.getPerspectiveTransform(np.asarray(self.corners, np.float32).reshape(4, 2), grid)
        skin = cv2.warpPerspective(hand_outline(self.image.shape, self.hand_drawn), to_grid,
                                   (w, h), flags=cv2.INTER_LINEAR)
        return skin.reshape(self.rows, px, self.cols, px).mean(axis=(1, 3)) / 255.0


def _table(rng: np.random.Generator, size: tuple[int, int], look: BoardStyle | None = None) -> np.ndarray:
    """The table top: wood (warm, grain along one axis; a random brown unless the look gives its
    colour), cloth (a fine weave), carpet (coarse speckle), cork (pressed granules), a check or a
    striped cloth (bands of a darker dye), a printed cloth (a repeated motif in darker and lighter
    ink) or a plain surface."""
    look = look or BoardStyle()
    w, h = size
    if look.table == "wood" or look.table_colour is None:
        base = (look.table_colour if look.table == "wood" and look.table_colour is not None
                else tuple(int(v) for v in rng.integers([40, 80, 120], [70, 110, 160])))
        table = _noise_texture(rng, (h, w), base, 10.0).astype(np.float32)
        yy = np.arange(h, dtype=np.float32)[:, None]
        grain = 8.0 * np.sin(yy / rng.uniform(3.0, 7.0) + 3 * np.sin(np.arange(w)[None, :] / 90.0))
        return np.clip(table + grain[..., None], 0, 255).astype(np.uint8)
    table = _noise_texture(rng, (h, w), look.table_colour, 8.0).astype(np.float32)
    if look.table == "cloth":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        table += (6.0 * np.sin(xx * 1.3) * np.sin(yy * 1.3))[..., None]
    elif look.table == "carpet":
        speckle = rng.normal(0.0, 22.0, (h, w)).astype(np.float32)
        table += cv2.GaussianBlur(speckle, (0, 0), 1.0)[..., None]
    elif look.table == "cork":
        grains = rng.normal(0.0, 1.0, (h, w)).astype(np.float32)
        grains = cv2.GaussianBlur(grains, (0, 0), 1.6)
        grains *= 30.0 / max(float(grains.std()), 1e-6)
        table *= 1.0 + grains[..., None] / 255.0 * np.float32([1.2, 1.0, 0.8])
    elif look.table in ("check", "stripes"):
        table += _woven_bands(rng, (h, w), look.table == "check")
    elif look.table == "printed":
        period = float(rng.uniform(28.0, 60.0))
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        u, v = (xx % period) / period - 0.5, (yy % period) / period - 0.5
        dot = (u * u + v * v < 0.06).astype(np.float32)
        ring = (np.abs(np.hypot(u, v) - 0.4) < 0.04).astype(np.float32)
        ink = np.float32(rng.uniform(-90.0, -40.0, 3))
        second = np.float32(rng.uniform(-50.0, 30.0, 3))
        table += cv2.GaussianBlur(dot, (0, 0), 0.7)[..., None] * ink + cv2.GaussianBlur(ring, (0, 0), 0.7)[
            ..., None] * second
    return np.clip(table, 0, 255).astype(np.uint8)


def _woven_bands(rng: np.random.Generator, shape: tuple[int, int], check: bool) -> np.ndarray:
    """A cloth's dyed bands (h x w x 3, to add to its colour): stripes at some angle, or a check
    (stripes both ways, darker where they cross), softened as a weave blurs them."""
    h, w = shape
    period = float(rng.uniform(18.0, 80.0))
    share = float(rng.uniform(0.25, 0.6))
    angle = float(rng.uniform(0.0, np.pi))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    along = xx * np.float32(np.cos(angle)) + yy * np.float32(np.sin(angle))
    bands = ((along % period) < share * period).astype(np.float32)
    if check:
        across = -xx * np.float32(np.sin(angle)) + yy * np.float32(np.cos(angle))
        bands = 0.5 * (bands + ((across % period) < share * period).astype(np.float32))
    dye = np.float32(rng.uniform(-100.0, -30.0, 3))
    return cv2.GaussianBlur(bands, (0, 0), 0.8)[..., None] * dye


def _paste_plane(image: np.ndarray, texture: np.ndarray, camera: PinholeCamera, margin_mm: float) -> None:
    """Project a top-down texture of the board plane (margin included) into the image, in place."""
    s = PX_PER_MM
    to_mm = np.array([[1 / s, 0, -margin_mm], [0, 1 / s, -margin_mm], [0, 0, 1.0]])
    h_img = camera.plane_homography(0.0) @ to_mm
    w, h = image.shape[1], image.shape[0]
    cv2.warpPerspective(texture, h_img, (w, h), dst=image, flags=cv2.INTER_AREA,
                        borderMode=cv2.BORDER_TRANSPARENT)


def _paste_quad(image: np.ndarray, texture: np.ndarray, quad: np.ndarray) -> None:
    """Warp a square texture onto a projected quadrilateral (TL, TR, BR, BL), anti-aliased."""
    h, w = image.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    size = texture.shape[0]
    src = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    patch = cv2.warpPerspective(texture, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(np.full((size, size), 255, np.uint8), m, (x1 - x0, y1 - y0),
                                flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255.0
    region = image[y0:y1, x0:x1].astype(np.float32)
    image[y0:y1, x0:x1] = (region * (1 - alpha) + patch.astype(np.float32) * alpha).astype(np.uint8)


#: Outward normals of a box's four sides, and how bright each side is under the room light.
_SIDES: tuple[tuple[tuple[float, float, float], float], ...] = (
    ((0.0, -1.0, 0.0), 0.74), ((1.0, 0.0, 0.0), 0.62), ((0.0, 1.0, 0.0), 0.58), ((-1.0, 0.0, 0.0), 0.70),
)


#: Which two footprint corners (TL, TR, BR, BL) bound each side.
_SIDE_CORNERS: dict[tuple[float, float], tuple[int, int]] = {
    (0.0, -1.0): (0, 1), (1.0, 0.0): (1, 2), (0.0, 1.0): (2, 3), (-1.0, 0.0): (3, 0),
}


def _draw_stack(image: np.ndarray, camera: PinholeCamera, x0: float, y0: float, size: float, thickness: float,
                height: int, letter: str, style: str, tint: float, quarter_turns: int = 0,
                look: BoardStyle | None = None) -> None:
    """Draw one tile or stack of ``height`` tiles: visible sides layer by layer, then the top face
    (turned by ``quarter_turns`` x 90 degrees anticlockwise)."""
    look = look or BoardStyle()
    side = look.tile_side if style == "upwords" else look.street_tile_rim
    side_colour = np.array(side, np.float32) * tint
    foot = np.array([[x0, y0], [x0 + size, y0], [x0 + size, y0 + size], [x0, y0 + size]])
    centre = np.array([x0 + size / 2, y0 + size / 2])
    for normal, light in _SIDES:
        n = np.array(normal)
        face_centre = np.array([*(centre + n[:2] * size / 2), -height * thickness / 2])
        if not camera.sees_face(face_centre, n):
            continue
        # the two footprint corners on this side
        i, j = _SIDE_CORNERS[(normal[0], normal[1])]
        a, b = foot[i], foot[j]
        for layer in range(height):
            zb, zt = -layer * thickness, -(layer + 1) * thickness
            pts = camera.project(np.array([[*a, zb], [*b, zb], [*b, zt], [*a, zt]]))
            shade = light * (0.96 if layer % 2 else 1.0)
            cv2.fillConvexPoly(image, np.round(pts * 16).astype(np.int32), (side_colour * shade).tolist(),
                               cv2.LINE_AA, shift=4)
            fixed = np.round(pts * 16).astype(int)
            cv2.line(image, tuple(fixed[2]), tuple(fixed[3]), (side_colour * light * 0.7).tolist(), 1,
                     cv2.LINE_AA, shift=4)
    top = -height * thickness
    quad = camera.project(np.column_stack([foot, np.full(4, top)]))
    face = tile_face(letter, FACE_PX, style, look)
    if quarter_turns % 4:
        face = np.ascontiguousarray(np.rot90(face, quarter_turns))
    if tint != 1.0:
        face = np.clip(face.astype(np.float32) * tint, 0, 255).astype(np.uint8)
    _paste_quad(image, face, quad)


def _contact_shadows(image: np.ndarray, camera: PinholeCamera, footprints: list[tuple[float, float, float]],
                     strength: float, offset_mm: tuple[float, float]) -> None:
    """Darken the board around and beside each tile (x0, y0, size in mm), in place: real tiles
    shade the cells next to them, and a reader must not take that shade for a tile."""
    if strength <= 0 or not footprints:
        return
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.float32)
    dx, dy = offset_mm
    for x0, y0, size in footprints:
        grow = 0.8
        a, b = (x0 - grow + dx, y0 - grow + dy), (x0 + size + grow + dx, y0 + size + grow + dy)
        quad = np.array([[a[0], a[1], 0], [b[0], a[1], 0], [b[0], b[1], 0], [a[0], b[1], 0]])
        cv2.fillConvexPoly(mask, np.round(camera.project(quad)).astype(np.int32), 1.0, cv2.LINE_AA)
    px_per_mm = float(np.linalg.norm(camera.project(np.array([[0, 0, 0], [10, 0, 0.0]]))[1]
                                     - camera.project(np.array([[0, 0, 0.0]]))[0])) / 10
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.8, 1.2 * px_per_mm))
    image[:] = np.clip(image.astype(np.float32) * (1.0 - strength * mask[..., None]), 0, 255).astype(np.uint8)


def _finish(image: np.ndarray, effects: Effects) -> np.ndarray:
    return apply_effects(image, effects)


def _markers(camera: PinholeCamera, w_mm: float, h_mm: float, margin_mm: float) -> dict[int, np.ndarray]:
    out = {}
    for marker_id, quad in enumerate(marker_layout_mm(w_mm, h_mm, margin_mm)):
        out[marker_id] = camera.project(np.column_stack([quad, np.zeros(4)]))
    return out


def render_upwords(cells: Mapping[tuple[int, int], tuple[str, int]], *, spec: UpwordsSpec | None = None,
                   pose: Pose | None = None, effects: Effects | None = None, seed: int = 0,
                   markers: bool = False, style: BoardStyle | None = None,
                   jitter_mm: float = 0.0, board_seed: int | None = None,
                   contact_shadow: float = 0.0) -> Rendered:
    """Photograph an Upwords board. ``cells`` maps (row, col) -> (top letter, stack height >= 1).

    ``style``: the set's look (:mod:`vision.synthetic.style`); ``jitter_mm``: how far a tile may sit off
    its cell's centre (0 for Upwords, whose walls hold the tiles; a few mm for a Scrabble-like
    grid whose tiles lie loose); ``board_seed``: draw the table and board from their own seed,
    so several pictures of one game (other tiles, other light) show the same physical board;
    ``contact_shadow``: how dark (0..1) the shade each tile casts on the board beside it is.
    """
    spec = spec or UpwordsSpec()
    look = style or BoardStyle()
    pose = pose or Pose()
    effects = effects or Effects()
    rng = np.random.default_rng(seed)
    w_mm, h_mm = spec.cols * spec.pitch_mm, spec.rows * spec.pitch_mm
    camera = PinholeCamera(pose, w_mm, h_mm, spec.margin_mm)
    board_rng = rng if board_seed is None else np.random.default_rng(board_seed)
    image = _table(board_rng, pose.image_size, look)
    _paste_plane(image, upwords_board(spec.rows, spec.cols, spec.pitch_mm, spec.margin_mm, board_rng, markers,
                                      look), camera, spec.margin_mm)
    letters = [[None] * spec.cols for _ in range(spec.rows)]
    heights = [[0] * spec.cols for _ in range(spec.rows)]
    for (r, c), (letter, height) in cells.items():
        if not (0 <= r < spec.rows and 0 <= c < spec.cols) or height < 1:
            raise ValueError(
                f"no cell ({r}, {c}) with a stack of {height} on a {spec.rows}x{spec.cols} board")
        letters[r][c], heights[r][c] = letter, int(height)
    gap = (spec.pitch_mm - spec.tile_mm) / 2
    order = sorted(cells, key=lambda rc: -camera.to_camera(
        np.array([[(rc[1] + 0.5) * spec.pitch_mm, (rc[0] + 0.5) * spec.pitch_mm, 0.0]]))[0, 2])
    placed = []
    for r, c in order:
        dx, dy = (rng.uniform(-jitter_mm, jitter_mm, 2) if jitter_mm else (0.0, 0.0))
        placed.append((r, c, c * spec.pitch_mm + gap + dx, r * spec.pitch_mm + gap + dy))
    if contact_shadow:
        offset = tuple(float(v) for v in rng.uniform(-1.5, 1.5, 2))
        feet = [(x, y, spec.tile_mm) for _, _, x, y in placed]
        _contact_shadows(image, camera, feet, contact_shadow, offset)
    for r, c, x, y in placed:
        letter, height = cells[(r, c)]
        tint = float(rng.uniform(0.95, 1.04))
        _draw_stack(image, camera, x, y, spec.tile_mm, spec.thickness_mm, int(height), letter, "upwords",
                    tint, look=look)
    corners = camera.project(np.array([[0, 0, 0], [w_mm, 0, 0], [w_mm, h_mm, 0], [0, h_mm, 0]], np.float64))
    return Rendered(
        image=_finish(image, effects), corners=corners, camera=camera, kind="upwords", rows=spec.rows,
        cols=spec.cols, cell_mm=(spec.pitch_mm, spec.pitch_mm), thickness_mm=spec.thickness_mm,
        markers=_markers(camera, w_mm, h_mm, spec.margin_mm) if markers else {},
        letters=tuple(tuple(row) for row in letters), heights=tuple(tuple(row) for row in heights),
        hand_drawn=effects.hand,
    )


def render_street(positions: Mapping[str, int | None] | None = None, *, spec: StreetSpec | None = None,
                  pose: Pose | None = None, effects: Effects | None = None, seed: int = 0,
                  markers: bool = False, faces: Mapping[str, str] | None = None,
                  turned: Mapping[str, int] | None = None, style: BoardStyle | None = None,
                  board_seed: int | None = None, contact_shadow: float = 0.0) -> Rendered:
    """Photograph Word on the Street. ``positions``: letter -> space -2..+2 (row = space + 2),
    -3 / +3 for a tile captured by the first / second team (drawn beside the board on that
    team's side), None for a tile not in the picture. Letters left out sit on the median (0).
    ``faces``: column letter -> the letter printed on the tile standing in that column, to
    picture a tile put back in the wrong column (default: each column's own letter).
    ``turned``: column letter -> quarter turns of that tile (players push tiles both ways).
    """
    spec = spec or StreetSpec()
    look = style or BoardStyle()
    pose = pose or Pose()
    effects = effects or Effects()
    rng = np.random.default_rng(seed)
    placed: dict[str, int | None] = {letter: 0 for letter in STREET_LETTERS}
    for letter, pos in (positions or {}).items():
        if letter not in placed:
            raise ValueError(f"{letter!r} is not a Word on the Street letter ({STREET_LETTERS})")
        if pos is not None and not -3 <= pos <= 3:
            raise ValueError(f"{letter} cannot be at space {pos}: spaces run from -2 to +2 (±3 = captured)")
        placed[letter] = pos
    w_mm, h_mm = spec.cols * spec.pitch_mm, spec.rows * spec.lane_mm
    camera = PinholeCamera(pose, w_mm, h_mm, spec.margin_mm + 40)
    board_rng = rng if board_seed is None else np.random.default_rng(board_seed)
    image = _table(board_rng, pose.image_size, look)
    _paste_plane(image, street_board(spec.pitch_mm, spec.lane_mm, spec.margin_mm, board_rng, markers, look),
                 camera, spec.margin_mm)
    gx, gy = (spec.pitch_mm - spec.tile_mm) / 2, (spec.lane_mm - spec.tile_mm) / 2
    boxes = []
    for col, letter in enumerate(STREET_LETTERS):
        pos = placed[letter]
        if pos is None:
            continue
        if abs(pos) == 3:  # captured: beside the board, on the capturing team's side
            y = -spec.margin_mm - spec.tile_mm - 6 if pos < 0 else h_mm + spec.margin_mm + 6
        else:
            y = (pos + 2) * spec.lane_mm + gy + float(rng.uniform(-1.2, 1.2))
        x = col * spec.pitch_mm + gx + float(rng.uniform(-1.2, 1.2))
        boxes.append((x, y, letter))
    half = spec.tile_mm / 2
    boxes.sort(key=lambda b: -camera.to_camera(np.array([[b[0] + half, b[1] + half, 0]]))[0, 2])
    if contact_shadow:
        offset = tuple(float(v) for v in rng.uniform(-1.5, 1.5, 2))
        _contact_shadows(image, camera, [(x, y, spec.tile_mm) for x, y, _ in boxes], contact_shadow, offset)
    for x, y, letter in boxes:
        shown = (faces or {}).get(letter, letter)
        _draw_stack(image, camera, x, y, spec.tile_mm, spec.thickness_mm, 1, shown, "street",
                    float(rng.uniform(0.96, 1.03)), (turned or {}).get(letter, 0), look=look)
    corners = camera.project(np.array([[0, 0, 0], [w_mm, 0, 0], [w_mm, h_mm, 0], [0, h_mm, 0]], np.float64))
    return Rendered(
        image=_finish(image, effects), corners=corners, camera=camera, kind="street", rows=spec.rows,
        cols=spec.cols, cell_mm=(spec.pitch_mm, spec.lane_mm), thickness_mm=spec.thickness_mm,
        markers=_markers(camera, w_mm, h_mm, spec.margin_mm) if markers else {},
        positions=dict(placed), hand_drawn=effects.hand,
    )


def upwords_cells(board: Any) -> dict[tuple[int, int], tuple[str, int]]:
    """The ``cells`` argument of :func:`render_upwords` for an engine board (``games.upwords_board.Board``
    or anything with ``tops()`` and ``heights()`` grids): the demo renders the game as it stands."""
    tops, heights = board.tops(), board.heights()
    return {(r, c): (tops[r][c], heights[r][c])
            for r in range(len(tops)) for c in range(len(tops[r])) if heights[r][c]}


def describe(shot: Rendered) -> dict[str, Any]:
    """The ground truth as plain data (for saving beside a rendered PNG)."""
    return {
        "kind": shot.kind, "rows": shot.rows, "cols": shot.cols,
        "corners": shot.corners.round(2).tolist(),
        "letters": [list(r) for r in shot.letters], "heights": [list(r) for r in shot.heights],
        "positions": dict(shot.positions),
    }

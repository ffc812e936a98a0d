"""Read an Upwords board: each cell empty or its top letter, and the height of its stack.

How, and why this way:

* **Where each stack's top is.** The top face of a stack of h tiles lies on the plane h
  tile-thicknesses above the board (:mod:`vision.planes`). The reader warps the picture onto
  each candidate plane (h = 0..5) and asks, cell by cell, on which plane a clean tile face
  (a light, even rim around a letter) sits exactly in the cell. That is the *geometric*
  height; under a tilted camera it is sharp, straight overhead it is weak and says so in its
  confidence.
* **Occlusion.** Under a tilted camera a tall stack hides the cells behind it. Cells are
  judged nearest-first and every stack found is added to an occlusion mask, so a cell whose
  face is hidden is reported as *hidden* (uncertain) rather than guessed.
* **History.** The rules make heights predictable: a stack grows by exactly one each time its
  top letter changes (no letter on the same letter, one tile per stack per turn). Given the
  previous accepted reading, the reader derives each height from history and cross-checks it
  with geometry; a contradiction (a height that fell, a tile that vanished, a new letter where
  the geometry shows no growth) is flagged, never silently accepted.
* **Letters** are read on the face's own plane, so the letter is centred and upright, by any
  object with ``read(image) -> LetterRead`` (``vision.letters.LetterReader``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

import cv2
import numpy as np

from vision.appearance import BoardAppearance, board_looks, board_warp
from vision.arms import shrink
from vision.cell_decision import CellDecision, cell_decision, cell_evidence
from vision.glyphs import bare_face, face_visibility
from vision.hands import HAND_OVER_BOARD_FLAG, UNDER_HAND, UNDER_HAND_FLAG, hand_cells, hand_flags
from vision.height_decision import HeightDecision, height_decision, height_evidence
from vision.kept_decision import KeptDecision, kept_decision, kept_evidence
from vision.occupancy import cell_fraction, face_features, glyph_centres, skin_mask
from vision.occupancy_model import READER_SURE_EMPTY, OccupancyModel, default_model, measured_light
from vision.planes import BoardPlanes
from vision.reading import DEFAULT_THRESHOLD, BoardReading, CellReading, check_picture, unit
from vision.spare_core import later

if TYPE_CHECKING:
    from games.upwords_board import Board
    from games.upwords_read import PlayReading

#: Masks packed in one box: (x0, y0, x1, y1), the masks as 0/1 rows (float32), their pixel counts.
_Packed = tuple[tuple[int, int, int, int], np.ndarray, list[int]]


class LetterReaderLike(Protocol):
    def read(self, image: np.ndarray, careful: bool = False) -> Any: ...  # vision.letters.LetterRead
    def read_many(self, images: list[np.ndarray], careful: Sequence[bool] | bool = False) -> list[Any]: ...


@dataclass(frozen=True, slots=True)
class TileGeometry:
    """Physical proportions of the set (mm). Only the ratios matter to the reader.

    The defaults are the Upwords set the project was first built with; a calibration carries
    the set's own (:meth:`from_calibration`), so another set's stacks are read at their height.
    """

    pitch_mm: float = 22.0
    tile_mm: float = 19.5
    thickness_mm: float = 3.6
    max_height: int = 5
    #: Whether these proportions are the set's own, measured (or known, as a render's are). When
    #: not, the planes may sit a share of a tile off: a height from one picture is then in doubt,
    #: and only the game's history makes it sure.
    measured: bool = True

    @classmethod
    def from_shape(cls, face_frac: float | None, thickness_mm: float | None, max_height: int = 5,
                   pitch_mm: float = 22.0, measured: bool = True) -> TileGeometry:
        """The geometry from a calibration's tile face (fraction of the pitch) and thickness."""
        base = cls()
        return cls(pitch_mm, pitch_mm * face_frac if face_frac else base.tile_mm,
                   thickness_mm if thickness_mm else base.thickness_mm, max_height, measured)

    @property
    def face_frac(self) -> float:
        return self.tile_mm / self.pitch_mm


#: Normalised brightness (face rim / local dark level) above which a face is a tile.
OCCUPIED_RATIO = 2.45
#: A candidate face more than this much covered by nearer stacks is not evidence.
MAX_COVER = 0.35
#: The learnt occupancy model's probability from which a cell holds a tile (its letter is read).
OCCUPIED_FROM = 0.5
#: The planes' confidence in a height below which the picture says next to nothing of it (a
#: camera nearly overhead): where tiles were laid under a hand, the one tile a move adds is then
#: a better guess than the planes' best. Measured on development Upwords games (in-domain and
#: held-out: 264 cells where history's floor was all that was known, 17 of them with the
#: planes' best above it): the planes were right at 0.071 and up (12 cells), and wrong at 0.015
#: and below (5: single tiles after a hand, read as stacks of 2, which history would then keep
#: in every picture after).
HEIGHT_CUE_FROM = 0.04
#: A raised plane's face counts against a floor that looks empty when its height is this sure
#: (:func:`plane_height`'s lead, as a confidence) and its letter this sure; the cell is then
#: reported with this confidence (in doubt, for the players).
RAISED_FACE_SURE = 0.8
RAISED_FACE_LETTER = 0.9
RAISED_FACE_DOUBT = 0.3
#: ... or however low the planes' lead, when nothing can lie beyond the cell: the board's edge,
#: or cells that look as they did empty, on each side whose share of the far side from the camera
#: is at least this (:meth:`UpwordsReader._nothing_beyond`). Why: a face on a raised plane can
#: then only be the cell's own, even where a tall stack's side is the colour of the empty board
#: and its face scores nearly as well on two planes. Measured on 23,616 development cells
#: (8x8 and 10x10, every fill): one cell fewer wrong and sure, two more in doubt.
NOTHING_BEYOND_WEIGHT = 0.3
#: ... so long as the planes lean to that face this much (:func:`plane_height`'s lead, as a
#: confidence). Why: the letter is read carefully, one cell at a time, and
#: on an empty board every cell has nothing beyond it: without this an empty 8x8 took 50-60 ms
#: instead of 19. It leaves a tenth of the empty-looking cells whose best plane is a raised one
#: to be read (339 of 3,223 on the development boards above).
NOTHING_BEYOND_LEAD = 0.3
#: ... or when its face score stands this far (as a share of the tile's grey level) above every
#: other visible plane's, whatever :func:`plane_height` made of the planes below it: a tall
#: stack whose side is the colour of the empty board can score clearly best on its top plane
#: while an uneven lower plane makes its height unsure, and the cell must not then be read
#: surely empty. Of 5,600 empty cells of dense development boards, the 125 with a sure letter
#: on a raised plane had no plane more than 0.055 clear.
RAISED_FACE_CLEAR = 0.2
#: ... or when its face scores this much (as a share of the tile's grey level: as light as a
#: tile's face) with a letter read at :data:`OWN_FACE_LETTER` or more that no tile just beyond
#: the cell bears (:meth:`UpwordsReader._letters_beyond`): a raised plane of an empty cell shows
#: the tile beyond it, and this face is not that tile's; so a stack whose side looks like the
#: empty board, its face splitting its score between two planes, is not read surely empty. On
#: development boards (8x8 and 10x10, 7,409 cells whose floor looked empty) the empty cells
#: with a tile beyond scored at most 1.16; at 0.9 and 0.3 this flags none of them (at 0.8, two).
#: The score is weighed against this times the light's gain in the cell (as light as a tile's
#: face *in this light*): in a dimmer light a tile's face scores well under the calibration's
#: grey, and its shaded side looks like the empty cell once the light is undone.
OWN_FACE_SCORE = 0.9
OWN_FACE_LETTER = 0.3
#: A face that stands clear so (:data:`RAISED_FACE_CLEAR`) needs only a letter on it, however
#: unsure (:data:`NO_LETTER_BELOW`), not one read at :data:`RAISED_FACE_LETTER`: a face that
#: clear is a tile's even where its letter, small and slanted on a high plane, reads poorly. On
#: development boards (8x8 and 10x10 games, half-full and full boards: 6,901 cells whose floor
#: looked empty) every face that clear was a tile's (37); the empty cells whose raised planes
#: showed a face stood at most 0.18 clear.
RAISED_FACE_CLEAR_LETTER = 0.1
#: A cell whose floor nearer stacks hide this much or more is hidden behind them: not judged.
HIDDEN_FROM = 0.7
#: A cell whose floor a nearer stack hides this much (but less than :data:`HIDDEN_FROM`)
#: is seen through a slot: the learnt look of its floor mixes in the nearer stack, and its face
#: shows only in part. Its letter must then be read this sure, or the cell is in doubt: a
#: nearer stack's letter seen on a raised plane of the cell behind it can otherwise make that
#: cell a stack. On dense development boards (17,712 cells judged) the rule flags 6 cells,
#: 4 of them read right; every tile read right with 30-40 % of its floor hidden had its letter
#: at 0.8 or more (141), and those under 0.8 were 16 cells read wrong, already in doubt.
PARTLY_HIDDEN = 0.3
#: That letter is also checked by the letters' second look (read carefully), and must stay as
#: sure: the face crop of a cell seen through a slot holds the nearer stack's face too, and the
#: first look can take a piece of that face's letter, cut by the crop's edge, for a letter of
#: its own (:meth:`UpwordsReader._check_slots`).
PARTLY_HIDDEN_LETTER = 0.8
PARTLY_HIDDEN_FLAG = "partly hidden behind a nearer stack"
PARTLY_HIDDEN_DOUBT = 0.3
#: A tile whose own top face a nearer stack hides this much or more shows only part of its
#: letter, and a letter cut short can be another one whole (a J without its hook is an I).
#: Such a letter must be read at least :data:`FACE_HIDDEN_LETTER` sure (both views agreeing,
#: :mod:`vision.letters`), unless the game's history already has it there. On development
#: boards (8x8 and 10x10, half and full: 23,583 tiles) 615 right letters were read sure on
#: faces 15-35 % hidden, 8 of them under 0.9: those go in doubt. None was wrong.
FACE_HIDDEN = 0.15
FACE_HIDDEN_LETTER = 0.9
FACE_HIDDEN_FLAG = "its letter is partly hidden behind a nearer stack"
#: ... and a stack of 2 or more seen through such a slot, whose letter is the one read on a tile
#: just beyond it, is in doubt however sure the letter: its raised planes look over the nearer
#: stack at that farther tile's face, so an empty cell can show a farther letter, sharply, on a
#: high plane. On development boards (8x8 and 10x10, 15,744 cells) it flags 8 cells, 4 of them
#: not in doubt before; asking it of every such stack with any tile beyond, whatever its
#: letter, flagged 135 (88 more in doubt).
FARTHER_FACE_FLAG = "perhaps a farther tile seen over a nearer stack"
#: ... and so is a stack, its height read from the picture alone, whose plane just below its top
#: a nearer stack hides (:data:`MAX_COVER`): a face partly hidden scores less than it would seen
#: whole, and the plane above it sees the visible part of the same face, so the two cannot be
#: told apart, and such a stack can be read surely one tile too high. No margin between the two
#: planes' scores separates such stacks from those read right (0.02-0.38 on development
#: boards). On development boards (8x8 and 10x10, 31,488 cells) it flags 51 cells, 42 of them
#: read right; history settles most heights in a game.
HIDDEN_BELOW_FLAG = "the plane below its top is hidden: it may be a tile lower"
#: ... and so is a stack seen through such a slot whose plane just above its top is the
#: runner-up without a clear lead (:func:`plane_height` under 1): the top face, partly behind the
#: nearer stack, scores less than the plane below it, which sees its visible part too: such a
#: stack can be read surely one tile too low. On development boards (8x8 and 10x10: 6,515
#: heights read sure from the picture) it put 10 right heights in doubt.
ONE_LOW_FLAG = "its top is partly hidden: it may be a tile higher"
#: Why a cell is not judged: a nearer stack stands in front of it.
HIDDEN_FLAG = "hidden behind a taller stack"
#: A tile whose floor this much (:data:`PARTLY_HIDDEN`) or more would lie behind a hidden cell
#: the reader knows nothing of (no history), were that cell the tallest stack, is in doubt
#: whatever its letter: what it shows may be that unseen stack's side and face. (A stack hidden
#: behind a nearer cell that was itself misread is in no occlusion mask, and the cell behind it
#: shows its side and letter as if they were its own.)
UNSEEN_NEARER_FLAG = "perhaps behind a nearer stack that cannot be seen"
#: A cell whose floor a nearer stack hides this much or more, which looks occupied but shows no
#: letter on any face, is taken for empty (in doubt): the look that seemed a tile is the nearer
#: stack's side and top over its floor. On held-out development boards (8x8 and 10x10 games and
#: half-full boards), such cells were 21 empty and 1 tile; every tile behind a nearer stack
#: with 15-40 % of its floor hidden showed its letter (111).
NEARER_STACK_LOOK = 0.15
#: How a reading writes a blank tile (crossword-style sets have them; the layout's ``?``).
BLANK = "?"
#: A letter read less sure than this is no read at all (a blank, smudged or covered face).
NO_LETTER_BELOW = 0.1
#: How sure a tile is that the history keeps against an unsure letter read above it
#: (:meth:`UpwordsReader._tile_as_before`): in doubt, so the players confirm it.
HISTORY_KEPT_DOUBT = 0.5
#: How sure a height from the planes can be when the set's thickness was never measured: in
#: doubt (below any threshold the kiosk uses), whatever the planes say.
UNMEASURED_DOUBT = 0.4
UNMEASURED_FLAG = "the set's tile thickness was never measured: this height is a guess"
#: A cell the learnt references find empty, but with a probability of a tile this high or higher
#: (under :data:`OCCUPIED_FROM`), is looked at once more: where its face on the first plane shows
#: a letter read at least :data:`EMPTY_LOOK_LETTER` sure, it is a tile, in doubt. Why: under a
#: shadow deeper than the light's estimate, tiles can look like the empty cells they cover, but
#: their letters still read plainly. On development boards (8x8, 10x10 and 15x15, quarter, half
#: and full) 176 empty cells were looked at so: one showed a letter, and it was in doubt
#: already; none read surely empty did.
LETTER_LOOK_FROM = 0.05
EMPTY_LOOK_LETTER = 0.9
#: Why a tile's cell is in doubt when the picture shows no readable letter on it.
NO_LETTER_FLAG = "no letter can be read on this tile"
#: With learnt references: the lead (as a share of the tile's grey level) of the best plane's face
#: score over the next one that makes a single-frame height sure.
HEIGHT_GAP = 0.08
#: A stack's top moves this many warped pixels per tile of height, or more, before a single
#: picture's height can be sure (less: the planes overlap and blur decides between them). Every
#: sure wrong height seen on dense benchmark boards (``python -m bench height_models``) was at
#: 2.5 px or less, tall stacks read one low.
PLANES_APART_PX = 3.5
#: Where the planes lie closer than this (px a tile), a single picture's height is at most
#: :data:`PLANES_CLOSE_CONF` sure, under the reader's threshold. The ramp of
#: :meth:`UpwordsReader._height_scores` towards :data:`PLANES_APART_PX` would otherwise let a
#: clear lead be sure from 2.3 px, where sure wrong heights are still seen (2.5 px or less).
#: Cost on full development boards: 41 more cells in doubt of an 8x8s' 768 and 74 of 10x10s'
#: 1,200; capping all the way to 3.5 px put a quarter of their tiles in doubt (right and sure
#: 52 -> 27 % on full 8x8s). History settles these in a game.
PLANES_CLOSE_PX = 2.6
PLANES_CLOSE_CONF = 0.55
#: Seen nearly straight down, the focal length cannot be worked out from the board's corners and
#: is assumed (:mod:`vision.planes`), and the spacing of the planes with it: an assumed focal
#: length a fifth too short or too long (the renders' cameras lie within 0.73-1.07 of the image
#: width, the Pi's camera modules 0.77-0.99, the assumption 0.9) puts a stack of 3's face at
#: 2.4-3.6 planes and a stack of 5's at 4.2-6. So, without a lens calibration, a single picture
#: is never sure of a stack read this high or higher. On development boards (18 of 150 seen
#: nearly straight down) it puts 28 heights read right and sure in doubt, and one read wrong
#: and sure (a stack of 5 read 4). History settles these in a game.
ASSUMED_FOCAL_SURE_BELOW = 2
#: The lead a height needs over the plane just above it, as a multiple of :data:`HEIGHT_GAP`:
#: a stack read one low looks like that (its face warped one plane too low lands on its own
#: tile-coloured side), so a narrow lead there is no evidence. On development boards this puts
#: 31 of 11,808 cells more in doubt and no sure read wrong.
ONE_LOW_GAP = 1.5


class UpwordsReader:
    """Reads Upwords boards seen by one calibrated camera.

    Example::

        reader = UpwordsReader(corners, image_size=(1024, 768), letters=letter_reader)
        first = reader.read(frame)
        later = reader.read(next_frame, previous=first)   # heights from history + geometry

    ``corners``: the playing area's outer corners (TL, TR, BR, BL) in the image;
    ``camera_matrix``: the lens calibration if known (else the focal length is estimated);
    ``loose_tiles``: the tiles are not held in cells by walls (a Scrabble-like grid), so each
    letter is cut out around where it actually is near its cell; ``appearance``: what this
    board looks like empty and what its tiles look like, learnt at calibration
    (:mod:`vision.learn_board`) — with it, occupancy is decided by comparing each cell with
    those references through the trained ``model`` (:mod:`vision.occupancy_model`); without
    it, by the older brightness rule that suits only dark boards. ``decide_cells``: a cell the
    history has empty and the model leaves in doubt is decided with its face by the fitted
    :mod:`vision.cell_decision`, and a stack the history has whose face and planes show it as it
    was is settled by the fitted :mod:`vision.kept_decision` (both off only to gather their evidence).
    """

    def __init__(self, corners: np.ndarray, image_size: tuple[int, int], *, rows: int = 8, cols: int = 8,
                 letters: LetterReaderLike | None = None, geometry: TileGeometry | None = None,
                 camera_matrix: np.ndarray | None = None, threshold: float = DEFAULT_THRESHOLD,
                 cell_px: int = 32, loose_tiles: bool = False, appearance: BoardAppearance | None = None,
                 model: OccupancyModel | None = None, decide_cells: bool = True) -> None:
        self.rows, self.cols = rows, cols
        self.corners = np.asarray(corners, np.float64).reshape(4, 2)
        self.appearance = appearance
        self.model = model if model is not None or appearance is None else default_model()
        self._p_occ: np.ndarray | None = None
        self.cell_decision: CellDecision | None = (cell_decision() if appearance is not None and decide_cells
                                                   else None)
        #: what the cell decision weighed on each cell it was asked about in the last read
        self.cell_evidence: dict[tuple[int, int], np.ndarray] = {}
        # how closely a taught tile fits each face read in the last read (plane, row and col in the
        # warped window): the letters' second look's best correlation, where it looked
        self._fits: dict[tuple[int, int, int], float] = {}
        self.kept_decision: KeptDecision | None = (kept_decision() if appearance is not None and decide_cells
                                                   else None)
        #: what the kept decision weighed on each stack of the history's it was asked about in the last read
        self.kept_evidence: dict[tuple[int, int], np.ndarray] = {}
        self.height_decision: HeightDecision | None = (
            height_decision() if appearance is not None and decide_cells else None)
        #: what the height decision weighed on each stack of a picture read alone in the last read
        self.height_evidence: dict[tuple[int, int], np.ndarray] = {}
        # the light's gain at each cell since calibration (exp of the log gain), for a read
        self._brighter: np.ndarray | None = None
        self._warps: list = []  # the last read's planes, warped (grey; None: not warped)
        self._unseen: np.ndarray | None = None
        self.loose_tiles = loose_tiles
        self.geometry = geometry or TileGeometry()
        self.letters = letters
        self.threshold = threshold
        self.cell_px = cell_px
        self.pad_cells = 0.5
        self.image_size = image_size
        g = self.geometry
        self.planes = BoardPlanes.from_corners(corners, rows, cols, image_size, (g.pitch_mm, g.pitch_mm),
                                               camera_matrix)
        self.face_frac = g.face_frac
        self._prepare()

    def use_geometry(self, geometry: TileGeometry) -> None:
        """Read with ``geometry`` from now on: the set's thickness measured since the reader was
        made (from a picture of a confirmed board, :mod:`kiosk.camera.thickness`). Same pitch only:
        the board's planes are the calibration's."""
        if geometry.pitch_mm != self.geometry.pitch_mm:
            raise ValueError("a reader's pitch is its calibration's: make a new reader for another")
        self.geometry = geometry
        self.face_frac = geometry.face_frac
        self._prepare()

    # -- geometry prepared once per calibration -------------------------------------------------
    def _prepare(self) -> None:
        g, p = self.geometry, self.planes
        rr, cc = np.mgrid[0:self.rows, 0:self.cols]
        centres = np.column_stack([(cc.ravel() + 0.5) * g.pitch_mm, (rr.ravel() + 0.5) * g.pitch_mm])
        cam = centres @ p.R[:, :2].T + p.t
        self.order = [divmod(int(i), self.cols) for i in np.argsort(cam[:, 2])]  # nearest first
        # How far (board px) the top face moves per tile of height: is geometry informative here?
        one = np.column_stack([centres, np.full(len(centres), -g.thickness_mm)])
        img = p.project(one)
        h0 = np.linalg.inv(p.homography(0.0))
        back = cv2.perspectiveTransform(img[None].astype(np.float64), h0)[0]
        shift_mm = np.hypot(*(back - centres).T)
        self.layer_shift_px = (shift_mm * self.cell_px / g.pitch_mm).reshape(self.rows, self.cols)
        half = g.tile_mm / 2
        self._hulls: dict[tuple[int, int, int], np.ndarray] = {}
        self._maps: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        camera_xy = (-p.R.T @ p.t)[:2]
        vx = (cc + 0.5) * g.pitch_mm - camera_xy[0]
        vy = (rr + 0.5) * g.pitch_mm - camera_xy[1]
        n = np.hypot(vx, vy) + 1e-9
        # weights of the N, E, S, W strips outside a face that lie on its far side from the camera
        self.far_weights = np.stack([np.maximum(0, -vy / n), np.maximum(0, vx / n),
                                     np.maximum(0, vy / n), np.maximum(0, -vx / n)])
        self._quads: dict[tuple[int, int, int], np.ndarray] = {}
        for r in range(self.rows):
            for c in range(self.cols):
                x, y = (c + 0.5) * g.pitch_mm, (r + 0.5) * g.pitch_mm
                for k in range(g.max_height + 1):
                    z = -k * g.thickness_mm
                    pts = np.array([[x - half, y - half, z], [x + half, y - half, z],
                                    [x + half, y + half, z], [x - half, y + half, z]])
                    self._quads[(r, c, k)] = p.project(pts)
        w, h = self.image_size
        # Per candidate face: its box in the picture, its mask there (0/255) and its pixel count.
        self._masks: dict[tuple[int, int, int], tuple[tuple[int, int, int, int], np.ndarray | None, int]] = {}
        for key, quad in self._quads.items():
            x0, y0 = np.floor(quad.min(axis=0)).astype(int)
            x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
            if x1 <= x0 or y1 <= y0:
                self._masks[key] = ((0, 0, 0, 0), None, 0)
                continue
            local = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillConvexPoly(local, np.round(quad - [x0, y0]).astype(np.int32), 255)
            self._masks[key] = ((x0, y0, x1, y1), local, cv2.countNonZero(local))
        # Per cell: every raised plane's mask in one box, for the covers a read asks of them all.
        self._raised_masks: dict[tuple[int, int], _Packed | None] = {}

    def _silhouette(self, r: int, c: int, height: int) -> np.ndarray:
        """Image outline (convex hull, int32) of the stack standing in a cell; computed once.
        (A height over the set's limit — a misread the reader flags — is drawn at the limit.)"""
        height = min(height, self.geometry.max_height)
        key = (r, c, height)
        hull = self._hulls.get(key)
        if hull is None:
            pts = np.vstack([self._quads[(r, c, 0)], self._quads[(r, c, height)]]).astype(np.float32)
            hull = self._hulls[key] = cv2.convexHull(pts).astype(np.int32)
        return hull

    def _border_stacks(self) -> list[np.ndarray]:
        """The image outlines of the tallest stacks the board's border cells can hold: where tiles
        may stand out over the surround, which the arms' check must not take for an arm
        (:func:`vision.arms.arm_cells`); none for flat tiles, whose faces do not."""
        if self.geometry.max_height <= 1:
            return []
        return [self._silhouette(r, c, self.geometry.max_height) for r in range(self.rows)
                for c in range(self.cols) if r in (0, self.rows - 1) or c in (0, self.cols - 1)]

    # -- reading --------------------------------------------------------------------------------
    def warp_planes(self, image: np.ndarray, gray: bool = True,
                    window: tuple[int, int, int, int] | None = None) -> list[np.ndarray]:
        """Top-down images of the planes 0..max_height tile-thicknesses above the board
        (of the cells ``window`` = (row0, col0, rows, cols) only, when given)."""
        src = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if gray and image.ndim == 3 else image
        return [self._remap(src, k, window) for k in range(self.geometry.max_height + 1)]

    def _remap(self, src: np.ndarray, k: int, window: tuple[int, int, int, int] | None) -> np.ndarray:
        """Warp plane k (or a window of it) with the maps computed once for this calibration:
        a remap with fixed-point maps costs a fraction of a fresh perspective warp."""
        if k not in self._maps:
            g = self.geometry
            pad = round(self.pad_cells * self.cell_px)
            w_px, h_px = self.cols * self.cell_px + 2 * pad, self.rows * self.cell_px + 2 * pad
            s = self.cell_px / g.pitch_mm
            to_mm = np.array([[1 / s, 0, -pad / s], [0, 1 / s, -pad / s], [0, 0, 1.0]])
            m = self.planes.homography(-k * g.thickness_mm) @ to_mm
            xs, ys = np.meshgrid(np.arange(w_px, dtype=np.float64), np.arange(h_px, dtype=np.float64))
            pts = np.stack([xs, ys, np.ones_like(xs)], axis=-1) @ m.T
            map_x = (pts[..., 0] / pts[..., 2]).astype(np.float32)
            map_y = (pts[..., 1] / pts[..., 2]).astype(np.float32)
            self._maps[k] = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)
        m1, m2 = self._maps[k]
        if window is not None:
            r0, c0, rows, cols = window
            pad = round(self.pad_cells * self.cell_px)
            y0, x0 = r0 * self.cell_px, c0 * self.cell_px
            y1, x1 = y0 + rows * self.cell_px + 2 * pad, x0 + cols * self.cell_px + 2 * pad
            m1, m2 = m1[y0:y1, x0:x1], m2[y0:y1, x0:x1]
        return cv2.remap(src, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def face_crop(self, warped: np.ndarray, row: int, col: int) -> np.ndarray:
        """The tile face of one cell from a warped plane (a little wider than the face); with
        ``loose_tiles``, centred on the letter found near the cell."""
        return self.face_crops(warped, [(row, col)])[0]

    def face_crops(self, warped: np.ndarray, cells: list[tuple[int, int]]) -> list[np.ndarray]:
        """:meth:`face_crop` of many cells of one plane (the loose tiles' letters found at once)."""
        pad = self.pad_cells * self.cell_px
        half = 0.5 * self.face_frac * self.cell_px * 1.04
        centres = [(pad + (row + 0.5) * self.cell_px, pad + (col + 0.5) * self.cell_px) for row, col in cells]
        if self.loose_tiles:
            reach = half * 1.45
            corners = [(max(round(cy - reach), 0), max(round(cx - reach), 0)) for cy, cx in centres]
            windows = [warped[y0:round(cy + reach), x0:round(cx + reach)]
                       for (y0, x0), (cy, cx) in zip(corners, centres, strict=True)]
            found = glyph_centres(windows, letter_px=0.62 * 2 * half / 1.04)
            centres = [(cy, cx) if where is None else (y0 + where[1], x0 + where[0])
                       for (cy, cx), (y0, x0), where in zip(centres, corners, found, strict=True)]
        crops = []
        for cy, cx in centres:
            y0, y1, x0, x1 = (round(v) for v in (cy - half, cy + half, cx - half, cx + half))
            crops.append(warped[max(y0, 0):y1, max(x0, 0):x1])
        return crops

    def read(self, image: np.ndarray, previous: BoardReading | None = None,
             only: Iterable[tuple[int, int]] | None = None, *, hand_free: bool = False) -> BoardReading:
        """Read the board; with ``previous`` heights come from history too; ``only`` re-reads
        just those cells and copies the rest from ``previous``. ``hand_free``: the caller knows no
        hand is in the picture (the camera's stream saw nothing come in since a frame the hand
        check passed, :mod:`vision.stillness`), so no cell is judged under one."""
        check_picture(image, self.image_size)
        h, w = image.shape[:2]
        wanted = np.zeros((self.rows, self.cols), bool)
        if only is None or previous is None:
            wanted[:] = True
        else:
            for r, c in only:
                wanted[r, c] = True
        # Work on the window of wanted cells (and one cell around them), not the whole board.
        rows_w, cols_w = np.nonzero(wanted)
        r0, c0 = max(int(rows_w.min()) - 1, 0), max(int(cols_w.min()) - 1, 0)
        r1, c1 = min(int(rows_w.max()) + 2, self.rows), min(int(cols_w.max()) + 2, self.cols)
        window = (r0, c0, r1 - r0, c1 - c0)
        learnt = self.appearance is not None and self.model is not None
        if learnt:
            board = board_warp(image, self.corners, self.rows, self.cols)
            # The hands' check needs nothing else of the read: it runs on the spare core from the
            # start, while the planes are warped and the letters read (vision.spare_core). It
            # begins with the picture shrunk, which the surround's light needs too (half a
            # millisecond): shrunk first, once, on the spare core (first in, first out).
            small_soon = later(shrink, image)
            stacks = self._border_stacks()
            hand_soon = later(lambda: np.zeros((self.rows, self.cols)) if hand_free else
                              hand_cells(board, self.rows, self.cols, self.appearance, image,
                                         self.corners, stacks, small_soon.result()))
        self._gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        # The learnt references settle occupancy, so that path never looks at the floor plane
        # (k = 0): it is neither warped nor measured (a sixth of the planes' cost on an 8x8).
        warps = [None if learnt and k == 0 else self._remap(self._gray, k, window)
                 for k in range(self.geometry.max_height + 1)]
        self._warps = warps
        pad = self.pad_cells * self.cell_px
        # With the learnt references the planes' face scores only weigh heights: flat tiles have none.
        flat = learnt and self.geometry.max_height == 1
        feats = [None if wp is None or flat
                 else face_features(wp, window[2], window[3], self.cell_px, self.face_frac, pad)
                 for wp in warps]
        dark_ref = np.zeros((window[2], window[3]))
        if self.appearance is None:  # the fixed rules measure against the darkest things nearby
            k = int(self.cell_px * 1.6) | 1
            dark = cv2.blur(cv2.erode(warps[0], np.ones((k, k), np.uint8)), (k, k)).astype(np.float64)
            rr, cc = np.mgrid[0:window[2], 0:window[3]]
            dark_ref = np.maximum(dark[(pad + (rr + 0.5) * self.cell_px).astype(int),
                                       (pad + (cc + 0.5) * self.cell_px).astype(int)], 8.0)
        self._p_occ = None
        self._brighter = None
        self.cell_evidence = {}
        self._fits = {}
        self.kept_evidence = {}
        self.height_evidence = {}
        # Every plane's face score for every cell at once (the heights' evidence), not cell by cell.
        self._rim_scores = None
        if learnt:
            self._rim_scores = (np.zeros((1, window[2], window[3])) if flat
                                else np.stack([f.rim - 0.75 * f.rim_spread for f in feats[1:]]))
        self._origin = (r0, c0)
        if learnt:
            looks = board_looks(image, self.corners, self.rows, self.cols, self.face_frac, board)
            light = measured_light(image, looks, self.appearance, self.corners, self.rows, self.cols,
                                   small_soon.result)
            self._brighter = np.exp(light.gains.mean(axis=2))  # the light's gain at each cell
            self._p_occ = self.model.probability(looks, self.appearance, light)
            self._letters_read = self._read_letters_at_once(warps, wanted, previous)
            hand = hand_soon.result()
        else:
            colour0 = self._remap(image, 0, window)
            hand = (np.zeros((window[2], window[3])) if hand_free
                    else cell_fraction(skin_mask(colour0), window[2], window[3], self.cell_px, pad))
            self._letters_read = {}
        self._any_hand = bool((hand > UNDER_HAND).any())
        hand = hand[r0:r1, c0:c1] if learnt else hand
        occluder = np.zeros((h, w), np.uint8)
        # Where hidden cells of unknown height would stand if each were the tallest stack (made
        # on the first such cell).
        self._unseen = None
        self._slot_checks: list[tuple[int, int]] = []
        results: dict[tuple[int, int], CellReading] = {}
        for r, c in self.order:
            prev = previous.cell(r, c) if previous is not None else None
            if not wanted[r, c] and prev is not None:
                results[(r, c)] = prev
                if prev.height:
                    cv2.fillConvexPoly(occluder, self._silhouette(r, c, prev.height), 255)
                continue
            wr, wc = r - r0, c - c0
            cell = self._judge(r, c, feats, warps, dark_ref[wr, wc], occluder, hand[wr, wc], prev)
            results[(r, c)] = cell
            if cell.height:
                cv2.fillConvexPoly(occluder, self._silhouette(r, c, cell.height), 255)
            elif learnt and self.geometry.max_height > 1 and prev is None and HIDDEN_FLAG in cell.flags:
                if self._unseen is None:
                    self._unseen = np.zeros((h, w), np.uint8)
                cv2.fillConvexPoly(self._unseen, self._silhouette(r, c, self.geometry.max_height), 255)
        self._check_slots(results, warps)
        cells = tuple(results[(r, c)] for r in range(self.rows) for c in range(self.cols))
        notes = ()
        if self.planes.focal_source == "assumed" and self.geometry.max_height > 1:
            notes = ("camera nearly overhead: stack heights come from history more than from the picture",)
        return BoardReading(game="upwords", rows=self.rows, cols=self.cols, cells=cells, notes=notes)

    def _raised_covers(self, occluder: np.ndarray, r: int, c: int) -> list[float]:
        """:meth:`_cover` of the planes 1..max_height of one cell, counted at once.

        Why: a read asks this of every raised plane of every tile; counted plane by plane it was
        a tenth of a full board's read (five OpenCV calls and their Python around each)."""
        packed = self._raised_masks.get((r, c), ())
        if packed == ():
            packed = self._raised_masks[(r, c)] = self._pack_raised(r, c)
        if packed is None:  # a face partly or wholly outside the picture: the plain way
            return [self._cover(occluder, r, c, k)[0] for k in range(1, self.geometry.max_height + 1)]
        (x0, y0, x1, y1), masks, counts = packed
        # 0/1 masks times the 0/255 occluder: whole multiples of 255, exact in float32
        overlap = (masks @ occluder[y0:y1, x0:x1].astype(np.float32).reshape(-1)).tolist()
        return [1.0 - (n - round(o / 255.0)) / n for o, n in zip(overlap, counts, strict=True)]

    def _pack_raised(self, r: int, c: int) -> _Packed | None:
        entries = [self._masks[(r, c, k)] for k in range(1, self.geometry.max_height + 1)]
        if any(local is None or not n for _, local, n in entries):
            return None
        x0, y0 = min(e[0][0] for e in entries), min(e[0][1] for e in entries)
        x1, y1 = max(e[0][2] for e in entries), max(e[0][3] for e in entries)
        masks = np.zeros((len(entries), y1 - y0, x1 - x0), np.float32)
        for plane, ((bx0, by0, bx1, by1), local, _) in zip(masks, entries, strict=True):
            plane[by0 - y0:by1 - y0, bx0 - x0:bx1 - x0] = local > 0
        return (x0, y0, x1, y1), masks.reshape(len(entries), -1), [n for _, _, n in entries]

    def _cover(self, occluder: np.ndarray, r: int, c: int, k: int, gray: np.ndarray | None = None
               ) -> tuple[float, float]:
        """Fraction of a candidate face hidden by nearer stacks, and (with ``gray``) the mean
        brightness of its visible part."""
        (x0, y0, x1, y1), local, n_local = self._masks[(r, c, k)]
        if local is None:
            return 1.0, 0.0
        region = occluder[y0:y1, x0:x1]
        if gray is None:  # OpenCV's counts: a read asks this of every plane of every tile
            if not n_local:
                return (1.0 if cv2.countNonZero(region) else 0.0), 0.0
            return 1.0 - (n_local - cv2.countNonZero(cv2.bitwise_and(region, local))) / n_local, 0.0
        seen = (local > 0) & (region == 0)
        n_seen = np.count_nonzero(seen)
        cover = 1.0 - n_seen / max(n_local, 1)
        if not n_seen:
            return cover, 0.0
        return cover, float(gray[y0:y1, x0:x1][seen].mean())

    def _judge(self, r: int, c: int, feats: list, warps: list[np.ndarray], dark_ref: float,
               occluder: np.ndarray, hand: float, prev: CellReading | None) -> CellReading:
        g = self.geometry
        wr, wc = r - self._origin[0], c - self._origin[1]  # the cell in the warped window
        flags = hand_flags(hand, self._any_hand)
        if hand > UNDER_HAND and prev is not None:
            # Nothing under a hand can be read, and a guess would become the next picture's
            # history (a stack read as gone under a hand, then its top taken for a new tile):
            # the cell keeps what it was, marked uncertain, until it is seen again.
            return self._carried(r, c, prev, flags)
        # Any tile in this cell covers its floor, and only nearer things can hide the floor, so a
        # visible floor settles occupancy (measured on its visible part only); the higher planes
        # may show a farther stack's side instead.
        if self._p_occ is not None:
            return self._judge_learnt(r, c, feats, warps, occluder, prev, flags)
        floor_cover, floor_mean = self._cover(occluder, r, c, 0, self._gray)
        floor_visible = floor_cover < HIDDEN_FROM
        level = floor_mean / dark_ref if floor_visible else None
        if level is not None and level < OCCUPIED_RATIO:
            conf = unit(np.log(OCCUPIED_RATIO / max(level, 1e-3)) / np.log(1.3))
            return self._finish(r, c, None, 0, conf, 1.0, conf, prev, flags, geo_height=0, geo_conf=conf)
        scores, visible = [], []
        fw = self.far_weights[:, r, c]
        for k in range(1, g.max_height + 1):
            # A clean face on this plane: a bright rim, even all round. When the floor is hidden
            # the plane may instead show a farther stack's side, so the face must also stand out
            # from what lies beyond its far edge. (Measured on 2,400 rendered stacks: with the
            # floor visible the far-edge term only costs accuracy; with it hidden it is needed.)
            f = feats[k]
            score = f.rim[wr, wc] - 0.75 * f.rim_spread[wr, wc]
            if not floor_visible:
                if fw.sum() > 0.05:
                    far = float((f.outside[:, wr, wc] * fw).sum() / fw.sum())
                else:  # straight below the camera: no far side, use all round
                    far = float(f.around[wr, wc])
                score -= 0.25 * f.rim_spread[wr, wc] + 0.5 * far
            scores.append(score / dark_ref)
            visible.append(self._cover(occluder, r, c, k)[0] < MAX_COVER)
        if not any(visible) and not floor_visible:
            return self._hidden(r, c, prev, flags)
        scores_arr = np.array(scores)
        cand = np.where(visible, scores_arr, -np.inf) if any(visible) else scores_arr
        best = int(np.argmax(cand))
        if level is None:
            level = float(feats[best + 1].rim[wr, wc]) / dark_ref
        margin = np.log(max(level, 1e-3) / OCCUPIED_RATIO) / np.log(1.3)
        occ_conf = unit(abs(margin))
        if margin <= 0:
            return self._finish(r, c, None, 0, occ_conf, 1.0, occ_conf, prev, flags, geo_height=0,
                                geo_conf=occ_conf)
        height = best + 1
        ordered = np.sort(cand[np.isfinite(cand)])[::-1]
        gap = float(ordered[0] - ordered[1]) if len(ordered) > 1 else 0.0
        informative = unit((self.layer_shift_px[r, c] - 0.6) / 1.6)
        geo_conf = unit(gap / 0.25) * informative
        crop = self.face_crop(warps[height], wr, wc)
        letter, letter_conf = None, 0.0
        if self.letters is not None and crop.size:
            read = self.letters.read(crop)
            letter, letter_conf = read.letter, float(read.confidence)
            if letter_conf < NO_LETTER_BELOW:  # a guess, not a read: do not let history count it
                letter = None
            if letter is None:
                flags.append(NO_LETTER_FLAG)
        return self._finish(r, c, letter, height, occ_conf, letter_conf, geo_conf, prev, flags,
                            geo_height=height, geo_conf=geo_conf)

    def _judge_learnt(self, r: int, c: int, feats: list, warps: list[np.ndarray], occluder: np.ndarray,
                      prev: CellReading | None, flags: list[str]) -> CellReading:
        """Occupancy from the learnt references; the height from the planes, as before."""
        assert self._p_occ is not None
        p = float(self._p_occ[r, c])
        if _surely_empty_before(prev) and self.letters is not None and not self.loose_tiles and _in_band(p):
            p = self._decided_with_its_face(r, c, warps, p)
        occ_conf = float(min(abs(p - 0.5) * 2.0, 1.0))
        if _surely_occupied_before(prev):
            # Tiles never leave the board in a play (a challenged word's come off through the
            # game, whose board is the history): a cell the history has a tile on has one now,
            # however the light has changed its look; its top and height are the picture's to say.
            p, occ_conf = max(p, OCCUPIED_FROM), 1.0
        if p < OCCUPIED_FROM:
            # Looks as it did empty: nothing nearer can make a cell look empty, but a tall stack's
            # own side can, so a clear face on a raised plane is heard first.
            raised = None
            if self.geometry.max_height > 1 and not _surely_empty_before(prev):
                raised = self._raised_face(r, c, warps, occluder, prev, flags)
            if raised is not None:
                return raised
            lettered = self._letter_where_empty(r, c, warps, p, prev, flags)
            if lettered is not None:
                return lettered
            return self._finish(r, c, None, 0, occ_conf, 1.0, occ_conf, prev, flags, geo_height=0,
                                geo_conf=occ_conf)
        floor_cover = self._cover(occluder, r, c, 0)[0]
        if floor_cover >= HIDDEN_FROM:  # a nearer stack stands in front of it
            return self._hidden(r, c, prev, flags)
        cell = self._judge_tile(r, c, warps, occluder, prev, flags, occ_conf)
        if floor_cover >= NEARER_STACK_LOOK and cell.height and cell.letter is None:
            return self._finish(r, c, None, 0, PARTLY_HIDDEN_DOUBT, 1.0, PARTLY_HIDDEN_DOUBT, prev,
                                [*flags, PARTLY_HIDDEN_FLAG], geo_height=0, geo_conf=PARTLY_HIDDEN_DOUBT)
        if floor_cover >= PARTLY_HIDDEN and cell.height:
            slot = self._seen_through_a_slot(r, c, cell, occluder)
            if slot is not None:
                cell = _in_doubt(cell, slot)
            elif cell.letter not in (None, BLANK):
                self._slot_checks.append((r, c))  # its letter checked by the second look (read)
        unseen = self._unseen
        if cell.height and unseen is not None and self._cover(unseen, r, c, 0)[0] >= PARTLY_HIDDEN:
            cell = _in_doubt(cell, UNSEEN_NEARER_FLAG)
        if (0 < cell.height <= self.geometry.max_height and cell.letter_confidence < FACE_HIDDEN_LETTER
                and not _letter_as_before(cell, prev)
                and self._cover(occluder, r, c, cell.height)[0] >= FACE_HIDDEN):
            cell = _in_doubt(cell, FACE_HIDDEN_FLAG)
        return cell

    def _decided_with_its_face(self, r: int, c: int, warps: list, p: float) -> float:
        """The tile chance of a cell the history has empty and the occupancy model leaves at ``p``,
        in doubt: the fitted :mod:`vision.cell_decision` weighs it with the first plane's face
        (sure outside its band, 0.45 or 0.55 within it). Not where the letters cannot match a face
        against the taught tiles: every face would then fit none, a tile's as the bare board's."""
        wr, wc = r - self._origin[0], c - self._origin[1]
        letter, confidence, _ = self._read_letter(warps, 1, wr, wc, careful=True)
        evidence = cell_evidence(p, letter, confidence, self._face_visibility(1, wr, wc),
                                 self._fits.get((1, wr, wc), 0.0))
        self.cell_evidence[(r, c)] = evidence
        if self.cell_decision is None or not getattr(self.letters, "matches_tiles", False):
            return p
        chance, _ = self.cell_decision.chance(float(self.cell_decision.probability(evidence[None])[0]))
        return chance

    def _check_slots(self, results: dict[tuple[int, int], CellReading], warps: list) -> None:
        """The letters of the cells seen through a slot that are not in doubt yet, checked by the
        letters' second look (:data:`PARTLY_HIDDEN_LETTER`), all in one batch: one at a time, they
        cost a full 8x8 a fifth of its read. A doubt changes no cell's height, so no later cell's
        view of it: it can wait until every cell is judged."""
        if self.letters is None:
            return
        r0, c0 = self._origin
        wanted = [(r, c) for r, c in self._slot_checks if not results[(r, c)].uncertain
                  and 0 < results[(r, c)].height < len(warps) and warps[results[(r, c)].height] is not None]
        crops = {(r, c): self.face_crop(warps[results[(r, c)].height], r - r0, c - c0) for r, c in wanted}
        crops = {rc: crop for rc, crop in crops.items() if crop.size}
        if not crops:
            return
        for rc, read in zip(crops, self.letters.read_many(list(crops.values()), careful=True), strict=True):
            if read.letter != results[rc].letter or float(read.confidence) < PARTLY_HIDDEN_LETTER:
                results[rc] = _in_doubt(results[rc], PARTLY_HIDDEN_FLAG)

    def _seen_through_a_slot(self, r: int, c: int, cell: CellReading, occluder: np.ndarray) -> str | None:
        """Why a tile whose floor a nearer stack partly hides (:data:`PARTLY_HIDDEN`) is in doubt,
        or None: its letter too unsure, its letter the tile's just beyond, or its top's plane
        just below hidden. (Its letter is also checked by the second look, for all such cells at
        once: :meth:`_check_slots`.)"""
        if cell.letter_confidence < PARTLY_HIDDEN_LETTER:
            return PARTLY_HIDDEN_FLAG
        if cell.height >= 2 and cell.letter in self._letters_beyond(r, c):
            return FARTHER_FACE_FLAG
        if (cell.height >= 2 and cell.height_from == "geometry"
                and self._raised_covers(occluder, r, c)[cell.height - 2] >= MAX_COVER):
            return HIDDEN_BELOW_FLAG
        if cell.height < self.geometry.max_height and cell.height_from == "geometry":
            scores, visible, _ = self._height_scores(r, c, occluder)
            height, lead = plane_height(scores, visible)
            if height == cell.height and lead < 1.0 and _runner_up(scores, visible, height) == height + 1:
                return ONE_LOW_FLAG
        return None

    def _judge_tile(self, r: int, c: int, warps: list[np.ndarray], occluder: np.ndarray,
                    prev: CellReading | None, flags: list[str], occ_conf: float) -> CellReading:
        """The height and letter of a cell the learnt references say holds a tile."""
        wr, wc = r - self._origin[0], c - self._origin[1]
        if self.geometry.max_height == 1:  # flat tiles: one plane, one height, nothing to weigh
            height, geo_conf = 1, 1.0
        else:
            scores_arr, visible, informative = self._height_scores(r, c, occluder)
            height, lead = plane_height(scores_arr, visible)
            geo_conf = unit(lead) * informative
            if self.layer_shift_px[r, c] < PLANES_CLOSE_PX or (
                    height >= ASSUMED_FOCAL_SURE_BELOW and self.planes.focal_source == "assumed"):
                geo_conf = min(geo_conf, PLANES_CLOSE_CONF)
        letter, letter_conf, seen = self._read_letter(warps, height, wr, wc)
        if prev is None and self.geometry.max_height > 1 and self.geometry.measured:
            evidence = height_evidence(scores_arr, visible, lead, float(self.layer_shift_px[r, c]),
                                       self.planes.focal_source == "assumed",
                                       letter_conf if letter is not None else 0.0)
            self.height_evidence[(r, c)] = evidence
            sure = None if self.height_decision is None else self.height_decision.surely_right(evidence)
            if sure is not None:  # sure where the decision is, or where the planes' lead is
                geo_conf = max(geo_conf, sure)
        if letter is None and geo_conf < 0.6 and self.geometry.max_height > 1:
            height, letter, letter_conf, seen = self._lettered_plane(
                warps, scores_arr, visible, wr, wc, height, (letter, letter_conf, seen))
        cell = self._finish(r, c, letter, height, occ_conf, letter_conf, geo_conf, prev, [*flags, *seen],
                            geo_height=height, geo_conf=geo_conf)
        kept = self._tile_as_before(r, c, cell, warps, prev, height, geo_conf)
        if kept is not None:
            return kept
        if self.letters is None or not cell.height or cell.height == height or cell.height >= len(warps):
            return cell
        # History settled on another height than the picture's best plane (an unsure one), so the
        # letter must be the one on that height's face: read on the unsure best plane, a tile's
        # face can show whatever lies beyond it there (the board's edge read as a letter).
        settled = cell.height
        letter, letter_conf, seen = self._read_letter(warps, settled, wr, wc)
        cell = self._finish(r, c, letter, height, occ_conf, letter_conf, geo_conf, prev, [*flags, *seen],
                            geo_height=height, geo_conf=geo_conf)
        if cell.height != settled:  # the letter on that face asks for yet another height
            cell = replace(cell, confidence=min(cell.confidence, 0.3),
                           flags=(*cell.flags, "the letter and the height do not agree"))
        return cell

    def _tile_as_before(self, r: int, c: int, cell: CellReading, warps: list, prev: CellReading | None,
                        geo_height: int, geo_conf: float) -> CellReading | None:
        """The tile the game's history has here, in doubt, when the picture reads another letter
        unsurely, its planes do not surely show a tile laid on top, and the history's own letter
        is read surely on the history's own plane (None otherwise).

        Why: a tile laid on top hides the letter below it; a letter still seen surely where the
        history has it is that tile, and the unsure letter was read on the wrong plane (under a
        strong change of light a raised plane can score best, not surely, and show a stray
        letter). The cell stays in doubt (:data:`HISTORY_KEPT_DOUBT`): the players confirm it."""
        if (prev is None or self.letters is None or self.geometry.max_height == 1 or not cell.height
                or not prev.height or prev.letter in (None, BLANK) or prev.uncertain
                or prev.height >= len(warps) or cell.letter == prev.letter
                or cell.letter_confidence >= self.threshold
                or (geo_conf >= 0.6 and geo_height == prev.height + 1)):
            return None
        wr, wc = r - self._origin[0], c - self._origin[1]
        letter, letter_conf, _ = self._read_letter(warps, prev.height, wr, wc, careful=True)
        if letter != prev.letter or letter_conf < self.threshold:
            return None
        why = f"{prev.letter} still shows where it was; {cell.letter or 'no letter'} was read unsurely above"
        return CellReading(r, c, prev.letter, prev.height, min(letter_conf, HISTORY_KEPT_DOUBT), letter_conf,
                           min(prev.height_confidence, HISTORY_KEPT_DOUBT), "history",
                           (*(f for f in cell.flags if f != NO_LETTER_FLAG), why), self.threshold)

    def _letter_where_empty(self, r: int, c: int, warps: list, p: float, prev: CellReading | None,
                            flags: list[str]) -> CellReading | None:
        """A cell the learnt references find empty, but not beyond doubt (:data:`LETTER_LOOK_FROM`),
        whose face on the first plane shows a letter read surely: a tile, in doubt (None
        otherwise). See :data:`EMPTY_LOOK_LETTER`."""
        if not LETTER_LOOK_FROM <= p < OCCUPIED_FROM or self.letters is None:
            return None
        wr, wc = r - self._origin[0], c - self._origin[1]
        letter, letter_conf, seen = self._read_letter(warps, 1, wr, wc, careful=True)
        if letter in (None, BLANK) or letter_conf < EMPTY_LOOK_LETTER:
            return None
        doubt = f"the cell looks empty, but a tile's face shows {letter}"
        return self._finish(r, c, letter, 1, RAISED_FACE_DOUBT, letter_conf, RAISED_FACE_DOUBT, prev,
                            [*flags, *seen, doubt], geo_height=1, geo_conf=RAISED_FACE_DOUBT)

    def _lettered_plane(self, warps: list, scores: np.ndarray, visible: np.ndarray, wr: int, wc: int,
                        height: int, read: tuple[str | None, float, list[str]]
                        ) -> tuple[int, str | None, float, list[str]]:
        """For a tile whose best plane, not a sure one, shows no letter: the next best visible
        plane, if its face shows a letter read surely (its height, letter, how sure, why in
        doubt), or ``height`` and ``read`` as they were.

        Why: every Upwords tile has a letter, so a face without one is no tile's top: it is
        what lies beyond the cell seen on a raised plane (a single tile before a premium square
        of the tiles' colour can score as well on a high plane, where the square shows, as on its
        own). The height stays as unsure as it was: history or the players settle it.

        Only the next best plane, not every one in turn: planes further down never showed the
        letter. Of 158 such tiles on development boards (games and dense boards of both style
        families, 8x8 and 10x10), the next best plane showed a letter for 3 and no lower plane
        for any, while each plane read costs about a millisecond (its letter is doubted, so the
        letters' second look reads it too): up to ten a picture on dense boards of tall stacks,
        a sixth of their read."""
        others = [k + 1 for k in np.argsort(-np.where(visible, scores, -np.inf), kind="stable").tolist()
                  if k + 1 != height and visible[k]]
        if others:
            letter, letter_conf, seen = self._read_letter(warps, others[0], wr, wc)
            if letter is not None and letter_conf >= self.threshold:
                return others[0], letter, letter_conf, seen
        return (height, *read)

    def _raised_face(self, r: int, c: int, warps: list, occluder: np.ndarray, prev: CellReading | None,
                     flags: list[str]) -> CellReading | None:
        """A cell whose floor looks empty, yet a tile face clearly sits on one of its raised planes
        with a letter read surely on it: a tall stack, never surely empty (None otherwise).

        Why: seen from the side, a tall stack's own side covers its floor, and a side the colour
        of the empty board looks like it. On dense held-out development boards 14 tiles were
        missed among 5,460 cells judged empty; this catches 7 of them and no empty cell (0 of
        5,446). A face the
        planes do not settle on is heard too when it is as light as a tile's and its letter is
        no tile's just beyond (:data:`OWN_FACE_SCORE`): an empty cell's raised planes show the
        tile beyond it."""
        scores, visible, informative = self._height_scores(r, c, occluder)
        face = self._raised_face_heard(r, c, scores, visible, informative)
        if face is None:
            return None
        height, geo_conf, clear, heard, unlike_beyond = face
        wr, wc = r - self._origin[0], c - self._origin[1]
        # The letter alone turns an empty-looking floor into a stack: read it carefully. On the
        # raised planes of empty cells, the board's margin beyond the far row can read as a
        # letter to the first look while matching no taught tile.
        letter, letter_conf, seen = self._read_letter(warps, height, wr, wc, careful=True)
        needed = RAISED_FACE_CLEAR_LETTER if clear else RAISED_FACE_LETTER if heard else OWN_FACE_LETTER
        if letter in (None, BLANK) or letter_conf < needed:
            return None
        if unlike_beyond and letter in self._letters_beyond(r, c):
            return None  # the farther tile's face, seen over this empty cell
        doubt = f"the floor looks empty, but a face {height} high shows {letter}"
        return self._finish(r, c, letter, height, RAISED_FACE_DOUBT, letter_conf, geo_conf, prev,
                            [*flags, *seen, doubt], geo_height=height, geo_conf=geo_conf)

    def _raised_face_heard(self, r: int, c: int, scores: np.ndarray, visible: np.ndarray, informative: float
                           ) -> tuple[int, float, bool, bool, bool] | None:
        """Whether :meth:`_raised_face` reads a letter on one of an empty-looking cell's raised
        planes: (that plane, its confidence, clear, heard, unlike beyond), or None."""
        height, lead = plane_height(scores, visible)
        geo_conf = unit(lead) * informative
        clear = _clear_lead(scores, visible, height) * informative >= RAISED_FACE_CLEAR
        alone = geo_conf >= NOTHING_BEYOND_LEAD and self._nothing_beyond(r, c)
        # or a face as light as a tile's, whose letter is no tile's just beyond (below)
        heard = geo_conf >= RAISED_FACE_SURE or clear or alone
        # as light as a tile's face in this cell's light, not the calibration's (OWN_FACE_SCORE)
        light = 1.0 if self._brighter is None else float(self._brighter[r, c])
        face_like = height >= 2 and visible[height - 1] and scores[height - 1] >= OWN_FACE_SCORE * light
        unlike_beyond = not heard and face_like and bool(self._tiles_beyond(r, c))
        if height < 2 or not (heard or unlike_beyond):
            return None
        return height, geo_conf, clear, heard, unlike_beyond

    def _raised_faces_ahead(self, wanted: np.ndarray, previous: BoardReading | None = None
                            ) -> list[tuple[int, int, int]]:
        """The raised faces :meth:`_raised_face` will most likely read carefully, as (plane, row,
        col in the warped window): its own rule on every empty-looking cell the history does not
        have surely empty (:func:`_surely_empty_before`: it is then not asked), as though no
        nearer stack hid any plane (the stacks are not known before the cells are judged)."""
        assert self._p_occ is not None and self._rim_scores is not None
        r0, c0 = self._origin
        unit_grey = max(self._tile_gray, 20.0)
        every = np.ones(self.geometry.max_height, bool)
        faces = []
        for r, c in zip(*(where.tolist() for where in np.nonzero(wanted & (self._p_occ < OCCUPIED_FROM))),
                        strict=True):
            scores = self._rim_scores[:, r - r0, c - c0] / unit_grey
            if scores.argmax() == 0:  # the floor's plane leads: no raised face can be heard
                continue
            if previous is not None and _surely_empty_before(previous.cell(r, c)):
                continue
            face = self._raised_face_heard(r, c, scores, every, self._planes_apart(r, c))
            if face is not None:
                faces.append((face[0], r - r0, c - c0))
        return faces

    def _nothing_beyond(self, r: int, c: int) -> bool:
        """Whether no tile can lie beyond this cell on its far side from the camera (the board's
        edge, or cells that look as they did empty), so a face on its raised planes is its own.

        Why: a raised plane of an empty cell shows what lies beyond it, and a farther tile's face
        there is no stack; with nothing beyond, a face with a letter read on it is."""
        return not self._tiles_beyond(r, c)

    def _tiles_beyond(self, r: int, c: int) -> list[tuple[int, int]]:
        """The cells just beyond this one on its far side from the camera that look occupied."""
        fw = self.far_weights[:, r, c]
        steps = [(-1, 0), (0, 1), (1, 0), (0, -1)]
        far = [steps[i] for i in range(4) if fw[i] >= NOTHING_BEYOND_WEIGHT]
        if len(far) == 2:
            far.append((far[0][0] + far[1][0], far[0][1] + far[1][1]))
        assert self._p_occ is not None
        cells = [(r + dr, c + dc) for dr, dc in far]
        return [(rr, cc) for rr, cc in cells
                if 0 <= rr < self.rows and 0 <= cc < self.cols and self._p_occ[rr, cc] >= OCCUPIED_FROM]

    def _letters_beyond(self, r: int, c: int) -> set[str]:
        """The letters read ahead (:meth:`_read_letters_at_once`) on the tiles just beyond this cell."""
        r0, c0 = self._origin
        beyond = {(rr - r0, cc - c0) for rr, cc in self._tiles_beyond(r, c)}
        return {read.letter for (_, wr, wc, careful), (_, read) in self._letters_read.items()
                if (wr, wc) in beyond and read.letter is not None and not careful}

    def _read_letters_at_once(self, warps: list, wanted: np.ndarray, previous: BoardReading | None = None
                              ) -> dict[tuple[int, int, int, bool], tuple]:
        """The letter on every cell that looks occupied, on its best-scoring plane, read in one
        batch (:meth:`vision.letters.LetterClassifier.classify_many`): (plane, row, col in the
        warped window, careful) -> (face crop, read). With them, carefully, the raised faces
        over empty-looking floors that :meth:`_raised_face` will most likely read
        (:meth:`_raised_faces_ahead`): one by one each cost a full 8x8 about 2.5 ms, in the
        batch a few tenths. Only the speed depends on the guess: a face it missed is read alone.

        Why: reading the cells one by one streamed the taught letters (megabytes) from memory
        once per tile, most of the time a full board took. The cells are read in an order
        (nearest the camera first) in which each may depend on the last, so this reads ahead on
        the plane the tile most likely sits on; a cell that settles on another plane is read
        there on its own (:meth:`_read_letter`)."""
        if self.letters is None or self._p_occ is None or self._rim_scores is None:
            return {}
        r0, c0 = self._origin
        best_plane = (np.argmax(self._rim_scores, axis=0) + 1).tolist()
        rows, cols = (where.tolist() for where in np.nonzero(wanted & (self._p_occ >= OCCUPIED_FROM)))
        asked = [(best_plane[r - r0][c - c0], r - r0, c - c0, False) for r, c in zip(rows, cols, strict=True)]
        if self.geometry.max_height > 1:  # the raised faces over empty-looking floors, read carefully
            asked += [(k, wr, wc, True) for k, wr, wc in self._raised_faces_ahead(wanted, previous)]
        # and the first plane's faces of cells that look empty, but not beyond doubt, and of those
        # the cell decision will weigh (:meth:`_decided_with_its_face`)
        doubtful = wanted & (self._p_occ >= LETTER_LOOK_FROM) & (self._p_occ < OCCUPIED_FROM)
        if previous is not None and not self.loose_tiles:
            empty_before = np.array([_surely_empty_before(cell) for cell in previous.cells])
            doubtful |= wanted & empty_before.reshape(wanted.shape) & _in_band(self._p_occ)
        doubt_rows, doubt_cols = (where.tolist() for where in np.nonzero(doubtful))
        asked += [(1, r - r0, c - c0, True) for r, c in zip(doubt_rows, doubt_cols, strict=True)]
        cut: dict[tuple[int, int, int, bool], np.ndarray] = {}
        for k in {key[0] for key in asked}:  # each plane's faces cut at once
            keys_k = [key for key in asked if key[0] == k]
            crops_k = self.face_crops(warps[k], [(wr, wc) for _, wr, wc, _ in keys_k])
            cut.update(zip(keys_k, crops_k, strict=True))
        keys = [key for key in asked if cut[key].size]
        crops = [cut[key] for key in keys]
        reads = self.letters.read_many(crops, [key[3] for key in keys]) if crops else []
        return {key: (crop, read) for key, crop, read in zip(keys, crops, reads, strict=True)}

    def _face_visibility(self, k: int, wr: int, wc: int) -> np.ndarray:
        """:func:`vision.glyphs.face_visibility` of a cell's face on plane ``k`` (in the warped
        window): the crop its letter is read from."""
        return face_visibility(self.face_crop(self._warps[k], wr, wc))

    def _read_letter(self, warps: list, k: int, wr: int, wc: int, careful: bool = False
                     ) -> tuple[str | None, float, list[str]]:
        """The letter on a cell's face on plane ``k``, how sure, and why it is in doubt
        (``careful``: checked by the letters' second look however sure the first is)."""
        if self.letters is None:
            return None, 0.0, []
        ahead = self._letters_read.get((k, wr, wc, careful))
        if ahead is not None:
            crop, read = ahead
        else:
            crop = self.face_crop(warps[k], wr, wc)
            if not crop.size:
                return None, 0.0, []
            read = self.letters.read(crop, careful=careful)
        letter, letter_conf = read.letter, float(read.confidence)
        self._fits[(k, wr, wc)] = float(getattr(read, "fit", 0.0))
        bare = getattr(read, "bare", None)
        if self.loose_tiles and (letter is None or (bare_face(crop) if bare is None else bare)):
            # No glyph at all, or no ink in the face's middle (the classifier may still "read"
            # the edge of the board caught in the crop: a blank on the centre star read as Q).
            return BLANK, letter_conf, ["a blank tile (no letter on it)"]
        if letter_conf < NO_LETTER_BELOW:
            return None, letter_conf, [NO_LETTER_FLAG]
        return letter, letter_conf, [] if letter is not None else [NO_LETTER_FLAG]

    def _height_scores(self, r: int, c: int, occluder: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """Per plane k = 1..max: how cleanly a tile face sits in the cell on that plane (a light,
        even rim; in units of the tile's grey), whether a nearer stack leaves it visible, and how
        far apart the planes are in the picture (0..1: straight overhead they nearly coincide)."""
        wr, wc = r - self._origin[0], c - self._origin[1]
        scores = self._rim_scores[:, wr, wc]
        visible = [cover < MAX_COVER for cover in self._raised_covers(occluder, r, c)]
        return scores / max(self._tile_gray, 20.0), np.array(visible), self._planes_apart(r, c)

    def _planes_apart(self, r: int, c: int) -> float:
        """How far apart a cell's planes are in the picture, 0..1 (straight overhead they nearly
        coincide and say little of a height)."""
        return unit((self.layer_shift_px[r, c] - 0.6) / (PLANES_APART_PX - 0.6))

    @property
    def _tile_gray(self) -> float:
        """The tile face's grey level at calibration (0..255), the unit of the height scores."""
        if self.appearance is None or not np.isfinite(self.appearance.tile_lab[0]):
            return 180.0
        return float(self.appearance.tile_lab[0]) * 2.55

    def _hidden(self, r: int, c: int, prev: CellReading | None, flags: list[str]) -> CellReading:
        return self._carried(r, c, prev, [*flags, HIDDEN_FLAG])

    def _carried(self, r: int, c: int, prev: CellReading | None, flags: list[str]) -> CellReading:
        """A cell that cannot be seen: the previous reading's value, never sure."""
        if prev is not None:
            return CellReading(r, c, prev.letter, prev.height, min(prev.confidence, 0.5),
                               prev.letter_confidence, prev.height_confidence, "history", tuple(flags),
                               self.threshold)
        return CellReading(r, c, None, 0, 0.0, 0.0, 0.0, "geometry", tuple(flags), self.threshold)

    def _finish(self, r: int, c: int, letter: str | None, height: int, occ_conf: float, letter_conf: float,
                height_conf: float, prev: CellReading | None, flags: list[str], *,
                geo_height: int, geo_conf: float) -> CellReading:
        source = "geometry"
        if not self.geometry.measured and self.geometry.max_height > 1:
            geo_conf = min(geo_conf, UNMEASURED_DOUBT)
            if prev is None and height:
                height_conf = min(height_conf, UNMEASURED_DOUBT)
                flags.append(UNMEASURED_FLAG)
        if prev is not None and height and self.geometry.max_height == 1:
            letter, letter_conf = self._kept_letter(letter, letter_conf, prev, flags)
        kept = self._surely_kept(r, c, prev, letter, letter_conf, height, geo_height, geo_conf)
        if kept is not None:
            assert prev is not None
            return CellReading(r, c, prev.letter, prev.height, min(occ_conf, kept), kept, kept, "history",
                               tuple(flags), self.threshold)
        if prev is not None:
            height, height_conf, source = self._with_history(letter, height, prev, geo_height, geo_conf,
                                                             letter_conf, flags)
        if height > self.geometry.max_height:
            flags.append(f"a stack of {height} is over the limit of {self.geometry.max_height}")
        confidence = min(occ_conf, letter_conf if height else 1.0, height_conf if height else 1.0)
        return CellReading(r, c, letter if height else None, height, float(confidence), float(letter_conf),
                           float(height_conf), source, tuple(flags), self.threshold)

    def _surely_kept(self, r: int, c: int, prev: CellReading | None, letter: str | None, letter_conf: float,
                     height: int, geo_height: int, geo_conf: float) -> float | None:
        """How sure the fitted :mod:`vision.kept_decision` is that a stack the history surely has
        is as it was, where it is sure of that (None otherwise, and where it is not asked: no such
        stack, no tile seen, flat tiles, no letter read on it: a face that reads nothing says nothing
        of whose it is, and the reader's own reading with the history stands)."""
        if (not height or self.geometry.max_height == 1 or letter is None
                or not _surely_occupied_before(prev) or prev is None or prev.letter in (None, BLANK)):
            return None
        evidence = kept_evidence(prev, letter, letter_conf, geo_height, geo_conf,
                                 self._face_visibility(prev.height, r - self._origin[0], c - self._origin[1]))
        self.kept_evidence[(r, c)] = evidence
        return None if self.kept_decision is None else self.kept_decision.surely_kept(evidence)

    def _kept_letter(self, letter: str | None, letter_conf: float, prev: CellReading, flags: list[str]
                     ) -> tuple[str | None, float]:
        """A flat tile keeps the letter it was surely read with: an unsure read of it now (blur,
        glare, a shadow across it) does not change it.

        Why: a crossword tile, once on the board, is never turned into another; a different letter
        at its place means a misread far more often than a swapped tile. Measured on held-out
        crossword boards: most of the letters still missed were tiles read right in an earlier
        picture and doubtfully in a later one. A read that agrees with the earlier sure one is sure
        too. A *sure* different read is not overruled: it is flagged for the players
        (:meth:`_with_history`). Nor is a blank face, which asks the players what the blank is.
        """
        if not prev.height or prev.letter in (None, BLANK) or prev.uncertain:
            return letter, letter_conf
        if letter == prev.letter:  # an unsure read that agrees with a sure one is no doubt
            return letter, max(letter_conf, prev.letter_confidence)
        if letter == BLANK or letter_conf >= self.threshold:
            return letter, letter_conf
        flags[:] = [f for f in flags if f != NO_LETTER_FLAG]
        return prev.letter, prev.letter_confidence

    def _with_history(self, letter: str | None, geo_height: int, prev: CellReading, geo: int, geo_conf: float,
                      letter_conf: float, flags: list[str]) -> tuple[int, float, str]:
        """The height history predicts, checked against the geometric height."""
        if geo_height == 0:
            if prev.height:
                flags.append(f"the stack of {prev.height} ({prev.letter}) has gone")
            return 0, 1.0, "history"
        stale = UNDER_HAND_FLAG in prev.flags and self.geometry.max_height > 1
        if stale and letter not in (None, prev.letter):
            # Tiles were laid while a hand hid the cell (its reading is the one from before the
            # hand): at least one, perhaps more, so the picture decides above that floor, unless
            # its planes say next to nothing of the height (:data:`HEIGHT_CUE_FROM`).
            least = prev.height + 1 if prev.height_confidence >= 0.6 else 1
            if geo == least or (geo > least and geo_conf >= HEIGHT_CUE_FROM):
                return geo, min(letter_conf, geo_conf), "both"
            return least, min(letter_conf, 0.3), "history"
        if stale and prev.height and letter is not None and letter == prev.letter and geo_conf < 0.6:
            # The same letter on top again is no proof that nothing was laid under the hand: no
            # tile goes on its own letter, but two can bring it back (an R, then a P, on a P).
            # History cannot tell, so the cell is in doubt, its height the picture's where that
            # shows two tiles or more above it (else a P on R on P reads as the P from before).
            more = geo >= prev.height + 2 and geo_conf >= HEIGHT_CUE_FROM
            return (geo if more else prev.height), min(letter_conf, 0.3), "history"
        if prev.height == 0 or self.geometry.max_height == 1:  # flat tiles: a new letter is no stack
            expected = 1
            if prev.height and letter is not None and prev.letter not in (None, letter):
                flags.append(f"the tile read {prev.letter} before, {letter} now")
        elif letter is None:  # unreadable: history cannot tell whether a tile was added
            return max(prev.height, geo), 0.3, "history"
        elif prev.letter is None:
            # Unreadable before (under a hand): a letter seen again is not a new tile on top.
            # The stack cannot have shrunk, and the picture says how tall it is.
            if geo >= prev.height or prev.height_confidence < 0.6:
                return geo, min(letter_conf, geo_conf), "both"
            return prev.height, 0.3, "history"
        elif letter == prev.letter:
            expected = prev.height
        else:
            expected = prev.height + 1
        if geo_conf >= 0.6 and geo != expected:
            if geo < expected and letter == prev.letter:
                flags.append(f"height fell from {prev.height} to {geo}")
            elif geo != expected:
                flags.append(f"the picture shows a stack of {geo}, the game's history says {expected}")
            # Flagged either way; the value shown is what the picture clearly shows, since history
            # goes wrong with any earlier misread (measured: single pictures' heights were right
            # more often than history's where the two disagreed).
            return geo, min(letter_conf, 1.0 - geo_conf * 0.5), "both"
        confirmed = geo == expected and geo_conf >= 0.6
        conf = max(letter_conf, geo_conf) if geo == expected else letter_conf
        if prev.height and not confirmed:
            # History is only as sure as the height it starts from: a stack first seen from
            # overhead (a weak cue) stays in doubt until the picture or the players settle it.
            conf = min(conf, prev.height_confidence)
        return expected, conf, "both" if confirmed else "history"


def _in_band(p: np.ndarray | float) -> np.ndarray | bool:
    """Whether the occupancy model leaves a tile's chance ``p`` in doubt."""
    return (p > READER_SURE_EMPTY) & (p < 1.0 - READER_SURE_EMPTY)


def _surely_occupied_before(prev: CellReading | None) -> bool:
    """Whether the game's history (the board the players confirmed) has a tile on this cell."""
    return (prev is not None and prev.height > 0 and prev.height_from == "history"
            and prev.confidence >= prev.threshold and UNDER_HAND_FLAG not in prev.flags)


def _surely_empty_before(prev: CellReading | None) -> bool:
    """Whether the game's history surely has this cell empty, so a face on one of its raised
    planes cannot be its own: a move adds one tile to a cell, whose face sits on the first plane.
    The face is then a farther tile's, seen through the raised plane, and the empty-looking
    floor is believed. Taken for a stack, such a face would also hide the tile it belongs to,
    in every picture after. A reading made under a hand, or in doubt, is no such history."""
    return (prev is not None and prev.height == 0 and prev.confidence >= prev.threshold
            and UNDER_HAND_FLAG not in prev.flags)


def _letter_as_before(cell: CellReading, prev: CellReading | None) -> bool:
    """Whether the game's history already has this letter, surely, on a stack of this height."""
    return (prev is not None and prev.height == cell.height and prev.letter == cell.letter
            and prev.confidence >= prev.threshold)


def _in_doubt(cell: CellReading, why: str) -> CellReading:
    """The cell as read, but in doubt (:data:`PARTLY_HIDDEN_DOUBT`) for the reason given."""
    return replace(cell, confidence=min(cell.confidence, PARTLY_HIDDEN_DOUBT), flags=(*cell.flags, why))


def plane_height(scores: np.ndarray, visible: np.ndarray) -> tuple[int, float]:
    """The stack height the planes' face scores say, and its lead over the rest as a share of
    the lead a sure height needs (1 or more: sure, as far as the planes can tell).

    Three things cost the lead, each found as a stack read wrong with confidence on held-out
    renders of dense boards (``python -m bench height_models``, ``bench read_speed``):

    * a plane a nearer stack hides fits better than any visible one, or nearly: the hidden part
      may be the cell's own face (a single tile behind a stack of 3 read surely as 2), so the
      lead is counted over the hidden planes too;
    * the runner-up is the plane just above: that is how a stack read one low looks, since its
      face warped one plane too low lands on its own tile-coloured side and still scores well,
      so the margin must be wider (a stack of 2 between stacks of 3 and 4 read as 1);
    * the plane just below the best does not beat every lower one. Under a true top face the
      plane just below catches that face on the stack's side; when it does not, the best plane
      found something else, such as a neighbour's face (a single tile read as a stack of 5).
    """
    score_list, seen, cand = _candidates(scores, visible)
    best = max(range(len(cand)), key=cand.__getitem__)
    if sum(math.isfinite(x) for x in cand) < 2 or max(score_list) > cand[best]:
        return best + 1, 0.0
    runner = max((i for i in range(len(cand)) if i != best), key=cand.__getitem__)
    need = HEIGHT_GAP * (ONE_LOW_GAP if runner == best + 1 else 1.0)
    hidden = [x for x, v in zip(score_list, seen, strict=True) if not v] if any(seen) else []
    lead = (cand[best] - max([cand[runner], *hidden])) / need
    if best >= 2 and math.isfinite(cand[best - 1]) and cand[best - 1] < max(cand[:best - 1]):
        lead = 0.0
    return best + 1, lead


def _candidates(scores: np.ndarray, visible: np.ndarray) -> tuple[list[float], list[bool], list[float]]:
    """The planes' scores and visibility as lists, and the scores :func:`plane_height` weighs: the
    visible planes' (the others at minus infinity), or every plane's when none is visible.
    Five numbers a cell, a cell at a time: plain Python (numpy's calls cost 30 us here)."""
    score_list = np.asarray(scores, np.float64).tolist()
    seen = np.asarray(visible, bool).tolist()
    cand = [x if v else -math.inf for x, v in zip(score_list, seen, strict=True)] if any(seen) else score_list
    return score_list, seen, cand


def _runner_up(scores: np.ndarray, visible: np.ndarray, height: int) -> int:
    """The plane that scores best after plane ``height`` among those :func:`plane_height` weighs."""
    cand = list(_candidates(scores, visible)[2])
    cand[height - 1] = -math.inf
    return max(range(len(cand)), key=cand.__getitem__) + 1


def _clear_lead(scores: np.ndarray, visible: np.ndarray, height: int) -> float:
    """How far plane ``height``'s face score stands above every other visible plane's (0 when
    that plane is hidden or no other is visible)."""
    others = [float(x) for i, (x, v) in enumerate(zip(scores, visible, strict=True)) if v and i != height - 1]
    return float(scores[height - 1]) - max(others) if others and visible[height - 1] else 0.0


def play_from_reading(before: Board, reading: BoardReading, sure: float = 0.6, *, settle: bool = True
                      ) -> PlayReading:
    """The play a steady reading shows on top of the engine's board ``before``.

    Hands the tops, and the heights the camera was sure of (None elsewhere, so history
    decides), to :func:`games.upwords_read.infer_play`; returns its ``PlayReading``
    (``.tiles``, ``.problems``, ``.event()``). Uncertain cells are problems: the kiosk asks,
    unless the rules settle them (:func:`_settled_by_the_play`; ``settle=False``: never, for a
    benchmark's baseline).
    """
    from games.upwords_read import PlayReading, infer_play

    doubtful = [c for c in reading.cells if c.uncertain]
    if doubtful:
        settled = _settled_by_the_play(before, reading, doubtful, sure) if settle else None
        if settled is not None:
            return settled
        return PlayReading(problems=tuple(
            f"row {c.row + 1}, column {c.col + 1}: " + ("; ".join(c.flags) or "the camera is not sure")
            for c in doubtful))
    return infer_play(before, reading.letters, _sure_heights(reading, sure))


#: The doubts of a cell the camera cannot see whole (a nearer stack in front of it), which explain
#: whatever else it reads there.
OUT_OF_SIGHT = frozenset({PARTLY_HIDDEN_FLAG, FACE_HIDDEN_FLAG, FARTHER_FACE_FLAG, HIDDEN_BELOW_FLAG,
                          ONE_LOW_FLAG, HIDDEN_FLAG, UNSEEN_NEARER_FLAG})
#: A hand over the cell or the board: the play may not be finished.
HAND_FLAGS = frozenset({UNDER_HAND_FLAG, HAND_OVER_BOARD_FLAG})


def _sure_heights(reading: BoardReading, sure: float) -> list[list[int | None]]:
    """The heights the picture was sure of, None elsewhere (history decides)."""
    return [[cell.height if cell.height_from in ("geometry", "both") and cell.height_confidence >= sure
             else None for cell in reading.cells[r * reading.cols:(r + 1) * reading.cols]]
            for r in range(reading.rows)]


def _settled_by_the_play(before: Board, reading: BoardReading, doubtful: list[CellReading], sure: float
                         ) -> PlayReading | None:
    """The play the sure cells show, where the rules leave every doubtful cell as it was; else None.

    A play's tiles lie in one row or column and make one word with no gap
    (:func:`games.upwords_read.beyond_reach`), so a cell off the line of the tiles surely placed,
    or beyond a square surely left empty, took no tile, and tiles never come off: it is as the
    game has it, whatever the camera doubts there. Only doubts of a cell the camera cannot see
    whole (:data:`OUT_OF_SIGHT`) or is merely unsure of (no flag) are settled so; a hand over the
    board, or a change surely seen where nothing hides it (a stack gone, a letter changed), is for
    the players to look at."""
    from games.upwords_read import beyond_reach, infer_play

    if any(c.flags and not OUT_OF_SIGHT.intersection(c.flags) for c in doubtful) \
            or any(HAND_FLAGS.intersection(c.flags) for c in doubtful):
        return None
    unsure = {(c.row, c.col) for c in doubtful}
    tops = [list(row) for row in reading.letters]
    heights = _sure_heights(reading, sure)
    for r, c in unsure:
        tops[r][c], heights[r][c] = before.top(r, c), None
    play = infer_play(before, tops, heights)
    if not play.ok or beyond_reach(before, {(t.row, t.col) for t in play.tiles}, unsure) != unsure:
        return None
    return play

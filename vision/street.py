"""Read Word on the Street: for each of the 17 letter columns, which space holds its tile.

The board is read as a 5-row x 17-column grid: row = space + 2, so row 0 is space -2 (the
first team's side, the top edge of the calibrated picture) and row 4 is space +2 (the second
team's side). Each letter has its own column, so no OCR is needed to know *which* tile it is:
occupancy decides, and the letter read only confirms (a mismatch lowers the confidence).

Why these features: the street is dark asphalt with a strongly coloured median; a tile is a
light, colourless square. Light changes across the table, so each space is compared with
the other spaces *of its own column* (at most one of the five holds a tile): the tile's
space stands out by a large factor, and a column where nothing stands out has lost its tile.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from games.word_on_the_street import LETTERS as STREET_LETTERS
from vision.appearance import (
    BoardAppearance,
    board_looks,
    board_warp,
    cell_greys,
    face_parts,
    likeness,
    outline,
)
from vision.hands import UNDER_HAND, hand_cells, hand_flags
from vision.letters import LetterRead
from vision.median_kept import median_kept, median_kept_evidence, on_the_median
from vision.median_strip import MEDIAN_ROW, decide_median, median_probability
from vision.occupancy import cell_fraction, glyph_centre, skin_mask
from vision.occupancy_model import OccupancyModel, default_model, measured_light
from vision.planes import BoardPlanes
from vision.reading import DEFAULT_THRESHOLD, StreetColumn, StreetReading, check_picture, unit
from vision.street_lanes import LaneModel, lane_evidence, lane_model, likeliest_lane
from vision.upwords_reader import LetterReaderLike

SPACES = (-2, -1, 0, 1, 2)
#: A space holds a tile when its "light and colourless" score is this many times the column's
#: typical empty space.
TILE_RATIO = 1.65


@dataclass(frozen=True, slots=True)
class StreetGeometry:
    """Physical proportions (mm) of the board and tiles; only the ratios matter."""

    pitch_mm: float = 30.0
    lane_mm: float = 30.0
    tile_mm: float = 25.0
    thickness_mm: float = 4.0


@dataclass(frozen=True, slots=True)
class StreetEvidence:
    """A picture as the learnt references see it, before the median is settled."""

    prob: np.ndarray  # 5 x 17: a tile in each space, by the occupancy model
    #: the median's ground and ink now (light undone) and at calibration, its likeness to itself
    #: at calibration (:func:`vision.appearance.likeness`) and its outline against its own then
    #: (log, :func:`vision.appearance.outline`), for :func:`vision.median_strip.settle_median`;
    #: None for a calibration without its faces
    median: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None,
                  np.ndarray | None] | None
    board: np.ndarray  # the picture warped to the board (:func:`vision.appearance.board_warp`)


class StreetReader:
    """Reads the Word on the Street board seen by one calibrated camera.

    Example::

        reader = StreetReader(corners, image_size=(1024, 768), letters=letter_reader)
        reading = reader.read(frame)
        reading.positions   # {"B": 0, "C": -1, ..., "R": None}
    """

    def __init__(self, corners: np.ndarray, image_size: tuple[int, int], *,
                 letters: LetterReaderLike | None = None, geometry: StreetGeometry | None = None,
                 camera_matrix: np.ndarray | None = None, threshold: float = DEFAULT_THRESHOLD,
                 cell_px: int = 48, appearance: BoardAppearance | None = None,
                 model: OccupancyModel | None = None) -> None:
        """``appearance``: the board learnt from its start position (:func:`vision.learn_board.learn_street`);
        with it each space is compared with its own empty lane or its tile at the start, through
        the trained ``model``; without it, by the older "light and colourless" rule."""
        self.geometry = geometry or StreetGeometry()
        self.corners = np.asarray(corners, np.float64).reshape(4, 2)
        self.appearance = appearance
        self.model = model if model is not None or appearance is None else default_model()
        g = self.geometry
        self.rows, self.cols = len(SPACES), len(STREET_LETTERS)
        self.letters = letters
        self.threshold = threshold
        self.cell_px = cell_px
        self.image_size = image_size
        self.planes = BoardPlanes.from_corners(corners, self.rows, self.cols, image_size,
                                               (g.pitch_mm, g.lane_mm), camera_matrix)

    def warp(self, image: np.ndarray) -> np.ndarray:
        """The tiles' top plane, top-down, ``cell_px`` per space."""
        return self.planes.warp(image, self.rows, self.cols, self.cell_px, -self.geometry.thickness_mm)

    def read(self, image: np.ndarray, *, previous: StreetReading | None = None,
             hand_free: bool = False) -> StreetReading:
        """Read the street; ``previous``: the game's street before the turn (or the last reading
        accepted), whose tiles surely on the median a fitted decision may keep there where the
        median decision doubts (:mod:`vision.median_kept`); ``hand_free``: the caller knows no
        hand is in the picture (as :meth:`vision.upwords_reader.UpwordsReader.read`)."""
        check_picture(image, self.image_size)
        top = self.warp(image)
        if self.appearance is not None and self.model is not None:
            found = self.evidence(image)
            prob = found.prob
            doubts: list[str | None] = [None] * self.cols
            if found.median is not None:
                median = median_probability(prob, *found.median)
                prob, doubts = decide_median(found.prob, median)
                if previous is not None:
                    kept = median_kept()
                    prob, doubts = kept.keep(prob, doubts, median_kept_evidence(median, found.prob),
                                             on_the_median(previous))
            faces = FaceReads(self, top)
            prob = self.settle_lanes(prob, faces)
            hand = (np.zeros((self.rows, self.cols)) if hand_free
                    else hand_cells(found.board, self.rows, self.cols, self.appearance, image, self.corners))
            any_hand = bool((hand > UNDER_HAND).any())
            flags = [hand_flags(hand[:, col].max(), any_hand) + ([doubt] if doubt else [])
                     for col, doubt in enumerate(doubts)]
            return StreetReading(columns=tuple(
                self._judge_learnt(col, letter, prob[:, col], faces, flags[col])
                for col, letter in enumerate(STREET_LETTERS)), chances=True)
        scores = self.space_scores(top)
        hand = (np.zeros((self.rows, self.cols)) if hand_free
                else cell_fraction(skin_mask(top), self.rows, self.cols, self.cell_px, 0.0))
        any_hand = bool((hand > UNDER_HAND).any())
        return StreetReading(columns=tuple(
            self._judge(col, letter, scores[:, col], top, hand_flags(hand[:, col].max(), any_hand))
            for col, letter in enumerate(STREET_LETTERS)))

    def evidence(self, image: np.ndarray) -> StreetEvidence:
        """What the learnt references say of ``image`` before the median is settled (needs
        ``appearance``): the occupancy model's probabilities, the median's colours for
        :func:`vision.median_strip.settle_median`, the board warped for the hand check."""
        assert self.appearance is not None and self.model is not None
        face = self.geometry.tile_mm / self.geometry.pitch_mm
        board = board_warp(image, self.corners, self.rows, self.cols)
        looks = board_looks(image, self.corners, self.rows, self.cols, face, board)
        light = measured_light(image, looks, self.appearance, self.corners, self.rows, self.cols)
        prob = self.model.probability(looks, self.appearance, light)
        if self.appearance.faces is None:
            return StreetEvidence(prob, None, board)
        now, inks = face_parts(board, self.rows, self.cols, face, light.gains, only_row=MEDIAN_ROW)
        inks_start = None if self.appearance.inks is None else self.appearance.inks[MEDIAN_ROW]
        greys = self.appearance.greys
        alike = edged = None
        if greys is not None:
            cells = cell_greys(board, self.rows, self.cols, MEDIAN_ROW)[0]
            alike = likeness(cells, greys[MEDIAN_ROW])
            edged = np.log((outline(cells, face) + 1e-3) / (outline(greys[MEDIAN_ROW], face) + 1e-3))
        median = (now[0], self.appearance.faces[MEDIAN_ROW], inks[0], inks_start, alike, edged)
        return StreetEvidence(prob, median, board)

    def settle_lanes(self, prob: np.ndarray, faces: FaceReads, model: LaneModel | None = None) -> np.ndarray:
        """The street's tile chances (5 x 17) with each column's likeliest lane space decided by
        the fitted ``model`` (by default :func:`vision.street_lanes.lane_model`) from its
        occupancy and what its face reads (:mod:`vision.street_lanes`)."""
        model = model or lane_model()
        out = np.array(prob, np.float64, copy=True)
        for col, letter in enumerate(STREET_LETTERS):
            row, next_chance = likeliest_lane(prob, col)
            evidence = lane_evidence(float(prob[row, col]), next_chance, faces.read(row, col, letter), letter)
            out[row, col], _ = model.chance(float(model.probability(evidence[None, :])[0]))
        return out

    def _judge_learnt(self, col: int, letter: str, prob: np.ndarray, faces: FaceReads,
                      flags: list[str]) -> StreetColumn:
        """A column's tile from the learnt model: at most one of its five spaces holds it;
        ``flags``: the hand's (:func:`vision.hands.hand_flags`)."""
        order = np.argsort(prob)[::-1]
        best, second = int(order[0]), float(prob[order[1]])
        p = float(prob[best])
        scores = tuple(float(x) for x in prob)
        if p < 0.5:  # no space holds it: captured
            conf = unit((0.5 - p) * 2.0)
            return StreetColumn(letter, None, conf, 1.0, tuple(flags), scores, self.threshold)
        conf = unit(min((p - 0.5) * 2.0, (0.5 - second) * 2.0 if second < 0.5 else 0.0))
        if second >= 0.5:
            flags.append("two spaces of this column look occupied")
        letter_conf, misread = self._face_check(faces.read(best, col, letter), letter)
        if misread:
            flags.append(misread)
            conf = min(conf, letter_conf)
        return StreetColumn(letter, SPACES[best], conf, letter_conf, tuple(flags), scores, self.threshold)

    def _face_check(self, read: LetterRead | None, letter: str) -> tuple[float, str | None]:
        """How sure the tile's face (``read``; None without a letter reader) shows ``letter``
        (1.0 without a letter reader, 0.5 where it reads as nothing sure), and the flag when it
        surely reads as another letter: then the confidence is what that read leaves over."""
        if read is None:
            return 1.0, None
        if read.letter is not None and read.letter != letter and read.confidence >= self.threshold:
            return 1.0 - float(read.confidence), f"the tile reads {read.letter}, not {letter}"
        return (max(float(read.confidence), 0.5) if read.letter == letter else 0.5), None

    def read_face(self, top: np.ndarray, row: int, col: int, letter: str) -> LetterRead | None:
        """The letter on the face in ``(row, col)`` of the tiles' plane ``top``, trying the other
        quarter turns toward ``letter`` (tiles get pushed from both sides); None without a letter
        reader."""
        if self.letters is None:
            return None
        crop = self.face_crop(top, row, col)
        read = self.letters.read(crop)
        if read.letter != letter:
            for k in (2, 1, 3):
                turned = self.letters.read(np.ascontiguousarray(np.rot90(crop, k)))
                if turned.letter == letter or turned.confidence > read.confidence:
                    read = turned
                if read.letter == letter:
                    break
        return read

    def space_scores(self, top: np.ndarray) -> np.ndarray:
        """5 x 17 evidence of a tile: brightness times colourlessness over the tile's face."""
        g = self.geometry
        hsv = cv2.cvtColor(top, cv2.COLOR_BGR2HSV).astype(np.float32)
        white = hsv[..., 2] * (1.0 - hsv[..., 1] / 255.0) ** 2
        ii = cv2.integral(white, sdepth=cv2.CV_64F)
        out = np.zeros((self.rows, self.cols))
        fx, fy = 0.42 * g.tile_mm / g.pitch_mm * self.cell_px, 0.42 * g.tile_mm / g.lane_mm * self.cell_px
        for r in range(self.rows):
            cy = (r + 0.5) * self.cell_px
            y0, y1 = round(cy - fy), round(cy + fy)
            for c in range(self.cols):
                cx = (c + 0.5) * self.cell_px
                x0, x1 = round(cx - fx), round(cx + fx)
                s = ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]
                out[r, c] = s / max((y1 - y0) * (x1 - x0), 1)
        return out

    def face_crop(self, top: np.ndarray, row: int, col: int) -> np.ndarray:
        """The tile's face in a space, centred on its letter: tiles sit loosely in their lanes."""
        g = self.geometry
        hx = 0.5 * g.tile_mm / g.pitch_mm * self.cell_px * 1.04
        hy = 0.5 * g.tile_mm / g.lane_mm * self.cell_px * 1.04
        cy, cx = (row + 0.5) * self.cell_px, (col + 0.5) * self.cell_px
        y0, x0 = max(round(cy - 1.3 * hy), 0), max(round(cx - 1.3 * hx), 0)
        window = top[y0:round(cy + 1.3 * hy), x0:round(cx + 1.3 * hx)]
        found = glyph_centre(window, letter_px=0.62 * 2 * hy / 1.04)
        if found is not None:
            cx, cy = x0 + found[0], y0 + found[1]
        return top[max(round(cy - hy), 0):round(cy + hy), max(round(cx - hx), 0):round(cx + hx)]

    def _judge(self, col: int, letter: str, scores: np.ndarray, top: np.ndarray,
               flags: list[str]) -> StreetColumn:
        order = np.argsort(scores)[::-1]
        best = int(order[0])
        empty_level = max(float(np.median(scores[order[1:]])), 4.0)
        ratio = float(scores[best]) / empty_level
        runner_up = float(scores[order[1]]) / empty_level
        margin = np.log(ratio / TILE_RATIO) / np.log(1.3)
        if margin <= 0:
            conf = unit(-margin)
            return StreetColumn(letter, None, conf, 1.0, tuple(flags),
                                tuple(float(x) for x in scores / empty_level), self.threshold)
        conf = unit(margin)
        if runner_up > TILE_RATIO:  # two spaces look like tiles: one column holds only one
            flags.append("two spaces of this column look occupied")
        letter_conf, misread = self._face_check(self.read_face(top, best, col, letter), letter)
        if misread:
            flags.append(misread)
        if self.letters is not None:
            conf = min(conf, max(letter_conf, 0.61)) if not flags else min(conf, letter_conf)
        return StreetColumn(letter, SPACES[best], conf, letter_conf, tuple(flags),
                            tuple(float(x) for x in scores / empty_level), self.threshold)


class FaceReads:
    """The letters the faces of one picture read, each face read once: the lanes' decision and
    the letter check ask the same face."""

    def __init__(self, reader: StreetReader, top: np.ndarray) -> None:
        self.reader, self.top = reader, top
        self.kept: dict[tuple[int, int], LetterRead | None] = {}

    def read(self, row: int, col: int, letter: str) -> LetterRead | None:
        """:meth:`StreetReader.read_face`, once per face."""
        if (row, col) not in self.kept:
            self.kept[(row, col)] = self.reader.read_face(self.top, row, col, letter)
        return self.kept[(row, col)]

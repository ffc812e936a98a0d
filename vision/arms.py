"""Is an arm reaching over the board? Change against the calibration picture that comes in from outside.

Why not skin colour alone (:mod:`vision.hands`): a hand over a red-brown board, an arm on a
wooden or pink table, a dark hand on a dark street look like the board or the table in colour.
What every arm does, whatever its colour, is come from outside: it crosses the board's edge
from the table, and the table from the picture's edge. Tiles never do — they lie on the board,
or (captured in Word on the Street) beside it — so a change against the calibration picture
that reaches in from outside is an arm, and the cells it covers are not judged.

Two ways to see the arm cross, either is enough:

* on the whole picture, kept small: a change (colour, brightness or texture — a smooth arm over
  wood grain or carpet) connected to the picture's edge and reaching the board;
* on the board's own surround (its frame, the street's pavement): a change not in the tile
  colour reaching from a cell's width outside the playing area into it. This sees the arm on a
  skin-coloured table, where the first way loses it.

A change that fills the picture (the camera moved, the light went out) is not an arm; the
reader's own checks catch those.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np

from vision.appearance import SurroundLight, surround_change, to_lab
from vision.arm_decision import ArmDecision, arm_decision, arm_evidence, board_evidence, into_playing_area
from vision.occupancy import cell_fraction

#: The calibration picture is kept about this small (longer side, pixels; up to twice this):
#: an arm is large, and a small picture is quick to compare.
SCENE_PX = 160
#: Pixels per cell of the board's surround, and the surround's width in cells: an arm must
#: come from its outer half. (Wider, the band falls on the table beyond a narrow board frame,
#: where a skin-coloured table hides the arm; measured.)
RING_CELL_PX = 12
RING_CELLS = 1.0
#: A pixel has changed when its chromaticity moved this much (log ratio units, after the whole
#: picture's colour cast is taken out) ...
CHROMA_CHANGE = 0.12
#: ... (its colour counted in full only from this far above a channel's bottom, in grey levels,
#: plus 16: below, the chromaticity is clipped) ...
CLIPPED_BELOW = 2.0
#: ... or its brightness by this factor's log (a person's soft shadow halves the light: log 0.7)
LIGHT_CHANGE = 0.7
#: ... or its fine texture (wood grain, carpet; relative to brightness) by this factor's log.
#: The three are added in quadrature, each in units of its own threshold.
TEXTURE_CHANGE = 0.8
#: A change over more than this share of the picture is the camera or the light, not an arm.
MAX_SHARE = 0.5
#: A pixel this close (L*a*b*) to the tile colour is a tile, not an arm (captured tiles lie in
#: the street's surround).
TILE_COLOUR_DISTANCE = 14.0
#: ... unless the tile-coloured patch it lies in is thicker than this (cells, from its middle to
#: its nearest side, its holes filled): a tile's face is 0.8 of a cell wide, so at most 0.4 thick
#: once its letter's hole is filled, while an arm is one to three cells wide (0.5 to 1.5 thick).
#: The holes are filled because an arm's specks of shading make holes too: unfilled, an arm a
#: cell wide of the tiles' colour can measure under 0.5 and be taken for tiles. On development
#: pictures (1,152 of the ``hands`` scenes; 432 boards with no hand) filling and 0.5 changed no
#: flag.
TILE_THICKNESS_CELLS = 0.5
#: ... nor is a tile-coloured patch smaller than this (cells' area): a tile's face, its letter cut
#: out, is half a cell's area or more. Specks of a board's pale outline (0.01-0.04), widened by
#: half a cell with the tiles, would otherwise cut an arm off from the surround's outer edge
#: where it crosses it (on a table of the arm's colour, which hides it there too), and the arm
#: over the board would be missed. On development pictures (578) it changed no flag.
TILE_PATCH_CELLS = 0.1
#: ... nor one thinner than this (cells, from its middle to its nearest side, its holes filled: a
#: tile's letter is no gap in its face). Why: where the lamp caught an orange arm's rounded
#: sides they were the tiles' colour, in lines a pixel or two wide (0.08 of a cell thick);
#: widened by half a cell as tiles are, they can wipe the arm off the surround it crosses (on a
#: table of its colour, which hides it) and the hand is missed. A tile's face is 0.8 of a cell
#: wide, about 0.4 thick, but slivers of tiles seen at a slant or cut by the surround's edge
#: measure 0.16-0.2 in pictures with no hand; at 0.25 a full board with no hand was taken for
#: an arm. On development pictures (1,152 of the ``hands`` scenes; 432 boards with no hand)
#: 0.15 and 0.2 changed no flag but the missed arm's.
TILE_FACE_CELLS = 0.15
#: ... counting its lightness's difference at this weight: a light gradient across the board
#: (brighter lamp on one side) moves the tiles' lightness far more than their colour, and at
#: full weight a full board's darker side is "not tile-coloured", an arm across the frame. At
#: 0.33 hands are missed; at 0.5 the ``hands`` benchmark gives what full weight gave.
TILE_LIGHTNESS_WEIGHT = 0.5


#: Where the fitted light thresholds live (:mod:`vision.synthetic.fit_hands` writes it).
LIGHT_FILE = Path(__file__).with_name("models") / "hands.json"


@dataclass(frozen=True)
class LightThresholds:
    """How a change of light is told from an arm: fitted on ``train``-family renders
    (:mod:`vision.synthetic.fit_hands`), never set by hand.

    ``scale``: the finest the light's map may vary (share of the picture's shorter side) —
    finer follows a shadow's edge closely but begins to follow an arm; ``outlier``: a pixel
    scoring over this (in thresholds' units) is left out of the map's next step
    (:func:`_light_change`);
    ``chroma``, ``light``, ``texture``: a pixel has changed when its chromaticity, brightness
    and fine texture moved this much (log ratios) from the calibration picture once the field
    is out, the three added in quadrature, each in units of its own;
    ``glare_spread``: how alike the colour channels' added light must be for a lamp's glare to
    explain it (:func:`lamp_glare`; 0: glare is not taken out); ``glare_grain``: the factor within
    which glare keeps the grain under it (a hand hides a table's grain, glare dims it only where
    it nearly cuts the picture white); ``glare_step``: how sharp an edge glare may have, as a share
    of its light: the most a part's added light may drop just beyond it (:func:`_stepped`), and
    the most the light added round a part cut white may fall short of cutting it
    (:func:`_short_of_white`): a glare fades out softly, a hand ends at its silhouette (1: not
    checked)."""

    scale: float
    outlier: float
    chroma: float
    light: float
    texture: float
    glare_spread: float = 0.0
    glare_grain: float = 1.6
    glare_step: float = 1.0

    #: the candidates :meth:`fit` tries
    SCALES = (0.15, 0.25)
    OUTLIERS = (0.5, 0.7)
    GLARE_SPREADS = (0.0, 0.15, 0.25, 0.35)
    GLARE_GRAINS = (1.6, 2.5, 4.0)
    GLARE_STEPS = (1.0, 0.4, 0.25)
    #: times the cast-only check's (CHROMA_CHANGE, ...): the field must lower false alarms by
    #: explaining the light, not by seeing less (wider thresholds, tried at 1.15, chose fewer
    #: false alarms on the fitting pictures and missed an arm over a board's frame elsewhere)
    UNITS = (1.0,)

    def save(self, path: str | Path, facts: dict[str, Any]) -> None:
        Path(path).write_text(json.dumps({"thresholds": asdict(self), "fitted_on": facts}, indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path = LIGHT_FILE) -> LightThresholds:
        try:
            data = json.loads(Path(path).read_text())
            return cls(**{k: float(v) for k, v in data["thresholds"].items()})
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ValueError(f"the hands' light thresholds in {path} cannot be read ({error}); "
                             "refit them: python -m vision.synthetic.fit_hands") from error

    @classmethod
    def fit(cls, data: Sequence[Any], flagged: Callable[[Any, LightThresholds], bool]
            ) -> tuple[LightThresholds, dict[str, Any]]:
        """The candidate that misses the fewest hands over the cells in ``data`` (examples with
        ``over_cells`` and ``hand``; ``flagged(example, candidate)``), then flags the fewest
        pictures without a hand: a missed hand can leave a cell read wrong and sure, a false
        alarm only makes the kiosk wait. Ties go to the most lenient (the surest to see hands
        the fit never saw): the narrowest thresholds, the least taken for glare (its colour, grain
        and edge held the tightest), the coarsest field, the most of the picture left out of it."""
        best: tuple | None = None
        calm = [e for e in data if not e.hand]
        over = [e for e in data if e.over_cells]
        for scale, outlier, units, spread, grain, step in itertools.product(
                cls.SCALES, cls.OUTLIERS, cls.UNITS, cls.GLARE_SPREADS, cls.GLARE_GRAINS, cls.GLARE_STEPS):
            if spread == 0 and (grain, step) != (cls.GLARE_GRAINS[0], cls.GLARE_STEPS[0]):
                continue  # no glare taken out: its grain and edge do not matter
            candidate = cls(scale, outlier, CHROMA_CHANGE * units, LIGHT_CHANGE * units,
                            TEXTURE_CHANGE * units, spread, grain, step)
            alarms = sum(flagged(e, candidate) for e in calm)
            missed = sum(not flagged(e, candidate) for e in over)
            key = (missed, alarms, units, spread, grain, step, -scale, -outlier)
            if best is None or key < best[0]:
                best = (key, candidate, alarms, missed)
        assert best is not None
        _, chosen, alarms, missed = best
        return chosen, {"pictures_without_hand": len(calm), "false_alarms": alarms,
                        "hands_over_cells": len(over), "hands_missed": missed}


@cache
def light_thresholds() -> LightThresholds:
    """The fitted thresholds (:data:`LIGHT_FILE`), read once."""
    return LightThresholds.load()


def reference_scene(image: np.ndarray) -> np.ndarray:
    """The calibration picture as the arm check keeps it."""
    return shrink(image)[0]


def shrink(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The picture shrunk by a power of two to at least :data:`SCENE_PX` (longer side).

    Area resampling by halves is OpenCV's fast path: 0.3 ms for a 1024 px picture against
    1.5 ms for one shrink by 4, the same to a grey level. It is taken when the sides divide
    evenly (the usual camera sizes); otherwise one shrink, which halving would not match."""
    h, w = image.shape[:2]
    factor = 1
    while max(h, w) // (factor * 2) >= SCENE_PX:
        factor *= 2
    size = (max(1, w // factor), max(1, h // factor))
    if factor == 1 or h % factor or w % factor:
        return (image if factor == 1 else cv2.resize(image, size, interpolation=cv2.INTER_AREA)), 1.0 / factor
    small = image
    for step in range(1, factor.bit_length()):
        small = cv2.resize(small, (w >> step, h >> step), interpolation=cv2.INTER_AREA)
    return small, 1.0 / factor


def _grain(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel, the grey level's mean and its standard deviation (the fine texture's size)
    over 5x5."""
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mean, mean_sq = cv2.blur(gray, (5, 5)), cv2.blur(gray * gray, (5, 5))
    return mean, np.sqrt(np.maximum(mean_sq - mean * mean, 0.0))


class _Signals(NamedTuple):
    """What the change test compares, per pixel of the small picture."""

    colour: np.ndarray  # log chromaticity (R/G, B/G) and log brightness: 3 channels
    light: np.ndarray  # the brightness itself (exp of the log, kept: the colour's trust needs it)
    log_texture: np.ndarray  # log of the fine texture (relative to brightness), plus 0.01
    darkest: np.ndarray  # the darkest colour channel (0..255): near 0, the chromaticity is clipped
    brightest: np.ndarray  # the brightest colour channel (0..255): near 255, it is clipped too


#: log(v + 6) for every byte value: a table look-up, not a logarithm per pixel and channel.
_LOG_BYTE = np.log(np.arange(256, dtype=np.float32) + 6.0)


def _signals(bgr: np.ndarray) -> _Signals:
    """Per pixel: log chromaticity (R/G, B/G) and log brightness (3 channels), and fine texture."""
    soft = cv2.GaussianBlur(bgr, (0, 0), 1.0)
    logs = cv2.LUT(soft, _LOG_BYTE)
    b, g, r = cv2.split(logs)
    brightness = (b + g + r) * (1.0 / 3.0)
    colour = cv2.merge([r - g, b - g, brightness])
    mean, grain = _grain(bgr)
    # Grain relative to brightness, so a shadow (which dims grain and ground alike) is no change.
    texture = cv2.blur((grain + 4.0) / (mean + 8.0), (5, 5))
    darkest = cv2.min(cv2.min(soft[..., 0], soft[..., 1]), soft[..., 2])
    brightest = cv2.max(cv2.max(soft[..., 0], soft[..., 1]), soft[..., 2])
    return _Signals(colour, np.exp(brightness), np.log(texture + 0.01), darkest, brightest)


def _in_todays_light(reference: np.ndarray, current: np.ndarray) -> np.ndarray:
    """The reference picture with its colours mapped as the camera maps them today.

    A real camera's exposure and white balance drift over an evening, and not as a plain gain:
    saturation and contrast move too. An affine colour map (3x3 and an offset) fitted over the
    whole picture, refitted on the pixels it explains best so tiles and arms do not pull it,
    takes that out (the real game's photos needed it: their colours change between moves)."""
    ref = reference.reshape(-1, 3)[::16].astype(np.float32)  # a sixteenth of the pixels fit as well
    x = np.hstack([ref, np.ones((len(ref), 1), np.float32)])
    y = current.reshape(-1, 3)[::16].astype(np.float32)
    keep = np.ones(len(x), bool)
    for _ in range(3):
        xk, yk = x[keep], y[keep]
        # Normal equations: a 4x4 solve (numpy's threaded BLAS is slow and erratic under load).
        coef = np.linalg.solve(np.einsum("ni,nj->ij", xk, xk) + 1e-3 * np.eye(4, dtype=np.float32),
                               np.einsum("ni,nj->ij", xk, yk))
        residual = np.abs(x @ coef - y).sum(axis=1)
        keep = residual <= np.partition(residual, int(0.6 * len(residual)))[int(0.6 * len(residual))]
    return cv2.transform(reference, coef.T.astype(np.float32))  # saturates to 0..255


#: A change that comes in from the picture's edge is an arm with this much of it (cells' area) on
#: the table: an arm crosses the table, while a board full of tiles (one large change) touched
#: the picture's edge through a trail of specks of the frame below it (1.2 cells' area) ...
MIN_TABLE_CELLS = 2.0
#: ... or with at least this much, when what lies on the table is this wide on average (its area
#: over how far it reaches in from the picture's edge, in cells): a board near the picture's edge
#: leaves an arm little table to cross, and a thin arm there can cross less than
#: :data:`MIN_TABLE_CELLS`. A trail of frame specks is about half a cell wide; arms on
#: development pictures were 1.7 to 2.8.
MIN_WIDE_TABLE_CELLS = 1.0
#: ... that width (cells).
MIN_ARM_WIDTH_CELLS = 1.0
#: A change from the picture's edge that wide, with at least this much of it on the table (cells'
#: area), comes from outside, however little table it crosses: what of it is tile-coloured on the
#: board's surround is no tile (:func:`_tile_sized`): a thin arm of the tiles' colour that comes
#: in over a board near the picture's edge crosses little table (well under a cell's area), yet
#: is as wide as an arm, where a trail of frame specks is about half a cell wide.
MIN_TABLE_SEEN_CELLS = 0.25
#: An arm seen crossing the table is taken to reach this far (cells) beyond what of it is seen:
#: over a board's surround of its own colour it shows no change (:func:`_arm_mask`).
UNSEEN_ARM_CELLS = 1.25
#: The tile colour's light is measured off the board (``where``) when at least this share of
#: the picture lies there.
MIN_OFF_BOARD = 0.2
#: An arm's side is a straight edge from the picture's border into the board's surround: a
#: segment of the picture's edges (Canny) at least this long (cells) ...
SIDE_CELLS = 1.5
#: ... with one end this near the picture's border (cells) ...
SIDE_FROM_BORDER_CELLS = 0.5
#: ... crossing at least this much table (cells; at 0.5 a real arm's side fell short by a
#: pixel; at 0.4 the development runs below raised no false alarm) ...
SIDE_ON_TABLE_CELLS = 0.4
#: ... where under this share of it lies on (or two pixels from) the calibration picture's own
#: edges: new. Why: a brown arm on a mottled brown cloth, over a red-brown board frame, changed
#: the picture too little anywhere but over the cells (the cloth's mottle hides a colour change
#: that small), so nothing of it reached the picture's edge, and what lay under its fingers could
#: be read surely as empty; yet its sides were plain straight edges from the picture's border to
#: the board. On development pictures (both families: 281 with a hand, 295 without; 288 boards
#: without) the sides were seen in 127 pictures with a hand, and in none without.
SIDE_NEW_BELOW = 0.5
#: ... counting only the calibration picture's edges that run its way (give or take one of this
#: many bins over 180 degrees). Why: a mottled or grained table is edges everywhere, and an arm's
#: side over it lay on old edges for most of its length, so it was never new; but the grain runs
#: its own way, and the arm's side across it another.
SIDE_WAYS = 12
#: The sides are looked for when the change found covers no cell more than this: an arm seen on
#: the table and on the surround may stop short of the cells where its fingers, of the tiles'
#: colour, are taken for a tile beside them.
SIDES_WHEN_COVER_BELOW = 0.08
#: A side seen only on the table counts when it is at least this long (cells) and, carried on as
#: far again (as it is drawn), reaches the board's surround: where an arm crosses a grained
#: table's darker streaks, its edge can fade a cell or two short of the board. Short segments
#: of a mottled table's grain under a changed light (1.4-1.8 cells) point at the board too, in
#: pictures with no hand: hence the length.
SIDE_FAR_CELLS = 3.0
#: ... and the arm beside it shows: at least this share of a strip a cell wide on one side of it
#: changed since calibration. Arms' sides found this way on development pictures had 0.36-0.4;
#: the grain's (segments 2.4-5.8 cells long in pictures with no hand) had none.
#:
#: A side shorter than :data:`SIDE_FAR_CELLS` needs the arm beside it too, wherever it ends: a
#: mottled cloth's blotch under a changed light can give straight edges 1.6-1.9 cells long from
#: the picture's border to the board's frame with nothing changed beside them, and the whole
#: board would be taken to be under an arm. Arms' sides under 3 cells had 0.49-1.0 beside them
#: on development pictures; the one arm seen by its side with little changed beside it
#: (0.05) showed a side 4.1 cells long.
SIDE_ARM_BESIDE = 0.2
#: A change that comes into the picture over the board's surround (the board near the picture's
#: edge) is an arm when it meets the edge along this much of it (cells) ...
ENTRY_CELLS = 0.25
#: ... and is this big (cells' area): an arm that comes in over a board's frame cut by the
#: picture's edge crosses no table at all, and the tiles under it must not be read as empty
#: cells. (Such an arm meets the edge along a third of a cell or more and covers many cells.)
ENTRY_AREA_CELLS = 4.0

#: Take the light's smooth change out before comparing (:func:`_light_change`); off, only the
#: whole picture's colour cast is (the benchmark's baseline).
LIGHT_FIELD = True
#: A cell more than this share under a hand is not judged.
UNDER_HAND = 0.08
#: Let the fitted decision (:mod:`vision.arm_decision`) clear a change the rules took for an arm
#: that it is sure is light; off, the rules alone (the benchmark's comparison).
FITTED_DECISION = True
#: Tell a lamp's glare from a pale hand by its edge (:func:`_stepped`, :func:`_short_of_white`,
#: where the fitted :attr:`LightThresholds.glare_step` checks it); off, by its colour and grain
#: alone (the benchmark's comparison).
GLARE_EDGE = True

_STACKED_CACHE: list = []  # [(what :func:`_stacked` was given, what it gave)]: one board at a time
_SCENE_CACHE: list = []  # [(the calibration picture, {how: what it gave})]: one board at a time


def _of_scene(scene: np.ndarray, how):
    """``how(scene)`` for the calibration picture, worked out once: every read compares with it."""
    kept = _SCENE_CACHE[0] if _SCENE_CACHE else None  # read once: another thread may replace it
    if kept is None or kept[0] is not scene:
        kept = (scene, {})
        _SCENE_CACHE[:] = [kept]
    if how not in kept[1]:
        kept[1][how] = how(scene)
    return kept[1][how]


def _change(now: _Signals, then: _Signals, light: LightThresholds | None = None) -> np.ndarray:
    """How far each pixel differs from the reference: 1 is the threshold. ``now``, ``then``:
    the :func:`_signals` of the picture and of the reference; ``light``: the fitted thresholds
    (None: the cast-only check's, :data:`CHROMA_CHANGE` ...)."""
    diff = now.colour - then.colour
    diff -= np.median(diff[::4, ::4].reshape(-1, 3), axis=0)  # the whole picture's cast and exposure
    d_red, d_blue, d_light = cv2.split(diff)
    # The colour of a dark pixel is mostly noise: it counts in proportion to the light on it.
    lit = np.minimum(now.light, then.light)
    trust = (lit / (lit + 40.0)) ** 2
    # A channel at the bottom of its range in both pictures pins its ratios: a saturated green
    # table (blue 2 of 255) brightened by the lamp "changes colour" by the green alone, and a
    # quarter of the table would be taken for an arm. Such a pixel's colour counts only as far
    # as one picture lifts that channel.
    floor = cv2.max(now.darkest, then.darkest).astype(np.float32)
    trust *= np.clip((floor - CLIPPED_BELOW) * (1.0 / 16.0), 0.0, 1.0)
    units = (CHROMA_CHANGE, LIGHT_CHANGE, TEXTURE_CHANGE)
    if light is not None:
        units = (light.chroma, light.light, light.texture)
        # A channel at the top of its range (a brighter lamp, glare) says nothing of its colour
        # either: its ratios are cut at 255.
        ceiling = cv2.max(now.brightest, then.brightest).astype(np.float32)
        trust *= np.clip((255.0 - CLIPPED_BELOW - ceiling) * (1.0 / 16.0), 0.0, 1.0)
    # Each cue in units of its own threshold, added in quadrature: a dark arm on a brown table
    # changes colour, brightness and grain each a little, which together is a lot.
    return (trust * (d_red * d_red + d_blue * d_blue) * (1.0 / units[0] ** 2)
            + (d_light * (1.0 / units[1])) ** 2
            + ((now.log_texture - then.log_texture) * (1.0 / units[2])) ** 2)


#: The light's map is worked out on a picture this many times smaller each way (it is smooth;
#: a blur there costs a sixteenth).
_FIELD_SHRINK = 4


def _light_change(now: _Signals, then: _Signals, light: LightThresholds) -> np.ndarray:
    """:func:`_change` once the light's smooth change is taken out: how far each pixel differs
    from the calibration picture, 1 the threshold.

    Why: a change of light is smooth and spread — a dimmer or brighter room, another white
    balance, a lamp on one side — while an arm is compact. In log ratios (chromaticity,
    brightness, fine texture) such a change is a smooth field; it is taken as a median over
    blocks the picture's shorter side wide (an arm covers far less), then refined by weighted
    blurs down to ``light.scale`` of the shorter side, the pixels it explains worst (over
    ``light.outlier`` of the threshold: an arm, new tiles) left out of each next step, so the
    field goes round a compact change instead of into it. The field is kept coarse: an arm over
    a board can cover half of it. Pixels cut at 255 say nothing of the light (nor does a dark
    pixel's colour) and count accordingly.
"""
    diff = cv2.merge([*cv2.split(now.colour - then.colour), now.log_texture - then.log_texture])
    h, w = diff.shape[:2]
    lit = np.minimum(now.light, then.light)
    trust = (lit / (lit + 40.0)) ** 2
    trust *= np.clip((cv2.max(now.darkest, then.darkest).astype(np.float32) - CLIPPED_BELOW) * (1.0 / 16.0),
                     0.0, 1.0)
    unclipped = np.clip((255.0 - CLIPPED_BELOW - cv2.max(now.brightest, then.brightest).astype(np.float32))
                        * (1.0 / 16.0), 0.0, 1.0)
    trust *= unclipped
    units = np.float32([light.chroma, light.chroma, light.light, light.texture])
    base = np.repeat(unclipped[..., None], 4, axis=2)
    base[..., :2] *= trust[..., None]
    low = (max(1, w // _FIELD_SHRINK), max(1, h // _FIELD_SHRINK))
    finest = light.scale * min(h, w) / _FIELD_SHRINK
    field = _block_medians(diff, base[..., 2] > 0.5, max(4, min(h, w)))

    def residual() -> np.ndarray:
        off = (diff - field) / units
        return trust * (off[..., 0] ** 2 + off[..., 1] ** 2) + off[..., 2] ** 2 + off[..., 3] ** 2

    score = residual()
    for sigma in (2.0 * finest, finest):
        keep = (score < light.outlier**2).astype(np.float32)
        fresh = _smooth(diff, base * keep[..., None], low, sigma, field)
        field = np.where(np.isfinite(fresh), fresh, field)
        score = residual()
    return score


#: A lamp's glare is taken to be this smooth (its light's blur, share of the picture's shorter
#: side): a glare spot is about a tenth of the picture across, an arm's side is sharp.
GLARE_SMOOTH = 0.03
#: The gain under the glare is measured round the pixels it explains worse than this (log
#: gain, any channel): the glare itself, an arm, new tiles.
GLARE_GAIN_OUTLIER = 0.12
#: A pixel's added light is the glare's when its colour channels gained alike (within
#: ``glare_spread`` of what they gained, plus this many grey levels: :class:`LightThresholds`):
#: the lamp's light is white once the camera's white balance has it, while skin, a sleeve or a
#: tile has a colour of its own; and when the light added, blurred to :data:`GLARE_SMOOTH`,
#: stays within :data:`GLARE_ROUGH` of it (plus as many grey levels): an arm's edge is a step,
#: a glare's a slope.
GLARE_GREYS = 10.0
GLARE_ROUGH = 0.3
#: Glare keeps the grain under it within :attr:`LightThresholds.glare_grain` (of the grain in
#: today's light, plus this many grey levels): a hand of a skin-toned table's colour hides the
#: table's grain.
GLARE_GRAIN_GREYS = 1.5
#: ... and nothing within this share of the picture's shorter side of a grain lost is glare.
GLARE_LOST_REACH = 0.04
#: A grain lost counts in patches of at least this many pixels of the shrunk picture.
GLARE_LOST_PX = 12
#: The least light added (grey levels) that is counted as glare.
GLARE_LEAST = 12.0
#: A glare's edge is judged over this share of the picture's shorter side beyond it (a step
#: within it is an edge) ...
GLARE_STEP_REACH = 0.015
#: ... in its parts of at least this many pixels (of the shrunk picture): specks have no edge.
GLARE_PART_PX = 20
#: The light added round a patch cut white is filled in over it from this many pixels beyond
#: it (of the shrunk picture; :func:`_short_of_white`): the glare's rim, not the far side of it.
GLARE_FILL_PX = 3
#: Pixels cut white count as glare in a part with at least this many of glare's soft edge
#: (pixels of the shrunk picture).
GLARE_HALO_PX = 20


def lamp_glare(small: np.ndarray, scene: np.ndarray, light: LightThresholds) -> np.ndarray:
    """Where a lamp's glare explains the change from the calibration picture ``scene`` to
    ``small`` (both as :func:`shrink` gives them): bool, the picture's shape.

    Why: a glossy board or table catches a lamp as a bright soft spot, often where the board
    meets the picture's edge, and a spot so placed comes in from outside as an arm does; the
    smooth field of gains (:func:`_light_change`) cannot follow it, for glare adds light rather
    than scaling it. The model: today's picture is the calibration's under a smooth gain per
    colour (measured round what changed, as the light's field is) plus light added, smooth, of
    the colour today's light has against calibration's (a lamp's glare is the lamp's light: a
    camera whose white balance is held shows it in the room's cast, as it shows the rest). Where
    that explains a pixel — every channel gained alike once that colour is taken out, and the
    added light is as smooth as a glare's — it is glare."""
    then = scene.astype(np.float32)
    now = small.astype(np.float32)
    logs = np.log(now + 6.0) - np.log(then + 6.0)
    usable = (np.maximum(now, then).max(axis=2) < 250)
    h, w = logs.shape[:2]
    # the gain as coarse as the light's field (glare covers whole blocks of a finer one)
    sigma = max(light.scale * min(h, w), 1.0)
    gain = _block_medians(logs, usable, max(4, round(2 * sigma)))
    for blur in (2.0 * sigma, sigma):
        keep = usable & (np.abs(logs - gain).max(axis=2) < GLARE_GAIN_OUTLIER)
        gain = _smooth(logs, np.repeat(keep.astype(np.float32)[..., None], 3, axis=2), (w, h), blur, gain)
    tint = np.exp(gain - gain.mean(axis=2, keepdims=True))  # today's light's colour against then
    added = (now + 6.0 - (then + 6.0) * np.exp(gain)) / tint
    # A channel cut at the top of its range shows less light added than there was: the others
    # say how much, and that much would have cut it. A pixel cut in every channel is judged
    # with the glare round it, and the others without it.
    free = now < 245
    n_free = free.sum(axis=2)
    white = n_free == 0
    level = np.where(white, 255.0, (added * free).sum(axis=2) / np.maximum(n_free, 1))
    tolerance = light.glare_spread * level + GLARE_GREYS
    spread = np.where(free, added, -np.inf).max(axis=2) - np.where(free, added, np.inf).min(axis=2)
    alike = (n_free <= 1) | (spread <= tolerance)
    lit = (then + 6.0) * np.exp(gain) - 6.0
    alike &= np.where(free, True, lit + (level + tolerance)[..., None] * tint >= 245.0).all(axis=2)
    weight = (~white).astype(np.float32)
    sigma = max(GLARE_SMOOTH * min(h, w), 0.5)
    smooth = (cv2.GaussianBlur(level * weight, (0, 0), sigma)
              / np.maximum(cv2.GaussianBlur(weight, (0, 0), sigma), 1e-3))
    even = np.abs(level - smooth) <= GLARE_ROUGH * np.maximum(level, 0.0) + GLARE_GREYS
    # Light added keeps what lay under it: the table's grain, the board's print, a tile's edge,
    # while an arm over them hides them. Where there is nothing to keep the pixel says nothing,
    # so whatever lies near a lost grain (a cell's width) is no glare either: a hand over a dark
    # board hides the lines between the cells, and its middle over a plain square keeps nothing.
    grain_then = _grain(scene)[1] * np.exp(gain.mean(axis=2))
    grain_now = _grain(small)[1]
    kept = grain_now <= light.glare_grain * grain_then + GLARE_GRAIN_GREYS
    # (a channel cut: its grain is cut too)
    lost = (grain_then > light.glare_grain * grain_now + GLARE_GRAIN_GREYS) & (n_free == 3)
    # (only where light was added as glare adds it, and in patches: a lens's other blur moves a
    # pixel's grain here and there)
    lost = parts_at_least(lost & (level >= GLARE_LEAST) & alike, GLARE_LOST_PX)
    reach = max(1, round(GLARE_LOST_REACH * min(h, w)))
    near_lost = cv2.dilate(lost.astype(np.uint8), cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))) > 0
    glare = ~white & (level >= GLARE_LEAST) & alike & even & (kept | (n_free < 3)) & ~near_lost
    if GLARE_EDGE and light.glare_step < 1.0:
        glare &= ~_stepped(glare, level, light.glare_step)
    # White pixels are glare where they lie in glare, never alone: a white sleeve is white too,
    # but its edge is a step, no glare's slope.
    count, labels = cv2.connectedComponents((glare | white).astype(np.uint8), connectivity=8)
    halo = np.bincount(labels[glare], minlength=count) >= GLARE_HALO_PX
    halo[0] = False
    white_glare = white & halo[labels]
    if GLARE_EDGE and light.glare_step < 1.0 and white_glare.any():
        # the light that would cut a pixel white: every channel over the top
        cut = ((245.0 - lit) / tint).max(axis=2)
        white_glare &= ~_short_of_white(white_glare, level, cut, light.glare_step)
    return glare | white_glare


def _stepped(glare: np.ndarray, level: np.ndarray, most: float) -> np.ndarray:
    """The parts of ``glare`` whose edge is a step: where the light they add (``level``, grey
    levels) drops, within :data:`GLARE_STEP_REACH` beyond their edge, by more than ``most`` of
    what they add (its 90th percentile) and :data:`GLARE_GREYS` (the median along their outline).

    Why: where a channel is cut white and the board is plain, a pale hand adds light as glare
    does, alike in the channels left and with nothing under it to keep; but a lamp's light fades
    out round its spot, while a hand ends at its silhouette. Only the outline counts (a tile in
    the glare is a hole in it, not its edge), and not where it meets the picture's edge."""
    h, w = glare.shape
    filled = _holes_filled(glare.astype(np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(filled, connectivity=8)
    big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= GLARE_PART_PX)
    big = big[big > 0]
    stepped = np.zeros(count, bool)
    if not big.size:
        return stepped[labels]
    reach = max(1, round(GLARE_STEP_REACH * min(h, w)))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    added = np.clip(level, 0.0, 255.0).astype(np.float32)
    drop = added - cv2.erode(added, disc)
    outline = (filled > 0) & (cv2.erode(filled, np.ones((3, 3), np.uint8)) == 0) & ~_border((h, w), reach + 1)
    for k in big.tolist():
        edge = outline & (labels == k)
        if edge.sum() < reach:
            continue
        adds = float(np.percentile(added[(labels == k) & glare], 90))
        stepped[k] = float(np.median(drop[edge])) > most * adds + GLARE_GREYS
    return stepped[labels]


def _short_of_white(white: np.ndarray, level: np.ndarray, cut: np.ndarray, most: float) -> np.ndarray:
    """The pixels of ``white`` (cut white in every channel) that the light added round them would
    not cut: the light added (``level``) filled in over them from what lies beyond them falls short
    of what would cut them white (``cut``) by more than ``most`` of it and :data:`GLARE_GREYS`.

    Why: a lamp's light is smooth, so where it cuts a pixel white the light it adds just beyond
    is nearly as much; a pale arm or sleeve cut white in a weaker glare, or over a dark board that
    no glare round it would cut, stands out from it. (A white tile, nearly cut already, needs
    little.)"""
    filled = cv2.inpaint(np.clip(level, 0.0, 255.0).astype(np.uint8), white.astype(np.uint8), GLARE_FILL_PX,
                         cv2.INPAINT_TELEA).astype(np.float32)
    return white & (cut - filled > most * cut + GLARE_GREYS)


def _block_medians(diff: np.ndarray, usable: np.ndarray, block: int) -> np.ndarray:
    """Per pixel, the median of ``diff`` over the ``usable`` pixels of its block (``block``
    pixels square), drawn smoothly between the blocks' middles; a block with too few usable
    pixels takes the median over the whole picture."""
    h, w = diff.shape[:2]
    by, bx = -(-h // block), -(-w // block)
    overall = np.median(diff[usable], axis=0) if usable.any() else np.zeros(diff.shape[2], np.float32)
    grid = np.empty((by, bx, diff.shape[2]), np.float32)
    for i in range(by):
        for j in range(bx):
            part = usable[i * block:(i + 1) * block, j * block:(j + 1) * block]
            grid[i, j] = (np.median(diff[i * block:(i + 1) * block, j * block:(j + 1) * block][part], axis=0)
                          if part.sum() >= block else overall)
    return cv2.resize(grid, (bx * block, by * block), interpolation=cv2.INTER_LINEAR)[:h, :w]


def _smooth(values: np.ndarray, weights: np.ndarray, low: tuple[int, int], sigma: float,
            fallback: np.ndarray | None) -> np.ndarray:
    """The ``weights``-weighted blur (sigma pixels of a picture ``low`` in size) of ``values``,
    at ``values``' size; ``fallback`` where there is too little weight near (NaN without)."""
    h, w = values.shape[:2]
    num = cv2.GaussianBlur(cv2.resize(values * weights, low, interpolation=cv2.INTER_AREA), (0, 0), sigma)
    den = cv2.GaussianBlur(cv2.resize(weights, low, interpolation=cv2.INTER_AREA), (0, 0), sigma)
    out = cv2.resize(num / np.maximum(den, 1e-6), (w, h), interpolation=cv2.INTER_LINEAR)
    thin = cv2.resize(den, (w, h), interpolation=cv2.INTER_LINEAR) < 0.02
    out[thin] = np.nan if fallback is None else fallback[thin]
    return out


def _changed(score: np.ndarray) -> np.ndarray:
    """The changed pixels (uint8 0/1), small gaps closed and specks dropped.

    (Joining weakly changed pixels to clear ones, as edge detectors do, found more of a dark arm
    on a brown table but also joined tiles to soft light changes across the table: 4-8 false
    alarms in 26 pictures. Not done.)"""
    changed = (score > 1.0).astype(np.uint8)
    changed = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    return cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _from_edge(changed: np.ndarray, band: np.ndarray, min_area: float, min_band: float,
               max_share: float = MAX_SHARE, table: tuple[np.ndarray, float] | None = None,
               least_on_table: float = MIN_WIDE_TABLE_CELLS) -> np.ndarray:
    """The connected parts of ``changed`` that overlap ``band`` by ``min_band`` pixels and are at
    least ``min_area`` big (and, with ``table`` = (where the table lies, a cell's area in
    pixels), cross the table as an arm does: :data:`MIN_TABLE_CELLS`, or ``least_on_table``
    cells' area and :data:`MIN_ARM_WIDTH_CELLS` wide)."""
    labels, count, keep = _edge_parts(changed, band, min_area, min_band, max_share)
    if table is not None:
        keep &= _cross_the_table(labels, count, *table, least_on_table)
    return keep[labels]


def _edge_parts(changed: np.ndarray, band: np.ndarray, min_area: float, min_band: float, max_share: float
                ) -> tuple[np.ndarray, int, np.ndarray]:
    """``changed`` labelled, its labels' count, and which of them :func:`_from_edge` keeps before
    the table has its say (never the background, 0)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
    in_band = np.bincount(labels[band], minlength=count)
    area = stats[:, cv2.CC_STAT_AREA]
    keep = (in_band >= min_band) & (area >= min_area) & (area <= max_share * changed.size)
    keep[0] = False
    return labels, count, keep


def _cross_the_table(labels: np.ndarray, count: int, table: np.ndarray, cell_area: float,
                     least: float = MIN_WIDE_TABLE_CELLS) -> np.ndarray:
    """Which labelled parts lie on the ``table`` as an arm crossing it does: two cells' area, or
    ``least`` if as wide as a cell on average (area over reach from the picture's edge)."""
    on_table = np.bincount(labels[table], minlength=count) / max(cell_area, 1e-6)
    crossing = on_table >= MIN_TABLE_CELLS
    h, w = labels.shape
    side = float(np.sqrt(max(cell_area, 1e-6)))
    for k in np.flatnonzero(~crossing & (on_table >= least)).tolist():
        ys, xs = np.nonzero((labels == k) & table)
        reach = int(np.minimum(np.minimum(ys + 1, h - ys), np.minimum(xs + 1, w - xs)).max()) / side
        crossing[k] = on_table[k] >= MIN_ARM_WIDTH_CELLS * reach
    return crossing


def arm_cells(image: np.ndarray, corners: np.ndarray, rows: int, cols: int, scene: np.ndarray,
              tile_lab: np.ndarray | None = None, stacks: Sequence[np.ndarray] = (),
              small: tuple[np.ndarray, float] | None = None, light: LightThresholds | None = None,
              light_field: bool = True, decision: ArmDecision | None = None) -> np.ndarray:
    """Share of each cell (rows x cols) an arm reaching in from outside covers; ``scene``: the
    calibration picture (:func:`reference_scene`), ``corners``: the playing area in ``image``;
    ``stacks``: outlines (in ``image``) of the tallest stacks the border cells can hold, where
    tiles may stand out over the surround (:func:`_long_from_the_rim`); ``small``: the picture
    as :func:`shrink` gives it, when the caller has it already; ``light``: how a change of light
    is told from an arm (None: the fitted file's, :func:`light_thresholds`); ``decision``: what
    clears a change that is light (None: the fitted file's,
    :func:`vision.arm_decision.arm_decision`)."""
    covered, evidence = arm_candidate(image, corners, rows, cols, scene, tile_lab, stacks, small, light,
                                      light_field)
    if evidence is not None and FITTED_DECISION and (decision or arm_decision()).is_light(evidence):
        return np.zeros((rows, cols))
    return covered


def arm_candidate(image: np.ndarray, corners: np.ndarray, rows: int, cols: int, scene: np.ndarray,
                  tile_lab: np.ndarray | None = None, stacks: Sequence[np.ndarray] = (),
                  small: tuple[np.ndarray, float] | None = None, light: LightThresholds | None = None,
                  light_field: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """What the arm check's rules find (as :func:`arm_cells`, before the fitted decision has its
    say), and the evidence about it (:func:`vision.arm_decision.arm_evidence`; None when they
    flag no cell, none more than :data:`UNDER_HAND` under an arm)."""
    small, scale = shrink(image) if small is None else small
    if small.shape != scene.shape:
        return np.zeros((rows, cols)), None
    corners_small = np.asarray(corners, np.float64).reshape(4, 2) * scale
    px, pad = RING_CELL_PX, round(RING_CELLS * RING_CELL_PX)
    to_board = cv2.getPerspectiveTransform(
        corners_small.astype(np.float32),
        np.float32([[pad, pad], [pad + cols * px, pad], [pad + cols * px, pad + rows * px],
                    [pad, pad + rows * px]]))
    size = (cols * px + 2 * pad, rows * px + 2 * pad)

    # Changed under both models of the light: a plain gain per colour (a lamp, the white balance),
    # and a full colour map (a real camera's exposure and saturation drift); either alone takes
    # some light changes for changes on the table. The second is only worked out when the first
    # finds an arm at all (a pixel changed under both is changed under the first: most pictures
    # have no arm, and this halves their cost).
    now = _signals(small)
    by_cast = by_gain = _change(now, _of_scene(scene, _signals))
    light = light or light_thresholds()
    if LIGHT_FIELD and light_field:
        by_gain = np.minimum(by_gain, _light_change(now, _of_scene(scene, _signals), light))
    # the picture beyond the playing area and its surround: the table, where an arm comes from
    outline = np.float32([[[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]]])
    ring = cv2.perspectiveTransform(outline, np.linalg.inv(to_board))[0]
    off_board = np.ones(small.shape[:2], np.uint8)
    cv2.fillConvexPoly(off_board, np.round(ring).astype(np.int32), 0)
    cell_area = cv2.contourArea(corners_small.astype(np.float32)) / (rows * cols)
    table = off_board.astype(bool), cell_area
    # the board's surround in the small picture (neither table nor playing area): an arm may come
    # into the picture over it where the board lies near the picture's edge
    surround = off_board == 0
    playing = np.zeros_like(off_board)
    cv2.fillConvexPoly(playing, np.round(corners_small).astype(np.int32), 1)
    surround &= playing == 0
    # the light's change measured off the board: a board full of tiles is no part of it
    # (worked out only if the surround's check needs it: most pictures have no change there)
    tile_today = cache(lambda: None if tile_lab is None
                       else tile_in_todays_light(tile_lab, scene, small, table[0]))
    stacked = _stacked(stacks, scale, to_board, size)
    arm = None
    found = _arm_mask(by_gain, small, to_board, size, tile_today, table, max_share=1.0, surround=surround,
                      stacked=stacked).any()
    glare, before_glare = None, by_gain
    if found and LIGHT_FIELD and light.glare_spread > 0:
        # A lamp's glare is light added, smooth and white: what it explains is no change (the
        # street's too, which keeps the coarse field off).
        glare = lamp_glare(small, scene, light)
        if glare.any():
            by_gain = np.where(glare, 0.0, by_gain)
            by_cast = np.where(glare, 0.0, by_cast)
            found = _arm_mask(by_gain, small, to_board, size, tile_today, table, max_share=1.0,
                              surround=surround, stacked=stacked).any()
    if found:
        score = np.minimum(by_gain, _change(now, _signals(_in_todays_light(scene, small))))
        arm = _arm_mask(score, small, to_board, size, tile_today, table, surround=surround, stacked=stacked)
    covered = _covered(arm, rows, cols) if arm is not None else np.zeros((rows, cols))
    seen = arm if arm is not None else np.zeros((size[1], size[0]), bool)
    if covered.max() < SIDES_WHEN_COVER_BELOW:
        # An arm that changed the picture too little to be seen reaching the cells: its sides may
        # show
        sides = _new_sides(small, scene, table[0], cell_area, by_cast > 1.0)
        if sides.any():
            seen_by_sides = cv2.warpPerspective(sides, to_board, size, flags=cv2.INTER_NEAREST).astype(bool)
            covered = np.maximum(covered, _covered(seen_by_sides, rows, cols))
            seen = seen | seen_by_sides
    if covered.max() <= UNDER_HAND:
        return covered, None
    if glare is None:
        glare = lamp_glare(small, scene, light) if light.glare_spread > 0 else np.zeros(small.shape[:2], bool)
    then = _of_scene(scene, _signals)
    return covered, _evidence(now, then, before_glare, seen, to_board, size, glare, table)


def _evidence(now: _Signals, then: _Signals, score: np.ndarray, seen: np.ndarray, to_board: np.ndarray,
              size: tuple[int, int], glare: np.ndarray, table: tuple[np.ndarray, float]) -> np.ndarray:
    """:func:`vision.arm_decision.arm_evidence` about what the rules took for an arm (``seen``, on
    the surround's warp ``to_board``): itself, and on the table the changed parts of the picture
    it lies in (an arm comes from there; tiles moved on the board are no part of it)."""
    h, w = score.shape
    back = cv2.warpPerspective(seen.astype(np.uint8), np.linalg.inv(to_board), (w, h),
                               flags=cv2.INTER_NEAREST) > 0
    count, labels = cv2.connectedComponents(_changed(score), connectivity=8)
    touched = np.zeros(count, bool)
    touched[np.unique(labels[back])] = True
    touched[0] = False
    region = back | (touched[labels] & table[0]) if touched.any() else back
    diff = now.colour - then.colour
    diff -= np.median(diff[::4, ::4].reshape(-1, 3), axis=0)
    texture = now.log_texture - then.log_texture
    texture -= np.median(texture[::4, ::4])
    near = _changed(cv2.warpPerspective(score, to_board, size, flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_REPLICATE)) > 0
    board = board_evidence(seen, near, RING_CELL_PX, round(RING_CELLS * RING_CELL_PX))
    return arm_evidence(diff, texture, now.brightest, score, region, glare, *table, board)


def _stacked(stacks: Sequence[np.ndarray], scale: float, to_board: np.ndarray, size: tuple[int, int]
             ) -> np.ndarray | None:
    """Where on the surround's warp (``to_board``, ``size``) the outlines ``stacks`` (in the
    full picture; ``scale`` to the small one) lie, and half a cell round them: a stack of a
    held-out set, thicker than its calibration says or set a little off its cell, can stand out
    past its outline. None without stacks."""
    if not len(stacks):
        return None
    # The same outlines on the same warp every read of one calibration: drawn once.
    key = (scale, size, to_board.tobytes(), b"".join(np.asarray(s, np.float32).tobytes() for s in stacks))
    kept = _STACKED_CACHE[0] if _STACKED_CACHE else None  # read once: another thread may replace it
    if kept is not None and kept[0] == key:
        return kept[1]
    stacked = np.zeros((size[1], size[0]), np.uint8)
    for outline in stacks:
        at = cv2.perspectiveTransform(np.asarray(outline, np.float32).reshape(-1, 1, 2) * scale, to_board)
        cv2.fillConvexPoly(stacked, np.round(at.reshape(-1, 2)).astype(np.int32), 1)
    reach = RING_CELL_PX | 1
    stacked = cv2.dilate(stacked, np.ones((reach, reach), np.uint8))
    stacked.flags.writeable = False  # shared by every read of this calibration
    _STACKED_CACHE[:] = [(key, stacked)]
    return stacked


def _covered(arm: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Share of each cell the ``arm`` (on the surround's warp) covers, with a quarter of a cell
    round it: fingertips that stop on the surround a pixel short of the playing area shade the
    cells beside them, and the picture must not be read as if no hand were there. Half a cell
    would catch them too, but also a tile's shadow on the street's pavement."""
    px, pad = RING_CELL_PX, round(RING_CELLS * RING_CELL_PX)
    reach = (px // 4) * 2 + 1
    near = cv2.dilate(arm.astype(np.uint8), np.ones((reach, reach), np.uint8))
    return cell_fraction(near.astype(bool), rows, cols, px, pad)


def _soft_gray(picture: np.ndarray) -> np.ndarray:
    """The picture in grey, softened: grain is no edge."""
    return cv2.GaussianBlur(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY), (0, 0), 1.2)


def _edges(picture: np.ndarray, gray: np.ndarray | None = None) -> np.ndarray:
    """The picture's edges (Canny on :func:`_soft_gray`, given or worked out here)."""
    return cv2.Canny(_soft_gray(picture) if gray is None else gray, 20, 50)


def _old_edges(scene: np.ndarray) -> np.ndarray:
    """The calibration picture's edges, two pixels wide each way, one layer per way they run
    (:data:`SIDE_WAYS` bins of their direction over 180 degrees)."""
    gray = _soft_gray(scene)
    edges = _edges(scene, gray) > 0
    along = (np.degrees(np.arctan2(cv2.Sobel(gray, cv2.CV_32F, 0, 1), cv2.Sobel(gray, cv2.CV_32F, 1, 0)))
             + 90.0) % 180.0  # an edge runs across its gradient
    way = (along * (SIDE_WAYS / 180.0)).astype(int) % SIDE_WAYS
    wide = np.ones((5, 5), np.uint8)
    return np.stack([cv2.dilate((edges & (way == k)).astype(np.uint8), wide) > 0 for k in range(SIDE_WAYS)])


def _old_edges_running(old: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    """Where the calibration picture had an edge (:func:`_old_edges`) running the way of the
    segment from (x0, y0) to (x1, y1), give or take one bin."""
    way = int((np.degrees(np.arctan2(y1 - y0, x1 - x0)) % 180.0) * (SIDE_WAYS / 180.0)) % SIDE_WAYS
    return old[way] | old[(way - 1) % SIDE_WAYS] | old[(way + 1) % SIDE_WAYS]


def _new_sides(small: np.ndarray, scene: np.ndarray, table: np.ndarray, cell_area: float,
               changed: np.ndarray) -> np.ndarray:
    """Where an arm's straight sides new since calibration (:data:`SIDE_NEW_BELOW`) come in from
    the picture's border across the ``table`` to the board (uint8 0/1 on the small picture): each
    side a cell wide, from the border on, and as far again beyond where it was seen to end (the
    arm goes on over the board, where the change may show it no better); nothing where there is
    none. A side seen only on the table (:data:`SIDE_FAR_CELLS`), or a short one, must have
    pixels ``changed`` since calibration beside it (:data:`SIDE_ARM_BESIDE`)."""
    h, w = small.shape[:2]
    cell = float(np.sqrt(max(cell_area, 1e-6)))
    out = np.zeros((h, w), np.uint8)
    lines = cv2.HoughLinesP(_edges(small), 1, np.pi / 180, 15, minLineLength=max(int(SIDE_CELLS * cell), 4),
                            maxLineGap=3)
    if lines is None:
        return out
    old = _of_scene(scene, _old_edges)
    near_border = SIDE_FROM_BORDER_CELLS * cell
    for x0, y0, x1, y1 in lines[:, 0].tolist():
        to_border = [min(x, y, w - 1 - x, h - 1 - y) for x, y in ((x0, y0), (x1, y1))]
        if min(to_border) > near_border:
            continue
        if to_border[0] > to_border[1]:  # from the border inwards
            x0, y0, x1, y1 = x1, y1, x0, y0
        xs, ys = _along(x0, y0, x1, y1, table.shape)
        on_table = table[ys, xs]
        short, table_only = len(xs) < SIDE_FAR_CELLS * cell, bool(on_table.all())
        if on_table.sum() < SIDE_ON_TABLE_CELLS * cell or (table_only and (
                short or not _reaches_off(table, x0, y0, x1, y1))):
            continue  # barely crosses the table, or never comes near the board's surround
        if (table_only or short) and _changed_beside(changed, table, x0, y0, x1, y1, cell) < SIDE_ARM_BESIDE:
            continue  # no arm beside it: the table's own grain or blotches under a changed light
        if _old_edges_running(old, x0, y0, x1, y1)[ys, xs][on_table].mean() >= SIDE_NEW_BELOW:
            continue
        cv2.line(out, (x0, y0), (2 * x1 - x0, 2 * y1 - y0), 1, max(round(cell), 1))
    return out


def _changed_beside(changed: np.ndarray, table: np.ndarray, x0: int, y0: int, x1: int, y1: int,
                    cell: float) -> float:
    """The larger share of changed pixels on the table in the two strips a cell wide either side
    of the segment from (x0, y0) to (x1, y1): an arm's side has the arm beside it."""
    length = max(float(np.hypot(x1 - x0, y1 - y0)), 1.0)
    across = np.array([-(y1 - y0), x1 - x0]) * (cell / length)
    best = 0.0
    for way in (1.0, -1.0):
        strip = np.zeros(changed.shape, np.uint8)
        corners = np.array([[x0, y0], [x1, y1], [x1, y1] + way * across, [x0, y0] + way * across])
        cv2.fillConvexPoly(strip, np.round(corners).astype(np.int32), 1)
        on = (strip > 0) & table
        if on.any():
            best = max(best, float(changed[on].mean()))
    return best


def _along(x0: int, y0: int, x1: int, y1: int, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (xs, ys) of the segment from (x0, y0) to (x1, y1), one a step along its longer
    side, kept inside a picture of ``shape``."""
    n = max(abs(x1 - x0), abs(y1 - y0)) + 1
    xs = np.clip(np.linspace(x0, x1, n).round().astype(int), 0, shape[1] - 1)
    ys = np.clip(np.linspace(y0, y1, n).round().astype(int), 0, shape[0] - 1)
    return xs, ys


def _reaches_off(table: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> bool:
    """Whether the segment from (x0, y0) to (x1, y1), carried on as far again (as the arm's side
    is drawn), reaches off the ``table`` (the board's surround or the board)."""
    xs, ys = _along(x0, y0, 2 * x1 - x0, 2 * y1 - y0, table.shape)
    return not table[ys, xs].all()


def surround_light(image: np.ndarray, corners: np.ndarray, rows: int, cols: int, scene: np.ndarray,
                   small: tuple[np.ndarray, float] | None = None) -> SurroundLight | None:
    """The light's change from the calibration picture ``scene`` (:func:`reference_scene`) to
    ``image`` on the playing area's surround, which tiles never cover
    (:func:`vision.appearance.surround_change`); None when the picture is another size or too
    little of the surround shows. ``small``: the picture as :func:`shrink` gives it, when the
    caller has it already."""
    small, scale = shrink(image) if small is None else small
    if small.shape != scene.shape:
        return None
    return surround_change(scene, small, np.asarray(corners, np.float64).reshape(4, 2) * scale, rows, cols)


def tile_in_todays_light(tile_lab: np.ndarray, reference: np.ndarray, current: np.ndarray,
                         where: np.ndarray | None = None) -> np.ndarray:
    """The tile colour (L*a*b*, under the calibration's light) as today's picture shows it.

    Why: tiles lying over the playing area's edge are left out of the arm check by their colour,
    and the picture is in today's light. Compared with the calibration's colour, a row of tiles
    slid against the far edge under a warmer lamp is "not tile-coloured", so it comes into the
    playing area from the surround like an arm (a false alarm). The light's change is the median
    gain per colour channel off the board (``where``; else, or where too little of it says, the
    whole picture's), as :func:`_change` takes it out, over the pixels the light would not cut
    white (:func:`_uncut_gain`): a brighter light cuts a pale table white, and its pixels would
    say the light rose less than it did, so that light tiles, as much brighter as the light made
    them, would not be tile-coloured."""
    if not np.isfinite(tile_lab).all():
        return tile_lab
    now, then = current[::4, ::4].reshape(-1, 3), reference[::4, ::4].reshape(-1, 3)
    gain = np.full(3, np.nan, np.float32)
    if where is not None and np.count_nonzero(where[::4, ::4]) >= MIN_OFF_BOARD * where[::4, ::4].size:
        off_board = where[::4, ::4].reshape(-1)
        gain = _uncut_gain(now[off_board], then[off_board])
    if not np.isfinite(gain).all():  # the whole picture's, where the table's cannot say
        gain = np.where(np.isfinite(gain), gain, _uncut_gain(now, then))
    if not np.isfinite(gain).all():  # a channel cut white nearly everywhere: as it shows
        every = np.median((now.astype(np.float32) + 6.0) / (then.astype(np.float32) + 6.0), axis=0)
        gain = np.where(np.isfinite(gain), gain, every)
    bgr = cv2.cvtColor(np.asarray(tile_lab, np.float32).reshape(1, 1, 3), cv2.COLOR_LAB2BGR) * 255.0
    today = np.clip((bgr + 6.0) * gain - 6.0, 0.0, 255.0)
    return to_lab(today).reshape(3)


#: A colour channel this near its top (grey levels) may be cut white: in the small picture a
#: pixel is the mean of a block of the picture's, some of them cut (as the colour's trust in
#: :func:`_change` ramps down).
CUT_NEAR = CLIPPED_BELOW + 16.0
#: The light is not even over a picture (a lamp to one side, a shadow): a pixel counts as uncut
#: when the light's median gain, this much higher still, would leave it below :data:`CUT_NEAR`.
UNEVEN_GAIN = 1.2


def _uncut_gain(now: np.ndarray, then: np.ndarray) -> np.ndarray:
    """Per colour channel, the median gain from ``then`` to ``now`` (pixels x 3) over the pixels
    the light, so changed, would not cut white; NaN for a channel with too few of them
    (:data:`MIN_OFF_BOARD`). Chosen by their calibration's value, never by today's: choosing the
    pixels today shows uncut would keep those that gained least, and bias the gain low."""
    top = 255.0 - CUT_NEAR
    ratio = (now.astype(np.float32) + 6.0) / (then.astype(np.float32) + 6.0)
    gain = np.median(ratio, axis=0)
    for _ in range(2):
        uncut = (then.astype(np.float32) + 6.0) * gain * UNEVEN_GAIN - 6.0 < top
        gain = np.array([np.median(ratio[uncut[:, c], c]) if uncut[:, c].any() else np.nan for c in range(3)],
                        np.float32)
    enough = np.count_nonzero(uncut, axis=0) >= MIN_OFF_BOARD * len(now)
    return np.where(enough, gain, np.nan).astype(np.float32)


def _border(shape: tuple[int, ...], width: int) -> np.ndarray:
    """A picture's border ``width`` pixels wide (of the surround's warp, half a cell: the band an
    arm crosses and tiles do not reach)."""
    border = np.zeros(shape[:2], bool)
    border[:width], border[-width:], border[:, :width], border[:, -width:] = True, True, True, True
    return border


def _tile_sized(tile_coloured: np.ndarray, px: int, where: np.ndarray | None = None,
                changed: np.ndarray | None = None, outside: np.ndarray | None = None,
                stacked: np.ndarray | None = None) -> np.ndarray:
    """The tile-coloured patches no thicker than a tile (thickness looked for only ``where``,
    and, given ``changed``, only in what has changed since calibration).

    Why: an arm whose skin is near the tiles' colour (a tan arm over tan tiles) would otherwise
    be taken for tiles wherever it crosses the surround, and missed. Only where it crosses the
    surround's outer half (``where``), though: a full board's touching tiles make one patch
    thicker than a tile inside the playing area, and removed as an arm they would leave the
    board's edge rows "changed, not tile-coloured", an arm across the frame. And only where the
    picture has changed: a board frame of the tiles' own colour (light grey under white tiles)
    is one thick tile-coloured patch with every tile touching it; an arm is new, the frame is not.

    Nor is a patch that touches ``outside`` (a change come in from the picture's edge as wide as
    an arm, however little table it crossed) a tile, however thin: tiles never come from there,
    and a thin arm of the tiles' colour over a board near the picture's edge would otherwise be
    taken for tiles on the surround. On development pictures (576 of the ``hands`` scenes; 288
    boards with no hand) it changed no flag."""
    patches = (tile_coloured if changed is None else tile_coloured & changed).astype(np.uint8)
    count, labels = cv2.connectedComponents(patches, connectivity=8)
    filled = _holes_filled(patches)
    depth = cv2.distanceTransform(filled, cv2.DIST_L2, 3)
    thick = (depth > TILE_THICKNESS_CELLS * px) & (patches > 0)
    if where is not None:
        thick &= where
    if outside is not None:
        thick |= outside & (patches > 0)
    thick |= _long_from_the_rim(filled, px, stacked) & (patches > 0)
    if count <= 1 or not thick.any():
        return tile_coloured
    return tile_coloured & ~np.isin(labels, np.unique(labels[thick]))


#: A tile-coloured patch that comes in from the surround's outer rim and reaches this far into the
#: playing area (cells) is an arm, however thin (:func:`_long_from_the_rim`).
ARM_REACH_CELLS = 1.25
#: ... and meets the rim along no more than this (cells): an arm comes in one or two cells wide,
#: while a frame of the tiles' colour that a new light changed runs all along it.
ARM_RIM_CELLS = 4.0


def _long_from_the_rim(filled: np.ndarray, px: int, stacked: np.ndarray | None = None) -> np.ndarray:
    """The parts of ``filled`` (uint8 0/1 on the surround's warp, a cell ``px`` pixels, the
    surround :data:`RING_CELLS` wide) that touch the warp's outer rim away from where a stack may
    stand out (``stacked``) and reach :data:`ARM_REACH_CELLS` or more into the playing area:
    nothing on the board does, a tile's face being under a cell wide.

    Why: an arm thinner than a tile (a board seen close up) can come over a blotched table of its
    own colour, which hides it there, and cross the frame as a patch of the tiles' colour too
    thin to be called an arm (:data:`TILE_THICKNESS_CELLS`). On development pictures (1,152,
    both families, 8x8, 15x15 and the street) no patch touched the rim in the 575 with no hand;
    in those with a hand short of the cells (the street's), none reached into the playing area.

    Not where a stack may stand out: seen at a slant, a stack of five on a far corner shows its
    face over the surround's rim, and a full board, every tile touching the next, is then one
    patch with it: every cell would be flagged in a picture with no hand. ``stacked``: those
    places (:func:`_stacked`)."""
    pad = round(RING_CELLS * px)
    count, labels = cv2.connectedComponents(filled, connectivity=8)
    if count <= 1:
        return np.zeros(filled.shape, bool)
    rim_band = _border(filled.shape, 2)
    if stacked is not None:
        rim_band &= stacked == 0
    rim = np.unique(labels[rim_band])
    rim = rim[rim > 0]
    if not len(rim):
        return np.zeros(filled.shape, bool)
    into = into_playing_area(filled.shape, pad) / px  # in cells
    on_rim = np.bincount(labels[_border(filled.shape, 1)], minlength=count)
    long = np.zeros(count, bool)
    for part in rim.tolist():  # few: none at all in a picture with no arm
        long[part] = (float(into[labels == part].max()) >= ARM_REACH_CELLS
                      and on_rim[part] <= ARM_RIM_CELLS * px)
    return long[labels]


def _holes_filled(mask: np.ndarray) -> np.ndarray:
    """``mask`` (uint8 0/1) with what of its background the picture's edge cannot reach set: a
    tile's letter, specks of shade on an arm."""
    background = np.pad(1 - mask, 1, constant_values=1)
    cv2.floodFill(background, None, (0, 0), 2)
    return (background[1:-1, 1:-1] != 2).astype(np.uint8)


def _tile_faces(mask: np.ndarray, px: int) -> np.ndarray:
    """``mask`` (boolean) without its connected parts thinner than a tile's face
    (:data:`TILE_FACE_CELLS`, a cell ``px`` pixels) once their holes are filled."""
    if not mask.any():
        return mask
    filled = _holes_filled(mask.astype(np.uint8))
    count, labels = cv2.connectedComponents(filled, connectivity=8)
    deep = cv2.distanceTransform(filled, cv2.DIST_L2, 3) >= TILE_FACE_CELLS * px
    face = np.zeros(count, bool)
    face[labels[deep]] = True
    face[0] = False
    return mask & face[labels]


def _enter_over_surround(labels: np.ndarray, count: int, surround: np.ndarray, cell_area: float
                         ) -> np.ndarray:
    """Which labelled parts come into the picture over the board's ``surround`` (where the board
    lies near the picture's edge, an arm need cross no table): along the picture's border on the
    surround for :data:`ENTRY_CELLS` or more, and as big as an arm over the board
    (:data:`ENTRY_AREA_CELLS`)."""
    side = float(np.sqrt(max(cell_area, 1e-6)))
    band = _border(labels.shape, 2) & surround
    along = np.bincount(labels[band], minlength=count) / 2.0  # pixels along the edge, 2 deep
    area = np.bincount(labels.ravel(), minlength=count)
    out = (along >= ENTRY_CELLS * side) & (area >= ENTRY_AREA_CELLS * cell_area)
    out[0] = False
    return out


def parts_at_least(mask: np.ndarray, least: float) -> np.ndarray:
    """``mask`` (boolean) without its connected parts (8-connected) smaller than ``least`` pixels."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if count <= 1:
        return mask
    keep = stats[:, cv2.CC_STAT_AREA] >= least
    keep[0] = False
    return keep[labels]


def _arm_mask(score: np.ndarray, small: np.ndarray, to_board: np.ndarray, size: tuple[int, int],
              tile_colour: Callable[[], np.ndarray | None], table: tuple[np.ndarray, float] | None = None,
              max_share: float = MAX_SHARE, surround: np.ndarray | None = None,
              stacked: np.ndarray | None = None) -> np.ndarray:
    """The arm on the board's surround warp (``to_board``, ``size``), from a change ``score`` of
    the small picture. ``tile_colour``: gives the tiles' colour in today's light (L*a*b*, or
    None), asked only when needed; ``table``: where the table lies in the small picture (beyond
    the board and its surround) and a cell's area there (pixels); ``stacked``: where on the warp the tallest
    stacks of the border cells may stand out (:func:`_long_from_the_rim`)."""
    px = RING_CELL_PX
    # The whole picture: a change that touches the picture's edge, crosses the table and reaches
    # the board.
    changed = _changed(score)
    # And one as wide as an arm, however little table it crosses, comes from outside (the picture
    # labelled once for both).
    labels, count, edge = _edge_parts(changed, _border(changed.shape, 2), 0, 1, max_share)
    crossing, seen = edge, edge
    if table is not None:
        crossing = edge & _cross_the_table(labels, count, *table)
        seen = edge & _cross_the_table(labels, count, *table, MIN_TABLE_SEEN_CELLS)
        if surround is not None:
            entering = _enter_over_surround(labels, count, surround, table[1]) & edge
            crossing |= entering
            seen |= entering
    arm_on_table = crossing[labels].astype(np.uint8)
    if table is not None and arm_on_table.any():
        # An arm that crosses the table goes on unseen where it passes over something of its
        # own colour, such as the board's surround: it is taken to reach a cell and a quarter
        # beyond what of it is seen (an arm over a surround of its own colour is seen on the table
        # and on the cells but not between them, and the two must still join).
        beyond = round(UNSEEN_ARM_CELLS * float(np.sqrt(max(table[1], 1e-6))))
        arm_on_table = cv2.dilate(arm_on_table, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                                          (2 * beyond + 1, 2 * beyond + 1)))
    through_table, from_outside = (cv2.warpPerspective(parts, to_board, size, flags=cv2.INTER_NEAREST)
                                   for parts in (arm_on_table, seen[labels].astype(np.uint8)))

    # The board's surround: a change (not tile-coloured) that reaches from its outer half in.
    near = _changed(cv2.warpPerspective(score, to_board, size, flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_REPLICATE))
    outer = _border(near.shape, px // 2)
    least_area, least_band = 1.5 * px * px, 0.2 * px * px
    # Taking the tiles out only shrinks and splits the changed parts, so where none is big enough
    # with the tiles left in (at any share of the picture), none is with them out: most pictures
    # have no change on the surround's outer half, and skip the tiles' colour (a seventh of the
    # check's cost).
    crosses_frame = _from_edge(near, outer, least_area, least_band, 1.0).any()
    tile_lab = tile_colour() if crosses_frame else None
    if tile_lab is not None and np.isfinite(tile_lab).all():
        now = cv2.warpPerspective(small, to_board, size, flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
        off = to_lab(now) - tile_lab.astype(np.float32)
        off[..., 0] *= TILE_LIGHTNESS_WEIGHT
        # An arm is thick where it crosses the surround's outer half; tiles never reach there,
        # but a board full of them is one thick tile-coloured patch inside it.
        tile = _tile_sized(np.einsum("ijk,ijk->ij", off, off) <= TILE_COLOUR_DISTANCE**2, px, outer, near,
                           from_outside.astype(bool) & outer, stacked)
        tile = _tile_faces(parts_at_least(tile, TILE_PATCH_CELLS * px * px), px)
        # and half a cell round them: a tile's sides, its shadow, the lean of a tile on an edge
        # cell seen at a slant all lie there
        reach = px | 1
        near[cv2.dilate(tile.astype(np.uint8), np.ones((reach, reach), np.uint8)) > 0] = 0
    across_frame = (_from_edge(near, outer, least_area, least_band, max_share) if crosses_frame
                    else np.zeros(near.shape, bool))

    return across_frame | through_table.astype(bool)

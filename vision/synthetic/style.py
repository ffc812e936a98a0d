"""How a particular board set looks: the renderer's domain randomiser.

Why: a reader tuned on one look of a board (our renderer's dark Upwords waffle, its cream
tiles, one font) learns that look, not the game. Real sets differ in board colour, tile
colour, tile size and thickness, typeface, median-strip colour and the table they stand on.
:class:`BoardStyle` is everything the renderer needs to draw one such set, and
:func:`random_style` draws one from a *family* of looks:

* ``"train"`` — the looks the classifiers are trained on;
* ``"held_out"`` — looks the training never sees: other board and tile colours, other
  typefaces (serif among them), tile shapes outside the training ranges, other median-strip
  colours, carpet and plain tables, another skin tone. The benchmark reads these to measure
  how the reader does on sets it was not tuned on.

The default :class:`BoardStyle` is the renderer's original look, so existing pictures and
tests are unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

BGR = tuple[int, int, int]

FONT_DIR = Path("/usr/share/fonts/truetype")

#: Typefaces per family (Debian packages fonts-dejavu-core, fonts-liberation, fonts-freefont-ttf,
#: fonts-noto-core). Missing files are skipped; the renderer falls back to its default font.
TRAIN_FONTS = (
    "dejavu/DejaVuSans-Bold.ttf",
    "liberation/LiberationSans-Bold.ttf",
    "freefont/FreeSansBold.ttf",
)
HELD_OUT_FONTS = (
    "noto/NotoSans-Bold.ttf",
    "liberation/LiberationSerif-Bold.ttf",
    "freefont/FreeSerifBold.ttf",
    "dejavu/DejaVuSerif-Bold.ttf",
)

FAMILIES = ("train", "held_out")

#: Typefaces neither family draws: a serif, lighter weights, condensed, narrow, monospaced and
#: oblique letters, for a fit whose evidence is a letter reader's confidence
#: (:func:`with_wider_faces`). The held-out family's typefaces are not among them.
WIDER_FONTS = (
    "noto/NotoSerif-Bold.ttf",
    "noto/NotoSerif-Regular.ttf",
    "dejavu/DejaVuSansCondensed-Bold.ttf",
    "dejavu/DejaVuSansMono-Bold.ttf",
    "dejavu/DejaVuSans.ttf",
    "liberation/LiberationSansNarrow-Bold.ttf",
    "liberation/LiberationMono-Bold.ttf",
    "liberation/LiberationSans-Regular.ttf",
    "freefont/FreeMonoBold.ttf",
    "freefont/FreeSansBoldOblique.ttf",
)


@dataclass(frozen=True, slots=True)
class BoardStyle:
    """The colours (BGR), typeface and table of one board set; tile sizes live in the specs."""

    board: BGR = (58, 62, 70)            # Upwords: the waffle's walls and margin
    floor: BGR = (40, 42, 48)            # Upwords: the bottom of each cell
    outline: BGR = (95, 100, 110)        # the line round the playing area
    centre_mark: BGR = (120, 125, 80)    # Upwords: the four centre squares' corner marks
    tile_body: BGR = (178, 214, 232)
    tile_rim: BGR = (150, 188, 210)
    tile_side: BGR = (150, 188, 210)
    ink: BGR = (35, 42, 70)
    street_tile_body: BGR = (236, 240, 242)
    street_tile_rim: BGR = (205, 212, 216)
    street_ink: BGR = (30, 30, 30)
    asphalt: BGR = (78, 80, 84)
    pavement: BGR = (208, 214, 218)
    median: BGR = (60, 190, 225)
    median_ink: BGR = (90, 60, 35)
    dashes: BGR = (225, 228, 230)
    font: str | None = None              # a TrueType file; None = the renderer's default
    letter_frac: float = 0.62            # letter height / tile face
    table: str = "wood"                  # "wood", "cloth", "carpet" or "plain"
    table_colour: BGR | None = None      # None: a random wood colour
    skin: BGR = (120, 150, 205)
    premium: tuple[BGR, ...] = ()        # coloured bonus squares (crossword boards), drawn on ~1 cell in 5


def _jitter(rng: np.random.Generator, colour: BGR, amount: float) -> BGR:
    return tuple(int(np.clip(v + rng.normal(0, amount), 0, 255)) for v in colour)  # type: ignore[return-value]


def _between(t: float, extremes: tuple[BGR, BGR]) -> BGR:
    """The colour ``t`` of the way from the first of ``extremes`` to the second (unrounded: jitter it)."""
    dark, pale = extremes
    return tuple(d + t * (p - d) for d, p in zip(dark, pale, strict=True))  # type: ignore[return-value]


def _pick(rng: np.random.Generator, options: tuple) -> object:
    return options[int(rng.integers(0, len(options)))]


def font_files(names: tuple[str, ...]) -> tuple[str, ...]:
    """The files of the typefaces ``names`` this machine has (None alone when it has none)."""
    found = tuple(str(FONT_DIR / n) for n in names if (FONT_DIR / n).is_file())
    return found or (None,)  # type: ignore[return-value]


# Colour families (BGR). Boards: the playing surface; floors are a little darker than boards.
_TRAIN_BOARDS = ((30, 30, 32), (58, 62, 70), (105, 105, 108), (45, 70, 105), (120, 70, 35))
_HELD_BOARDS = ((40, 40, 150), (60, 110, 50), (150, 150, 150), (80, 40, 90))
_TRAIN_TILES = ((178, 214, 232), (215, 235, 245), (120, 170, 210))   # cream, ivory, light wood
_HELD_TILES = ((140, 195, 225), (225, 225, 225), (95, 150, 190))     # tan, white plastic, dark wood
_TRAIN_INKS = ((35, 42, 70), (20, 20, 20))
_HELD_INKS = ((30, 30, 110), (70, 40, 20))                          # dark red, dark blue
# orange, yellow, red, blue and tan. With only medians whose colour differs from the tiles',
# the model learnt to tell a bare median from a tile by colour alone, and took a grey median's
# bare letters for white tiles (held-out development streets: 8 silently wrong spaces with
# orange and yellow alone, 36 with red and blue added); a tan median beside wooden tiles makes it
# use lightness and structure too (2).
_TRAIN_MEDIANS = ((40, 140, 240), (60, 200, 230), (50, 50, 190), (170, 110, 50), (120, 160, 190))
_HELD_MEDIANS = ((140, 140, 140), (70, 160, 70))                    # grey, green
_TRAIN_TABLES = ("wood", "cloth")
_HELD_TABLES = ("carpet", "plain")
# red, blue, pink, sand and pale yellow squares. The last two are close to the training tiles'
# colours, so the model cannot lean on colour alone where a square resembles a tile. (Measured:
# once the tile colour is taken under the calibration's light, they make no difference on their
# own; they are kept for variety.)
_TRAIN_PREMIUM = ((60, 60, 200), (200, 120, 60), (160, 140, 230), (150, 190, 215), (140, 210, 240))
_HELD_PREMIUM = ((120, 60, 30), (90, 150, 240), (40, 160, 40))       # dark blue, peach, green
_TRAIN_SKINS = ((120, 150, 205), (80, 110, 165))
_HELD_SKINS = ((60, 80, 115), (150, 175, 225))


def with_wider_faces(rng: np.random.Generator, style: BoardStyle) -> BoardStyle:
    """``style`` with its tiles' faces drawn from a wider domain than the ``train`` family's: any
    of :data:`WIDER_FONTS`, letters 0.45-0.7 of the face, ink of any dark colour on a tile of any
    light to middling colour (a dark ink on a dark wood reads faintly).

    Why: the train family's bold sans letters, dark on light tiles, read plainly on every tile, so
    a decision fitted on them learns that a weakly read face is an empty cell; on a set lettered
    otherwise a real tile reads weakly too, and such a decision calls it surely empty."""
    ink = tuple(int(v) for v in rng.uniform(0, 1, 3) * rng.uniform(40, 130))
    tile = tuple(int(np.clip(v, 0, 255)) for v in rng.uniform(0.8, 1.05, 3) * rng.uniform(120, 245))
    rim = tuple(int(v * rng.uniform(0.84, 0.95)) for v in tile)
    return replace(style, font=_pick(rng, font_files(WIDER_FONTS)),  # type: ignore[arg-type]
                   letter_frac=float(rng.uniform(0.45, 0.7)), ink=ink, street_ink=ink,  # type: ignore[arg-type]
                   tile_body=tile, tile_rim=rim, tile_side=rim,  # type: ignore[arg-type]
                   street_tile_body=tile, street_tile_rim=rim)  # type: ignore[arg-type]


#: The darkest and the palest skin :func:`with_any_skin` draws (BGR): every tone between them.
ANY_SKIN = ((45, 60, 95), (180, 200, 238))


def with_any_skin(rng: np.random.Generator, style: BoardStyle) -> BoardStyle:
    """``style`` with its players' skin drawn from every tone between the darkest and the palest
    (:data:`ANY_SKIN`), not the family's two.

    Why: a decision fitted on arms of two skin tones learns what an arm of those looks like; an arm
    darker or paler than both, at a table nobody here drew, can look to it like a shadow or a glare."""
    tone = _between(float(rng.uniform(0.0, 1.0)), ANY_SKIN)
    return replace(style, skin=_jitter(rng, tone, 8))


def with_table_skin(rng: np.random.Generator, style: BoardStyle) -> BoardStyle:
    """``style`` with its players' skin of its table's own colour, give or take a little.

    Why: an arm that crosses the table beyond the board changes the picture there by its colour,
    its shading and its edge; of the table's own colour only the shading and the edge are left. A
    decision that says whether anything came in, fitted without such arms, may take one for a
    change of light. A style with no table colour is returned as it is."""
    if style.table_colour is None:
        return style
    return replace(style, skin=_jitter(rng, style.table_colour, 12))


#: The makes of table :func:`with_any_table` draws. The held-out family's printed motif and plain
#: top are not among them, so the benchmarks still stand some scenes on tables no fit has seen.
ANY_TABLE_KINDS = ("wood", "cork", "cloth", "check", "stripes")
#: The darkest and the palest table :func:`with_any_table` draws (BGR): every tone between them.
ANY_TABLE_TONES = ((45, 65, 95), (200, 215, 235))


def with_any_table(rng: np.random.Generator, style: BoardStyle) -> BoardStyle:
    """``style`` standing on a table of any of :data:`ANY_TABLE_KINDS`, of any tone between the
    darkest and the palest (:data:`ANY_TABLE_TONES`), not the family's few.

    Why: a decision fitted on a few plain, finely textured tables learns what light does to those;
    on a check or a stripe the same light leaves the pattern's dark and pale bands changed by
    different amounts, and such a decision takes that for something come in."""
    tone = _between(float(rng.uniform(0.0, 1.0)), ANY_TABLE_TONES)
    return replace(style, table=str(_pick(rng, ANY_TABLE_KINDS)), table_colour=_jitter(rng, tone, 12))


def random_style(rng: np.random.Generator, family: str = "train") -> BoardStyle:
    """A plausible board set drawn from ``family`` ("train" or "held_out")."""
    if family not in FAMILIES:
        raise ValueError(f"style family must be one of {FAMILIES}, not {family!r}")
    held = family == "held_out"
    board = _jitter(rng, _pick(rng, _HELD_BOARDS if held else _TRAIN_BOARDS), 8)  # type: ignore[arg-type]
    floor = tuple(int(v * rng.uniform(0.65, 0.85)) for v in board)
    tile = _jitter(rng, _pick(rng, _HELD_TILES if held else _TRAIN_TILES), 6)  # type: ignore[arg-type]
    rim = tuple(int(v * rng.uniform(0.84, 0.95)) for v in tile)
    ink = _jitter(rng, _pick(rng, _HELD_INKS if held else _TRAIN_INKS), 5)  # type: ignore[arg-type]
    median = _jitter(rng, _pick(rng, _HELD_MEDIANS if held else _TRAIN_MEDIANS), 8)  # type: ignore[arg-type]
    asphalt = _jitter(rng, (78, 80, 84) if not held else (55, 58, 62), 10)
    table = str(_pick(rng, _HELD_TABLES if held else _TRAIN_TABLES))
    premium: tuple = ()
    if rng.random() < 0.4:
        pool = _HELD_PREMIUM if held else _TRAIN_PREMIUM
        premium = tuple(_jitter(rng, pool[int(i)], 8) for i in rng.choice(len(pool), 2, replace=False))
    return BoardStyle(
        board=board, floor=floor, outline=_jitter(rng, (95, 100, 110), 20),  # type: ignore[arg-type]
        centre_mark=_jitter(rng, (120, 125, 80), 25),
        tile_body=tile, tile_rim=rim, tile_side=rim, ink=ink,  # type: ignore[arg-type]
        street_tile_body=tile, street_tile_rim=rim, street_ink=ink,  # type: ignore[arg-type]
        asphalt=asphalt, pavement=_jitter(rng, (208, 214, 218), 10), median=median,
        median_ink=_jitter(rng, (90, 60, 35), 20), dashes=_jitter(rng, (225, 228, 230), 10),
        font=_pick(rng, font_files(HELD_OUT_FONTS if held else TRAIN_FONTS)),  # type: ignore[arg-type]
        letter_frac=float(rng.uniform(0.5, 0.58) if held else rng.uniform(0.58, 0.68)),
        table=table, table_colour=_jitter(rng, (70, 90, 120), 30) if table != "wood" else None,
        skin=_jitter(rng, _pick(rng, _HELD_SKINS if held else _TRAIN_SKINS), 8),  # type: ignore[arg-type]
        premium=premium,
    )


def random_tile_shape(rng: np.random.Generator, family: str = "train") -> dict[str, float]:
    """Tile face (as a fraction of the pitch) and thickness (mm) for a set of ``family``.

    Held out: tiles smaller or larger in their cells and thicker than any trained on.
    """
    if family == "held_out":
        face = float(rng.uniform(0.78, 0.82) if rng.random() < 0.5 else rng.uniform(0.92, 0.94))
        return {"face_frac": face, "thickness_mm": float(rng.uniform(4.5, 5.5))}
    return {"face_frac": float(rng.uniform(0.83, 0.91)), "thickness_mm": float(rng.uniform(3.0, 4.4))}



"""Is a Word on the Street tile still on its median letter? Ask the bare median in the same picture.

Why: calibration sees every median space with its tile on it and never bare, so the trained
occupancy model has only the tile's look and the set's tile colour to go on. On a median
strip printed close to the tile's colour (grey, cream, beige) or when a tile stands a little off
its letter, that model calls a bare median a tile, or a tile bare, with confidence. The picture
being read holds the answer: every column whose tile is out in a lane shows its median space
bare, under this light, with its printed letter. So each doubtful median space is compared with
those bare spaces and with its own tile as calibration saw it, on the colour of the face's light
part (:func:`vision.appearance.face_parts`) after undoing the light's change. Nearer one by a
clear factor settles it. In between, the colour of the face's ink settles it when that is clear
and leans the same way: a light's change moves a light ground more than dark ink, and the
strip's printed letter is not the tile's (on 13,753 development median spaces, four of the
seven left in doubt by the ground alone were settled right, and none was moved wrong; heard
alone, the ink would have made a captured tile's bare space a sure tile). Still in between, the
space is marked uncertain where the model disagrees or where no lane holds the column's tile
(the median alone then decides where the tile is), its guess for the players the side its
ground leans to; and a space whose ground is clearly the bare strip's while its ink is its
tile's is asked too (a shadow over half the street, or a light brightening along it, can give
a tile the bare strip's ground). On a strip of the tiles' own colour the model decides alone,
and a space whose ink clearly says otherwise is asked, its guess the ink's side; but the
model's word is no evidence where it takes this picture's bare spaces for tiles. Where the
picture holds too few bare spaces to compare with (hardly a tile out in a lane), the model
decides alone and is believed only where it is sure.

Measured on randomised streets (``python -m bench generalise``): see ``docs/reading.md``.
"""

from __future__ import annotations

import numpy as np

MEDIAN_ROW = 2
LANE_ROWS = (0, 1, 3, 4)
#: A lane tile this sure tells us its column's median space is bare: an example of the bare strip.
SURE_LANE = 0.9
#: Bare examples needed; the second nearest is used, so one wrong example cannot decide.
MIN_EXAMPLES = 2
#: Where the picture has too few bare examples, a median space whose tile is in no lane is left
#: to the model alone, and sure only beyond this (either way). Why: with nothing in the picture to
#: compare with, the model can take bare spaces of a pale strip for their tiles at 0.7-0.9, while
#: tiles on their letters score 0.95 or more. Few development streets have so few tiles out in
#: the lanes; there this costs nothing.
UNSETTLED_SURE = 0.9
#: Share of the distance (to the bare examples, over both) below which the space is bare and
#: above whose complement it holds its tile.
CLEAR_SHARE = 0.3
DOUBT = "the tile on the median is hard to tell from the bare strip"
#: The comparison is heard only when the bare strip and the tiles differ in colour by this many
#: times the bare spaces' own spread (their printed letters, the light across the street): on a
#: strip the tiles' colour, which is nearer is noise (a tan strip under tan tiles can stand 2.9
#: from them with the bare spaces spread 4 in L*a*b*). The comparison's right corrections on
#: development streets all had 3.6 or more.
SEPARABLE = 2.0
#: A median space read as holding its tile is in doubt when it has moved from that tile's look
#: at calibration this much of what the bare spaces moved from their own tiles' (median): on a
#: strip of the tiles' own colour a captured tile's bare space can stay nearer its tile's look
#: than the other bare spaces are, yet it has moved nearly as far as they have. One that moved
#: less than this is still read as its tile: a limit of telling a bare strip from tiles of its
#: own colour by colour. 3,400 development columns read as before.
LIKE_BARE = 0.7
#: A space whose ground is clearly the bare strip's while its ink leans this far to its tile's
#: (as a share, like the ground's) is in doubt, not surely bare: tiles in a shadow across half
#: the street can take the ground of the bare strip in the light, while their inks still lean
#: to the tile (0.68-0.74 where the bare spaces' were at most 0.48).
INK_SAYS_TILE = 0.6
#: ... and its guess for the players is the tile when its ground is at least this far from the
#: bare strip's (as a share), bare below. On development streets (both families, no hand: 19
#: such spaces) the tiles' grounds were 0.18-0.29 and the bare spaces' 0.02-0.07: all 19
#: guessed right, where always guessing bare was right for 8.
INK_GUESS_GROUND = 0.12
#: A space whose ground only just says bare (a share over this, up to :data:`CLEAR_SHARE`) is
#: surely bare only if its ink agrees, leaning bare by :data:`INK_GUESS_LEAN` or more; otherwise
#: it is asked, its guess bare. Why: under a shadow across the middle of the street that the
#: light's change (one for the whole picture) does not undo, tiles on their letters can take a
#: ground near the bare strip's (0.24-0.26) with their inks in between. On development streets
#: (both families, no hand: 2,172 bare spaces the ground called bare with no lane holding the
#: tile) one bare space is asked so; no tile was among them.
BARELY_BARE = 0.2
#: A ground this near halfway between the bare strip and its tile says nothing of which it is.
SHARE_TOO_CLOSE = 0.05
#: Where the bare strip's ground and the tiles' differ by less than this many times the bare
#: spaces' spread (but :data:`SEPARABLE` or more), and the inks differ by :data:`INK_LEADS_BY`
#: times as many of their own spreads or more, a clear ink that contradicts the ground is heard:
#: the space is asked, its guess the ink's side. On a strip a shade off its tiles' colour a
#: captured tile's bare space can look like its tile by the ground, while the strip's printed
#: letter is plainly not the tile's. On development streets (both families, no hand: 1,507
#: pictures) the 41 tiles on their letters whose ground said tile and ink said bare all had
#: grounds 8 or more times the spread apart. In the 57 pictures whose grounds were under 6
#: times apart (488 median spaces), the clear ink was right in all 7 spaces where it
#: contradicted the ground; the spaces read wrong fell from 11 (one sure) to 5 (all in doubt,
#: their inks unclear: 0.37-0.66).
WEAK_GROUND = 5.0
#: ... how many times more clearly the inks must tell the strip from the tiles than the grounds.
#: Where they barely do better, the ink's share is noise (with the grounds 4.1 spreads apart and
#: the inks 5.5, tiles on their letters that the model had surely showed inks leaning bare).
#: The development streets where the ink was right against the ground had it 2.1-8 times.
INK_LEADS_BY = 2.0
#: A space asked whose ground is in between (:data:`CLEAR_SHARE`) is guessed the ink's side when
#: the ink leans at least this far from halfway ...
INK_GUESS_LEAN = 0.15
#: ... and the inks tell the strip from the tiles by this many times their spread (twice
#: :data:`SEPARABLE`). Why: a tile standing off its letter, or on a strip whose ground is near
#: the tiles', shows a ground halfway, while its ink can still lean clearly to the tile. Where the
#: inks separate less the ink misleads (captured tiles' bare spaces with inks of 0.68-0.71, the
#: inks 2.5-3.1 spreads apart). On development streets (both families, no hand: 129 spaces
#: asked with enough bare spaces to compare) it changed 14 guesses, all to the right side, and
#: no right one; 102 of 129 were guessed right before, 116 after. Only the guess changes: the
#: space is asked either way.
INK_GUESS_APART = 4.0
#: ... and at least this share of how far apart the grounds are: where the grounds tell strip
#: from tiles far better than the inks (58 spreads apart against 8.5), a tile's ground leaning
#: to it is worth more than an ink leaning bare. On the 129 spaces above it changes nothing.
INK_GUESS_OF_GROUND = 0.25


def settle_median(prob: np.ndarray, faces_now: np.ndarray, faces_start: np.ndarray,
                  inks_now: np.ndarray | None = None, inks_start: np.ndarray | None = None
                  ) -> tuple[np.ndarray, list[str | None]]:
    """The street's tile probabilities (5 x 17) with the median row settled against the bare
    median seen in this picture, and a doubt (or None) per column.

    ``faces_now``: the median row's face colours now, light undone (17 x 3, L*a*b*);
    ``faces_start``: the same at calibration, each space with its own tile on it. ``inks_now``,
    ``inks_start``: their ink colours (:func:`vision.appearance.face_parts`; None for an older
    calibration without them), which settle a space its ground leaves in between.
    """
    out = np.array(prob, np.float64, copy=True)
    doubts: list[str | None] = [None] * out.shape[1]
    lanes = out[list(LANE_ROWS)].max(axis=0)
    bare = np.flatnonzero(lanes >= SURE_LANE)
    by_ground = _separation(faces_now[bare], faces_start[bare]) if len(bare) > MIN_EXAMPLES else np.inf
    if by_ground < SEPARABLE:
        if _takes_bare_for_tiles(out, bare):
            return _model_not_heard(out, lanes)
        return _ink_doubts(out, lanes, bare, inks_now, inks_start)
    # the ground barely tells the strip from the tiles, the ink more clearly (WEAK_GROUND)
    ink_leads = (by_ground < WEAK_GROUND and inks_now is not None and inks_start is not None
                 and _separation(inks_now[bare], inks_start[bare]) >= INK_LEADS_BY * by_ground)
    # How far a space moves from its own tile's look when that tile leaves (the bare spaces now
    # against their tiles at calibration): a space that moved as far may have lost its tile.
    moved = np.linalg.norm(faces_now[bare] - faces_start[bare], axis=-1)
    left = float(np.median(moved)) if len(bare) else 0.0
    inks_apart = (_separation(inks_now[bare], inks_start[bare])
                  if inks_now is not None and inks_start is not None and len(bare) > MIN_EXAMPLES else 0.0)
    for col in range(out.shape[1]):
        examples = bare[bare != col]
        if len(examples) < MIN_EXAMPLES:
            p = float(out[MEDIAN_ROW, col])
            if lanes[col] < 0.5 and 1.0 - UNSETTLED_SURE < p < UNSETTLED_SURE:
                out[MEDIAN_ROW, col] = 0.55 if p >= 0.5 else 0.45
                doubts[col] = DOUBT
            continue
        share, to_tile = _share(faces_now, faces_start, examples, col)
        ground = share
        by_ink = None
        if inks_now is not None and inks_start is not None:
            by_ink = _share(inks_now, inks_start, examples, col)[0]
        ink_clear = by_ink is not None and (by_ink <= CLEAR_SHARE or by_ink >= 1.0 - CLEAR_SHARE)
        # the ink settles it only where it is clear and leans the ground's way: heard against
        # the ground, an ink leaning to the tile would make a captured tile's bare space a sure
        # tile
        if CLEAR_SHARE < share < 1.0 - CLEAR_SHARE and ink_clear and (by_ink > 0.5) == (share > 0.5):
            share = by_ink
        p = float(out[MEDIAN_ROW, col])
        if ink_leads and ink_clear and lanes[col] < 0.5 and (by_ink > 0.5) != (share > 0.5):
            # a weak ground, a clear ink against it (WEAK_GROUND): ask, guessing the ink's side
            out[MEDIAN_ROW, col] = 0.55 if by_ink > 0.5 else 0.45
            doubts[col] = DOUBT
        elif share <= CLEAR_SHARE and by_ink is not None and by_ink >= INK_SAYS_TILE and lanes[col] < 0.5:
            # the ground says bare, the ink its tile: ask, guessing the tile unless the ground is
            # as bare as the bare spaces' own (INK_GUESS_GROUND)
            out[MEDIAN_ROW, col] = 0.55 if share >= INK_GUESS_GROUND else 0.45
            doubts[col] = DOUBT
        elif (BARELY_BARE < share <= CLEAR_SHARE and by_ink is not None and by_ink > 0.5 - INK_GUESS_LEAN
              and lanes[col] < 0.5):
            # the ground only just says bare, and the ink does not: ask, guessing bare
            out[MEDIAN_ROW, col] = 0.45
            doubts[col] = DOUBT
        elif share <= CLEAR_SHARE:
            out[MEDIAN_ROW, col] = min(p, 0.1 * share / CLEAR_SHARE)
        elif share >= 1.0 - CLEAR_SHARE:
            if lanes[col] < 0.5:
                out[MEDIAN_ROW, col] = max(p, 0.9 + 0.1 * (share - 1.0 + CLEAR_SHARE) / CLEAR_SHARE)
        elif (share > 0.5) != (p >= 0.5) or lanes[col] < 0.5:
            # in between: asked where the model disagrees, and wherever the median alone decides
            # the column (no lane holds its tile): a light changing along the street can make the
            # model sure of the wrong side while the ground stays halfway.
            # The guess the players see is the side the ground leans to in this picture, not
            # the model's: on a pale strip under white tiles the model can call tiles on their
            # letters bare while their grounds lean to the tile. On development streets (both
            # families, no hand: 31 columns in doubt) the ground's side was right for 22, the
            # model's for 15. A ground too near halfway to call (SHARE_TOO_CLOSE) leaves the
            # guess to the model (grounds of 0.46-0.50 went either way).
            on = p >= 0.5 if abs(share - 0.5) < SHARE_TOO_CLOSE else share > 0.5
            out[MEDIAN_ROW, col] = 0.55 if on else 0.45
            doubts[col] = DOUBT
        if out[MEDIAN_ROW, col] >= 0.5 and lanes[col] < 0.5 and left and to_tile >= LIKE_BARE * left:
            out[MEDIAN_ROW, col] = min(out[MEDIAN_ROW, col], 0.55)
            doubts[col] = DOUBT
        if (doubts[col] and CLEAR_SHARE < ground < 1.0 - CLEAR_SHARE and by_ink is not None
                and abs(by_ink - 0.5) >= INK_GUESS_LEAN and inks_apart >= INK_GUESS_APART
                and inks_apart >= INK_GUESS_OF_GROUND * by_ground):
            out[MEDIAN_ROW, col] = 0.55 if by_ink > 0.5 else 0.45  # asked; the guess is the ink's
    return out, doubts


def _ink_doubts(prob: np.ndarray, lanes: np.ndarray, bare: np.ndarray, inks_now: np.ndarray | None,
                inks_start: np.ndarray | None) -> tuple[np.ndarray, list[str | None]]:
    """On a strip whose ground is the tiles' colour, the model alone decides each median space;
    where the inks still tell the strip's printed letters from the tiles', a space whose ink
    clearly says the opposite of the model is asked: on a strip of the tiles' colour the model
    can read a captured tile surely on its letter while its ink is plainly the bare spaces'.

    Returns ``prob`` and a doubt (or None) per column, as :func:`settle_median` does. The guess
    the players see for a space asked so is the ink's side: on development streets (both
    families, no hand: 264 streets) the ink's side was right for all 10 spaces asked this way,
    the model's for none."""
    doubts: list[str | None] = [None] * prob.shape[1]
    if inks_now is None or inks_start is None or not _separable(inks_now[bare], inks_start[bare]):
        return prob, doubts
    for col in range(prob.shape[1]):
        examples = bare[bare != col]
        if len(examples) < MIN_EXAMPLES or lanes[col] >= 0.5:
            continue
        by_ink = _share(inks_now, inks_start, examples, col)[0]
        if (prob[MEDIAN_ROW, col] >= 0.5 and by_ink <= CLEAR_SHARE) or (
                prob[MEDIAN_ROW, col] < 0.5 and by_ink >= 1.0 - CLEAR_SHARE):
            prob[MEDIAN_ROW, col] = 0.55 if by_ink > 0.5 else 0.45
            doubts[col] = DOUBT
    return prob, doubts


def _takes_bare_for_tiles(prob: np.ndarray, bare: np.ndarray) -> bool:
    """Whether the model reads most of the median spaces this picture shows bare (their tiles
    surely out in a lane) as holding their tiles: then its word on the median is no evidence.

    Why: on a strip the ground cannot tell from the tiles the model decides the median alone,
    and it can be tried on those spaces first: where it reads the bare strip as tiles, it would
    also read captured tiles surely on their letters. The median's tiles are then all asked
    (the guess is the model's: on the median). On development streets (both families, 1,080
    pictures) the strip could not be told from the tiles in three pictures, and in none of them
    did the model read the bare strip as tiles."""
    return len(bare) > MIN_EXAMPLES and float(np.median(prob[MEDIAN_ROW, bare])) >= 0.5


def _model_not_heard(prob: np.ndarray, lanes: np.ndarray) -> tuple[np.ndarray, list[str | None]]:
    """Every median space the model calls a tile, whose tile is in no lane, asked (guessed on
    the median, the model's side): the model takes this picture's bare strip for tiles
    (:func:`_takes_bare_for_tiles`). Returns ``prob`` and a doubt (or None) per column."""
    doubts: list[str | None] = [None] * prob.shape[1]
    for col in range(prob.shape[1]):
        if lanes[col] < 0.5 and prob[MEDIAN_ROW, col] >= 0.5:
            prob[MEDIAN_ROW, col] = 0.55
            doubts[col] = DOUBT
    return prob, doubts


def _share(now: np.ndarray, start: np.ndarray, examples: np.ndarray, col: int) -> tuple[float, float]:
    """How far the space ``col`` is from the bare spaces ``examples`` (the second nearest), as a
    share of that and its distance from its own tile at calibration (0 bare, 1 its tile); and
    that distance."""
    to_bare = np.sort(np.linalg.norm(now[examples] - now[col], axis=-1))[MIN_EXAMPLES - 1]
    to_tile = float(np.linalg.norm(now[col] - start[col]))
    return float(to_bare / (to_bare + to_tile + 1e-9)), to_tile


def _separation(bare_now: np.ndarray, tiles_start: np.ndarray) -> float:
    """How many times the bare spaces' own spread the bare strip (its spaces now, light undone)
    and the tiles on those spaces at calibration differ by."""
    middle = np.median(bare_now, axis=0)
    spread = float(np.median(np.linalg.norm(bare_now - middle, axis=1)))
    apart = float(np.linalg.norm(middle - np.median(tiles_start, axis=0)))
    return apart / spread if spread > 0 else np.inf


def _separable(bare_now: np.ndarray, tiles_start: np.ndarray) -> bool:
    """Whether the bare strip and its tiles differ by :data:`SEPARABLE` times the bare spaces'
    spread or more (:func:`_separation`)."""
    return _separation(bare_now, tiles_start) >= SEPARABLE

"""Is there a tile in this cell? A trained model over comparisons with the board's references.

Why a trained model over hand-set thresholds: the old reader's rule ("a tile is 2.45 times
brighter than the darkest thing nearby") was right on our renderer's black board and wrong on
nearly every other. Here each cell is *compared* — with what the same cell looked like empty
at calibration, with the set's tile colour, and (Word on the Street's median) with the tile
that stood there at the start — after correcting for the light having changed since. Those
comparisons mean the same thing on any board, and a model trained on thousands of randomised
boards (:mod:`vision.synthetic.train`, ``python -m vision.synthetic.train``) weighs them. Three
models cover what the calibration knows about a cell:

* ``empty``: the cell was seen empty (Upwords, crossword grids, the street's lanes);
* ``tile``: a tile was seen in it but never the cell empty (the street's median);
* ``prior``: nothing was seen (a calibration taken with tiles down) — tile colour only.

Each is a small network (:class:`vision.small_net.SmallNet`): in a light that cuts tiles white a
tile's brightness and colour, the light undone, look like the board's, and only its structure
still tells; a weighted sum cannot make one comparison count for less in such a light. Each has
its own band, fitted out of fold like the street's decisions (:mod:`vision.synthetic.fitting`),
within which a cell is asked. The weights and bands are a small JSON file versioned in the
repository (``vision/models/``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from calibration.durable import write_atomically
from vision.appearance import (
    BoardAppearance,
    CellLooks,
    LightChange,
    SurroundLight,
    light_between,
    structure_distance,
)
from vision.arms import surround_light
from vision.small_net import SmallNet

MODEL_FILE = Path(__file__).with_name("models") / "occupancy.json"
KINDS = ("empty", "tile", "prior")


def _log_l(looks: CellLooks) -> np.ndarray:
    return np.log(np.maximum(looks.rim_lab[..., 0], 1.0))


def _ab_dist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.linalg.norm(a[..., 1:] - b[..., 1:], axis=-1) / 10.0


def _structure(current: CellLooks, reference: CellLooks, light: LightChange | None = None) -> np.ndarray:
    scale = 1.0 if light is None else np.exp(-light.gains.mean(axis=-1))[..., None]
    return structure_distance(current.patch * scale, reference.patch)


def _tile_distance(looks: CellLooks, tile_lab: np.ndarray) -> np.ndarray:
    tile = np.broadcast_to(tile_lab, looks.rim_lab.shape)
    dl = np.abs(_log_l(looks) - np.log(max(float(tile_lab[0]), 1.0)))
    return 3.0 * dl + _ab_dist(looks.rim_lab, tile)


#: A cream tile (L*a*b*), the guess when neither teaching nor the picture says what tiles look like.
CREAM = np.array([80.0, 0.0, 15.0], np.float32)


def with_tile_colour(current: CellLooks, appearance: BoardAppearance) -> BoardAppearance:
    """The references with a tile colour: the taught one, else (a board calibrated empty but not
    yet taught) the colour of the cells that changed most since the empty picture."""
    if np.isfinite(appearance.tile_lab).all():
        return appearance
    guess = CREAM
    if appearance.empty is not None:
        e = appearance.empty
        change = 3.0 * np.abs(_log_l(current) - _log_l(e)) + _ab_dist(current.rim_lab, e.rim_lab) \
            + 4.0 * _structure(current, e)
        changed = change >= max(float(np.quantile(change, 0.9)), 1.5)
        if changed.any():
            guess = np.median(current.rim_lab[changed], axis=0).astype(np.float32)
    return replace(appearance, tile_lab=guess)


#: The surround overrules the cells on the light when fewer than this share of the cells known
#: empty (or known to hold a tile) still look it, and the two disagree by more than
#: :data:`SURROUND_DISAGREES` (log gain, any colour channel). Why so small a disagreement: under
#: a strong colour cast, tiles that look like the empty board vouch for a light a fifth off the
#: true one in one channel, and that light makes many more tiles look empty. At 0.2, 28,008
#: cells of dense development boards read as at 0.4 (one cell fewer flagged). The surround is
#: asked too, however many cells vouch, when the light they vouch for has itself changed by more
#: than that: in a new light, tiles can look like the empty board, many at once, and vouch for a
#: wrong light together. A light unchanged that a board's worth of cells vouch for is still
#: believed over the surround (a cup beside the board). On development boards (every kind,
#: 37,344 cells) every cell reads as it does with the surround asked every time.
FEW_TRUSTED = 0.5
SURROUND_DISAGREES = 0.2
#: Fewer than this share of them, and the surround's light is taken however little the two
#: disagree: the board has changed nearly everywhere, and the few cells that still look as they
#: did are as likely tiles that a new light makes look like the empty board (and their light can
#: differ from the surround's by just under :data:`SURROUND_DISAGREES`).
FEWEST_TRUSTED = 0.25
#: A light the cells vouch for that has changed this little (log gain, every channel), with a
#: board's worth of them (:data:`FEW_TRUSTED`), is believed without asking the surround. Any
#: other is checked against the surround: half the tiles of a full board can look like the
#: empty board under a colour cast, enough to count as "a board's worth", and vouch for a light
#: just under :data:`SURROUND_DISAGREES` from their own, far from the surround's.
STEADY_LIGHT = 0.1


def light_change(current: CellLooks, appearance: BoardAppearance,
                 surround: Callable[[], SurroundLight | None] | None = None) -> LightChange:
    """The light's change since calibration per cell, from the cells that still look as they did.

    ``surround``: gives the change measured on the playing area's surround
    (:func:`vision.arms.surround_light`), which tiles never cover; asked only when few cells
    vouch for the light, or they vouch for a light much changed (it costs a millisecond). When
    they disagree with it, it wins.

    Why: on a board nearly full of tiles, in a much brighter light, a few tiles can look more like
    the empty board than like a tile; the light taken from them alone makes every tile look
    empty, and most of the board would be read surely as empty cells."""
    appearance = with_tile_colour(current, appearance)
    tile_d = _tile_distance(current, appearance.tile_lab)
    light, trusted, known = None, None, None
    if appearance.empty is not None and appearance.empty_known is not None:
        e = appearance.empty
        raw = np.abs(_log_l(current) - _log_l(e))
        colour = np.maximum(_ab_dist(current.rim_lab, e.rim_lab) - 1.0, 0)
        empty_d = 3.0 * np.maximum(raw - 0.25, 0) + colour + 4.0 * _structure(current, e)
        known = appearance.empty_known
        trusted = known & (empty_d < tile_d)
        if trusted.sum() >= 3:
            light = light_between(current, e, trusted)
    if light is None and appearance.tile is not None and appearance.tile_known is not None:
        t = appearance.tile
        known = appearance.tile_known
        trusted = known & (_structure(current, t) < 0.3)
        if trusted.sum() >= 3:
            light = light_between(current, t, trusted)
    few = light is None or (trusted is not None and known is not None
                            and trusted.sum() < FEW_TRUSTED * known.sum())
    vouched = None if light is None else np.median(light.gains[trusted], axis=0)
    # many cells vouch for a light hardly changed: a board's worth of them is believed (a cup on
    # the surround); for any other light the surround is asked (SURROUND_DISAGREES)
    steady = not few and vouched is not None and np.abs(vouched).max() <= STEADY_LIGHT
    ring = surround() if surround is not None and not steady else None
    if ring is None:
        return light if light is not None else LightChange.none(current.shape)
    everywhere = LightChange(np.broadcast_to(np.asarray(ring.gains, np.float64), (*current.shape, 3)).copy())
    if vouched is None or trusted.sum() < FEWEST_TRUSTED * known.sum():
        return everywhere
    if np.abs(vouched - ring.gains).max() > SURROUND_DISAGREES and not _agrees_beside(light, trusted, ring):
        return everywhere
    return light


def measured_light(image: np.ndarray, current: CellLooks, appearance: BoardAppearance, corners: np.ndarray,
                   rows: int, cols: int, small: Callable[[], tuple[np.ndarray, float]] | None = None
                   ) -> LightChange:
    """:func:`light_change` as every reader measures it in ``image``: the surround asked, when the
    calibration kept its picture. ``small``: gives the picture shrunk for the surround
    (:func:`vision.arms.shrink`), when the caller makes it anyway; called only if the surround is."""
    scene = appearance.scene
    surround = None if scene is None else (
        lambda: surround_light(image, corners, rows, cols, scene, None if small is None else small()))
    return light_change(current, appearance, surround)


#: The cells' light is checked against the surround beside them (:func:`_agrees_beside`) only
#: where at least this many cells on the border vouch for it.
MIN_BESIDE = 4


def _agrees_beside(light: LightChange, trusted: np.ndarray, ring: SurroundLight) -> bool:
    """Whether the light the cells vouch for is the surround's where they meet it: on the
    trusted cells of the border, their light and the strip of surround beside each differ by no
    more than :data:`SURROUND_DISAGREES` (the median difference, any colour channel).

    Why: a shadow over one end of the board makes the cells' light vary along it, and their
    median then differs from the whole surround's one gain though both saw the same shadow. Taken
    everywhere, that one gain would undo no shadow at all, and a street tile in the shadow would
    be as dark as the bare strip and read surely as captured."""
    cells = trusted & np.isfinite(ring.beside[..., 0])
    if cells.sum() < MIN_BESIDE:
        return False
    apart = np.median(light.gains[cells] - ring.beside[cells], axis=0)
    return bool(np.abs(apart).max() <= SURROUND_DISAGREES)


#: What every model weighs beside its comparisons: how near the cell is to cut white in the
#: picture as taken (its darkest colour channel's mean, 0..1), and how far the light has changed
#: there (log gain, the channels' mean). Why: where the light cuts a cell white, comparisons of
#: brightness and colour with the light undone say little, and must count for less there.
PICTURE_FEATURES = ("cut_white", "light_gain")


def features(current: CellLooks, appearance: BoardAppearance, light: LightChange | None = None
             ) -> dict[str, np.ndarray]:
    """Feature arrays (rows x cols x n) for each model kind, what the picture itself says of
    each cell (:data:`PICTURE_FEATURES`), and which model each cell uses.

    The current looks are first brought back to the calibration's light (gain and colour cast),
    so every comparison is with what the references would look like now.
    """
    appearance = with_tile_colour(current, appearance)
    if light is None:
        light = light_change(current, appearance)
    lab = light.undo(current)
    logl = np.log(np.maximum(lab[..., 0], 1.0))
    tile = np.broadcast_to(appearance.tile_lab, lab.shape)
    t_l = np.abs(logl - np.log(max(float(appearance.tile_lab[0]), 1.0)))
    t_ab = _ab_dist(lab, tile)
    spread = np.log1p(current.spread)
    # The board's own background, for cells with no reference: the cells least like a tile.
    td = 3.0 * t_l + t_ab
    far = td >= np.median(td)
    bg = np.median(lab[far], axis=0) if far.any() else lab.reshape(-1, 3).mean(0)
    b_l = np.abs(logl - np.log(max(float(bg[0]), 1.0)))
    b_ab = _ab_dist(lab, np.broadcast_to(bg, lab.shape))
    out = {"prior": np.stack([t_l, t_ab, b_l, b_ab, spread, t_l * t_ab], axis=-1)}
    shape = current.shape
    if appearance.empty is not None:
        e = appearance.empty
        e_l = np.abs(logl - _log_l(e))
        e_ab = _ab_dist(lab, e.rim_lab)
        e_s = _structure(current, e, light)
        e_sp = np.abs(spread - np.log1p(e.spread))
        out["empty"] = np.stack([e_l, e_ab, e_s, e_sp, t_l, t_ab, e_l * e_s, t_l * t_ab], axis=-1)
    else:
        out["empty"] = np.zeros((*shape, 8))
    if appearance.tile is not None:
        t = appearance.tile
        p_l = np.abs(logl - _log_l(t))
        p_ab = _ab_dist(lab, t.rim_lab)
        p_s = _structure(current, t, light)
        out["tile"] = np.stack([p_l, p_ab, p_s, t_l, t_ab, p_l * p_s], axis=-1)
    else:
        out["tile"] = np.zeros((*shape, 6))
    out["picture"] = np.stack([current.rim_bgr.min(axis=-1), light.gains.mean(axis=-1)], axis=-1)
    kind = np.full(shape, 2, np.int8)
    if appearance.tile_known is not None:
        kind[appearance.tile_known] = 1
    if appearance.empty_known is not None:
        kind[appearance.empty_known] = 0
    out["kind"] = kind
    return out


#: The reader takes a cell for sure empty below this probability and a sure tile above
#: 1 - it (its confidence threshold, :data:`vision.reading.DEFAULT_THRESHOLD`, at 0.6).
READER_SURE_EMPTY = 0.2


@dataclass(frozen=True, slots=True)
class CellModel:
    """One kind's model: its probability from the evidence, sure at or below ``sure_empty`` or at
    or above ``sure_tile`` and asked in between (the band fitted out of fold). ``picture``: whether
    it weighs :data:`PICTURE_FEATURES` too."""

    net: SmallNet
    sure_empty: float = READER_SURE_EMPTY
    sure_tile: float = 1.0 - READER_SURE_EMPTY
    picture: bool = False

    def chance(self, p: np.ndarray) -> np.ndarray:
        """``p`` as the reader takes a tile's chance: the band stretched onto the reader's own
        (:data:`READER_SURE_EMPTY` and its complement), a half kept a half, monotone, so a cell
        the band asks about is asked and one it is sure of is sure."""
        low, high = self.sure_empty, self.sure_tile
        edge = READER_SURE_EMPTY
        return np.where(p <= low, edge * p / max(low, 1e-12),
               np.where(p <= 0.5, edge + (0.5 - edge) * (p - low) / max(0.5 - low, 1e-12),
               np.where(p < high, 0.5 + (0.5 - edge) * (p - 0.5) / max(high - 0.5, 1e-12),
                        1.0 - edge + edge * (p - high) / max(1.0 - high, 1e-12))))

    def probability(self, evidence: np.ndarray, picture: np.ndarray) -> np.ndarray:
        x = np.concatenate([evidence, picture], axis=-1) if self.picture else evidence
        return self.net.probability(x)

    def to_dict(self) -> dict[str, object]:
        return {"network": self.net.to_dict(), "sure_empty": self.sure_empty, "sure_tile": self.sure_tile,
                "picture_features": list(PICTURE_FEATURES) if self.picture else []}

    @classmethod
    def from_dict(cls, data: dict) -> CellModel:
        picture = list(data["picture_features"])
        if picture not in ([], list(PICTURE_FEATURES)):
            raise ValueError(f"it weighs {picture}, this reader gives {list(PICTURE_FEATURES)}")
        return cls(SmallNet.from_dict(data["network"]), float(data["sure_empty"]), float(data["sure_tile"]),
                   bool(picture))


@dataclass(frozen=True, slots=True)
class OccupancyModel:
    """The three trained models; :meth:`probability` picks each cell's by what calibration knows."""

    models: dict[str, CellModel]
    info: dict[str, object]

    def probability(self, current: CellLooks, appearance: BoardAppearance,
                    light: LightChange | None = None) -> np.ndarray:
        """Each cell's chance of a tile as every reader takes it: sure outside its model's fitted
        band, in doubt within it (:meth:`CellModel.chance`). The street's median and lanes weigh
        it as evidence too, and were fitted on it."""
        feats = features(current, appearance, light)
        out = np.zeros(current.shape)
        for index, kind in enumerate(KINDS):
            mask = feats["kind"] == index
            if mask.any():
                model = self.models[kind]
                p = model.probability(feats[kind][mask], feats["picture"][mask])
                out[mask] = model.chance(p)
        return out

    def save(self, path: str | Path = MODEL_FILE) -> None:
        data = {"info": self.info, "models": {k: m.to_dict() for k, m in self.models.items()}}
        write_atomically(Path(path), (json.dumps(data, indent=1) + "\n").encode("utf-8"))

    @classmethod
    def load(cls, path: str | Path = MODEL_FILE) -> OccupancyModel:
        try:
            data = json.loads(Path(path).read_text())
            models = {k: CellModel.from_dict(data["models"][k]) for k in KINDS}
        except (OSError, KeyError, ValueError, TypeError) as exc:
            raise ValueError(f"the occupancy model {path} cannot be read ({exc}); "
                             "rebuild it with: python -m vision.synthetic.train") from None
        return cls(models, data.get("info", {}))


@lru_cache(maxsize=1)
def default_model() -> OccupancyModel:
    """The model shipped in the repository (trained by ``python -m vision.synthetic.train``)."""
    return OccupancyModel.load(MODEL_FILE)

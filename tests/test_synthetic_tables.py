"""The tables the fits stand their changed-light scenes on: of any make and tone, never the held-out ones."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.synthetic.render import _table
from vision.synthetic.scenes import LIGHT_CHANGE_TABLES, grid_scene, street_scene
from vision.synthetic.style import ANY_TABLE_KINDS, BoardStyle, random_style, with_any_table, with_table_skin


def test_any_table_draws_every_make_and_tones_beyond_the_families_but_not_the_held_out_makes() -> None:
    rng = np.random.default_rng(0)
    style = random_style(rng, "train")
    drawn = [with_any_table(rng, style) for _ in range(500)]
    assert {s.table for s in drawn} == set(ANY_TABLE_KINDS)
    held_out_makes = {kind for kind, _ in LIGHT_CHANGE_TABLES["held_out"]} - {"wood"}
    assert held_out_makes and not held_out_makes & set(ANY_TABLE_KINDS)
    tones = np.array([s.table_colour for s in drawn], float)
    for family in ("train", "held_out"):
        for _, colour in LIGHT_CHANGE_TABLES[family]:
            assert (tones.min(axis=0) < colour).all() and (tones.max(axis=0) > colour).all()


@pytest.mark.parametrize("kind", ["check", "stripes"])
def test_a_check_or_a_stripe_is_dyed_in_bands_a_cloth_is_not(kind: str) -> None:
    """A dyed cloth's dark bands are far darker than its pale ones; a plain weave's are not."""
    look = BoardStyle(table=kind, table_colour=(150, 180, 210))
    patterned = _table(np.random.default_rng(3), (400, 300), look).mean(axis=2)
    plain = _table(np.random.default_rng(3), (400, 300), replace(look, table="cloth")).mean(axis=2)
    spread = lambda t: float(np.percentile(t, 90) - np.percentile(t, 10))  # noqa: E731
    assert spread(patterned) > 25 > spread(plain)


@pytest.mark.parametrize("make", ["grid", "street"])
def test_any_table_changes_the_table_alone(make: str) -> None:
    """The same seed with ``any_table`` has the same tiles, camera, hands and light: a fit's scenes
    on any table are its scenes on the family's, moved to another table."""
    def scene(any_table: bool):
        if make == "grid":
            return grid_scene(41, "train", "upwords8", n_frames=2, sequence=True, light_change=True,
                              hand_chance=0.5, any_table=any_table)
        return street_scene(41, "train", n_frames=2, light_change=True, hand_chance=0.5, any_table=any_table)
    plain, any_ = scene(False), scene(True)
    assert replace(any_.style, table=plain.style.table, table_colour=plain.style.table_colour) == plain.style
    assert (any_.style.table, any_.style.table_colour) != (plain.style.table, plain.style.table_colour)
    assert repr(plain.frame_effects) == repr(any_.frame_effects)
    for a, b in zip(plain.frames, any_.frames, strict=True):
        assert a.corners.tolist() == b.corners.tolist()
        assert (repr(a.letters), repr(a.heights), repr(a.positions), repr(a.hand_drawn)) == (
            repr(b.letters), repr(b.heights), repr(b.positions), repr(b.hand_drawn))
        assert a.image.tobytes() != b.image.tobytes()


def test_table_skin_gives_the_hands_the_tables_colour_and_changes_nothing_else() -> None:
    """An arm of the table's own colour, for the fits that must not take it for a change of light:
    the skin within a jitter of the table's colour, the rest of the scene as without."""
    def scene(table_skin: bool):
        return grid_scene(43, "train", "upwords8", n_frames=2, sequence=True, light_change=True,
                          hand_chance=0.5, any_table=True, table_skin=table_skin)
    plain, skinned = scene(False), scene(True)
    assert skinned.style.skin != plain.style.skin
    rng = np.random.default_rng(5)
    table = np.array(plain.style.table_colour, float)
    off = np.array([with_table_skin(rng, plain.style).skin for _ in range(300)], float) - table
    assert np.abs(off.mean(axis=0)).max() < 3 and off.std(axis=0).min() > 8 and off.std(axis=0).max() < 16
    assert replace(skinned.style, skin=plain.style.skin) == plain.style

    def uncoloured(fx):  # the same hands, where they are, of another colour
        return repr(replace(fx, hand=None if fx.hand is None else replace(fx.hand, colour=None)))
    assert [uncoloured(f) for f in plain.frame_effects] == [uncoloured(f) for f in skinned.frame_effects]
    for a, b in zip(plain.frames, skinned.frames, strict=True):
        assert (repr(a.letters), repr(a.heights), a.corners.tolist()) == (repr(b.letters), repr(b.heights),
                                                                          b.corners.tolist())

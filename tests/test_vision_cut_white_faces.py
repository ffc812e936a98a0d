"""New tiles a lamp's glare cut white, ink and all: asked, never settled as an empty cell or the stack
as it was (the cell and kept-stack decisions weigh how much a face shows beside what it reads)."""

from __future__ import annotations

import pytest

from bench.bench_plays import _boards, wrong_and_sure
from kiosk.camera.view import history
from vision.synthetic.scenes import grid_scene
from vision.synthetic.train import taught_grid_reader
from vision.upwords_reader import play_from_reading

#: the play whose picture shows it: a brighter light and a glare over the row the play laid
PLAY = 11


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["upwords8", "upwords10"])
def test_new_tiles_cut_white_by_a_glare_are_asked_not_read_as_nothing_new(kind: str) -> None:
    """A ``held_out``-family game on a skin-toned table, the light changed picture to picture (a
    development game, looked at while building, not a figure). After play 11 a light a third brighter
    than the calibration's and a lamp's glare cut the play's row white: a new J's face shows no
    ink at all, an X laid on an O barely any. Weighed by their look and their letter read alone,
    the J was an empty cell and the O the stack as it was, both sure. Now no cell is wrong and sure
    and no play is offered but the one laid."""
    s = grid_scene(1530006, "held_out", kind, n_frames=14, hand_chance=0.0, sequence=True, light_change=True)
    reader = taught_grid_reader(s)
    before, placed = _boards(s)[PLAY]
    frame = s.frames[PLAY]
    light = s.frame_effects[PLAY]
    assert s.calibration_effects is not None
    assert light.glare > 0.5 and light.brightness > 1.3 * s.calibration_effects.brightness
    reading = reader.read(frame.image, previous=history(before))
    assert wrong_and_sure(reading, frame) == 0
    new = [reading.cell(p.row, p.col) for p in placed]
    assert any(cell.uncertain for cell in new)  # the glare's cells are asked
    proposal = play_from_reading(before, reading)
    assert not proposal.ok or set(proposal.tiles) == placed

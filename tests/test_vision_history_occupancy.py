"""History is a hard constraint where the rules make it one: tiles never leave the board in a
play, so a cell the confirmed board has a tile on is occupied now, however the light has changed
its look (rendered ``train``-family game, skin-toned table, the light changed since calibration)."""

from __future__ import annotations

from bench.bench_plays import _boards
from kiosk.camera.view import history
from vision.synthetic.scenes import grid_scene
from vision.synthetic.train import taught_grid_reader


def _doubted_for_occupancy(cell) -> bool:
    """In doubt though its letter and height are sure and nothing is flagged: the tile's being
    there is what the picture doubts."""
    return (cell.uncertain and not cell.flags and cell.letter_confidence >= cell.threshold
            and cell.height_confidence >= cell.threshold)


def test_a_cell_the_history_has_a_tile_on_is_read_occupied_and_sure_of_it() -> None:
    scene = grid_scene(820001, "train", "upwords8", n_frames=6, hand_chance=0.0, sequence=True,
                       light_change=True)
    reader = taught_grid_reader(scene)
    checked = 0
    for frame, (before, _) in zip(scene.frames, _boards(scene), strict=True):
        with_history = reader.read(frame.image, previous=history(before))
        for r, c in ((r, c) for r in range(8) for c in range(8) if before.height(r, c)):
            cell = with_history.cell(r, c)
            assert cell.height >= 1, f"({r}, {c}) had a tile and was read empty"
            assert cell.height == frame.heights[r][c] or cell.uncertain
            assert not _doubted_for_occupancy(cell), f"({r}, {c}) had a tile: it still has one"
            checked += 1
    assert checked >= 20

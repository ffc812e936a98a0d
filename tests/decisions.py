"""A game read play by play with one of the reader's fitted decisions on and off, as the tests of
each decision compare them."""

from __future__ import annotations

from collections.abc import Callable

from bench.bench_plays import _boards
from games.upwords_board import Board
from kiosk.camera.view import history
from vision.synthetic.scenes import Scene
from vision.upwords_reader import UpwordsReader, play_from_reading


def plays_offered(s: Scene, reader: UpwordsReader, decision: str,
                  after_read: Callable[[Board], None] | None = None) -> dict[bool, int]:
    """Plays offered with the reader's ``decision`` (an attribute: ``cell_decision``,
    ``kept_decision``) on and off, each read with the game's board before it as history; every play
    offered must be exactly the one placed. The play's rules settle no doubt here
    (``settle=False``): the decision's own part is counted. ``after_read(before)`` looks at the
    reader after each read with the decision on."""
    offered = {True: 0, False: 0}
    fitted = getattr(reader, decision)
    try:
        for frame, (before, placed) in zip(s.frames, _boards(s), strict=True):
            for decide in (False, True):
                setattr(reader, decision, fitted if decide else None)
                reading = reader.read(frame.image, previous=history(before))
                proposal = play_from_reading(before, reading, settle=False)
                if proposal.ok:
                    assert set(proposal.tiles) == placed
                    offered[decide] += 1
            if after_read is not None:
                after_read(before)
    finally:
        setattr(reader, decision, fitted)
    return offered

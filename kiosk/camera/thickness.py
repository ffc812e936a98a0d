"""The set's tile thickness, measured from the game where calibration could not measure it.

Why: a height read from one picture is sure only where the set's thickness against its pitch was
measured (:mod:`vision.set_geometry`); the teaching photo's tiles are one high, and under a camera
within about 23 degrees of overhead their faces barely move across the thicknesses a set can have.
A stack of h tiles moves h times as far, and once the players confirm a board with stacks the game
knows each stack's height: a steady picture of that board measures what the teaching photo could
not. The measure goes into the calibration (``tile_height``), so every later start and
``tablekeeper read`` use it, and into the running reader at once.

One measure, then nothing: a calibration that has one (measured from the teaching photo or here)
is never measured again. A board whose stacks are all one high tells no more than the teaching
photo did, and is not tried.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import numpy as np

from calibration.file import CalibrationError, load_calibration, save_calibration
from vision.board_look import READER_PITCH_MM
from vision.set_geometry import TileHeight, measure_tile_height
from vision.upwords_reader import TileGeometry, UpwordsReader

log = logging.getLogger(__name__)

Stacks = dict[tuple[int, int], int]


class ThicknessFromPlays:
    """Measures the thickness from a steady picture of the board the players confirmed last.

    ``confirmed`` is told each confirmed board's stacks (the UI thread); ``look`` is shown steady
    frames (the camera's worker thread, which also reads with ``reader``: the new geometry is put
    on between two reads)."""

    def __init__(self, cal_path: Path, reader: UpwordsReader) -> None:
        self.cal_path = Path(cal_path)
        self.reader = reader
        self.measured: TileHeight | None = None
        self._stacks: Stacks | None = None

    def confirmed(self, stacks: Stacks) -> None:
        """The board the players confirmed: each occupied cell's stack height."""
        if self.measured is None and stacks and max(stacks.values()) >= 2:
            self._stacks = dict(stacks)

    @property
    def waiting(self) -> Stacks | None:
        """The confirmed board's stacks a steady picture will be measured with, if any."""
        return self._stacks

    def look(self, frame: np.ndarray) -> TileHeight | None:
        """Measure on this steady frame of the last confirmed board, once per board; the measure
        when one was made (kept in the calibration and put on the reader), else None."""
        stacks, self._stacks = self._stacks, None
        if stacks is None or self.measured is not None:
            return None
        r = self.reader
        # measured through the reader's own view of the board (its lens, or the focal it estimated)
        found = measure_tile_height(frame, r.corners, r.rows, r.cols, r.face_frac, stacks, r.planes.K)
        if found is None:
            return None
        self.measured = found
        g = r.geometry
        r.use_geometry(TileGeometry.from_shape(g.face_frac, found.thickness_mm(READER_PITCH_MM), g.max_height,
                                               READER_PITCH_MM))
        log.info("the set's tile thickness measured from the game: %.3f of a cell (%d stacks)",
                 found.ratio, found.tiles)
        self._keep(found)
        return found

    def _keep(self, found: TileHeight) -> None:
        """Write the measure into the calibration file; one that cannot be written is said and the
        reader keeps the measure until the kiosk stops."""
        try:
            cal = load_calibration(self.cal_path)
            save_calibration(replace(cal, tile_height=found.ratio), self.cal_path)
        except (CalibrationError, OSError) as exc:
            log.warning("the measured tile thickness could not be kept in %s: %s", self.cal_path, exc)

"""Use a frame only when the board is still and nobody's hand is over it; vote over a few.

Why: a reading taken while a player is still moving tiles, or with an arm across the board,
is wrong in ways no classifier can fix. The camera streams frames anyway, so the cheapest
safe policy is to wait: a frame counts only after the board has looked the same (frame
differencing on a small top-down image, cell by cell) and free of skin for ``still_for``
seconds; then only the cells that changed since the last accepted reading are re-read, and
the result is the majority of ``votes`` steady frames.

Time is whatever the frames' timestamps say (seconds, any origin): no clock, no sleeping, so
a replay or a test runs as fast as it can feed frames.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Protocol

import cv2
import numpy as np

from vision.occupancy import cell_fraction, skin_mask
from vision.reading import BoardReading, CellReading, StreetColumn, StreetReading
from vision.stillness import StillnessDecision, beyond_the_cells, log_picture

Reading = BoardReading | StreetReading


class FrameRead(Protocol):
    """How a watcher reads a steady frame: ``previous`` the last accepted reading or None,
    ``changed`` the cells to re-read or None for all, ``hand_free`` whether the stream has shown
    there is no hand in it (:attr:`Steadiness.hand_free`)."""

    def __call__(self, frame: np.ndarray, previous: Reading | None,
                 changed: frozenset[tuple[int, int]] | None, /, *, hand_free: bool = False) -> Reading: ...


@dataclass(frozen=True, slots=True)
class Steadiness:
    """What the gate thinks of one frame.

    ``state``: "moving" (something changed since the last frame), "obstructed" (a hand or arm
    over the board), "settling" (still, but not for long enough) or "steady". ``changed``:
    cells that differ from the last steady picture (only meaningful when steady).
    ``hand_free``: the frame differs by the light alone from one the hand check passed, in which
    nothing moved (:mod:`vision.stillness`), so no hand can be in it, whatever the check would
    say of it alone; or from one the players said was clear (:meth:`SteadinessGate.take_as_clear`).
    ``quiet``: seconds the picture has not moved, whatever the state (a hand
    that holds still over the board for long is rare: a picture waited on that long may be a
    change of light the checks could not tell, which the players can settle).
    """

    state: str
    timestamp: float
    changed: frozenset[tuple[int, int]] = frozenset()
    motion: float = 0.0
    hand_free: bool = False
    quiet: float = 0.0

    @property
    def steady(self) -> bool:
        return self.state == "steady"


class SteadinessGate:
    """Frame differencing on the warped board.

    ``warp``: turns a camera frame into a top-down BGR image of the playing area with
    ``cell_px`` pixels per cell (no margin), e.g. ``lambda f: planes.warp(f, rows, cols, 16)``.
    ``hand_over_board``: says whether a frame has a hand over the board; the calibration's own
    check when it kept its picture (:func:`vision.hands.hand_over_board`: any colour of hand,
    and a red or pink board is not a hand). Without it, skin-coloured pixels on the board.
    ``stillness``: when given, a frame that differs by the light alone from the last one the
    hand check passed, itself no different from the frame before and that one clear too, is clear
    without asking the check again (:mod:`vision.stillness`: a hand cannot come in without changing
    the picture where it goes). ``corners``: the playing area's in the frame; given them and
    ``stillness_beyond``, where the board leaves a band all round the picture only the picture
    beyond it is compared, by that decision (:func:`vision.stillness.beyond_the_cells`: an arm
    must cross it to reach the cells), and a clear frame stays the one to compare with across a
    play, its tiles changing only the cells.
    """

    def __init__(self, warp: Callable[[np.ndarray], np.ndarray], rows: int, cols: int, *, cell_px: int = 16,
                 still_for: float = 0.6, motion_level: float = 7.0, change_level: float = 10.0,
                 hand_fraction: float = 0.04,
                 hand_over_board: Callable[[np.ndarray], bool] | None = None,
                 stillness: StillnessDecision | None = None, corners: np.ndarray | None = None,
                 stillness_beyond: StillnessDecision | None = None) -> None:
        self.warp, self.rows, self.cols, self.cell_px = warp, rows, cols, cell_px
        self.still_for, self.motion_level, self.change_level = still_for, motion_level, change_level
        self.hand_fraction = hand_fraction
        self.hand_over_board = hand_over_board
        self.stillness, self.stillness_beyond = stillness, stillness_beyond
        self._clear: np.ndarray | None = None  # the last still frame the hand check passed (log_picture)
        self._previous: np.ndarray | None = None  # the frame before (log_picture)
        self._previous_clear = False  # whether the frame before had no hand over the board
        self.corners = corners
        # beyond the playing area, on a log_picture of this shape (None: too little shows)
        self._beyond: tuple[tuple[int, ...], np.ndarray | None] | None = None
        self._last: np.ndarray | None = None
        self._still_since: float | None = None
        self._quiet_since: float | None = None  # since when the picture has not moved, any state
        # the board as the players said it was clear, without a stillness decision to carry it
        self._vouched: np.ndarray | None = None
        self._reference_image: np.ndarray | None = None  # the last accepted steady picture

    def _cells(self, gray: np.ndarray) -> np.ndarray:
        small = cv2.resize(gray, (self.cols, self.rows), interpolation=cv2.INTER_AREA)
        return small.astype(np.float32)

    def update(self, frame: np.ndarray, timestamp: float) -> Steadiness:
        top = self.warp(frame)
        gray = self._gray(top)
        motion = self._motion(gray, self._last)
        if self._quiet_since is None or motion > self.motion_level:
            self._quiet_since = timestamp
        quiet = timestamp - self._quiet_since
        now = None if self.stillness is None else log_picture(frame)
        previous, self._previous = self._previous, now
        beyond = None if now is None else self._beyond_the_cells(frame, now)
        stillness = self.stillness if beyond is None else self.stillness_beyond
        hand_free = (stillness is not None and now is not None and self._clear is not None
                     and stillness.nothing_came_in(self._clear, now, beyond))
        if self._vouched is not None and self._motion(gray, self._vouched) > self.motion_level:
            self._vouched = None  # the picture changed since the players said it was clear
        hand_free = hand_free or self._vouched is not None
        obstructed = False if hand_free else self._hand_check(frame, top)
        if stillness is not None and now is not None and not hand_free:
            # Carried from a frame the check passed only if nothing moved into it from a frame
            # that was clear too: a hand the check missed while it moved is no clear frame to
            # carry, nor is one it missed once while the hand it saw in the frame before held still
            # (a hand seen leaves only by moving).
            still = previous is not None and stillness.nothing_came_in(previous, now, beyond)
            if still and not obstructed and self._previous_clear:
                self._clear = now
            elif beyond is None:
                # the whole picture compared: after a play its tiles differ from any clear frame
                # before it, which so says nothing more
                self._clear = None
        self._previous_clear = not obstructed
        self._last = gray
        if obstructed:
            self._still_since = None
            return Steadiness("obstructed", timestamp, motion=motion, quiet=quiet)
        if self._still_since is None or motion > self.motion_level:
            self._still_since = timestamp
            state = "moving" if motion > self.motion_level else "settling"
            return Steadiness(state, timestamp, motion=motion, hand_free=hand_free, quiet=quiet)
        if timestamp - self._still_since < self.still_for:
            return Steadiness("settling", timestamp, motion=motion, hand_free=hand_free, quiet=quiet)
        if self._reference_image is None:
            changed = frozenset((r, c) for r in range(self.rows) for c in range(self.cols))
        else:
            # mean absolute difference per cell, against the last accepted picture
            ref_diff = cv2.absdiff(gray, self._reference_image)
            per_cell = self._cells(ref_diff)
            rows, cols = np.nonzero(per_cell > self.change_level)
            changed = frozenset(zip(rows.tolist(), cols.tolist(), strict=True))
        return Steadiness("steady", timestamp, changed=changed, motion=motion, hand_free=hand_free,
                          quiet=quiet)

    def take_as_clear(self, frame: np.ndarray) -> bool:
        """The players say nothing is over the board in ``frame`` (the one about to be fed): it
        becomes the clear frame later frames are compared with, as a frame the hand check passed
        would. With a stillness decision the light may change after it and the frame stays clear
        until something comes in (:mod:`vision.stillness`); without one, until the picture changes.

        For a change of light the checks cannot tell from a hand, which would otherwise keep the
        kiosk waiting until the light changed again. Refused (False, nothing changed) while the
        picture moves: someone is at the board then, and a hand the players did not see is no
        clear frame."""
        gray = self._gray(self.warp(frame))
        if self._last is None or self._motion(gray, self._last) > self.motion_level:
            return False
        if self.stillness is None:
            self._vouched = gray
        else:
            self._clear = self._previous = log_picture(frame)
            self._previous_clear = True
        return True

    def _gray(self, top: np.ndarray) -> np.ndarray:
        return cv2.GaussianBlur(cv2.cvtColor(top, cv2.COLOR_BGR2GRAY), (5, 5), 0)

    def _motion(self, gray: np.ndarray, before: np.ndarray | None) -> float:
        """The most any cell's mean changed from ``before`` (0 with nothing to compare)."""
        if before is None or before.shape != gray.shape:
            return 0.0
        return float(self._cells(cv2.absdiff(gray, before)).max())

    def _beyond_the_cells(self, frame: np.ndarray, now: np.ndarray) -> np.ndarray | None:
        """The picture beyond the playing area, on ``now``'s scale (worked out once a size)."""
        if self.corners is None or self.stillness_beyond is None:
            return None
        if self._beyond is None or self._beyond[0] != now.shape:
            h, w = frame.shape[:2]
            self._beyond = now.shape, beyond_the_cells(self.corners, self.rows, self.cols, (w, h), now.shape)
        return self._beyond[1]

    def _hand_check(self, frame: np.ndarray, top: np.ndarray) -> bool:
        """Whether this frame alone shows a hand over the board."""
        if self.hand_over_board is not None:
            return self.hand_over_board(frame)
        skin = skin_mask(top)
        return bool(skin.mean() > self.hand_fraction or (
            cell_fraction(skin, self.rows, self.cols, self.cell_px, 0.0) > 0.1).any())

    def accept(self, frame: np.ndarray) -> None:
        """Remember this frame as the last accepted picture: later changes are measured against it."""
        self._reference_image = self._gray(self.warp(frame))


def vote(readings: Iterable[Reading]) -> Reading:
    """The cell-by-cell majority of several readings of the same board.

    A cell's confidence becomes its best agreeing confidence times the share of frames that
    agree, so a cell the frames disagree on ends up uncertain.
    """
    readings = list(readings)
    if not readings:
        raise ValueError("nothing to vote on")
    first = readings[0]
    if isinstance(first, StreetReading):
        columns: list[StreetColumn] = []
        for i in range(len(first.columns)):
            options = [r.columns[i] for r in readings]  # type: ignore[union-attr]
            counts = Counter(o.position for o in options)
            winner, n = counts.most_common(1)[0]
            best = max((o for o in options if o.position == winner), key=lambda o: o.confidence)
            columns.append(replace(best, confidence=best.confidence * n / len(options)))
        return replace(first, columns=tuple(columns))
    cells: list[CellReading] = []
    for i in range(len(first.cells)):
        options = [r.cells[i] for r in readings]  # type: ignore[union-attr]
        counts = Counter((o.letter, o.height) for o in options)
        winner, n = counts.most_common(1)[0]
        best = max((o for o in options if (o.letter, o.height) == winner), key=lambda o: o.confidence)
        cells.append(replace(best, confidence=best.confidence * n / len(options)))
    return replace(first, cells=tuple(cells))


@dataclass
class BoardWatcher:
    """Feeds camera frames through the gate, re-reads changed cells, votes, and reports new readings.

    ``read(frame, previous, changed, hand_free=...)`` reads the board (``previous`` is the last
    accepted reading or None, ``changed`` the cells to re-read or None for all, ``hand_free``
    :attr:`Steadiness.hand_free`).
    ``feed`` returns a new accepted reading when the board has settled into a new state,
    otherwise None (also when only the light changed: the same board under a new shadow).
    """

    gate: SteadinessGate
    read: FrameRead
    votes: int = 3
    accepted: Reading | None = None
    last_state: Steadiness | None = None
    _pending: list[Reading] = field(default_factory=list)
    _pending_frame: np.ndarray | None = None

    def feed(self, frame: np.ndarray, timestamp: float) -> Reading | None:
        state = self.gate.update(frame, timestamp)
        self.last_state = state
        if not state.steady:
            self._pending.clear()
            return None
        if self.accepted is not None and not state.changed and not self._pending:
            return None  # still the accepted board: nothing to do
        changed = state.changed if self.accepted is not None else None
        self._pending.append(self.read(frame, self.accepted, changed, hand_free=state.hand_free))
        self._pending_frame = frame
        if len(self._pending) < self.votes:
            return None
        result = vote(self._pending)
        self._pending.clear()
        same = self.accepted is not None and _values(result) == _values(self.accepted)
        self.accepted = result
        self.gate.accept(frame)
        # A shadow that stays, or a lamp switched on, changes pixels but not the board:
        # remember the new look, report nothing.
        return None if same else result


def _values(reading: Reading) -> tuple:
    """What a reading says, without its confidences: to tell a new board from a new light."""
    if isinstance(reading, StreetReading):
        return tuple(c.position for c in reading.columns)
    return tuple((c.letter, c.height) for c in reading.cells)

"""Turn a camera read of the Upwords board into the tiles a player put down, or say why not.

The camera sees only the top of each stack (and, less surely, how tall it is). History fills
in the rest: between two steady reads a stack either stays as it was or grows by exactly
one tile whose letter differs from the one beneath (no letter goes on the same letter, no
stack takes two tiles in one turn, tiles are never taken off). So comparing the board
before with the read after tells which tiles were placed, and anything else is a misread
(glare, a hand, a knocked tile) that the kiosk must show the players rather than score.

Only the physical inference is here; whether the play is legal is the engine's business
(:meth:`games.upwords.Upwords.apply` on :meth:`PlayReading.event`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.upwords_board import Board, Placement, normalise_letter


@dataclass(frozen=True, slots=True)
class PlayReading:
    """The outcome of :func:`infer_play`: the tiles placed, or the problems that stop it.

    ``problems`` lists every cell that cannot be explained, in plain words, so the screen
    can point at them. A reading with no problems and no tiles means nothing changed.
    """

    tiles: tuple[Placement, ...] = ()
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the read is a play the engine can judge (tiles, no problems)."""
        return bool(self.tiles) and not self.problems

    @property
    def reason(self) -> str:
        if self.problems:
            return "; ".join(self.problems)
        return "" if self.tiles else "no tile was placed"

    def event(self) -> dict[str, Any]:
        """The play event for the engine; raise ValueError when the read is not a play."""
        if not self.ok:
            raise ValueError(f"the camera read is not a play: {self.reason}")
        return {"type": "play", "tiles": [p.to_dict() for p in self.tiles]}


def _read_top(value: object) -> str | None:
    if value is None or (isinstance(value, str) and value.strip() in ("", ".")):
        return None
    return normalise_letter(value)


def infer_play(
    before: Board,
    tops: Sequence[Sequence[object]],
    heights: Sequence[Sequence[int | None]] | None = None,
) -> PlayReading:
    """Which tiles were put on ``before`` to make the camera's read ``tops`` (and ``heights``)?

    ``tops[row][col]`` is the letter seen on top of a cell (None, "" or "." when empty);
    ``heights[row][col]`` is the stack height the camera estimated, or None when it could not
    tell (then history alone decides). Pass ``heights=None`` to rely on history everywhere.

    >>> b = Board.from_text("8/8/8/1MOOD3/8/8/8/8")
    >>> after = [list(row) for row in b.tops()]
    >>> after[3][1] = "W"
    >>> infer_play(b, after).tiles
    (Placement(row=3, col=1, letter='W'),)
    """
    size = before.size
    if len(tops) != size or any(len(row) != size for row in tops):
        return PlayReading(problems=(f"the read is not a {size} x {size} grid",))
    if heights is not None and (len(heights) != size or any(len(row) != size for row in heights)):
        return PlayReading(problems=(f"the heights are not a {size} x {size} grid",))
    tiles: list[Placement] = []
    problems: list[str] = []
    for r in range(size):
        for c in range(size):
            where = f"row {r + 1}, column {c + 1}"
            try:
                seen = _read_top(tops[r][c])
            except ValueError as exc:
                problems.append(f"{where}: {exc}")
                continue
            was, was_h = before.top(r, c), before.height(r, c)
            h = None if heights is None else heights[r][c]
            if seen is None:
                if was is not None:
                    problems.append(f"{where}: the stack topped by {was} is gone; tiles never come off")
                elif h:
                    problems.append(f"{where}: no letter seen on a stack {h} tall")
                continue
            if seen == was:
                if h is not None and h != was_h:
                    problems.append(
                        f"{where}: still {seen} on top but {h} tall instead of {was_h}; "
                        f"a letter never goes on the same letter"
                    )
                continue
            if h is not None and h != was_h + 1:
                old = f"{was} ({was_h} tall)" if was else "an empty square"
                problems.append(
                    f"{where}: {seen} appeared on {old} but the stack reads {h} tall; "
                    f"a turn adds exactly one tile to a stack"
                )
                continue
            tiles.append(Placement(r, c, seen))
    return PlayReading(tuple(tiles), tuple(problems))


def beyond_reach(before: Board, placed: Iterable[tuple[int, int]], unsure: Iterable[tuple[int, int]]
                 ) -> set[tuple[int, int]]:
    """The ``unsure`` cells (row, col) that no legal play with tiles on ``placed`` can have put a
    tile on, the board ``before`` it being ``before``.

    The sheet: every tile played in a turn is in one row or one column, and they make one word
    with the tiles already there, so no gap. An unsure cell is within reach when it lies on the
    line of the tiles placed (either line of a single tile) and every square between it and them
    is filled after the play: a stack from before, a tile placed, or another unsure cell (which
    may have taken one). None is beyond reach when nothing was placed (the unsure cell may be the
    whole play) or the tiles placed are not in one line (the play is not legal as seen)."""
    tiles, open_cells = set(placed), set(unsure)
    lines = [(axis, index) for axis, index in ((0, {r for r, _ in tiles}), (1, {c for _, c in tiles}))
             if len(index) == 1]
    if not tiles or not lines:
        return set()

    def filled(cell: tuple[int, int]) -> bool:
        return cell in tiles or cell in open_cells or before.height(*cell) > 0

    def reached(cell: tuple[int, int]) -> bool:
        for axis, (index,) in lines:
            if cell[axis] != index:
                continue
            along = [t[1 - axis] for t in tiles] + [cell[1 - axis]]
            span = range(min(along), max(along) + 1)
            if all(filled((index, k) if axis == 0 else (k, index)) for k in span):
                return True
        return False

    return {cell for cell in open_cells if not reached(cell)}

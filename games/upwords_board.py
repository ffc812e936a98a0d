"""The Upwords board: stacks of letter tiles on a square grid, as an immutable value.

A :class:`Board` is what the screen draws and what the camera reader compares against:
each cell holds a stack of letters, bottom first (the top one is the letter in play, the
height is how many tiles a word scores there when anything in it is stacked). It has a
text form in the manner of python-chess's FEN (:meth:`Board.text` /
:meth:`Board.from_text`) so a board fits in a bug report and round-trips exactly.

Text form: rows top to bottom separated by ``/``; in a row a number is that many empty
cells, a letter is a one-tile stack and ``[...]`` a taller stack listed bottom to top. The
``Qu`` tile is written ``Qu``. The opening of the sheet's figure 3 (WOOD over MOOD) is::

    8/8/8/1[MW]OOD3/3NET2/4A3/4R3/8
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

#: The one two-letter tile of the set.
QU = "Qu"
#: Every tile face: A-Z with Qu in place of Q.
LETTERS = frozenset([*"ABCDEFGHIJKLMNOPRSTUVWXYZ", QU])

Stack = tuple[str, ...]
Cell = tuple[int, int]


class BoardTextError(ValueError):
    """A board text form that does not describe a board."""


def normalise_letter(raw: object) -> str:
    """'a' -> 'A', 'qu'/'QU'/'q' -> 'Qu'; raise ValueError for anything that is not a tile face.

    The set has no plain Q tile, so a Q typed on the screen or read by the camera can only
    be the Qu tile.
    """
    if not isinstance(raw, str):
        raise ValueError(f"a letter must be text, not {type(raw).__name__}")
    text = raw.strip().upper()
    if text in ("Q", "QU"):
        return QU
    if len(text) == 1 and text in LETTERS:
        return text
    raise ValueError(f"{raw!r} is not an Upwords tile (A to Z, with Qu for Q)")


def word_text(letters: Iterable[str]) -> str:
    """The word a row of top letters spells, in capitals: ('Qu', 'I', 'T') -> 'QUIT'."""
    return "".join(letters).upper()


@dataclass(frozen=True, slots=True)
class Placement:
    """One tile put down this turn: where, and which letter."""

    row: int
    col: int
    letter: str

    @property
    def cell(self) -> Cell:
        return (self.row, self.col)

    def to_dict(self) -> dict[str, object]:
        return {"row": self.row, "col": self.col, "letter": self.letter}


@dataclass(frozen=True, slots=True)
class CellView:
    """What one square shows: its top letter (None when empty), its height and whole stack."""

    row: int
    col: int
    stack: Stack

    @property
    def top(self) -> str | None:
        return self.stack[-1] if self.stack else None

    @property
    def height(self) -> int:
        return len(self.stack)


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable ``size`` x ``size`` grid of stacks; row 0 is the top, column 0 the left.

    >>> b = Board.empty(8).place([Placement(3, 3, "O"), Placement(3, 4, "N")])
    >>> b.text()
    '8/8/8/3ON3/8/8/8/8'
    >>> Board.from_text(b.text()) == b
    True
    """

    size: int
    cells: tuple[tuple[Stack, ...], ...]

    @classmethod
    def empty(cls, size: int) -> Board:
        return cls(size, tuple(tuple(() for _ in range(size)) for _ in range(size)))

    # ---------------------------------------------------------------- reading cells
    def stack(self, row: int, col: int) -> Stack:
        return self.cells[row][col]

    def top(self, row: int, col: int) -> str | None:
        s = self.cells[row][col]
        return s[-1] if s else None

    def height(self, row: int, col: int) -> int:
        return len(self.cells[row][col])

    def cell(self, row: int, col: int) -> CellView:
        return CellView(row, col, self.cells[row][col])

    def on_board(self, row: int, col: int) -> bool:
        return 0 <= row < self.size and 0 <= col < self.size

    def occupied(self, row: int, col: int) -> bool:
        return self.on_board(row, col) and bool(self.cells[row][col])

    def is_empty(self) -> bool:
        return not any(s for line in self.cells for s in line)

    def tile_count(self) -> int:
        """Every tile on the board, counting those buried in stacks."""
        return sum(len(s) for line in self.cells for s in line)

    def tops(self) -> tuple[tuple[str | None, ...], ...]:
        """The grid as the camera sees it from above: the top letter of each cell or None."""
        return tuple(tuple(s[-1] if s else None for s in line) for line in self.cells)

    def heights(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(len(s) for s in line) for line in self.cells)

    def __iter__(self) -> Iterator[CellView]:
        """Every occupied cell, row by row."""
        for r, line in enumerate(self.cells):
            for c, s in enumerate(line):
                if s:
                    yield CellView(r, c, s)

    def centre(self) -> frozenset[Cell]:
        """The four centre squares (the ones with cut corners) a first word must cover."""
        half = self.size // 2
        return frozenset({(half - 1, half - 1), (half - 1, half), (half, half - 1), (half, half)})

    # ---------------------------------------------------------------- changing (a new board)
    def place(self, placements: Iterable[Placement]) -> Board:
        """A new board with each tile put on top of its cell's stack (no rule is checked here)."""
        grid = [list(line) for line in self.cells]
        for p in placements:
            grid[p.row][p.col] = (*grid[p.row][p.col], p.letter)
        return Board(self.size, tuple(tuple(line) for line in grid))

    # ---------------------------------------------------------------- words
    def run(self, row: int, col: int, down: bool) -> tuple[Cell, ...]:
        """The maximal line of occupied cells through (row, col), across or down, in reading order."""
        dr, dc = (1, 0) if down else (0, 1)
        r, c = row, col
        while self.occupied(r - dr, c - dc):
            r, c = r - dr, c - dc
        cells: list[Cell] = []
        while self.occupied(r, c):
            cells.append((r, c))
            r, c = r + dr, c + dc
        return tuple(cells)

    def spell(self, cells: Sequence[Cell]) -> str:
        return word_text(self.cells[r][c][-1] for r, c in cells)

    def words(self) -> list[tuple[Cell, ...]]:
        """Every word on the board (line of 2+ tiles), across ones first."""
        found: list[tuple[Cell, ...]] = []
        for down in (False, True):
            for view in self:
                cells = self.run(view.row, view.col, down)
                if len(cells) >= 2 and cells[0] == (view.row, view.col):
                    found.append(cells)
        return found

    # ---------------------------------------------------------------- text form
    def text(self) -> str:
        rows = []
        for line in self.cells:
            out, gap = [], 0
            for s in line:
                if not s:
                    gap += 1
                    continue
                if gap:
                    out.append(str(gap))
                    gap = 0
                out.append(s[0] if len(s) == 1 else "[" + "".join(s) + "]")
            if gap:
                out.append(str(gap))
            rows.append("".join(out))
        return "/".join(rows)

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Parse :meth:`text`; raise :class:`BoardTextError` saying where it goes wrong."""
        rows = text.strip().split("/")
        size = len(rows)
        grid: list[tuple[Stack, ...]] = []
        for number, row_text in enumerate(rows, start=1):
            line = _parse_row(row_text, number)
            if len(line) != size:
                raise BoardTextError(
                    f"row {number} has {len(line)} cells but the board has {size} rows; a board is square"
                )
            grid.append(tuple(line))
        return cls(size, tuple(grid))

    def __str__(self) -> str:
        """A grid for a terminal: the top letter, and the height after it when stacked."""
        lines = []
        for line in self.cells:
            lines.append(" ".join(f"{(s[-1] if s else '.'):>2}{len(s) if len(s) > 1 else ' '}" for s in line))
        return "\n".join(lines)


_TOKEN = re.compile(r"\d+|\[[^\]]*\]|Qu|[A-Z]|.")


def _parse_row(row_text: str, number: int) -> list[Stack]:
    line: list[Stack] = []
    for token in _TOKEN.findall(row_text):
        if token.isdigit():
            if token.startswith("0"):
                raise BoardTextError(f"row {number}: a run of empty cells is 1 or more, not {token}")
            line.extend(() for _ in range(int(token)))
        elif token == "[":
            raise BoardTextError(f"row {number}: a [ stack is not closed with ]")
        elif token.startswith("["):
            letters = re.findall(r"Qu|[A-Z]|.", token[1:-1])
            if not letters or any(t not in LETTERS for t in letters):
                raise BoardTextError(f"row {number}: {token} is not a stack of capital letters")
            for below, above in itertools.pairwise(letters):
                if below == above:
                    raise BoardTextError(
                        f"row {number}: {token} has {above} on {below}; a letter never goes on itself"
                    )
            line.append(tuple(letters))
        elif token in LETTERS:
            line.append((token,))
        else:
            raise BoardTextError(f"row {number}: {token!r} is not a letter, a number or a [stack]")
    return line

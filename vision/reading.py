"""What the camera saw: one board reading, every cell with its value and confidence.

A reading is plain, immutable data with a text form for people and a JSON form for the
kiosk and ``tablekeeper read --json``. It never decides the game: the kiosk compares it with
the engine's state and asks the players about every cell marked uncertain.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Below this confidence a cell is *uncertain*: the kiosk shows it and asks the players.
DEFAULT_THRESHOLD = 0.6


def unit(value: float) -> float:
    """``value`` held to 0..1 for a confidence (np.clip costs ~100x more on one number)."""
    return min(max(float(value), 0.0), 1.0)


def check_picture(image: Any, image_size: tuple[int, int]) -> None:
    """Refuse, in words, a picture a reader cannot read: not in colour, or not the size its
    calibration was made for (the board's corners would be in the wrong places)."""
    if image is None or image.ndim != 3:
        raise ValueError("the reader needs a colour (BGR) image")
    h, w = image.shape[:2]
    if (w, h) != tuple(image_size):
        raise ValueError(f"this calibration is for {image_size[0]}x{image_size[1]} pictures, not {w}x{h}")


@dataclass(frozen=True, slots=True)
class CellReading:
    """One Upwords (or generic grid) cell: empty, or its top letter and stack height.

    ``confidence`` (0..1) is the weakest of the occupancy, letter and height confidences.
    ``flags`` say in words why a cell is doubtful ("under a hand", "hidden behind a taller
    stack", "height fell from 3 to 2", ...).
    """

    row: int
    col: int
    letter: str | None
    height: int
    confidence: float
    letter_confidence: float = 1.0
    height_confidence: float = 1.0
    height_from: str = "geometry"  # "geometry", "history" or "both"
    flags: tuple[str, ...] = ()
    threshold: float = DEFAULT_THRESHOLD

    @property
    def empty(self) -> bool:
        return self.height == 0

    @property
    def uncertain(self) -> bool:
        return self.confidence < self.threshold or bool(self.flags)

    def to_dict(self) -> dict[str, Any]:
        return {
            "row": self.row, "col": self.col, "letter": self.letter, "height": self.height,
            "confidence": round(self.confidence, 3), "letter_confidence": round(self.letter_confidence, 3),
            "height_confidence": round(self.height_confidence, 3), "height_from": self.height_from,
            "uncertain": self.uncertain, "flags": list(self.flags),
        }


@dataclass(frozen=True, slots=True)
class BoardReading:
    """A whole grid as read: ``cells`` in row-major order."""

    game: str
    rows: int
    cols: int
    cells: tuple[CellReading, ...]
    notes: tuple[str, ...] = ()

    def cell(self, row: int, col: int) -> CellReading:
        return self.cells[row * self.cols + col]

    @property
    def letters(self) -> list[list[str | None]]:
        return [[self.cell(r, c).letter for c in range(self.cols)] for r in range(self.rows)]

    @property
    def heights(self) -> list[list[int]]:
        return [[self.cell(r, c).height for c in range(self.cols)] for r in range(self.rows)]

    def uncertain_cells(self) -> list[CellReading]:
        return [c for c in self.cells if c.uncertain]

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "rows": self.rows, "cols": self.cols, "notes": list(self.notes),
                "uncertain": len(self.uncertain_cells()), "cells": [c.to_dict() for c in self.cells]}

    def to_text(self) -> str:
        """The board as a grid: ``M2`` is an M on a stack of 2 (a crossword grid: just ``M``, and
        ``?`` a blank tile), ``.`` empty, a ``?`` after a cell marks doubt."""
        lines = ["    " + " ".join(f"{c:>3}" for c in range(self.cols))]
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                cell = self.cell(r, c)
                if cell.empty:
                    text = "."
                elif self.game == "grid":  # flat tiles: no heights; a blank tile is "?"
                    text = cell.letter or "?"
                else:
                    text = f"{cell.letter or '?'}{cell.height}"
                row.append(f"{text + ('?' if cell.uncertain else ''):>3}")
            lines.append(f"{r:>3} " + " ".join(row))
        doubtful = self.uncertain_cells()
        if doubtful:
            lines.append("")
            lines.append(f"{len(doubtful)} uncertain cell(s):")
            for cell in doubtful:
                why = "; ".join(cell.flags) or f"confidence {cell.confidence:.2f}"
                lines.append(f"  row {cell.row}, col {cell.col}: {why}")
        lines.extend(self.notes)
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class StreetColumn:
    """One Word on the Street letter: the space its tile is in (-2..+2) or None when it is gone."""

    letter: str
    position: int | None
    confidence: float
    letter_confidence: float = 1.0
    flags: tuple[str, ...] = ()
    scores: tuple[float, ...] = ()  # tile evidence for each space -2..+2
    threshold: float = DEFAULT_THRESHOLD

    @property
    def uncertain(self) -> bool:
        return self.confidence < self.threshold or bool(self.flags)

    def to_dict(self) -> dict[str, Any]:
        return {"letter": self.letter, "position": self.position, "confidence": round(self.confidence, 3),
                "letter_confidence": round(self.letter_confidence, 3), "uncertain": self.uncertain,
                "flags": list(self.flags), "scores": [round(s, 3) for s in self.scores]}


@dataclass(frozen=True, slots=True)
class StreetReading:
    """The whole street: one :class:`StreetColumn` per letter, in board order."""

    columns: tuple[StreetColumn, ...]
    notes: tuple[str, ...] = field(default=())
    game: str = "word-on-the-street"
    #: whether each column's ``scores`` are the chance of its tile in each space (the learnt
    #: reader's), which the game's rules can weigh; the fixed rules' are brightness ratios
    chances: bool = False

    @classmethod
    def from_positions(cls, positions: dict[str, int]) -> StreetReading:
        """The game's street as a reading, every tile sure (captured, +-3: off the street): the
        history a new picture is read against."""
        from games.word_on_the_street import CAPTURED, LETTERS

        on_street = {letter: (None if abs(at) >= CAPTURED else at) for letter, at in positions.items()}
        return cls(tuple(StreetColumn(letter, on_street[letter], 1.0) for letter in LETTERS), chances=True)

    @property
    def positions(self) -> dict[str, int | None]:
        return {c.letter: c.position for c in self.columns}

    def uncertain_columns(self) -> list[StreetColumn]:
        return [c for c in self.columns if c.uncertain]

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "notes": list(self.notes), "uncertain": len(self.uncertain_columns()),
                "columns": [c.to_dict() for c in self.columns]}

    def to_text(self) -> str:
        """Five lanes, first team's side on top, each tile's letter where it stands."""
        lines = []
        names = {-2: "-2 (first team)", -1: "-1", 0: " 0 (median)", 1: "+1", 2: "+2 (second team)"}
        for pos in range(-2, 3):
            cells = [(c.letter + ("?" if c.uncertain else " ")) if c.position == pos else ". "
                     for c in self.columns]
            lines.append(" ".join(cells) + f"   {names[pos]}")
        gone = [c.letter + ("?" if c.uncertain else "") for c in self.columns if c.position is None]
        lines.append("captured / not on the board: " + (" ".join(gone) if gone else "none"))
        doubtful = self.uncertain_columns()
        if doubtful:
            lines.append(f"{len(doubtful)} uncertain column(s):")
            for col in doubtful:
                why = "; ".join(col.flags) or f"confidence {col.confidence:.2f}"
                lines.append(f"  {col.letter}: {why}")
        lines.extend(self.notes)
        return "\n".join(lines)

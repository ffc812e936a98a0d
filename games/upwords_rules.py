"""The shape rules and the scoring of one Upwords play, as pure functions of the board.

:func:`judge_play` takes the board before a play and the tiles put down, and either
raises :class:`~games.rulings.IllegalEvent` citing the rule the play breaks, or returns
the board after with every word formed and its score. It needs no dictionary: whether a
word is a word is settled by a challenge (rule 8), everything else is settled here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.rulings import IllegalEvent
from games.upwords_board import QU, Board, Cell, Placement, normalise_letter

RULE_FIRST = "Upwords, rule 3 'First word'"
RULE_TURN = "Upwords, rule 4 'Basic turn'"
RULE_FORM = "Upwords, rule 5 'How to form words'"
RULE_STACK = "Upwords, rule 5 'Stacking letters'"
RULE_PLURAL = "Upwords, rule 5 'Plurals'"
RULE_SCORING = "Upwords, rule 6 'Scoring'"

#: Rule 6D: using all of your tiles in one turn.
ALL_TILES_BONUS = 20
#: Rule 6C: the Qu tile in a word with every letter one tile high.
QU_BONUS = 2


@dataclass(frozen=True, slots=True)
class ScoredWord:
    """A word formed or changed by a play: its letters, its cells, and what it scored."""

    word: str
    cells: tuple[Cell, ...]
    score: int
    stacked: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "score": self.score,
            "stacked": self.stacked,
            "cells": [list(c) for c in self.cells],
        }


@dataclass(frozen=True, slots=True)
class JudgedPlay:
    """A play the shape rules accept: the board after, the words it formed, and the points."""

    tiles: tuple[Placement, ...]
    after: Board
    words: tuple[ScoredWord, ...]
    bonus: int

    @property
    def points(self) -> int:
        return sum(w.score for w in self.words) + self.bonus

    def summary(self) -> str:
        """'NET 6 + ON 4 = 10', as a player would announce it."""
        parts = [f"{w.word} {w.score}" for w in self.words]
        if self.bonus:
            parts.append(f"all tiles {self.bonus}")
        return " + ".join(parts) + (f" = {self.points}" if len(parts) > 1 else "")


def score_word(board: Board, cells: Sequence[Cell]) -> tuple[int, bool]:
    """Rule 6A-C: (score, stacked). Flat: 2 a tile (+2 with Qu); stacked: 1 a tile, buried ones too."""
    heights = [board.height(r, c) for r, c in cells]
    if all(h == 1 for h in heights):
        qu = any(board.top(r, c) == QU for r, c in cells)
        return 2 * len(cells) + (QU_BONUS if qu else 0), False
    return sum(heights), True


def parse_tiles(raw: object, size: int) -> tuple[Placement, ...]:
    """The ``tiles`` of a play event as placements; IllegalEvent in plain words when malformed."""
    if not isinstance(raw, list) or not raw:
        raise IllegalEvent("a play needs 'tiles': a list of {row, col, letter}", RULE_TURN)
    out: list[Placement] = []
    for n, tile in enumerate(raw, start=1):
        if not isinstance(tile, Mapping):
            raise IllegalEvent(f"tile {n} must be an object with row, col and letter", RULE_TURN)
        row, col = tile.get("row"), tile.get("col")
        if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < size for v in (row, col)):
            raise IllegalEvent(
                f"tile {n} needs a row and a col from 0 to {size - 1}, not {row!r} and {col!r}", RULE_TURN
            )
        try:
            letter = normalise_letter(tile.get("letter"))
        except ValueError as exc:
            raise IllegalEvent(f"tile {n}: {exc}", RULE_TURN) from None
        out.append(Placement(int(row), int(col), letter))  # type: ignore[arg-type]
    return tuple(out)


def judge_play(
    board: Board,
    tiles: Sequence[Placement],
    *,
    rack: int,
    rack_size: int,
    max_height: int,
    allow_plural_s: bool = False,
) -> JudgedPlay:
    """Check a play against rules 3 to 6 and score it; raise IllegalEvent (rule cited) if refused.

    ``rack`` is how many tiles the player holds, ``rack_size`` the full rack (the bonus is
    for using all of them). ``allow_plural_s`` lets players overrule rule 5 'Plurals' for a
    lone S that does not make a plural (HI + S = HIS): the engine cannot tell plurals apart.
    """
    _check_shape(board, tiles, rack, max_height)
    after = board.place(tiles)
    placed = {p.cell for p in tiles}
    if board.is_empty():
        _check_first(board, tiles)
    elif not any(board.occupied(r, c) or _touches(board, r, c) for r, c in placed):
        raise IllegalEvent(
            "the new letters do not touch or stack on any tile already on the board", RULE_TURN
        )
    down_first = len(tiles) > 1 and len({p.col for p in tiles}) == 1
    runs = _runs_through(after, placed, down_first)
    if not runs:
        raise IllegalEvent("the play forms no word of two or more letters", RULE_FORM)
    _check_cover(board, placed)
    if not allow_plural_s:
        _check_plural(board, after, tiles, runs)
    words = []
    for cells in runs:
        score, stacked = score_word(after, cells)
        words.append(ScoredWord(after.spell(cells), cells, score, stacked))
    bonus = ALL_TILES_BONUS if len(tiles) == rack_size else 0
    return JudgedPlay(tuple(tiles), after, tuple(words), bonus)


def _touches(board: Board, r: int, c: int) -> bool:
    return any(board.occupied(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))


def _check_shape(board: Board, tiles: Sequence[Placement], rack: int, max_height: int) -> None:
    if len(tiles) > rack:
        raise IllegalEvent(f"{len(tiles)} tiles were played but the player holds only {rack}", RULE_TURN)
    seen: set[Cell] = set()
    for p in tiles:
        if p.cell in seen:
            raise IllegalEvent(
                f"two tiles on row {p.row + 1}, column {p.col + 1}: only one letter a stack a turn",
                RULE_STACK,
            )
        seen.add(p.cell)
        top = board.top(p.row, p.col)
        if top == p.letter:
            raise IllegalEvent(
                f"{p.letter} cannot be stacked on {p.letter}: never the same letter on itself", RULE_STACK
            )
        if board.height(p.row, p.col) + 1 > max_height:
            raise IllegalEvent(
                f"the stack at row {p.row + 1}, column {p.col + 1} is already {max_height} high; "
                f"letters cannot be stacked more than {max_height} tiles high",
                RULE_STACK,
            )
    rows = {p.row for p in tiles}
    cols = {p.col for p in tiles}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalEvent("all the letters of a turn must be in one row or one column", RULE_TURN)
    if len(tiles) > 1:
        down = len(cols) == 1
        line = sorted(p.row if down else p.col for p in tiles)
        fixed = tiles[0].col if down else tiles[0].row
        for k in range(line[0], line[-1] + 1):
            r, c = (k, fixed) if down else (fixed, k)
            if not board.occupied(r, c) and (r, c) not in seen:
                raise IllegalEvent(
                    f"there is a gap at row {r + 1}, column {c + 1}: the letters must make one unbroken word",
                    RULE_FORM,
                )


def _check_first(board: Board, tiles: Sequence[Placement]) -> None:
    if len(tiles) < 2:
        raise IllegalEvent("the first word must have two letters or more", RULE_FIRST)
    if not board.centre() & {p.cell for p in tiles}:
        raise IllegalEvent("the first word must cover at least one of the four centre squares", RULE_FIRST)


def _runs_through(after: Board, placed: set[Cell], down_first: bool) -> list[tuple[Cell, ...]]:
    """Every line of 2+ tiles through a placed tile: the words formed or changed, main word first."""
    runs: list[tuple[Cell, ...]] = []
    for down in (down_first, not down_first):
        for r, c in sorted(placed):
            cells = after.run(r, c, down)
            if len(cells) >= 2 and cells not in runs:
                runs.append(cells)
    return runs


def _check_cover(board: Board, placed: set[Cell]) -> None:
    """Rule 5: a word changed keeps a letter uncovered; no word is covered whole."""
    for down in (False, True):
        for r, c in placed:
            if not board.occupied(r, c):
                continue
            old = board.run(r, c, down)
            if len(old) >= 2 and all(cell in placed for cell in old):
                raise IllegalEvent(
                    f"the play covers every letter of {board.spell(old)}; at least one letter of a word "
                    f"changed must stay uncovered",
                    RULE_STACK,
                )


def _check_plural(
    board: Board, after: Board, tiles: Sequence[Placement], runs: list[tuple[Cell, ...]]
) -> None:
    """Rule 5 'Plurals': one S laid after a word, forming nothing else, only makes it plural."""
    pairs = _added_s(board, after, tiles, runs)
    if pairs:
        raise IllegalEvent(" and ".join(f"{new} adds only an S to {old}" for new, old in pairs), RULE_PLURAL)


def _added_s(
    board: Board, after: Board, tiles: Sequence[Placement], runs: list[tuple[Cell, ...]]
) -> list[tuple[str, str]]:
    if len(tiles) != 1 or tiles[0].letter != "S" or board.occupied(*tiles[0].cell):
        return []
    cell = tiles[0].cell
    # A run of two (A + S = AS) is a new word of its own, not a word on the board made plural.
    if not runs or not all(run[-1] == cell and len(run) >= 3 for run in runs):
        return []
    return [(after.spell(run), board.spell(run[:-1])) for run in runs]


def added_s(board: Board, tiles: Sequence[Placement]) -> list[tuple[str, str]]:
    """The (new word, word on the board) pairs that rule 5 'Plurals' would refuse for this
    play — one S laid after words, forming nothing else: [("PLANS", "PLAN")]. Empty when
    the rule does not apply. The engine cannot tell a plural (PLANS) from a new word (HIS):
    the kiosk asks the word authority and sends ``not_plural`` when none is a plural.
    """
    if not tiles:
        return []
    after = board.place(tiles)
    placed = {p.cell for p in tiles}
    return _added_s(board, after, tiles, _runs_through(after, placed, False))

"""The shared "right or asked" check fails a reader that asks about everything."""

from __future__ import annotations

import pytest
from doubt import assert_right_or_asked, doubt_ceiling

from vision.reading import BoardReading, CellReading, StreetColumn, StreetReading


def _board(size: int, side: int, confidence: float) -> BoardReading:
    """A grid of ``size`` cells, each holding an A at ``confidence``."""
    cells = tuple(CellReading(k // side, k % side, "A", 1, confidence) for k in range(size))
    return BoardReading("grid", size // side, side, cells)


#: (asked when measured, items) of some of the bounds the reading tests set, the highest among them
BOUNDS = [(0, 17), (14, 17), (0, 64), (20, 64), (49, 100), (84, 100), (89, 100), (0, 225), (31, 225)]


@pytest.mark.parametrize(("measured", "items"), BOUNDS)
def test_a_reading_that_asks_about_every_cell_fails(measured: int, items: int) -> None:
    side = 17 if items == 17 else int(items**0.5)
    all_asked = _board(items, side, confidence=0.0)
    assert all(cell.uncertain for cell in all_asked.cells)
    with pytest.raises(AssertionError, match=f"{items} of {items} asked"):
        assert_right_or_asked(all_asked, lambda cell: cell.letter == "A", measured=measured)
    with pytest.raises(AssertionError, match=f"{items} of {items} asked"):  # one cell checked: the same
        assert_right_or_asked(all_asked, lambda cell: cell.letter == "A", at={(0, 0)}, measured=measured)
    sure = _board(items, side, confidence=1.0)
    assert_right_or_asked(sure, lambda cell: cell.letter == "A", measured=measured)


def test_a_street_that_asks_about_every_column_fails() -> None:
    columns = tuple(StreetColumn(letter, 0, 0.0) for letter in "ABCDEFGHIJKLMNOPR")
    with pytest.raises(AssertionError, match="17 of 17 asked"):
        assert_right_or_asked(StreetReading(columns), lambda column: column.position == 0, measured=0)


def test_a_wrong_read_not_asked_fails_and_asked_passes() -> None:
    reading = _board(64, 8, confidence=1.0)
    with pytest.raises(AssertionError, match="read wrong and not asked"):
        assert_right_or_asked(reading, lambda cell: (cell.row, cell.col) != (3, 3), measured=0)
    cells = tuple(CellReading(c.row, c.col, c.letter, c.height, 0.2 if (c.row, c.col) == (3, 3) else 1.0)
                  for c in reading.cells)
    asked = BoardReading("grid", 8, 8, cells)
    assert_right_or_asked(asked, lambda cell: (cell.row, cell.col) != (3, 3), measured=1)


def test_the_ceiling_is_the_measure_and_a_stated_margin_always_below_every_cell() -> None:
    assert [doubt_ceiling(m, 100) for m in (0, 4, 20, 76, 89, 98, 99)] == [2, 6, 25, 88, 94, 99, 99]
    assert all(doubt_ceiling(m, n) < n for n in (17, 64, 100, 225) for m in range(n))
    with pytest.raises(ValueError, match="would prove nothing"):
        assert_right_or_asked(_board(64, 8, 0.0), lambda cell: True, measured=64)

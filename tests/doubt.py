"""Right or asked, and asking little: the check every reading test shares.

A reader may be unsure, and then it must say so: every cell (or street column) is read right
or marked uncertain, and the kiosk asks the players about it. A check of that alone is passed
by a reader that asks about everything. So each such check also holds the reading to a
ceiling on doubt: no more items asked than were measured on that very picture when the
check was written, plus a margin (:func:`doubt_ceiling`) for a machine whose floating point
rounds a borderline cell the other way. The ceiling is always below the number of items, so
a reader that asks about everything fails (``test_doubt.py`` shows it).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

#: The margin over the measured number of asked items: a quarter more, and at least this many,
#: but never more than this share of the items the reading was sure of.
MARGIN_SHARE = 0.25
MARGIN_AT_LEAST = 2
MARGIN_OF_THE_SURE = 0.5


def doubt_ceiling(measured: int, items: int) -> int:
    """The most of ``items`` a reading may ask about when ``measured`` were asked when it was
    measured: below ``items`` whenever the reading was sure of at least one."""
    margin = max(MARGIN_AT_LEAST, math.ceil(measured * MARGIN_SHARE))
    return measured + min(margin, math.floor((items - measured) * MARGIN_OF_THE_SURE))


def items_of(reading: Any) -> Sequence[Any]:
    """The cells of a board reading, the columns of a street reading, or the items given; a
    reading's JSON form (``tablekeeper read --json``) gives its cells."""
    if isinstance(reading, Mapping):
        return reading["cells"] if "cells" in reading else reading["columns"]
    for name in ("cells", "columns"):
        if hasattr(reading, name):
            return tuple(getattr(reading, name))
    return tuple(reading)


def is_asked(item: Any) -> bool:
    return bool(item["uncertain"] if isinstance(item, Mapping) else item.uncertain)


def own_doubt(cell: Any) -> bool:
    """Asked, and not because of a hand: while a hand is in the picture the reader flags every
    cell (under it, or "a hand or arm is over the board", keeping their values from before in
    doubt) and the kiosk waits, so a ceiling on all doubt there would prove nothing. The cells
    a hand flags are the hand's doubt; the ceiling counts the others the reader asks about."""
    from vision.hands import HAND_OVER_BOARD_FLAG, UNDER_HAND_FLAG

    return bool(cell.uncertain) and not {UNDER_HAND_FLAG, HAND_OVER_BOARD_FLAG} & set(cell.flags)


def _where(item: Any) -> Any:
    if isinstance(item, Mapping):
        return item.get("letter") if "row" not in item else (item["row"], item["col"])
    if hasattr(item, "row"):
        return item.row, item.col
    return item.letter


def assert_asks_little(reading: Any, *, measured: int, counted: Callable[[Any], bool] = is_asked,
                       what: str = "") -> None:
    """The reading asks about at most :func:`doubt_ceiling` (``measured``) of its items (those
    ``counted`` as asked: by default the uncertain ones). For a check that a cell *is* asked,
    which a reader asking about everything passes too.

    ``measured``: how many items this reading asked about when its bound was set. To measure
    again, run the tests with ``TABLEKEEPER_MEASURE_DOUBT`` naming a file: each check appends
    its test, ``what`` and count to it as a JSON line (and the ceiling is not enforced, so that
    every check of a test is measured).
    """
    items = items_of(reading)
    doubted = sum(map(counted, items))
    record = os.environ.get("TABLEKEEPER_MEASURE_DOUBT")
    if record:
        with open(record, "a", encoding="utf-8") as out:
            out.write(json.dumps({"test": os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0],
                                  "what": what, "asked": doubted, "items": len(items),
                                  "measured": measured}) + "\n")
    ceiling = doubt_ceiling(measured, len(items))
    if ceiling >= len(items):
        raise ValueError(f"a ceiling of {ceiling} of {len(items)} items would let a reader ask about "
                         "everything: this check would prove nothing")
    assert record or doubted <= ceiling, (
        f"{what}: {doubted} of {len(items)} asked, over the ceiling of {ceiling} "
        f"({measured} measured, plus the margin)")


def assert_right_or_asked(reading: Any, right: Callable[[Any], bool], *, measured: int,
                          at: Collection[Any] | None = None, what: str = "",
                          asked: Callable[[Any], bool] = is_asked,
                          counted: Callable[[Any], bool] | None = None) -> None:
    """Each item of ``reading`` that ``at`` names (by (row, col), or a street column by its
    letter; all when None) is ``right`` or ``asked``, and the whole reading asks about few
    items (:func:`assert_asks_little`, ``measured``).

    ``asked``: whether an item is in doubt about what ``right`` checks; by default whether it is
    uncertain at all. ``counted``: the doubt the ceiling counts, by default ``asked``
    (:func:`own_doubt` in a picture with a hand).
    """
    items = items_of(reading)
    checked = [item for item in items if at is None or _where(item) in at]
    if at is not None and len(checked) != len(at):
        raise ValueError(f"{what}: {sorted(map(str, at))} are not all items of the reading")
    silent = [item for item in checked if not right(item) and not asked(item)]
    assert not silent, f"{what}: read wrong and not asked: {silent[:4]}"
    assert_asks_little(items, measured=measured, counted=counted or asked, what=what)

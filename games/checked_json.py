"""Reading JSON a person may have damaged or made up, with its numbers and nesting checked.

Python's ``json`` reads ``NaN``, ``Infinity``, a number of a million digits and lists nested
a hundred thousand deep; each is a crash or a stall further on, never a game's or a
calibration's data. One reader, used for transcripts (:mod:`games.transcript`) and the
calibration file (:mod:`calibration.file`), turns each into a ValueError in plain words.
"""

from __future__ import annotations

import json
import math
from typing import Any


def checked_loads(text: str, *, max_digits: int, max_depth: int, holder: str) -> Any:
    """``json.loads`` of ``text``: every number finite and at most ``max_digits`` digits long,
    nothing nested deeper than ``max_depth``; ``holder`` names what the text is ("a
    transcript") in the messages. Raises ``json.JSONDecodeError`` for text that is not JSON
    and ValueError for each breach."""

    def whole(digits: str) -> int:
        if len(digits.lstrip("-")) > max_digits:
            raise ValueError(f"a number of {len(digits.lstrip('-'))} digits is longer than {holder} holds")
        return int(digits)

    def real(digits: str) -> float:
        value = float(digits)
        if not math.isfinite(value):
            shown = digits[:20] + ("..." if len(digits) > 20 else "")
            raise ValueError(f"the number {shown} is not a finite number")
        return value

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a number {holder} may hold")

    too_deep = f"a value nested too deeply (more than {max_depth} levels)"
    try:
        value = json.loads(text, parse_int=whole, parse_float=real, parse_constant=constant)
    except RecursionError:
        raise ValueError(too_deep) from None
    if depth(value, max_depth) > max_depth:
        raise ValueError(too_deep)
    return value


def depth(value: Any, limit: int) -> int:
    """How deep lists and objects nest in ``value`` (a number or text: 0), looked at no
    further than one level past ``limit``, without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        if level <= limit:
            todo.extend((child, level + 1) for child in children)
    return deepest

"""Waiting for what another thread or process does: the condition itself, polled to a deadline.

A test that sleeps a while and then looks hopes the while was long enough; on a loaded machine
it is not, and a check that nothing happened passes however slow the thing it waits for is.
These helpers wait for the condition, as long as it takes up to a deadline that only a fault
reaches, and fail saying what never happened.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_for(condition: Callable[[], T], what: str | Callable[[], str], timeout: float = 10.0,
             every: float = 0.02) -> T:
    """``condition()``'s first true value, asked every ``every`` seconds; after ``timeout``
    seconds an AssertionError saying ``what`` was waited for (a callable: called then, to say
    how things stood)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"waited {timeout:g} s for {said}")
        time.sleep(every)

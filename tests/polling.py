"""Waiting in tests for what a worker thread does in its own time."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    """Whether ``condition`` came true within ``seconds`` (polled every tenth of a second): generous
    timeouts cost time only when something is wrong."""
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        if condition():
            return True
        time.sleep(0.1)
    return False

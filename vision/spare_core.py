"""Two pieces of one read run at once, on the processor's second core.

Why: the costly parts of a full board's read are single OpenCV and BLAS calls (the letters' HOG,
their distances to the taught set), and both let go of Python while they work, so a second
thread runs beside the first instead of waiting for it. The kiosk's Pi 5 has four cores and this
machine two; the screen and the camera take little of them between pictures.

Threads that hold Python (most of the rest of a read) gain nothing this way and are not split.
The spare thread is one worker, first in, first out: a task given to it may wait for one given
before it, never for one given after.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import TypeVar

First = TypeVar("First")
Second = TypeVar("Second")

_SPARE: list[ThreadPoolExecutor] = []  # made on first use: a process that never reads needs none


def later(work: Callable[..., First], *args: object) -> Future[First]:
    """``work(*args)`` on the spare thread, after whatever it was given before."""
    return _spare().submit(work, *args)


def at_once(first: Callable[[], First], second: Callable[[], Second]) -> tuple[First, Second]:
    """``first()`` on the spare thread and ``second()`` on this one, both results once both are
    done (an exception in either is raised here).

    If the spare thread has not begun ``first`` by the time ``second`` is done (it is busy with
    earlier work, such as the hands' check), ``first`` is taken back and run here: waiting for
    the spare thread would take longer."""
    pending = _spare().submit(first)
    try:
        mine = second()
    except BaseException:
        if not pending.cancel():
            wait([pending])  # running: let it end before the caller goes on
        raise
    if pending.cancel():
        return first(), mine
    return pending.result(), mine


def _spare() -> ThreadPoolExecutor:
    if not _SPARE:
        _SPARE.append(ThreadPoolExecutor(1, thread_name_prefix="spare-core"))
    return _SPARE[0]

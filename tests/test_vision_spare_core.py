"""The spare core: work handed to it comes back in order, and its failures reach the caller."""

from __future__ import annotations

import threading

import pytest

from vision.spare_core import at_once, later


def test_at_once_returns_both_in_order_and_raises_either_failure() -> None:
    assert at_once(lambda: "first", lambda: "second") == ("first", "second")

    def fail() -> str:
        raise ValueError("the spare thread failed")

    with pytest.raises(ValueError, match="spare thread"):
        at_once(fail, lambda: "fine")
    with pytest.raises(ZeroDivisionError):
        at_once(lambda: "fine", lambda: 1 // 0)


def test_later_runs_on_another_thread_in_the_order_given() -> None:
    done: list[int] = []
    here = threading.get_ident()

    def step(n: int) -> int:
        done.append(n)
        return threading.get_ident()

    pending = [later(step, n) for n in range(20)]
    where = {p.result() for p in pending}
    assert done == list(range(20))
    assert len(where) == 1 and here not in where


def test_a_task_may_wait_for_one_given_before_it() -> None:
    """One worker, first in first out: a task waiting on an earlier one never waits forever."""
    first = later(lambda: 21)
    second = later(lambda: first.result() * 2)
    assert second.result(timeout=5) == 42


def test_work_the_spare_thread_has_not_begun_is_done_here_instead() -> None:
    """While the spare thread is busy, at_once does both halves on the caller's thread rather
    than wait."""
    release = threading.Event()
    busy = later(release.wait, 5)
    here = threading.get_ident()
    first, second = at_once(threading.get_ident, threading.get_ident)
    release.set()
    assert busy.result() is True
    assert first == second == here


def test_work_the_spare_thread_has_begun_is_waited_for() -> None:
    started, release = threading.Event(), threading.Event()

    def first() -> int:
        started.set()
        release.wait(5)
        return threading.get_ident()

    def second() -> int:
        started.wait(5)
        release.set()
        return threading.get_ident()

    there, here = at_once(first, second)
    assert there != here == threading.get_ident()

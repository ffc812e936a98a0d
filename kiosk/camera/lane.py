"""One worker thread for camera calls that may never return, and a deadline for each call.

A camera stack can block for good: ``import picamera2`` waiting on a libcamera that never
answers, ``Picamera2()`` or ``capture_array`` stuck in the kernel. Python cannot kill a
thread, so the only safe rule is to never start a second one behind a stuck one: a
:class:`Lane` runs its calls on one worker, the caller waits at most ``deadline`` seconds,
and while a call that overran its deadline is still running every new call is refused at
once with :class:`DidNotAnswer` (no new thread). The worker is replaced only once it has
ended. When a stuck call does finish late, its result goes to ``abandon`` (a camera that
opened too late is closed again) and the lane is free for the next try.

The kiosk has one lane for opening the camera (:data:`OPENING`: an import that hangs holds
Python's import lock for that module, so any second try would hang too) and one for
pictures (:data:`CAPTURE`).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds the camera's software has to import and open the camera. A Pi 4 imports and
#: starts picamera2 in 1-3 s from a cold boot; twice that is "did not answer".
OPEN_DEADLINE = 6.0


class DidNotAnswer(TimeoutError):
    """A camera call overran its deadline."""


class StillStuck(DidNotAnswer):
    """A call refused at once because an earlier one overran its deadline and still runs."""


@dataclass
class _Job(Generic[T]):
    call: Callable[[], T]
    what: str
    deadline: float
    abandon: Callable[[T], object] | None
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None
    overdue: bool = False
    started: float = 0.0


class Lane:
    """Calls run one at a time on a single worker thread (a daemon: a stuck driver must not
    keep the process from exiting), each waited for at most its deadline."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._lock = threading.Condition()
        self._jobs: queue.Queue[_Job[Any]] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._current: _Job[Any] | None = None

    @property
    def stuck(self) -> str:
        """What the worker is stuck on ("" when it is free or working within its deadline)."""
        with self._lock:
            job = self._current
            return job.what if job is not None and job.overdue else ""

    def call(self, call: Callable[[], T], deadline: float, what: str,
             abandon: Callable[[T], object] | None = None) -> T:
        """``call()``'s result or exception, or :class:`DidNotAnswer` after ``deadline`` seconds.

        ``what`` names the call in plain words ("opening the camera"). A call made while an
        earlier one is stuck is refused at once; one made while another caller's call is
        merely running waits for it within its own deadline.
        """
        job: _Job[T] = _Job(call, what, deadline, abandon)
        give_up = time.monotonic() + deadline
        with self._lock:
            while self._current is not None:
                if self._current.overdue:
                    raise StillStuck(self._refusal(self._current))
                left = give_up - time.monotonic()
                if left <= 0:
                    raise DidNotAnswer(f"did not answer ({what}: busy for over {deadline:g} s)")
                self._lock.wait(left)
            self._current = job
            job.started = time.monotonic()
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._serve, name=self.name, daemon=True)
                self._worker.start()
            self._jobs.put(job)
        if not job.done.wait(max(0.0, give_up - time.monotonic())):
            with self._lock:
                if not job.done.is_set():
                    job.overdue = True
                    self._lock.notify_all()
                    log.error("%s did not answer within %.1f s; no new try while it is stuck", what, deadline)
                    raise DidNotAnswer(f"did not answer ({what} took over {deadline:g} s)")
        if job.error is not None:
            raise job.error
        return job.result

    def _refusal(self, stuck: _Job[Any]) -> str:
        waited = time.monotonic() - stuck.started
        return (f"did not answer ({stuck.what} has been stuck for {waited:.0f} s; "
                "no new try while it is)")

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                job.result = job.call()
            except BaseException as exc:  # handed to the caller's thread, which decides
                job.error = exc
            with self._lock:
                job.done.set()
                late = job.overdue
                self._current = None
                self._lock.notify_all()
            if late:
                log.warning("%s answered after all, too late; the lane is free again", job.what)
                if job.abandon is not None and job.error is None:
                    try:
                        job.abandon(job.result)
                    except Exception:
                        log.exception("releasing what %s gave too late", job.what)


#: Importing picamera2 and opening the camera (the kiosk's start, doctor, reopening a lost camera).
OPENING = Lane("camera-open")
#: Asking the open camera for a picture.
CAPTURE = Lane("camera-read")

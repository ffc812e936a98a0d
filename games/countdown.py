"""The turn timer as a pure value: a countdown is a function of its start, its pauses and "now".

Nothing here reads a clock. Every method takes ``now``: a monotonic clock value in float
seconds that the caller injects (``time.monotonic()`` on the table, a number in a test).
The remaining time is always *computed* from the clock, never counted down tick by tick,
so a slow or irregular caller cannot make the timer drift.

>>> c = Countdown(30.0).start(now=100.0)
>>> c.remaining(112.5), c.phase(112.5).value
(17.5, 'running')
>>> c.pause(115.0).remaining(500.0)        # paused: time stands still
15.0
>>> [cue.kind.value for cue in c.cues(119.0, 126.0)]
['warning', 'tick', 'tick']

Two layers:

* :class:`Countdown` — the immutable state and its questions (``remaining``, ``phase``,
  ``cues`` due in an interval, ``next_cue_at``).
* :class:`Track` — a countdown plus how far its cues have been reported. It is the whole
  memory a driver (the GPIO loop, the on-screen timer) needs: ``poll(now)`` returns the
  cues due since the last poll, exactly once each however irregularly it is called, and
  each command (start, pause, …) returns the cues it causes (the start chirp, …).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum


class Phase(StrEnum):
    """Where a countdown is. ``warning`` is ``running`` in its last seconds."""

    IDLE = "idle"
    RUNNING = "running"
    WARNING = "warning"
    PAUSED = "paused"
    EXPIRED = "expired"


class CueKind(StrEnum):
    """A moment the players should hear (and the ring may show)."""

    START = "start"  # the turn began
    RESUME = "resume"  # a pause ended
    PAUSE = "pause"
    RESET = "reset"
    ADJUST = "adjust"  # a referee added or took time
    WARNING = "warning"  # the warning threshold (10 s by default) was reached
    TICK = "tick"  # one of the last seconds (5, 4, 3, 2, 1)
    FINAL = "final"  # time is up


@dataclass(frozen=True, slots=True)
class Cue:
    """One cue: what, at which clock time it was due, and the seconds left at that moment."""

    kind: CueKind
    at: float
    remaining: float


class CountdownError(ValueError):
    """A command that makes no sense for the countdown as it is, said in plain words."""


def _check_seconds(name: str, value: float, *, positive: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise CountdownError(f"{name} must be a number of seconds, not {value!r}")
    if value < 0 or (positive and value == 0):
        raise CountdownError(
            f"{name} must be {'more than' if positive else 'at least'} 0 seconds, not {value}"
        )
    return float(value)


@dataclass(frozen=True, slots=True)
class Countdown:
    """A turn timer of ``duration`` seconds that warns ``warning`` seconds before the end.

    ``used`` is the time used up before the current running stretch (net of corrections)
    and ``since`` the clock value at which that stretch began (None while not running);
    ``started`` is False only for a fresh or reset countdown. Construct it with just the
    duration (and options) and change it only through the methods, which return new values.

    ``tick_seconds`` is how many of the last seconds get a tick cue (0 for none).
    """

    duration: float
    warning: float = 10.0
    tick_seconds: int = 5
    used: float = 0.0
    since: float | None = None
    started: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "duration", _check_seconds("the turn length", self.duration, positive=True))
        object.__setattr__(self, "warning", _check_seconds("the warning", self.warning, positive=False))
        if (
            isinstance(self.tick_seconds, bool)
            or not isinstance(self.tick_seconds, int)
            or self.tick_seconds < 0
        ):
            raise CountdownError(
                f"the number of ticks must be a whole number 0 or more, not {self.tick_seconds!r}"
            )
        if not math.isfinite(self.used):
            raise CountdownError("the time used must be a finite number of seconds")
        if self.since is not None and not self.started:
            raise CountdownError("a countdown that is running must have been started")

    # ------------------------------------------------------------------ questions
    @property
    def running(self) -> bool:
        """True while the clock counts (including the warning, and after expiry until reset)."""
        return self.since is not None

    @property
    def ends_at(self) -> float | None:
        """The clock value at which time runs out, or None while idle or paused."""
        return None if self.since is None else self.since + self.duration - self.used

    def elapsed(self, now: float) -> float:
        """Seconds used so far (corrections included)."""
        if self.since is None:
            return self.used
        return self.used + max(0.0, now - self.since)

    def remaining(self, now: float) -> float:
        """Seconds left, never below 0; may exceed the duration after time was added."""
        if self.since is None:
            return max(0.0, self.duration - self.used)
        return max(0.0, self.since + self.duration - self.used - max(now, self.since))

    def fraction(self, now: float) -> float:
        """The share of the turn left, 1.0 (full) down to 0.0, for a ring or a bar."""
        return min(1.0, self.remaining(now) / self.duration)

    def phase(self, now: float) -> Phase:
        if not self.started:
            return Phase.IDLE
        end = self.ends_at
        if end is None:
            return Phase.PAUSED if self.used < self.duration else Phase.EXPIRED
        if now >= end:
            return Phase.EXPIRED
        if self.warning > 0 and now >= end - self.warning:
            return Phase.WARNING
        return Phase.RUNNING

    def cue_times(self) -> list[Cue]:
        """Every time-driven cue of the current running stretch, in order (none unless running)."""
        end = self.ends_at
        if end is None:
            return []
        cues = []
        if self.warning > 0:
            cues.append(Cue(CueKind.WARNING, end - self.warning, self.warning))
        for second in range(self.tick_seconds, 0, -1):
            if second != self.warning:
                cues.append(Cue(CueKind.TICK, end - second, float(second)))
        cues.append(Cue(CueKind.FINAL, end, 0.0))
        return sorted(cues, key=lambda c: c.at)

    def cues(self, t0: float, t1: float) -> list[Cue]:
        """The time-driven cues due in the interval (t0, t1], oldest first.

        Half-open intervals that share their ends (``(a, b]``, ``(b, c]``, …) report every
        cue exactly once, however irregular the polling. Cues before the current running
        stretch began are never due (a 5 s turn has no 10 s warning).
        """
        if self.since is None:
            return []
        start = max(t0, self.since)
        return [c for c in self.cue_times() if start < c.at <= t1]

    def next_cue_at(self, now: float) -> float | None:
        """When the next time-driven cue is due (strictly after ``now``), or None."""
        return next((c.at for c in self.cue_times() if c.at > now), None)

    # ------------------------------------------------------------------ commands
    def start(self, now: float) -> Countdown:
        """Start a turn from idle or after time ran out; resume if paused; no change if running."""
        phase = self.phase(now)
        if phase in (Phase.IDLE, Phase.EXPIRED):
            return replace(self.reset(), since=now, started=True)
        if phase is Phase.PAUSED:
            return self.resume(now)
        return self

    def pause(self, now: float) -> Countdown:
        """Freeze the remaining time; no change unless running (time that is up stays up)."""
        if self.phase(now) in (Phase.RUNNING, Phase.WARNING):
            return replace(self, used=self.elapsed(now), since=None)
        return self

    def resume(self, now: float) -> Countdown:
        if self.phase(now) is Phase.PAUSED:
            return replace(self, since=now)
        return self

    def toggle(self, now: float) -> Countdown:
        """The one-button action: start, pause, resume — or, after time ran out, the next turn."""
        if self.phase(now) in (Phase.RUNNING, Phase.WARNING):
            return self.pause(now)
        return self.start(now)

    def reset(self) -> Countdown:
        """Back to a full, idle turn with the same settings."""
        return Countdown(self.duration, self.warning, self.tick_seconds)

    def adjust(self, seconds: float, now: float) -> Countdown:
        """Add (positive) or take (negative) time: a referee's correction.

        Taking more than is left ends the turn now. Adding time after it ran out gives the
        team that many more seconds, running from now. An idle timer has no turn to correct.
        """
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not math.isfinite(seconds):
            raise CountdownError(f"the correction must be a number of seconds, not {seconds!r}")
        phase = self.phase(now)
        if seconds == 0:
            return self
        if phase is Phase.IDLE:
            raise CountdownError("the timer has not started: start the turn before adding or taking time")
        if phase is Phase.EXPIRED:
            if seconds < 0:
                raise CountdownError("time is already up: there is no time left to take")
            return replace(self, used=self.duration - seconds, since=now)
        used = min(self.duration, self.elapsed(now) - seconds)
        if phase is Phase.PAUSED and used < self.duration:
            return replace(self, used=used)
        # Running, or a paused turn whose time was all taken: it runs out now.
        return replace(self, used=used, since=now)

    def with_settings(
        self, *, duration: float | None = None, warning: float | None = None, tick_seconds: int | None = None
    ) -> Countdown:
        """A fresh idle countdown with new settings (a changed turn length starts a new turn)."""
        return Countdown(
            self.duration if duration is None else duration,
            self.warning if warning is None else warning,
            self.tick_seconds if tick_seconds is None else tick_seconds,
        )


@dataclass(frozen=True, slots=True)
class Track:
    """A countdown and the clock time up to which its cues have been reported.

    Every method returns the new track and the cues due, so a driver keeps exactly one
    value and never misses or repeats a cue. Times earlier than the last one seen (a
    command stamped a moment before a poll on another thread) are treated as that time.

    >>> t = Track(Countdown(12.0))
    >>> t, cues = t.start(0.0); [c.kind.value for c in cues]
    ['start']
    >>> t, cues = t.poll(2.3); [c.kind.value for c in cues]
    ['warning']
    """

    countdown: Countdown
    reported_to: float = float("-inf")

    def _flush(self, now: float) -> tuple[float, list[Cue]]:
        now = max(now, self.reported_to)
        return now, self.countdown.cues(self.reported_to, now)

    def poll(self, now: float) -> tuple[Track, tuple[Cue, ...]]:
        now, due = self._flush(now)
        return Track(self.countdown, now), tuple(due)

    def next_cue_at(self, now: float) -> float | None:
        return self.countdown.next_cue_at(max(now, self.reported_to))

    def _command(self, now: float, new: Countdown, kind: CueKind | None) -> tuple[Track, tuple[Cue, ...]]:
        now, due = self._flush(now)
        if new != self.countdown and kind is not None:
            due.append(Cue(kind, now, new.remaining(now)))
        return Track(new, now), tuple(due)

    def start(self, now: float) -> tuple[Track, tuple[Cue, ...]]:
        now = max(now, self.reported_to)
        before = self.countdown.phase(now)
        kind = CueKind.RESUME if before is Phase.PAUSED else CueKind.START
        return self._command(now, self.countdown.start(now), kind)

    def pause(self, now: float) -> tuple[Track, tuple[Cue, ...]]:
        now = max(now, self.reported_to)
        return self._command(now, self.countdown.pause(now), CueKind.PAUSE)

    def resume(self, now: float) -> tuple[Track, tuple[Cue, ...]]:
        now = max(now, self.reported_to)
        return self._command(now, self.countdown.resume(now), CueKind.RESUME)

    def toggle(self, now: float) -> tuple[Track, tuple[Cue, ...]]:
        now = max(now, self.reported_to)
        if self.countdown.phase(now) in (Phase.RUNNING, Phase.WARNING):
            return self.pause(now)
        return self.start(now)

    def reset(self, now: float) -> tuple[Track, tuple[Cue, ...]]:
        now = max(now, self.reported_to)
        return self._command(now, self.countdown.reset(), CueKind.RESET)

    def replace_countdown(self, countdown: Countdown, now: float) -> tuple[Track, tuple[Cue, ...]]:
        """Swap in a new countdown (new settings); no cue of its own."""
        now = max(now, self.reported_to)
        return self._command(now, countdown, None)

    def adjust(self, seconds: float, now: float) -> tuple[Track, tuple[Cue, ...]]:
        """Correct the time; a jump across the warning or to zero sounds that cue instead."""
        now = max(now, self.reported_to)
        old = self.countdown
        new = old.adjust(seconds, now)  # raises CountdownError before anything changes
        track, due = self._command(now, new, CueKind.ADJUST)
        due_list = list(due)
        before, after = old.remaining(now), new.remaining(now)
        if before > 0 and after <= 0:
            due_list[-1] = Cue(CueKind.FINAL, now, 0.0)
        elif old.warning > 0 and before > old.warning >= after and new.phase(now) is Phase.WARNING:
            due_list[-1] = Cue(CueKind.WARNING, now, after)
        return track, tuple(due_list)

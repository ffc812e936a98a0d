"""Helpers for the hardware tests: a fake clock and a reader of gpiozero mock pins' histories.

gpiozero's ``MockPin`` records every state change in ``pin.states`` (with real-clock
timestamps). The timer runs on a fake clock, so :class:`PinTimeline` tags each new entry of
that recorded history with the fake time of the poll that produced it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hardware.table_timer import TableTimer


@dataclass
class FakeClock:
    """A monotonic clock the test moves by hand."""

    t: float = 0.0

    def __call__(self) -> float:
        return self.t


@dataclass
class PinTimeline:
    """The (fake time, state) changes of some mock pins, read from their recorded ``states``."""

    pins: dict[str, Any]
    changes: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    _seen: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, pin in self.pins.items():
            pin.clear_states()
            self.changes[name] = [(float("-inf"), float(pin.states[0].state))]
            self._seen[name] = 1

    def record(self, t: float) -> None:
        for name, pin in self.pins.items():
            for entry in pin.states[self._seen[name] :]:
                self.changes[name].append((t, float(entry.state)))
            self._seen[name] = len(pin.states)

    def value_at(self, name: str, t: float) -> float:
        """The pin's state just after the poll at fake time ``t``."""
        value = self.changes[name][0][1]
        for when, state in self.changes[name]:
            if when <= t:
                value = state
        return value

    def rises(self, name: str) -> list[float]:
        """Fake times at which the pin went from 0 to on."""
        out, prev = [], self.changes[name][0][1]
        for when, state in self.changes[name][1:]:
            if prev == 0 and state > 0:
                out.append(when)
            prev = state
        return out

    def spans(self, name: str) -> list[tuple[float, float]]:
        """(on, off) fake times of each time the pin was on."""
        out, on_at, prev = [], None, self.changes[name][0][1]
        for when, state in self.changes[name][1:]:
            if prev == 0 and state > 0:
                on_at = when
            elif prev > 0 and state == 0 and on_at is not None:
                out.append((on_at, when))
                on_at = None
            prev = state
        return out


def drive(timer: TableTimer, clock: FakeClock, until: float, timeline: PinTimeline) -> None:
    """Run the timer's own loop logic on the fake clock: poll, jump to the next change, repeat."""
    while True:
        wake = timer.poll()
        timeline.record(clock.t)
        if wake is None or wake > until:
            break
        assert wake > clock.t, "the timer asked to be woken in the past"
        clock.t = wake
    if clock.t < until:
        clock.t = until
        timer.poll()
        timeline.record(clock.t)


def step(timer: TableTimer, clock: FakeClock, until: float, timeline: PinTimeline, dt: float = 0.01) -> None:
    """Poll every ``dt`` seconds of fake time (as a naive fixed-rate loop would) up to ``until``."""
    start = clock.t
    n = 1
    while clock.t < until:
        clock.t = min(until, start + n * dt)
        n += 1
        timer.poll()
        timeline.record(clock.t)

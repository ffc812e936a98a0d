"""The one physical button: a press (and release) starts, pauses or resumes; a 2 s hold resets.

The press acts on release, so a hold never also counts as a press: holding to reset a
paused timer does not first resume it. gpiozero's ``Button`` does the debouncing and the
hold timing (``hold_time``); the callbacks run on gpiozero's threads, so they must be
thread-safe (the :class:`~hardware.table_timer.TableTimer` commands are).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from gpiozero import Button


class PressHoldButton(Protocol):
    """The table timer's button: it calls ``on_press`` for a press, ``on_hold`` for a long hold."""

    def bind(self, on_press: Callable[[], object], on_hold: Callable[[], object]) -> None: ...

    def close(self) -> None: ...


def _nothing() -> None:
    return None


class TimerButton:
    """A push button from ``pin`` to ground (internal pull-up)."""

    def __init__(
        self,
        pin: int,
        *,
        hold_seconds: float = 2.0,
        bounce_time: float | None = None,
        pin_factory: Any = None,
    ) -> None:
        self.button = Button(
            pin, pull_up=True, bounce_time=bounce_time, hold_time=hold_seconds, pin_factory=pin_factory
        )
        self.on_press: Callable[[], object] = _nothing
        self.on_hold: Callable[[], object] = _nothing
        self._held = False
        self._closed = False
        self.button.when_pressed = self._pressed
        self.button.when_held = self._was_held
        self.button.when_released = self._released

    def bind(self, on_press: Callable[[], object], on_hold: Callable[[], object]) -> None:
        self.on_press, self.on_hold = on_press, on_hold

    def _pressed(self) -> None:
        self._held = False

    def _was_held(self) -> None:
        self._held = True
        self.on_hold()

    def _released(self) -> None:
        if not self._held:
            self.on_press()
        self._held = False

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.button.close()

    def __enter__(self) -> TimerButton:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""The turn timer as the kiosk's screens use it: a thin face over ``hardware.TableTimer``.

``TableTimer`` owns the one countdown (``games.countdown``) and drives the LED ring and
the buzzer from its own thread (mock gpiozero pins off the Pi, or no parts at all). The
screen reads the same ``ring_frame`` the LEDs get, so the ring drawn on screen mirrors
the hardware LED for LED; this class only adds what a screen needs (digits, a phase name,
the turn length of the current game) and keeps a hardware fault from reaching the UI.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.countdown import Countdown, CountdownError
from kiosk.files.setting_limits import limit

if TYPE_CHECKING:
    from hardware.table_timer import TableTimer
    from hardware.table_timer import TimerView as TableView

log = logging.getLogger(__name__)

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class TimerView:
    """What the screen draws this frame. ``next_change``: seconds until the ring's frame or
    the digits next change (None: nothing changes by itself, idle or paused)."""

    phase: str
    digits: str
    frame: tuple[RGB, ...]
    remaining: float
    next_change: float | None = None


def warning_seconds(section: dict[str, Any]) -> float:
    """``[timer] warning`` within its limits (``kiosk.files.setting_limits``), else its default."""
    rule = limit("timer", "warning")
    value = section.get("warning", rule.default)
    return float(value if rule.problem(value) is None else rule.default)


class _Keep:
    """The turn length as it is (the default of :meth:`TurnTimer.reset`)."""


KEEP = _Keep()


def digits(remaining: float) -> str:
    """Whole seconds rounded up (a timer shows 1 until it is really 0): '45', '1:30'."""
    whole = int(remaining + 0.999)
    return f"{whole // 60}:{whole % 60:02d}" if whole >= 60 else str(whole)


class TurnTimer:
    """Start/pause/reset the table timer from the screen; ``view()`` each frame.

    ``table`` is a ``hardware.table_timer.TableTimer`` (its thread already started or not:
    :meth:`start` starts it). ``warning`` and ``ticks`` come from the settings.
    """

    def __init__(
        self, table: TableTimer, *, warning: float = 10.0, ticks: bool = True, problem: str = ""
    ) -> None:
        self.table = table
        self.warning = float(warning)
        self.ticks = bool(ticks)
        self.seconds: float | None = table.countdown.duration
        #: A plain sentence for the banner when the hardware is missing or failed.
        self.problem = problem

    def start(self) -> None:
        self.table.start_thread()

    @property
    def enabled(self) -> bool:
        """False for a game played without a timer (Upwords, Option by default)."""
        return bool(self.seconds)

    def _safely(self, what: str, command: Callable[[], object]) -> None:
        try:
            command()
        except CountdownError as exc:
            self.problem = f"The timer refused: {exc}"
        except Exception as exc:  # a failing ring or buzzer must never stop the game
            log.exception("table timer %s failed", what)
            self.problem = f"The timer hardware failed ({exc}); the timer may show on screen only."

    def toggle(self) -> None:
        if self.enabled:
            self._safely("toggle", self.table.toggle)

    def reset(self, seconds: float | _Keep | None = KEEP) -> None:
        """Back to full for the next turn. ``seconds`` (a game's length; None: no timer) changes
        the length; left out, the length stays."""
        if not isinstance(seconds, _Keep) and seconds != self.seconds:
            self.seconds = seconds
            if seconds:
                # A length or warning the countdown refuses is said in the banner, never raised.
                self._safely(
                    "set_countdown",
                    lambda: self.table.set_countdown(
                        Countdown(
                            float(seconds),
                            warning=min(self.warning, float(seconds)),
                            tick_seconds=5 if self.ticks else 0,
                        )
                    ),
                )
        self._safely("reset", self.table.reset)

    def configure(self, section: dict[str, Any]) -> None:
        """Apply the ``[timer]`` settings: warning, ticks and mute. Settings are saved mid-turn,
        so the turn on the clock keeps its time left, running or paused (the length it was
        given stays too: a new length is the game's, set by :meth:`reset` for a new turn)."""
        self.warning = warning_seconds(section)
        self.ticks = bool(section.get("ticks", self.ticks))
        self.set_mute(bool(section.get("mute", False)))
        if not self.enabled:
            return
        from dataclasses import replace

        current = self.table.countdown
        kept = replace(
            current, warning=min(self.warning, current.duration), tick_seconds=5 if self.ticks else 0
        )
        self._safely("set_countdown", lambda: self.table.set_countdown(kept))

    def set_mute(self, muted: bool) -> None:
        """Sound off or on, and nothing else: a turn running (or paused) keeps its time left,
        since the mute button is tapped mid-turn, when the buzzer is what bothers the table."""
        try:
            from hardware.sounds import SoundSettings

            self.table.set_sounds(SoundSettings(mute=muted, ticks=self.ticks))
        except Exception as exc:
            log.warning("could not apply the sound settings: %s", exc)

    def view(self) -> TimerView:
        if not self.enabled:
            return TimerView("off", "--", (), 0.0)
        v = self.table.view()
        return TimerView(
            v.phase.value, digits(v.remaining), v.frame.pixels(1.0), v.remaining, self._next_change(v)
        )

    def _next_change(self, v: TableView) -> float | None:
        """When the screen must look again: the ring's next frame or the next whole second."""
        from games.ring_frames import next_frame_change

        try:
            at = next_frame_change(v.countdown, v.now, self.table.style)
        except Exception:  # a timer double without a style: look again soon
            return 0.1
        if at is None:
            return None
        if v.phase.value in ("running", "warning"):
            # Running, the screen is redrawn once a second, when the digits change, with the
            # ring's frame of that moment: each redraw of the whole window costs more than
            # the ring's smoother steps are worth on screen (the LEDs still get every step).
            return v.remaining % 1.0 or 1.0
        return max(0.0, at - v.now)

    def restore(self, remaining: float) -> None:
        """The turn as it was at a power cut: ``remaining`` seconds left, paused."""
        if not self.enabled:
            return
        from dataclasses import replace

        countdown = self.table.countdown
        used = min(max(0.0, countdown.duration - float(remaining)), countdown.duration)
        restored = replace(countdown.reset(), used=used, started=True)
        self._safely("set_countdown", lambda: self.table.set_countdown(restored))

    def close(self) -> None:
        try:
            self.table.close()
        except Exception:
            log.exception("closing the table timer")

"""The table timer: a countdown driving the LED ring and the buzzer, with a button and listeners.

:class:`TableTimer` owns one :class:`~games.countdown.Track` and turns it into light and
sound. Its loop sleeps exactly until the next thing that must change — a cue, a ring
frame, the end of a beep — so it costs almost nothing between events and is on time at
each one. Commands (``toggle``, ``start``, ``pause``, ``resume``, ``reset``, ``adjust``)
are thread-safe: the kiosk calls them from the UI thread, gpiozero from its button thread.

The clock is injected (``time.monotonic`` by default). Tests pass a fake clock and call
:meth:`TableTimer.poll` themselves; on the table :meth:`TableTimer.start_thread` runs the
loop in the background.

>>> from games.countdown import Countdown
>>> with TableTimer(Countdown(30.0), clock=lambda: 0.0) as timer:
...     timer.toggle().phase.value
'running'
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from games.countdown import Countdown, Cue, Phase, Track
from games.ring_frames import RingFrame, RingStyle, next_frame_change, ring_frame
from hardware.button import PressHoldButton
from hardware.buzzer import CueSounder, Sounder
from hardware.ring import Ring, ScreenOnlyRing
from hardware.sounds import SoundSettings

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TimerView:
    """What the timer looks like at ``now``: for the screen, the terminal and listeners.

    ``cues`` are the cues that this change sounded (empty for a plain frame change).
    """

    countdown: Countdown
    now: float
    frame: RingFrame
    cues: tuple[Cue, ...] = ()

    @property
    def phase(self) -> Phase:
        return self.countdown.phase(self.now)

    @property
    def remaining(self) -> float:
        return self.countdown.remaining(self.now)


Listener = Callable[[TimerView], None]


class TableTimer:
    """Countdown + ring + buzzer + button. Use as a context manager; ``close()`` turns all off."""

    def __init__(
        self,
        countdown: Countdown,
        *,
        ring: Ring | None = None,
        sounder: CueSounder | None = None,
        button: PressHoldButton | None = None,
        style: RingStyle | None = None,
        clock: Callable[[], float] = time.monotonic,
        notes: list[str] | None = None,
    ) -> None:
        self.ring: Ring = ring if ring is not None else ScreenOnlyRing(style.leds if style else 12)
        self.sounder: CueSounder = sounder if sounder is not None else Sounder(None)
        self.style = style or RingStyle(leds=self.ring.leds)
        self.button = button
        #: Plain-words notes on how the hardware was set up (e.g. why mock pins are used).
        self.notes: list[str] = list(notes or [])
        self._clock = clock
        self._cond = threading.Condition(threading.RLock())
        self._track = Track(countdown)
        self._frame: RingFrame | None = None
        self._listeners: list[Listener] = []
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._dirty = False
        self._closed = False
        if button is not None:
            button.bind(self.toggle, self.reset)
        self._apply(lambda track, now: (track, ()))

    # ------------------------------------------------------------------ state
    @property
    def countdown(self) -> Countdown:
        with self._cond:
            return self._track.countdown

    def view(self, now: float | None = None) -> TimerView:
        with self._cond:
            now = self._clock() if now is None else now
            countdown = self._track.countdown
            return TimerView(countdown, now, ring_frame(countdown, now, self.style))

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(view)`` after every command, cue and ring change.

        It runs on whichever thread made the change (the timer's loop, the button's thread,
        the caller of a command), so a GUI should only schedule a redraw from it.
        """
        with self._cond:
            self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        with self._cond:
            if listener in self._listeners:
                self._listeners.remove(listener)

    # ------------------------------------------------------------------ commands
    def toggle(self) -> TimerView:
        """The button: start, pause, resume, or after time ran out start the next turn."""
        return self._apply(lambda track, now: track.toggle(now))

    def start(self) -> TimerView:
        return self._apply(lambda track, now: track.start(now))

    def pause(self) -> TimerView:
        return self._apply(lambda track, now: track.pause(now))

    def resume(self) -> TimerView:
        return self._apply(lambda track, now: track.resume(now))

    def reset(self) -> TimerView:
        return self._apply(lambda track, now: track.reset(now))

    def adjust(self, seconds: float) -> TimerView:
        """Add or take time; raises CountdownError (nothing changed) when it makes no sense."""
        return self._apply(lambda track, now: track.adjust(seconds, now))

    def set_countdown(self, countdown: Countdown) -> TimerView:
        """New settings (turn length, warning): the timer goes back to an idle turn with them."""
        return self._apply(lambda track, now: track.replace_countdown(countdown, now))

    def set_sounds(self, settings: SoundSettings) -> None:
        with self._cond:
            self.sounder.settings = settings
            if settings.mute:
                self.sounder.silence()

    # ------------------------------------------------------------------ the loop
    def poll(self, now: float | None = None) -> float | None:
        """Bring ring and buzzer up to ``now``; return the clock time of the next change (or None)."""
        with self._cond:
            now = self._clock() if now is None else now
            track, cues = self._track.poll(now)
            self._track = track
            view = self._render(now, cues)
            wake = self._next_change(now)
        if view is not None:
            self._notify(view)
        return wake

    def run(self) -> None:
        """Poll at each next change until :meth:`stop`; commands wake it early."""
        while True:
            with self._cond:
                if self._stopping:
                    return
                self._dirty = False
            wake = self.poll()
            with self._cond:
                if self._stopping:
                    return
                if not self._dirty:
                    self._cond.wait(None if wake is None else max(0.0, wake - self._clock()))

    def start_thread(self) -> None:
        """Run the loop in a daemon thread (once)."""
        with self._cond:
            if self._thread is None and not self._closed:
                self._stopping = False
                self._thread = threading.Thread(target=self.run, name="table-timer", daemon=True)
                self._thread.start()

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
            thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    def close(self) -> None:
        """Stop the loop, turn ring and buzzer off, release every pin; safe to call twice."""
        if self._closed:
            return
        if self.button is not None:
            self.button.close()
        self.stop()
        with self._cond:
            self._closed = True
            for part in (self.sounder, self.ring):
                try:
                    part.close()
                except Exception:  # one broken part must not leave the other one on
                    log.exception("could not close %r", part)

    def __enter__(self) -> TableTimer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ inside
    def _apply(self, command: Callable[[Track, float], tuple[Track, tuple[Cue, ...]]]) -> TimerView:
        with self._cond:
            now = self._clock()
            self._track, cues = command(self._track, now)
            view = self._render(now, cues, force=True)
            self._dirty = True
            self._cond.notify_all()
        assert view is not None  # force=True always gives a view
        self._notify(view)
        return view

    def _render(self, now: float, cues: tuple[Cue, ...], force: bool = False) -> TimerView | None:
        if self._closed:
            return (
                TimerView(self._track.countdown, now, RingFrame.dark(self.style.leds), cues)
                if force
                else None
            )
        for cue in cues:
            self.sounder.cue(cue, now)
        self.sounder.update(now)
        countdown = self._track.countdown
        frame = ring_frame(countdown, now, self.style)
        changed = frame != self._frame
        if changed:
            self.ring.show(frame)
            self._frame = frame
        if force or changed or cues:
            return TimerView(countdown, now, frame, cues)
        return None

    def _next_change(self, now: float) -> float | None:
        countdown = self._track.countdown
        times = [
            self._track.next_cue_at(now),
            next_frame_change(countdown, now, self.style),
            self.sounder.next_change_at(now),
        ]
        return min((t for t in times if t is not None), default=None)

    def _notify(self, view: TimerView) -> None:
        with self._cond:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(view)
            except Exception:  # a broken screen must not stop the timer
                log.exception("timer listener %r failed", listener)

"""What the LED ring shows for a countdown at a moment: one pure mapping for every ring.

The GPIO ring drivers (discrete LEDs, a NeoPixel ring) and the kiosk's on-screen ring all
draw the same :class:`RingFrame`, so what the table sees and what the screen shows can
never disagree. A frame is a colour and one light level (0.0 to 1.0) per LED:

* idle — dark;
* running — green, the lit share draining with the time left; the LED being used up is
  partly lit (``levels`` steps) so the ring moves smoothly;
* warning — the same in amber; on single-colour LEDs (``mono``) the leading LED blinks
  instead, since they cannot change colour;
* paused — the frozen ring at a quarter of its light;
* expired — the whole ring flashes red for ``flash_seconds``, then gives a short red
  flash every ``heartbeat`` seconds until the next turn or a reset.

>>> from games.countdown import Countdown
>>> c = Countdown(30.0).start(0.0)
>>> frame = ring_frame(c, 15.0, RingStyle(leds=12, levels=4))
>>> frame.phase.value, frame.lit, frame.levels[5:7]
('running', 6, (1.0, 0.0))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from games.countdown import Countdown, Phase

RGB = tuple[int, int, int]

GREEN: RGB = (0, 255, 40)
AMBER: RGB = (255, 140, 0)
RED: RGB = (255, 0, 0)


@dataclass(frozen=True, slots=True)
class RingStyle:
    """How a ring draws a countdown: its size and the look of each phase (times in seconds)."""

    leds: int = 12
    levels: int = 8
    mono: bool = False
    paused_level: float = 0.25
    blink_period: float = 0.5
    flash_seconds: float = 10.0
    heartbeat: float = 2.0

    def __post_init__(self) -> None:
        if isinstance(self.leds, bool) or not isinstance(self.leds, int) or self.leds < 1:
            raise ValueError(f"a ring needs at least one LED, not {self.leds!r}")
        if isinstance(self.levels, bool) or not isinstance(self.levels, int) or self.levels < 1:
            raise ValueError(f"the partly lit LED needs at least one level, not {self.levels!r}")
        if not 0.0 < self.paused_level <= 1.0:
            raise ValueError("the paused light level must be above 0 and at most 1")
        if not (self.blink_period > 0 and self.flash_seconds >= 0 and self.heartbeat > self.blink_period / 2):
            raise ValueError(
                "blink period, flash time and heartbeat must be positive (heartbeat > half a blink)"
            )


@dataclass(frozen=True, slots=True)
class RingFrame:
    """One picture of the ring: a phase, a colour and a light level per LED (LED 0 first)."""

    phase: Phase
    colour: RGB
    levels: tuple[float, ...]

    @property
    def lit(self) -> int:
        """How many LEDs give any light."""
        return sum(1 for level in self.levels if level > 0)

    def pixels(self, brightness: float = 1.0) -> tuple[RGB, ...]:
        """The colour of each LED as 0-255 RGB, scaled by its level and ``brightness``."""
        return tuple(
            (
                round(self.colour[0] * lv * brightness),
                round(self.colour[1] * lv * brightness),
                round(self.colour[2] * lv * brightness),
            )
            for lv in self.levels
        )

    @classmethod
    def dark(cls, leds: int) -> RingFrame:
        return cls(Phase.IDLE, GREEN, (0.0,) * leds)


def _ahead(end: float, t: float, step: float, limit: int) -> int:
    """How many of the times ``end, end - step, end - 2*step, …`` (at most ``limit``) are after ``t``.

    Counting boundary *times* (rather than dividing the remaining seconds) keeps the frame
    and :func:`next_frame_change` exactly consistent: the change predicted for a boundary
    happens at that very float, never a rounding error before or after it.
    """
    if t >= end:
        return 0
    k = math.ceil((end - t) / step)
    while k > 0 and not end - (k - 1) * step > t:
        k -= 1
    while k < limit and end - k * step > t:
        k += 1
    return min(k, limit)


def _passed(start: float, t: float, step: float) -> int:
    """How many of the times ``start + step, start + 2*step, …`` are at or before ``t``."""
    if t < start + step:
        return 0
    n = math.floor((t - start) / step)
    while n > 0 and start + n * step > t:
        n -= 1
    while start + (n + 1) * step <= t:
        n += 1
    return n


def _units(countdown: Countdown, now: float, style: RingStyle) -> int:
    """How many level-steps of the ring are lit at ``now``."""
    total = style.leds * style.levels
    step = countdown.duration / total
    end = countdown.ends_at
    if end is None:  # paused: frozen at the remaining time
        return _ahead(countdown.remaining(now), 0.0, step, total)
    return _ahead(end, now, step, total)


def _draining(units: int, style: RingStyle) -> list[float]:
    full, part = divmod(units, style.levels)
    levels = [1.0] * full + ([part / style.levels] if part else [])
    return levels + [0.0] * (style.leds - len(levels))


def _expired(end: float, now: float, style: RingStyle) -> tuple[bool, float]:
    """Whether an expired ring is lit at ``now``, and when that next changes."""
    half = style.blink_period / 2
    beats = end + style.flash_seconds
    if now < beats:
        n = _passed(end, now, half)
        return n % 2 == 0, min(end + (n + 1) * half, beats)
    m = _passed(beats, now, style.heartbeat)
    beat = beats + m * style.heartbeat
    if now < beat + half:
        return True, beat + half
    return False, beats + (m + 1) * style.heartbeat


def ring_frame(countdown: Countdown, now: float, style: RingStyle) -> RingFrame:
    """The frame to show for ``countdown`` at clock time ``now``."""
    phase = countdown.phase(now)
    if phase is Phase.IDLE:
        return RingFrame.dark(style.leds)
    if phase is Phase.EXPIRED:
        end = countdown.ends_at
        on = end is None or _expired(end, now, style)[0]
        return RingFrame(phase, RED, (1.0 if on else 0.0,) * style.leds)
    remaining = countdown.remaining(now)
    in_warning = phase is Phase.WARNING or (
        phase is Phase.PAUSED and countdown.warning > 0 and remaining <= countdown.warning
    )
    colour = AMBER if in_warning else GREEN
    levels = _draining(_units(countdown, now, style), style)
    if phase is Phase.PAUSED:
        levels = [lv * style.paused_level for lv in levels]
    elif phase is Phase.WARNING and style.mono:
        lead = sum(1 for lv in levels if lv > 0) - 1
        end = countdown.ends_at
        assert end is not None  # the warning phase is running
        if lead >= 0 and _ahead(end, now, style.blink_period / 2, 1 << 30) % 2:
            levels[lead] = 0.0  # on for the half-period that starts at each whole period
    return RingFrame(phase, colour, tuple(levels))


def next_frame_change(countdown: Countdown, now: float, style: RingStyle) -> float | None:
    """The clock time after ``now`` when :func:`ring_frame` next gives a different frame.

    None while nothing will change by itself (idle, paused). A driver sleeps until then.
    """
    phase = countdown.phase(now)
    end = countdown.ends_at
    if end is None or phase in (Phase.IDLE, Phase.PAUSED):
        return None
    if phase is Phase.EXPIRED:
        return _expired(end, now, style)[1]
    total = style.leds * style.levels
    step = countdown.duration / total
    candidates = [end]
    units = _units(countdown, now, style)
    if units >= 1:
        candidates.append(end - (units - 1) * step)
    if countdown.warning > 0 and end - countdown.warning > now:
        candidates.append(end - countdown.warning)
    if phase is Phase.WARNING and style.mono:
        half = style.blink_period / 2
        candidates.append(end - (_ahead(end, now, half, 1 << 30) - 1) * half)
    return min(t for t in candidates if t > now)

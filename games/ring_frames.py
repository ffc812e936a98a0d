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

from games.countdown import EPSILON, Countdown, Phase

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


def _units(remaining: float, countdown: Countdown, style: RingStyle) -> int:
    """How many level-steps of the ring are lit for ``remaining`` seconds (ceiling, clamped)."""
    total = style.leds * style.levels
    step = countdown.duration / total
    return max(0, min(total, math.ceil((remaining - EPSILON) / step)))


def _draining(units: int, style: RingStyle) -> list[float]:
    full, part = divmod(units, style.levels)
    levels = [1.0] * full + ([part / style.levels] if part else [])
    return levels + [0.0] * (style.leds - len(levels))


def _blink_on(remaining: float, half: float) -> bool:
    """In the warning, on for the half-period that starts at each whole multiple of the period."""
    return math.ceil((remaining - EPSILON) / half) % 2 == 0


def _expired_on(since_end: float, style: RingStyle) -> bool:
    half = style.blink_period / 2
    if since_end < style.flash_seconds:
        return math.floor((since_end + EPSILON) / half) % 2 == 0
    return (since_end - style.flash_seconds + EPSILON) % style.heartbeat < half


def ring_frame(countdown: Countdown, now: float, style: RingStyle) -> RingFrame:
    """The frame to show for ``countdown`` at clock time ``now``."""
    phase = countdown.phase(now)
    if phase is Phase.IDLE:
        return RingFrame.dark(style.leds)
    if phase is Phase.EXPIRED:
        end = countdown.ends_at
        on = end is None or _expired_on(now - end, style)
        return RingFrame(phase, RED, (1.0 if on else 0.0,) * style.leds)
    remaining = countdown.remaining(now)
    in_warning = phase is Phase.WARNING or (
        phase is Phase.PAUSED and countdown.warning > 0 and remaining <= countdown.warning
    )
    colour = AMBER if in_warning else GREEN
    levels = _draining(_units(remaining, countdown, style), style)
    if phase is Phase.PAUSED:
        levels = [lv * style.paused_level for lv in levels]
    elif phase is Phase.WARNING and style.mono:
        lead = sum(1 for lv in levels if lv > 0) - 1
        if lead >= 0 and not _blink_on(remaining, style.blink_period / 2):
            levels[lead] = 0.0
    return RingFrame(phase, colour, tuple(levels))


def next_frame_change(countdown: Countdown, now: float, style: RingStyle) -> float | None:
    """The clock time after ``now`` when :func:`ring_frame` next gives a different frame.

    None while nothing will change by itself (idle, paused). A driver sleeps until then.
    """
    phase = countdown.phase(now)
    end = countdown.ends_at
    if end is None or phase in (Phase.IDLE, Phase.PAUSED):
        return None
    half = style.blink_period / 2
    if phase is Phase.EXPIRED:
        since_end = now - end
        if since_end + EPSILON < style.flash_seconds:
            k = math.floor((since_end + EPSILON) / half)
            return min(end + (k + 1) * half, end + style.flash_seconds)
        beat_start = end + style.flash_seconds
        n = math.floor((now - beat_start + EPSILON) / style.heartbeat)
        on_end = beat_start + n * style.heartbeat + half
        return on_end if on_end > now + EPSILON else beat_start + (n + 1) * style.heartbeat
    remaining = countdown.remaining(now)
    step = countdown.duration / (style.leds * style.levels)
    candidates = [end]
    units = _units(remaining, countdown, style)
    if units >= 1:
        candidates.append(end - (units - 1) * step)
    if countdown.warning > 0 and end - countdown.warning > now:
        candidates.append(end - countdown.warning)
    if phase is Phase.WARNING and style.mono:
        b = math.ceil((remaining - EPSILON) / half)
        candidates.append(end - (b - 1) * half)
    return min(t for t in candidates if t > now)

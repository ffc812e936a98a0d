"""Each setting's type and limits: the one table the settings file's reader and the Settings
screen both use; each setting's default is its entry's ``default``.

The reader (``kiosk.files.settings.load``) checks every value it finds against :data:`LIMITS`;
a value of the wrong type, outside its limits, or not a finite number (``nan``, ``inf``)
falls back to its default alone, and the problem is said in the banner and by ``doctor``.
The Settings screen takes its steppers' ends and steps from the same entries, so what the
screen can set is exactly what the reader accepts. ``[hardware]`` is checked by
``hardware.config`` (pins, brightness), ``[words]`` by the word authority when it loads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

#: A turn of the stand-alone ``tablekeeper timer`` lasts at most this long (99:59).
LONGEST = 99 * 60 + 59.0


@dataclass(frozen=True, slots=True)
class Limit:
    """One setting: ``kind`` "number" (finite, from ``low`` to ``high``), "flag" (true or false)
    or "choice" (one of ``choices``); ``unit`` and ``step`` are for the screen's stepper."""

    kind: str
    default: Any
    low: float = 0.0
    high: float = 0.0
    step: int = 1
    unit: str = ""
    choices: tuple[Any, ...] = ()

    def problem(self, value: Any) -> str | None:
        """What is wrong with ``value`` in plain words (None: nothing)."""
        if self.kind == "flag":
            return None if isinstance(value, bool) else "should be true or false"
        if self.kind == "choice":
            return None if value in self.choices else "should be one of " + ", ".join(map(str, self.choices))
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"should be a number of {self.unit or 'units'}"
        if not math.isfinite(value) or not self.low <= value <= self.high:
            return f"should be from {self.low:g} to {self.high:g} {self.unit}".rstrip()
        return None

    def clamp(self, value: float) -> float:
        """A number brought within the limits (NaN: the default)."""
        if math.isnan(value):
            return float(self.default)
        return float(min(self.high, max(self.low, value)))


#: (section, key) -> its limits. The Settings screen's steppers are built from these.
LIMITS: dict[tuple[str, str], Limit] = {
    ("timer", "warning"): Limit("number", 10, 0, 30, unit="seconds"),
    ("timer", "ticks"): Limit("flag", True),
    ("timer", "mute"): Limit("flag", False),
    # The stand-alone `tablekeeper timer`'s last length (not on the screen).
    ("timer", "seconds"): Limit("number", 60.0, 1, LONGEST, unit="seconds"),
    ("sound", "voice"): Limit("flag", False),
    ("kiosk", "fullscreen"): Limit("flag", False),
    ("kiosk", "category_level"): Limit("choice", "green", choices=("green", "blue")),
}

#: A game's turn length, ``[timer] durations``: whole steps of 5 s on the screen; 0 is no timer.
TURN = Limit("number", 0, 0, 300, step=5, unit="seconds")


def limit(section: str, key: str) -> Limit:
    return LIMITS[(section, key)]


def turn_length(value: Any, default: float | None) -> tuple[float | None, str]:
    """A turn length as logged with a game (its ``timer`` option) made safe to run, and a note.

    ``None`` or 0 is no timer. A length past :data:`TURN`'s top (``inf`` too) is clamped to it;
    a negative one, NaN or what is no number (``"sixty"``) takes the game's ``default`` (its
    rule sheet's). The note says what was changed ("" when nothing was).
    """
    if value is None or (not isinstance(value, bool) and isinstance(value, int | float) and value == 0):
        return None, ""
    number = not isinstance(value, bool) and isinstance(value, int | float)
    if number and TURN.problem(value) is None:
        return float(value), ""
    if number and value > TURN.high:
        longest = float(TURN.high)
        return longest, f"its turn timer of {value:g} s is longer than {longest:g} s: using {longest:g} s"
    seconds = float(default) if default else None
    shown = f"{seconds:g} s" if seconds else "no timer"
    what = f"of {value:g} s is not a length of time" if number else f"{value!r} is not a number of seconds"
    return seconds, f"its turn timer {what}: using {shown}"

"""Turn lengths in the settings file: read the one for a game, remember a new choice.

The ``[timer]`` table keeps ``durations`` per game (``word-on-the-street = 30`` …) and
``seconds``, the last length used by the stand-alone ``tablekeeper timer``. The rule
sheets give the defaults (30 s Word on the Street, 60 s WordSpiel and Tosswords); a
length the players choose is written back, so the next game starts with it.
"""

from __future__ import annotations

import math
import re
from typing import Any

from kiosk.files.setting_limits import LONGEST, TURN
from kiosk.files.settings import DEFAULTS, Settings

#: The stand-alone timer's length when nothing was chosen yet (the WordSpiel timer's).
STANDALONE_DEFAULT = 60.0

_CLOCK = re.compile(r"^(\d+):([0-5]\d(?:\.\d+)?)$")
_SECONDS = re.compile(r"^(\d+(?:\.\d+)?)\s*s?$")


def parse_seconds(text: str) -> float:
    """'45', '45.5', '45s' or '1:30' -> seconds; ValueError with a plain message otherwise."""
    value = text.strip().lower()
    if m := _CLOCK.match(value):
        seconds = int(m.group(1)) * 60 + float(m.group(2))
    elif m := _SECONDS.match(value):
        seconds = float(m.group(1))
    else:
        raise ValueError(f"{text!r} is not a length of time: write seconds (45) or minutes:seconds (1:30)")
    return check_seconds(seconds)


def check_seconds(seconds: Any) -> float:
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not math.isfinite(seconds):
        raise ValueError(f"a turn length must be a number of seconds, not {seconds!r}")
    if not 1 <= seconds <= LONGEST:
        raise ValueError(f"a turn must last from 1 second to 99:59, not {seconds:g} seconds")
    return float(seconds)


def _durations(settings: Settings) -> dict[str, Any]:
    durations = settings.section("timer").get("durations")
    return dict(durations) if isinstance(durations, dict) else dict(DEFAULTS["timer"]["durations"])


def turn_seconds(settings: Settings, game: str | None = None) -> float:
    """The turn length to use for ``game`` (canonical name), or for the stand-alone timer.

    A bad stored value falls back to the default rather than stopping the timer.
    """
    if game is None:
        stored, default = settings.section("timer").get("seconds"), STANDALONE_DEFAULT
    else:
        stored = _durations(settings).get(game)
        default = float(DEFAULTS["timer"]["durations"].get(game) or _sheet_timer(game) or STANDALONE_DEFAULT)
    try:
        return check_seconds(stored) if stored is not None else default
    except ValueError:
        return default


def remember_seconds(settings: Settings, seconds: float, game: str | None = None) -> bool:
    """Record a chosen length in ``settings`` (the caller saves); True if it changed anything.

    A game's length must also fit the kiosk's limits (``setting_limits.TURN``, the Settings
    screen's): a longer one is ValueError, so the file never holds what the kiosk would refuse.
    """
    seconds = check_seconds(seconds)
    if game is not None and TURN.problem(seconds):
        raise ValueError(f"a {game} turn on the kiosk lasts at most {TURN.high:g} seconds")
    if turn_seconds(settings, game) == seconds and (game is None or game in _durations(settings)):
        return False
    value: int | float = int(seconds) if seconds.is_integer() else seconds
    if game is None:
        settings.set("timer", "seconds", value)
    else:
        durations = _durations(settings)
        durations[game] = value
        settings.set("timer", "durations", durations)
    return True


def _sheet_timer(game: str) -> float | None:
    from games.registry import game_class

    try:
        return game_class(game).default_timer
    except (KeyError, ImportError, AttributeError):
        return None

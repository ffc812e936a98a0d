"""The settings file: one TOML file with a table per part of the kiosk.

A missing file means defaults. A corrupt or half-written file never stops the kiosk: it
falls back to defaults, keeps the bad file aside (``.bad``) for a person to look at, and
reports the problem in plain words in ``Settings.problems``; so does a value of the wrong
type (``warning = "ten"``) or outside its limits (``warning = -5``, ``nan``: the table in
``kiosk.files.setting_limits``), which falls back to its default alone (``Settings.fallbacks``).
Saving is atomic (write a temporary file, fsync, rename), so a power cut leaves the old file
or the new one.
"""

from __future__ import annotations

import logging
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from calibration.durable import keep_aside as move_aside
from calibration.durable import write_atomically
from games.word_lists import DEFAULT_SIZE
from kiosk.files import paths
from kiosk.files.setting_limits import LIMITS, TURN

log = logging.getLogger(__name__)

#: Sections and their defaults. Each part validates its own section (e.g. hardware pins).
DEFAULTS: dict[str, dict[str, Any]] = {
    # issue 12: both spellings by default; plurals "any" (every S-plural) or "nouns"
    "words": {"size": DEFAULT_SIZE, "dict_dir": "/usr/share/dict/scowl", "variant": "both", "plurals": "any"},
    "timer": {
        **{key: LIMITS[("timer", key)].default for key in ("warning", "ticks", "mute")},
        "durations": {"word-on-the-street": 30, "wordspiel": 60, "tosswords": 60},
    },
    "hardware": {},
    "camera": {"source": "auto"},
    "kiosk": {"fullscreen": LIMITS[("kiosk", "fullscreen")].default},
}


@dataclass
class Settings:
    values: dict[str, dict[str, Any]] = field(default_factory=dict)
    path: Path | None = None
    problems: list[str] = field(default_factory=list)
    #: The problems that are one value falling back to its default (the file itself is fine).
    fallbacks: list[str] = field(default_factory=list)

    def section(self, name: str) -> dict[str, Any]:
        merged = dict(DEFAULTS.get(name, {}))
        merged.update(self.values.get(name, {}))
        return merged

    def set(self, section: str, key: str, value: Any) -> None:
        self.values.setdefault(section, {})[key] = value


def load(path: Path | None = None, *, keep_aside: bool = True) -> Settings:
    """Read the settings; never raise. Problems are listed in plain words in ``problems``.

    ``keep_aside=False`` only reads (``tablekeeper doctor`` must not move files about).
    """
    path = path or paths.config_file()
    settings = Settings(path=path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return settings
    except OSError as exc:
        settings.problems.append(
            f"Cannot read the settings file {path}: {(exc.strerror or str(exc)).lower()}. Using defaults."
        )
        return settings
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        kept: Path | None = None
        if keep_aside:
            try:
                kept = move_aside(path, "bad")
            except OSError as err:
                log.warning("could not move the damaged settings file aside: %s", err)
        where = f" It was kept as {kept.name}." if kept else ""
        settings.problems.append(
            f"The settings file {path} is damaged or half-written ({exc}); using defaults.{where}"
        )
        return settings
    for name, value in data.items():
        if isinstance(value, dict):
            settings.values[name] = _checked_section(name, value, settings.fallbacks)
        else:
            settings.problems.append(f"Settings: '{name}' should be a table; ignored.")
    settings.problems.extend(settings.fallbacks)
    return settings


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _checked_section(name: str, values: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    """Drop (and report) values whose type differs from the default's, or that break their limits
    (``kiosk.files.setting_limits``): the default then applies."""
    defaults = DEFAULTS.get(name, {})
    kept: dict[str, Any] = {}
    for key, value in values.items():
        if key in defaults and _kind(value) != _kind(defaults[key]):
            problems.append(
                f"Settings: [{name}] {key} should be {_kind(defaults[key])}, not {value!r}; "
                f"using {defaults[key]!r}."
            )
            continue
        limit = LIMITS.get((name, key))
        wrong = limit.problem(value) if limit is not None else None
        if limit is not None and wrong:
            problems.append(f"Settings: [{name}] {key} = {value!r} {wrong}; using {limit.default!r}.")
            continue
        if (name, key) == ("timer", "durations") and isinstance(value, dict):
            value = _checked_turns(value, problems)
        kept[key] = value
    return kept


def _checked_turns(durations: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    """``[timer] durations``: a game's bad length is dropped alone (its rule sheet's then applies)."""
    kept: dict[str, Any] = {}
    for game, seconds in durations.items():
        wrong = TURN.problem(seconds)
        if wrong:
            problems.append(
                f"Settings: [timer] durations {game} = {seconds!r} {wrong} (0: no timer); "
                "using the rule sheet's."
            )
            continue
        kept[game] = seconds
    return kept


def save(settings: Settings, path: Path | None = None) -> None:
    """Write atomically; raise OSError (e.g. disk full) with the old file untouched.

    The new file is written beside the old one, flushed to the card, renamed over it, and
    the folder itself is synced, so a power cut leaves either the old file or the new one.
    """
    path = path or settings.path or paths.config_file()
    write_atomically(path, tomli_w.dumps(settings.values).encode("utf-8"))

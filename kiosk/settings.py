"""The settings file: one TOML file with a table per part of the kiosk.

A missing file means defaults. A corrupt or half-written file never stops the kiosk: it
falls back to defaults, keeps the bad file aside (``.bad``) for a person to look at, and
reports the problem in plain words in ``Settings.problems``. Saving is atomic (write a
temporary file, fsync, rename), so a power cut leaves the old file or the new one.
"""

from __future__ import annotations

import logging
import os
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from kiosk import paths

log = logging.getLogger(__name__)

#: Sections and their defaults. Each part validates its own section (e.g. hardware pins).
DEFAULTS: dict[str, dict[str, Any]] = {
    "words": {"size": 60, "dict_dir": "/usr/share/dict/scowl", "variant": "american"},
    "timer": {
        "warning": 10,
        "ticks": True,
        "mute": False,
        "durations": {"word-on-the-street": 30, "wordspiel": 60, "tosswords": 60},
    },
    "hardware": {},
    "camera": {"source": "auto"},
    "kiosk": {"fullscreen": False},
}


@dataclass
class Settings:
    values: dict[str, dict[str, Any]] = field(default_factory=dict)
    path: Path | None = None
    problems: list[str] = field(default_factory=list)

    def section(self, name: str) -> dict[str, Any]:
        merged = dict(DEFAULTS.get(name, {}))
        merged.update(self.values.get(name, {}))
        return merged

    def set(self, section: str, key: str, value: Any) -> None:
        self.values.setdefault(section, {})[key] = value


def load(path: Path | None = None) -> Settings:
    path = path or paths.config_file()
    settings = Settings(path=path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return settings
    except OSError as exc:
        settings.problems.append(f"Cannot read the settings file {path}: {exc.strerror}. Using defaults.")
        return settings
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        settings.problems.append(
            f"The settings file {path} is damaged ({exc}); using defaults. "
            f"It was kept as {path.name}.bad."
        )
        _keep_aside(path)
        return settings
    for name, value in data.items():
        if isinstance(value, dict):
            settings.values[name] = value
        else:
            settings.problems.append(f"Settings: '{name}' should be a table; ignored.")
    return settings


def save(settings: Settings, path: Path | None = None) -> None:
    """Write atomically; raise OSError (e.g. disk full) with the old file untouched."""
    path = path or settings.path or paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(tomli_w.dumps(settings.values).encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _keep_aside(path: Path) -> None:
    try:
        os.replace(path, path.with_name(path.name + ".bad"))
    except OSError as exc:
        log.warning("could not move the damaged settings file aside: %s", exc)

"""Where tablekeeper keeps its files.

On the Pi the systemd unit sets ``TABLEKEEPER_DATA`` (its ``StateDirectory``) and
``TABLEKEEPER_CONFIG``; elsewhere they default to the user's data and config directories.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir


def data_dir() -> Path:
    """The game log, house words, calibration and screenshots live here."""
    return Path(os.environ.get("TABLEKEEPER_DATA") or user_data_dir("tablekeeper"))


def config_file() -> Path:
    """The one TOML settings file."""
    env = os.environ.get("TABLEKEEPER_CONFIG")
    return Path(env) if env else Path(user_config_dir("tablekeeper")) / "tablekeeper.toml"


def game_log_file() -> Path:
    return data_dir() / "games.sqlite3"


def house_words_file() -> Path:
    return data_dir() / "house-words.json"


def calibration_file() -> Path:
    return data_dir() / "calibration.json"

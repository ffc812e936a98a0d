"""Transcripts: a game as JSON Lines (a header, then one event a line).

The same format is the kiosk's export, the input of ``tablekeeper replay``, the test
fixtures and a bug report. ``docs/transcript.md`` documents it with examples.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from games.base import Game, GameSetupError
from games.registry import canonical_name, game_class
from games.rulings import IllegalEvent


class TranscriptError(ValueError):
    """A transcript that cannot be played; ``line`` is 1-based (0 when it is the file itself)."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason


def dumps(game: Game[Any]) -> str:
    lines = [game.header(), *game.events]
    return "".join(json.dumps(obj, ensure_ascii=False) + "\n" for obj in lines)


def save(game: Game[Any], path: str | Path) -> None:
    Path(path).write_text(dumps(game), encoding="utf-8")


def new_from_header(header: dict[str, Any]) -> Game[Any]:
    if not isinstance(header, dict) or "game" not in header:
        raise TranscriptError(1, "the first line must be a header with a 'game'")
    try:
        cls = game_class(canonical_name(str(header["game"])))
        return cls(header.get("players", []), header.get("options") or {})
    except (KeyError, GameSetupError) as exc:
        raise TranscriptError(1, str(exc).strip("'\"")) from None


def replay_lines(lines: Iterable[str]) -> Game[Any]:
    """Play every line through its engine; raise TranscriptError at the first bad line."""
    game: Game[Any] | None = None
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise TranscriptError(number, f"not JSON: {exc.msg}") from None
        if game is None:
            try:
                game = new_from_header(obj)
            except TranscriptError as exc:
                raise TranscriptError(number, exc.reason) from None
            continue
        try:
            game.apply(obj)
        except IllegalEvent as exc:
            raise TranscriptError(number, str(exc)) from None
    if game is None:
        raise TranscriptError(0, "the transcript is empty")
    return game


def load(path: str | Path) -> Game[Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise TranscriptError(0, f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise TranscriptError(0, f"{path} is not a UTF-8 text file") from None
    return replay_lines(text.splitlines())

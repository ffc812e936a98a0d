"""Transcripts: a game as JSON Lines (a header, then one event a line).

The same format is the kiosk's export, the input of ``tablekeeper replay``, the test
fixtures and a bug report. ``docs/transcript.md`` documents it with examples.

>>> from games.registry import new_game
>>> g = new_game("tosswords", ["Ann", "Bob"])
>>> _ = g.apply({"type": "move", "tiles": ["C", "T"], "keys": ["C", "T"], "die": 3, "word": "TRANCE"})
>>> loads(dumps(g)).scores()
{'Ann': 2, 'Bob': 0}
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from games.base import Game, GameSetupError, Step
from games.checked_json import checked_loads
from games.registry import canonical_name, game_class
from games.rulings import IllegalEvent

#: The newest transcript format this code reads and writes.
VERSION = 1
#: No event nests deeper than a few levels (an event, its list of tiles, a tile's pair).
MAX_DEPTH = 16
#: No count, score or cell needs more digits; a longer number is not a game's.
MAX_DIGITS = 18


class TranscriptError(ValueError):
    """A transcript that cannot be played; ``line`` is 1-based (0 when it is the file itself)."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason


class TranscriptUnreadable(TranscriptError):
    """The file itself cannot be read (missing, a directory, not text): nothing was played."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One event as replayed: where it was, what it did, and the standings right after it."""

    line: int
    event: dict[str, Any]
    step: Step
    scores: dict[str, int]


def dumps(game: Game[Any]) -> str:
    lines = [game.header(), *game.events]
    return "".join(json.dumps(obj, ensure_ascii=False) + "\n" for obj in lines)


def new_from_header(header: dict[str, Any]) -> Game[Any]:
    """A fresh game for a header line; TranscriptError (line 1) names what is wrong with it."""
    if not isinstance(header, dict) or "game" not in header:
        raise TranscriptError(1, "the first line must be a header with a 'game'")
    if header.get("tablekeeper", "transcript") != "transcript":
        raise TranscriptError(1, "the header is not a tablekeeper transcript header")
    version = header.get("version", VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version > VERSION:
        raise TranscriptError(
            1, f"transcript version {version!r} is newer than this tablekeeper reads ({VERSION})"
        )
    players = header.get("players", [])
    options = header.get("options") or {}
    if not isinstance(players, list) or not isinstance(options, dict):
        raise TranscriptError(1, "the header's players must be a list and its options an object")
    try:
        cls = game_class(canonical_name(str(header["game"])))
        return cls(players, options)
    except (KeyError, GameSetupError) as exc:
        raise TranscriptError(1, str(exc).strip("'\"")) from None
    except ImportError:
        raise TranscriptError(1, f"this tablekeeper has no engine for {header['game']!r} yet") from None


def _objects(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    """Each non-blank, non-comment line parsed as JSON, with its 1-based line number."""
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            yield number, strict_json(text)
        except json.JSONDecodeError as exc:
            raise TranscriptError(number, f"not JSON: {exc.msg} (column {exc.colno})") from None
        except ValueError as exc:
            raise TranscriptError(number, str(exc)) from None


def strict_json(text: str) -> Any:
    """``json.loads`` for a file a person may have damaged or made up: numbers finite and at
    most :data:`MAX_DIGITS` digits long, nesting at most :data:`MAX_DEPTH` deep."""
    return checked_loads(text, max_digits=MAX_DIGITS, max_depth=MAX_DEPTH, holder="a transcript")


def replay(lines: Iterable[str], on_event: Callable[[Entry], None] | None = None) -> Game[Any]:
    """Play every line through its engine; raise TranscriptError at the first bad line.

    ``on_event`` sees each applied event as it happens, so a caller that meets an error
    still has every entry before it (``tablekeeper replay`` prints them).
    """
    game: Game[Any] | None = None
    for number, obj in _objects(lines):
        if game is None:
            try:
                game = new_from_header(obj)
            except TranscriptError as exc:
                raise TranscriptError(number, exc.reason) from None
            continue
        try:
            step = game.apply(obj)
        except IllegalEvent as exc:
            raise TranscriptError(number, str(exc)) from None
        if on_event is not None:
            on_event(Entry(number, game.peek() or {}, step, game.scores()))
    if game is None:
        raise TranscriptError(0, "the transcript is empty: it needs a header line")
    return game


def replay_lines(lines: Iterable[str]) -> Game[Any]:
    """Play every line through its engine; raise TranscriptError at the first bad line."""
    return replay(lines)


def split_lines(text: str) -> list[str]:
    """JSON Lines are separated by newlines only.

    Not ``str.splitlines()``: that also splits at U+0085, U+2028 and other characters a
    transcript may hold inside a string (events are written with ``ensure_ascii=False``).
    """
    return text.split("\n")


def loads(text: str) -> Game[Any]:
    return replay(split_lines(text))

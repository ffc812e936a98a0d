"""Correcting a past turn: the game replayed from the start with one event changed.

A family notices three turns later that a word was entered wrong. Undoing back to it would
lose the turns since; instead the one event is replaced and every later event is applied
again by the engine (so the scores, captures and rulings after it follow the rules from the
corrected turn on). When a later event no longer fits — the corrected word took a square a
later play used, say — the correction is refused in plain words and nothing changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rulings import IllegalEvent
from games.transcript import new_from_header

#: Events a person enters as a turn (a challenge is corrected by undoing its ruling).
CORRECTABLE = frozenset({"word", "play", "move", "no_word", "pass", "timeout", "draw", "exchange"})


def correctable(game: Any) -> list[tuple[int, dict[str, Any], str]]:
    """(index, event, who was to move) of every entered turn of the game, oldest first."""
    out = []
    past = new_from_header(game.header())
    for i, event in enumerate(game.events):
        if event.get("type") in CORRECTABLE:
            out.append((i, event, str(event.get("player") or past.to_move or "")))
        past.apply(event)
    return out


def before(game: Any, index: int) -> Any:
    """The game as it stood just before event ``index`` (for the turn-entry form)."""
    past = new_from_header(game.header())
    for event in game.events[:index]:
        past.apply(event)
    return past


def replay(game: Any, index: int, event: Mapping[str, Any]) -> tuple[Any | None, str]:
    """The game with event ``index`` replaced by ``event`` and the rest applied again,
    or (None, why not)."""
    events = game.events
    if not 0 <= index < len(events):
        return None, f"there is no turn {index + 1} to correct"
    fixed = new_from_header(game.header())
    changed = {**dict(event), **({"at": events[index]["at"]} if "at" in events[index] else {})}
    for n, current in enumerate([*events[:index], changed, *events[index + 1 :]]):
        try:
            fixed.apply(current)
        except IllegalEvent as exc:
            if n == index:
                return None, f"the corrected turn is refused: {exc.reason}"
            return None, (
                f"after the correction, entry {n + 1} ({current.get('type')}"
                f"{' ' + str(current['word']) if current.get('word') else ''}) no longer fits: {exc.reason}"
            )
    return fixed, ""

"""Shared by the game-log tests: a tiny engine on the real engine base, and its header.

The store must work with any engine, so its tests use the real ``games.base.Game`` with
a minimal rule set (plus the real Word on the Street engine where it exists). The engine
is registered under the name ``counting`` for the duration of a test with ``registered``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from games import registry
from games.base import Game, Outcome, Step, Turn
from games.rulings import IllegalEvent

if TYPE_CHECKING:
    import pytest


class Counting(Game[tuple[int, ...]]):
    """Players take turns adding ``n`` points (default 1); first to ``target`` wins."""

    name = "counting"
    title = "Counting"
    default_options: ClassVar[Mapping[str, Any]] = {"target": 10}

    def _initial_state(self) -> tuple[int, ...]:
        return (*(0 for _ in self.players), 0)  # scores..., moves made

    def _apply(self, state: tuple[int, ...], event: Mapping[str, Any]) -> Step:
        if event["type"] != "add":
            raise IllegalEvent(f"unknown event {event['type']!r}", "Counting")
        n = int(event.get("n", 1))
        if n < 0:
            raise IllegalEvent("cannot add a negative number", "Counting")
        mover = state[-1] % len(self.players)
        new = list(state)
        new[mover] += n
        new[-1] += 1
        return Step(tuple(new), (Turn(self.players[mover], n, f"added {n}"),))

    def _to_move(self, state: tuple[int, ...]) -> str | None:
        return None if self._outcome(state) else self.players[state[-1] % len(self.players)]

    def _scores(self, state: tuple[int, ...]) -> dict[str, int]:
        return dict(zip(self.players, state[:-1], strict=True))

    def _outcome(self, state: tuple[int, ...]) -> Outcome | None:
        for name, score in zip(self.players, state[:-1], strict=True):
            if score >= self._options["target"]:
                return Outcome((name,), "reached the target")
        return None


def header(players: list[str] | None = None, target: int = 10) -> dict[str, Any]:
    return Counting(players or ["Ann", "Bob"], {"target": target}).header()


def register(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``games.registry`` (and so ``GameLog.rebuild``) know the Counting engine."""
    monkeypatch.setitem(registry.ENGINES, "counting", f"{__name__}:Counting")

"""What Upwords and Option share as rack-and-bag games scored in points.

Both keep their last play with the state it was made on, so an upheld challenge can take it
back, and both are won by the highest score. The two engines' rules differ everywhere else,
so only these pieces live here, each the same in both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, TypeVar, cast

State = TypeVar("State")


def detached(state: State) -> State:
    """``state`` with its last play cut off from the state before that play.

    A new play keeps this as its ``before``; were that state's own last play to keep its
    ``before`` too, states would chain back through the whole game and comparing, hashing or
    copying one would grow with every play. ``state`` is a frozen dataclass with ``last``
    (a play with ``before``) and ``challengeable``.
    """
    s: Any = state
    if s.last is None or s.last.before is None:
        return state
    return cast(State, replace(s, last=replace(s.last, before=None), challengeable=False))


def top_scorers(players: Sequence[str], scores: Sequence[int]) -> tuple[str, ...]:
    """Who has the highest score: the winner, or everyone who shares it in a tie."""
    best = max(scores)
    return tuple(p for p, s in zip(players, scores, strict=True) if s == best)


def per_player(players: Sequence[str], values: Sequence[int]) -> str:
    """``Ann 45, Bob 0``: one number a player, for a game's one-line description."""
    return ", ".join(f"{p} {v}" for p, v in zip(players, values, strict=True))

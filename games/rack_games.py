"""What Upwords and Option share as rack-and-bag games scored in points.

Both keep their last play with the state it was made on, so an upheld challenge can take it
back; both show each player's rack and the bag; both are won by the highest score. The two
engines' rules differ everywhere else, so only these answers live here, each the same in both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol, TypeVar, cast

from games.base import Game, Outcome


class RackState(Protocol):
    """The fields every rack game's (frozen dataclass) state has."""

    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def racks(self) -> tuple[int, ...]: ...
    @property
    def bag(self) -> int: ...
    @property
    def mover(self) -> int: ...
    @property
    def last(self) -> Any: ...
    @property
    def challengeable(self) -> bool: ...
    @property
    def ended(self) -> str | None: ...


R = TypeVar("R", bound=RackState)


class RackGame(Game[R]):
    """A rack-and-bag game: the views and answers Upwords and Option give the same way."""

    @property
    def racks(self) -> dict[str, int]:
        """How many tiles (prisms) each player holds."""
        return dict(zip(self.players, self.state.racks, strict=True))

    @property
    def bag(self) -> int:
        """How many are left to draw."""
        return self.state.bag

    def can_challenge(self) -> bool:
        """True while the last play may still be challenged (straight after it, before the next turn)."""
        return self.state.challengeable and self.state.last is not None

    def _to_move(self, state: R) -> str | None:
        return None if state.ended else self.players[state.mover]

    def _scores(self, state: R) -> dict[str, int]:
        return dict(zip(self.players, state.scores, strict=True))

    def _outcome(self, state: R) -> Outcome | None:
        """The highest score wins; everyone who shares it, in a tie."""
        if not state.ended:
            return None
        best = max(state.scores)
        return Outcome(tuple(p for p, s in zip(self.players, state.scores, strict=True) if s == best),
                       state.ended)


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


def per_player(players: Sequence[str], values: Sequence[int]) -> str:
    """``Ann 45, Bob 0``: one number a player, for a game's one-line description."""
    return ", ".join(f"{p} {v}" for p, v in zip(players, values, strict=True))

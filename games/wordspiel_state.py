"""What a WordSpiel table shows, as one immutable value: hands, totals, the spiral, whose turn.

Its own module so that the rounds game (:mod:`games.wordspiel`) and the solitaire rules
(:mod:`games.wordspiel_solo`) both build on it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.wordfit import Spiral

EMPTY_SPIRAL = Spiral()


@dataclass(frozen=True, slots=True)
class SpielState:
    """What the table shows. ``pile`` is the solitaire draw pile (None with two or more players)."""

    hands: tuple[int, ...]
    totals: tuple[int, ...]
    exchanges: tuple[int, ...]
    round: int = 0
    in_play: bool = False
    spiral: Spiral = EMPTY_SPIRAL
    to_move: int = 0
    turns_taken: int = 0
    pile: int | None = None
    last_chance: bool = False
    result: str | None = None
    last: LastWord | None = None


@dataclass(frozen=True, slots=True)
class LastWord:
    """The last word and the state before it, so that an upheld challenge can take it back."""

    player: int
    word: str
    cards: int
    before: SpielState

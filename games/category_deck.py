"""A shuffled deck of Word on the Street category cards, for tables whose cards are lost.

The box's card tray works like this: draw from the front, put the card in the back, and
when the divider card reaches the front every card has been played — shuffle them all and
start again. :class:`CategoryDeck` does the same with no physical cards: no category comes
up twice until every one has, then a new shuffle begins (never starting with the card
that was just played).

The deck is pure: the shuffle of each pass comes from the seed and the pass number, so a
deck is fully described by a small JSON-serialisable state (``seed``, ``cycle``,
``position`` and a fingerprint of the card list) that the kiosk stores and restores.
Reading the card files is the kiosk's job (``kiosk.play.categories``).

>>> deck = CategoryDeck.new(["A fruit", "A tool", "A bird"], seed=7)
>>> first, deck = deck.draw()
>>> second, deck = deck.draw()
>>> third, deck = deck.draw()
>>> sorted([first, second, third])
['A bird', 'A fruit', 'A tool']
>>> CategoryDeck.from_state(["A fruit", "A tool", "A bird"], deck.state()) == deck
True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

STATE_VERSION = 1


class DeckError(ValueError):
    """A card list or a saved deck state that cannot be used, said in plain words."""


def fingerprint(cards: Iterable[str]) -> str:
    """A short checksum of the card list, to notice when a saved state belongs to other cards."""
    digest = hashlib.sha256("\n".join(cards).encode("utf-8")).hexdigest()
    return digest[:16]


@dataclass(frozen=True, slots=True)
class CategoryDeck:
    """The cards, the seed, which pass of the deck this is (``cycle``) and how many were drawn."""

    cards: tuple[str, ...]
    seed: int
    cycle: int = 0
    position: int = 0

    def __post_init__(self) -> None:
        cards = tuple(self.cards)
        object.__setattr__(self, "cards", cards)
        if not cards:
            raise DeckError("a category deck needs at least one category")
        blank = [i + 1 for i, c in enumerate(cards) if not isinstance(c, str) or not c.strip()]
        if blank:
            raise DeckError(f"category {blank[0]} is empty")
        seen: dict[str, int] = {}
        for i, card in enumerate(cards):
            key = " ".join(card.casefold().split())
            if key in seen:
                raise DeckError(f"category {i + 1} repeats category {seen[key] + 1}: {card!r}")
            seen[key] = i
        for name in ("seed", "cycle", "position"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise DeckError(f"the deck's {name} must be a whole number 0 or more, not {value!r}")
        if self.position > len(cards):
            raise DeckError(f"the deck's position {self.position} is past its {len(cards)} cards")

    @classmethod
    def new(cls, cards: Iterable[str], seed: int) -> CategoryDeck:
        return cls(tuple(cards), seed)

    # ------------------------------------------------------------------ the shuffle
    def order(self, cycle: int | None = None) -> tuple[int, ...]:
        """The card indices of pass ``cycle`` (default: this one), in the order they are drawn.

        Each pass is a shuffle seeded by (seed, pass). If a pass would open with the card
        that closed the pass before, that card goes to the back instead, so a category never
        comes up twice in a row across a reshuffle. That fix-up chains from pass 0, which
        is cheap: a deck has a few hundred cards and a table plays few passes.
        """
        cycle = self.cycle if cycle is None else cycle
        indices: list[int] = []
        previous_last: int | None = None
        for c in range(cycle + 1):
            indices = list(range(len(self.cards)))
            random.Random(f"tablekeeper-categories:{self.seed}:{c}").shuffle(indices)
            if previous_last is not None and len(indices) > 1 and indices[0] == previous_last:
                indices.append(indices.pop(0))
            previous_last = indices[-1]
        return tuple(indices)

    # ------------------------------------------------------------------ drawing
    @property
    def remaining(self) -> int:
        """Cards left before the next shuffle."""
        return len(self.cards) - self.position

    def peek(self) -> str:
        """The category the next draw gives, without drawing it."""
        deck = self._turned_over()
        return deck.cards[deck.order()[deck.position]]

    def draw(self) -> tuple[str, CategoryDeck]:
        """The next category and the deck after it (the old deck is unchanged)."""
        deck = self._turned_over()
        card = deck.cards[deck.order()[deck.position]]
        return card, replace(deck, position=deck.position + 1)

    def _turned_over(self) -> CategoryDeck:
        """The divider card reached the front: a fresh shuffle of every card."""
        if self.position < len(self.cards):
            return self
        return replace(self, cycle=self.cycle + 1, position=0)

    # ------------------------------------------------------------------ saving
    def state(self) -> dict[str, Any]:
        """A JSON-serialisable description of where the deck is."""
        return {
            "version": STATE_VERSION,
            "seed": self.seed,
            "cycle": self.cycle,
            "position": self.position,
            "cards": fingerprint(self.cards),
            "size": len(self.cards),
        }

    @classmethod
    def from_state(cls, cards: Iterable[str], state: Mapping[str, Any]) -> CategoryDeck:
        """The deck a saved :meth:`state` describes; DeckError if it is damaged or for other cards."""
        cards = tuple(cards)
        if not isinstance(state, Mapping):
            raise DeckError(f"a saved deck must be an object, not {type(state).__name__}")
        if state.get("version") != STATE_VERSION:
            raise DeckError(f"a saved deck of version {state.get('version')!r} cannot be read (expected 1)")
        if state.get("cards") != fingerprint(cards) or state.get("size") != len(cards):
            raise DeckError("the saved deck was shuffled from a different list of categories")
        try:
            return cls(cards, state["seed"], state["cycle"], state["position"])
        except KeyError as exc:
            raise DeckError(f"the saved deck has no {exc.args[0]!r}") from None

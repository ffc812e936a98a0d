"""Word on the Street categories written for tablekeeper, for tables whose cards are lost.

Two decks, like the two sides of the box's cards: ``green`` (easier) and ``blue`` (harder),
one category per line in ``kiosk/data/categories-LEVEL.txt`` (blank lines and lines
starting with ``#`` are ignored). The shuffling is pure logic in
:mod:`games.category_deck`; this module only reads the files and restores saved decks.

>>> deck = new_deck("green", seed=1)
>>> card, deck = deck.draw()
>>> card in load_categories("green")
True
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from games.category_deck import CategoryDeck, DeckError

log = logging.getLogger(__name__)

LEVELS: tuple[str, ...] = ("green", "blue")
DATA_DIR = Path(__file__).parents[1] / "data"


class CategoryFileError(ValueError):
    """A category file that is missing or has a problem, said with the file and line."""


def category_file(level: str) -> Path:
    if level not in LEVELS:
        raise CategoryFileError(f"there is no {level!r} deck; choose {' or '.join(LEVELS)}")
    return DATA_DIR / f"categories-{level}.txt"


@cache
def load_categories(level: str) -> tuple[str, ...]:
    """The categories of one level, in file order."""
    path = category_file(level)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CategoryFileError(f"cannot read the {level} categories ({path}): {exc}") from None
    cards: list[str] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        card = " ".join(line.split())
        if not card or card.startswith("#"):
            continue
        key = card.casefold()
        if key in seen:
            raise CategoryFileError(f"{path}, line {number}: {card!r} repeats line {seen[key]}")
        seen[key] = number
        cards.append(card)
    if not cards:
        raise CategoryFileError(f"{path} has no categories")
    return tuple(cards)


def new_deck(level: str, seed: int | None = None) -> CategoryDeck:
    """A freshly shuffled deck (a random seed unless one is given)."""
    return CategoryDeck.new(load_categories(level), secrets.randbits(32) if seed is None else seed)


def restore_deck(level: str, state: Mapping[str, Any] | None, seed: int | None = None) -> CategoryDeck:
    """The saved deck if its state is usable, else a fresh one (a damaged state never stops a game)."""
    if state:
        try:
            return CategoryDeck.from_state(load_categories(level), state)
        except DeckError as exc:
            log.warning("starting a fresh %s category deck: %s", level, exc)
    return new_deck(level, seed)

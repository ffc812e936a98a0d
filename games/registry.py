"""The five games by name: the one table that maps a name a person types to an engine.

Engines are imported lazily so that asking for one game never loads the others.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import Any

from games.base import Game

#: canonical name -> "module:Class"
ENGINES: dict[str, str] = {
    "word-on-the-street": "games.word_on_the_street:WordOnTheStreet",
    "upwords": "games.upwords:Upwords",
    "tosswords": "games.tosswords:Tosswords",
    "wordspiel": "games.wordspiel:WordSpiel",
    "option": "games.option:Option",
}

ALIASES: dict[str, str] = {
    "wots": "word-on-the-street",
    "word_on_the_street": "word-on-the-street",
    "wordonthestreet": "word-on-the-street",
    "word-spiel": "wordspiel",
    "toss-words": "tosswords",
}

GAME_NAMES: tuple[str, ...] = tuple(ENGINES)


def canonical_name(name: str) -> str:
    """'WOTS' -> 'word-on-the-street'; raise KeyError with the known names otherwise."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in ENGINES:
        known = ", ".join([*ENGINES, *ALIASES])
        raise KeyError(f"unknown game {name!r}; choose one of: {known}")
    return key


def game_class(name: str) -> type[Game[Any]]:
    module_name, _, class_name = ENGINES[canonical_name(name)].partition(":")
    return getattr(import_module(module_name), class_name)


def new_game(name: str, players: Sequence[str], options: Mapping[str, Any] | None = None) -> Game[Any]:
    return game_class(name)(players, options)

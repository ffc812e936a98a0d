"""The lookup key of a word, shared by the word list and everything that looks words up in it.

Its own module so that the main list (:mod:`games.lexicon`) and the other lists it consults
(:mod:`games.lexicon_others`) fold words the same way without importing each other.
"""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """The lookup key of a word: lower case, accents dropped, other characters kept.

    Tiles and cards carry no accents, so ``PINATA`` must find SCOWL's ``piñata``.
    """
    text = text.strip().lower().replace("\u2019", "'")
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))

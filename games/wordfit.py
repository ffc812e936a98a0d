"""The shape rules of a word that need no dictionary: Tosswords key spacing and WordSpiel overlaps.

Both the word authority (which also asks the dictionary) and the engines (which check a
move's shape when it is applied) use these, so each rule is written once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

TOSSWORDS_RULE_SPACING = "Tosswords, 'Retiring two tiles'"
TOSSWORDS_RULE_EXTRAS = "Tosswords, 'Retiring three or more tiles'"
WORDSPIEL_RULE_SPIRAL = "WordSpiel, rule G"


def letters_only(word: str) -> str:
    return "".join(ch for ch in word.upper() if ch.isalpha())


def key_spacing_fits(word: str, key1: str, key2: str, die: int | None) -> bool:
    """True when some occurrence of the two keys has exactly ``die`` letters between them.

    Either order, anywhere in the word; ``die=None`` is the d12's blank wild face (any
    spacing). The same letter may be both keys only through two different occurrences.
    """
    w = letters_only(word)
    a, b = key1.upper(), key2.upper()
    first = [i for i, ch in enumerate(w) if ch == a]
    second = [i for i, ch in enumerate(w) if ch == b]
    return any(
        i != j and (die is None or abs(i - j) - 1 == die) for i in first for j in second
    )


def tosswords_misfit(
    word: str, keys: tuple[str, str], die: int | None, extras: Iterable[str] = ()
) -> str | None:
    """Why ``word`` does not fit the draw, or None when it fits (dictionary not consulted)."""
    w = letters_only(word)
    k1, k2 = (k.upper() for k in keys)
    for key in {k1, k2}:
        needed = 2 if (k1 == k2 == key) else 1
        if w.count(key) < needed:
            return f"{w} has no {key}, a key tile"
    if not key_spacing_fits(w, k1, k2, die):
        gap = "any number of" if die is None else str(die)
        return f"{w} does not have {gap} letter{'s' if die != 1 else ''} between {k1} and {k2}"
    need = Counter(ch.upper() for ch in extras)
    need.update([k1, k2])
    have = Counter(w)
    missing = sorted(ch for ch, n in need.items() if have[ch] < n)
    if missing:
        return f"{w} does not contain the drawn tile{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
    return None


def spiral_overlaps(spiral: str, word: str) -> list[int]:
    """Every overlap k (1..len(spiral)) such that ``word`` starts with the spiral's last k letters
    and adds at least one card. Shortest first. Empty: the word cannot be played here."""
    s, w = letters_only(spiral), letters_only(word)
    return [k for k in range(1, len(s) + 1) if len(w) > k and w.startswith(s[-k:])]

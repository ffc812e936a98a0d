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


class Spiral:
    """The WordSpiel spiral as an immutable chain of the pieces laid on it, newest last.

    Why not a string: a game keeps every state (undo is free), and a spiral that grows by
    one drawn card a turn would then be copied whole each turn — memory growing with the
    square of its length (100,000 events: 5 GB). Adding a piece here makes one small node
    that points at the old spiral, and a turn only ever reads the last few letters
    (:meth:`tail`), so a turn costs O(word), not O(spiral). ``str()`` gives the letters.
    """

    __slots__ = ("_length", "_piece", "_prev")

    def __init__(self, piece: str = "", prev: Spiral | None = None) -> None:
        self._prev = prev
        self._piece = piece
        self._length = len(piece) + (len(prev) if prev is not None else 0)

    def extend(self, letters: str) -> Spiral:
        """The spiral with ``letters`` laid after its end (this one is unchanged)."""
        return Spiral(letters, self) if letters else self

    def tail(self, n: int) -> str:
        """The last ``n`` letters (all of them when the spiral is shorter)."""
        pieces: list[str] = []
        have = 0
        node: Spiral | None = self
        while node is not None and have < n:
            pieces.append(node._piece)
            have += len(node._piece)
            node = node._prev
        text = "".join(reversed(pieces))
        return text[-n:] if n > 0 else ""

    def __len__(self) -> int:
        return self._length

    def __str__(self) -> str:
        return self.tail(self._length)

    def __repr__(self) -> str:
        return f"Spiral({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Spiral, str)):
            return len(self) == len(other) and str(self) == str(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))


def spiral_overlaps(spiral: str | Spiral, word: str) -> list[int]:
    """Every overlap k (1..len(spiral)) such that ``word`` starts with the spiral's last k letters
    and adds at least one card. Shortest first. Empty: the word cannot be played here.

    A :class:`Spiral` is read only as far back as the word is long: O(word)."""
    w = letters_only(word)
    s = spiral.tail(len(w)) if isinstance(spiral, Spiral) else letters_only(spiral)
    return [k for k in range(1, len(s) + 1) if len(w) > k and w.startswith(s[-k:])]

"""The SCOWL word lists a dictionary leaves out, asked only to make a ruling's reason true.

A table plays with one SCOWL size and spelling (:mod:`games.lexicon`), but a ruling must
not call a word "always capitalized" or "only an abbreviation" when some other SCOWL list
writes it in lower case (JO is a size-70 word; GREY is British; "pollock's" is in the
variant-spelling list), and an unknown word's ruling can point the table at the list that
has it, as a hint for a house word. These are those other lists: the larger sizes of the
spellings in use first, then every other spelling, each smallest size first.

Read on first use, never at load: most games never ask.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Set
from pathlib import Path

from games.word_keys import fold

_NAME_FILE = re.compile(r"^[a-z_0-9]+-(upper|proper-names)\.(\d+)$")


def other_word_lists(
    catalogue: dict[tuple[str, str, int], Path],
    used: tuple[str, ...],
    size: int,
    variants: tuple[str, ...],
    largest_named: int = 80,
    category: str = "words",
) -> list[tuple[int, str, Path]]:
    """(size, spelling, file) of every ordinary-word list (or every list of ``category``:
    "abbreviations") not in the dictionary, in the
    order a reason should name them: the lists up to ``largest_named`` (the largest a reason
    offers as a house word) before any larger one; among them, larger sizes of ``used``
    spellings, then the others (SCOWL's named spellings in ``variants`` order, then the
    variant-spelling lists, the more accepted first: every ``_1`` list, plain then each
    English's, then every ``_2``…)."""
    levels = sorted({lv for (_, _, lv) in catalogue})
    spellings = {sp for (sp, cat, _) in catalogue if cat == category} - set(used)

    def variant_order(spelling: str) -> tuple[str, int, str]:
        english, _, grade = spelling.rpartition("variant_")
        english = english.rstrip("_")
        return (grade, variants.index(english) if english in variants else 0, spelling)

    others = [v for v in variants if v in spellings] + sorted(spellings - set(variants), key=variant_order)
    found = [
        (level, spelling, catalogue[(spelling, category, level)])
        for spelling in used
        for level in levels
        if level > size and (spelling, category, level) in catalogue
    ] + [
        (level, spelling, catalogue[(spelling, category, level)])
        for spelling in others
        for level in levels
        if (spelling, category, level) in catalogue
    ]
    # stable: keeps the spelling order
    found.sort(key=lambda entry: (entry[0] > largest_named, entry[1] in others, entry[0]))
    return found


class OtherLists:
    """Where else SCOWL has a word in lower case: ``find`` (a byte search, a few ms) and
    ``indexed`` (a lookup in an index of the words asked about most, built once)."""

    def __init__(self, files: list[tuple[int, str, Path]]) -> None:
        self.files = files
        self._texts: list[tuple[int, str, bytes]] | None = None
        self._index: dict[str, tuple[int, str]] | None = None

    def _read(self) -> list[tuple[int, str, bytes]]:
        if self._texts is None:
            texts = []
            for size, spelling, path in self.files:
                try:
                    texts.append((size, spelling, b"\n" + path.read_bytes()))
                except OSError:
                    continue
            self._texts = texts
        return self._texts

    def find(self, key: str) -> tuple[int, str] | None:
        """(size, spelling) of the first list with ``key`` as a line of its own, else None."""
        if not key or "\n" in key:
            return None
        needle = f"\n{key}\n".encode()
        for size, spelling, data in self._read():
            if needle in data:
                return size, spelling
        return None

    def indexed(self, key: str, wanted: Callable[[], Set[str]]) -> tuple[int, str] | None:
        """``find`` for a key of ``wanted()`` (the names and abbreviations), from an index of
        all of them built on the first question (one pass over the lists, ~0.2 s)."""
        if self._index is None:
            keys = wanted()
            index: dict[str, tuple[int, str]] = {}
            for size, spelling, data in self._read():
                for w in keys & set(data.decode("utf-8", "replace").split()):
                    index.setdefault(w, (size, spelling))
            self._index = index
        return self._index.get(key)


class NameLevels:
    """How common a word is as a name and as an ordinary word, by SCOWL size level — the
    evidence for Word on the Street's hyphens: a part is *chiefly a name* when the name
    lists write it with a capital at a commoner level than any lower-case entry (Jones:
    name at 50, word at 80 — a name; Ray: name at 50, word at 20 — a word). Single letters
    are never names. Built on the first hyphen question (~30 ms once).
    """

    def __init__(
        self,
        files: Iterable[Path],
        levels: list[int],
        by_level: list[list[str]],
        names: Set[str],
        words: Set[str],
    ) -> None:
        self._files, self._levels, self._by_level = list(files), levels, by_level
        self._names, self._words = names, words
        self._name: dict[str, int] | None = None
        self._word: dict[str, int] | None = None

    def name_level(self, key: str) -> int | None:
        if self._name is None:
            found: dict[str, int] = {}
            for path in self._files:
                m = _NAME_FILE.match(path.name)
                if not m:
                    continue
                level = int(m[2])
                try:
                    entries = path.read_text(encoding="utf-8", errors="replace").split()
                except OSError:
                    continue
                for w in entries:
                    k = fold(w)
                    if found.get(k, 999) > level:
                        found[k] = level
            self._name = found
        return self._name.get(key)

    def word_level(self, key: str) -> int | None:
        if self._word is None:
            found: dict[str, int] = {}
            for level, words in zip(self._levels, self._by_level, strict=True):
                for w in self._names & set(words):
                    found.setdefault(w, level)
            self._word = found
        if key in self._word:
            return self._word[key]
        return self._levels[0] if key in self._words and self._levels else None

    def is_chiefly_name(self, key: str) -> bool:
        level = self.name_level(key)
        if level is None or len(key) < 2:
            return False
        word = self.word_level(key)
        return word is None or level < word

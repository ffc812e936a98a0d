"""The word facts SCOWL lacks: parts of speech (WordNet) and units of measure (GNU units).

SCOWL says how a word is *spelt*; two rule-sheet questions need more:

* **Is this a plural made with S?** (Tosswords' soup rule, Upwords rule 5.) Princeton
  WordNet 3.0, as installed by Debian's ``wordnet-base`` package into
  ``/usr/share/wordnet``: its noun and verb lemma indexes (``index.noun``,
  ``index.verb``, ``index.adv``) and the irregular forms (``noun.exc``, ``verb.exc``).
  PANTS and SCISSORS are nouns in their own right there; ZEBRA is a noun, SEEM is not.
* **Is this abbreviation a unit of measure?** (WordSpiel's "common abbreviations such as
  tsp or lb".) GNU units' database (Debian's ``units`` package,
  ``/usr/share/units/definitions.units``) names units by their symbols (tsp, lb, pt, qt,
  kg); WordNet's noun hierarchy knows the prefixed metric ones (mm, cm: "a metric unit of
  length"), by following hypernyms up to ``unit_of_measurement``.

Both are optional: with neither installed the word policies fall back to SCOWL-only
heuristics (see :mod:`games.word_forms`), and say so in docs/words.md. Read on first use
(about 0.1 s), never at start-up, so that loading the word list stays fast.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

DEFAULT_WORDNET_DIR = Path("/usr/share/wordnet")
DEFAULT_UNITS_FILE = Path("/usr/share/units/definitions.units")
#: WordNet's lemma for the top of the units-of-measure hierarchy
UNIT_LEMMA = "unit_of_measurement"
#: WordNet's lemma for titles of courtesy (Mister, Mrs): words, not names
TITLE_LEMMA = "form_of_address"


def _lemmas(text: str) -> set[str]:
    """The first field of each index line (licence lines start with spaces)."""
    return {line.split(" ", 1)[0] for line in text.splitlines() if line and not line.startswith(" ")}


def _exceptions(text: str) -> dict[str, tuple[str, ...]]:
    """'mice mouse' lines: inflected form -> its base forms."""
    out: dict[str, tuple[str, ...]] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) > 1:
            out[parts[0]] = tuple(parts[1:])
    return out


def _unit_names(text: str) -> dict[str, str]:
    """Unit symbol -> the first word of its definition ("tsp" -> "teaspoon").

    Only entries that define a unit by a name of their own: not prefixes (``k-``), not
    directives (``!include``), not functions (``tempC(x)``), not ``+`` additions.
    """
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line or line[0] in "#! \t+":
            continue
        parts = line.split(None, 2)
        name = parts[0]
        if len(parts) < 2 or name.endswith("-") or not name.isalpha():
            continue
        out.setdefault(name, "an SI base unit" if parts[1] == "!" else parts[1])
    return out


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


@dataclass
class WordSources:
    """WordNet's lemma lists and GNU units' symbols; each part None when not installed."""

    nouns: set[str] | None = None
    verbs: set[str] | None = None
    adverbs: set[str] | None = None
    noun_exceptions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    verb_exceptions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    units: dict[str, str] | None = None
    wordnet_dir: Path | None = None
    _noun_index: str | None = field(default=None, repr=False)
    #: noun lemma -> its index.noun line, built on the first synset question
    _noun_lines: dict[str, str] | None = field(default=None, repr=False)
    _unit_synset: int | None = field(default=None, repr=False)
    _title_synset: int | None = field(default=None, repr=False)
    #: answers already read from data.noun (a handful of seeks each): key -> answer
    _units_seen: dict[str, str | None] = field(default_factory=dict, repr=False)
    _heads_seen: dict[str, bool] = field(default_factory=dict, repr=False)
    _titles_seen: dict[str, str | None] = field(default_factory=dict, repr=False)

    @classmethod
    def load(
        cls,
        wordnet_dir: str | os.PathLike[str] = DEFAULT_WORDNET_DIR,
        units_file: str | os.PathLike[str] = DEFAULT_UNITS_FILE,
    ) -> WordSources:
        """Read what is installed; a missing or unreadable file leaves its part None."""
        src = cls()
        directory = Path(wordnet_dir)
        noun_text = _read(directory / "index.noun")
        verb_text = _read(directory / "index.verb")
        if noun_text is not None and verb_text is not None:
            src.wordnet_dir = directory
            src._noun_index = "\n" + noun_text
            src.nouns = _lemmas(noun_text)
            src.verbs = _lemmas(verb_text)
            src.adverbs = _lemmas(_read(directory / "index.adv") or "")
            src.noun_exceptions = _exceptions(_read(directory / "noun.exc") or "")
            src.verb_exceptions = _exceptions(_read(directory / "verb.exc") or "")
        units = _read(Path(units_file))
        if units is not None:
            src.units = _unit_names(units)
        return src

    @property
    def has_wordnet(self) -> bool:
        return self.nouns is not None

    def is_noun(self, key: str) -> bool:
        return self.nouns is not None and key in self.nouns

    def is_verb_form(self, key: str) -> str | None:
        """The verb whose -S form ``key`` is (RUNS -> run, GOES -> go, CARRIES -> carry), else None."""
        if self.verbs is None:
            return None
        for base in self.verb_exceptions.get(key, ()):
            if base in self.verbs:
                return base
        stems = [key[:-1]] if key.endswith("s") else []
        if key.endswith("es"):
            stems.append(key[:-2])
        if key.endswith("ies"):
            stems.append(key[:-3] + "y")
        return next((s for s in stems if s and s in self.verbs), None)

    def unit(self, key: str) -> str | None:
        """Where the data says ``key`` (lower case) is a unit of measure, in words, else None:
        "GNU units: teaspoon" for tsp, "WordNet: millimeter" for mm."""
        if self.units is not None and key in self.units:
            return f"GNU units: {self.units[key]}"
        if key not in self._units_seen:
            lemma = self._wordnet_unit(key)
            self._units_seen[key] = f"WordNet: {lemma}" if lemma else None
        return self._units_seen[key]

    def initials(self, key: str) -> str | None:
        """WordNet's spelling of ``key`` as dotted initials ("a.k.a." for aka, "e.g." for eg),
        else None: written so, an abbreviation is an acronym of a phrase."""
        dotted = ".".join(key) + "."
        lemmas = (self.nouns, self.verbs, self.adverbs)
        return dotted if key.isalpha() and any(s is not None and dotted in s for s in lemmas) else None

    def title(self, form: str) -> str | None:
        """The title ``form`` abbreviates ("Mister" for Mr), when a WordNet noun sense
        written ``form`` or ``form.`` is a kind of form of address; else None."""
        key = form.lower().rstrip(".")
        if self.wordnet_dir is None or not self.is_noun(key):
            return None
        if form not in self._titles_seen:
            self._titles_seen[form] = self._title(form, key)
        return self._titles_seen[form]

    def _title(self, form: str, key: str) -> str | None:
        if self.wordnet_dir is None:
            return None
        if self._title_synset is None:
            found = self._offsets(TITLE_LEMMA)
            self._title_synset = found[0] if found else -1
        try:
            with open(self.wordnet_dir / "data.noun", "rb") as data:
                for offset in self._offsets(key):
                    data.seek(offset)
                    fields = data.readline().decode("utf-8", "replace").split()
                    forms = fields[4 : 4 + 2 * int(fields[3], 16) : 2]
                    written = form in forms or f"{form}." in forms
                    if written and self._descends(data, offset, self._title_synset):
                        return forms[0].replace("_", " ")
        except (OSError, ValueError, IndexError):
            return None
        return None

    def heads_noun(self, key: str) -> bool:
        """True when ``key``, in lower case, is the first word of a WordNet noun sense: a
        noun in its own right ("aa", lava; "os", a bone), not another way of writing one
        ("lb" comes after "pound", "mm" after "millimeter") nor a name ("Ca", "CA")."""
        if self.wordnet_dir is None or not self.is_noun(key):
            return False
        if key not in self._heads_seen:
            self._heads_seen[key] = self._heads_noun(self.wordnet_dir, key)
        return self._heads_seen[key]

    def _heads_noun(self, wordnet_dir: Path, key: str) -> bool:
        try:
            with open(wordnet_dir / "data.noun", "rb") as data:
                for offset in self._offsets(key):
                    data.seek(offset)
                    fields = data.readline().decode("utf-8", "replace").split()
                    if fields[4] == key:
                        return True
        except (OSError, ValueError, IndexError):
            return False
        return False

    # -- WordNet's noun hierarchy --------------------------------------------------------

    def _offsets(self, lemma: str) -> list[int]:
        """The synset offsets of a noun lemma, from its line in index.noun."""
        if self._noun_index is None:
            return []
        if self._noun_lines is None:  # one pass (~0.1 s), then a lookup per question
            lines = self._noun_index.splitlines()
            self._noun_lines = {line.split(" ", 1)[0]: line for line in lines if line and line[0] != " "}
        line = self._noun_lines.get(lemma)
        if line is None:
            return []
        fields = line.split()
        count = int(fields[2])
        return [int(x) for x in fields[-count:]]

    def _wordnet_unit(self, key: str) -> str | None:
        if self.wordnet_dir is None or not self.is_noun(key):
            return None
        if self._unit_synset is None:
            found = self._offsets(UNIT_LEMMA)
            self._unit_synset = found[0] if found else -1
        try:
            with open(self.wordnet_dir / "data.noun", "rb") as data:
                for offset in self._offsets(key):
                    if self._descends(data, offset, self._unit_synset):
                        data.seek(offset)
                        return data.readline().split()[4].decode().replace("_", " ")
        except (OSError, ValueError, IndexError):
            return None
        return None

    def _descends(self, data: BinaryIO, offset: int, kind: int) -> bool:
        """True when the synset at ``offset`` is a kind of the synset at ``kind`` (a unit of
        measurement, a form of address) — hypernyms only: an *instance* such as Internet
        Explorer is a name, not a kind."""
        seen: set[int] = set()
        todo = [offset]
        while todo:
            here = todo.pop()
            if here == kind:
                return True
            if here in seen or len(seen) > 200:
                continue
            seen.add(here)
            data.seek(here)
            fields = data.readline().decode("utf-8", "replace").split()
            n_words = int(fields[3], 16)
            i = 4 + 2 * n_words
            n_pointers = int(fields[i])
            for p in range(n_pointers):
                symbol, target, pos = fields[i + 1 + 4 * p : i + 4 + 4 * p]
                if symbol == "@" and pos == "n":
                    todo.append(int(target))
        return False

"""The one loader of the word list: SCOWL, as installed by Debian's ``scowl`` package.

Why SCOWL: it is a permissively licensed, spell-checker-grade English list that already
separates what our rule sheets care about — ordinary words, words always written with a
capital (``upper``, ``proper-names``), abbreviations and contractions — at graded size
levels (10 = the commonest words … 95 = nearly everything). A word list typed into the
repo could not be argued with at the table; a published dictionary can.

This module is the only place in ``games/`` that reads the word list (the house-words
file is the other file the core touches, in :mod:`games.house_words`). It answers
questions about *spelling only*; what each game allows is in :mod:`games.words`.

Keys are case- and accent-folded: ``"Café"``, ``"CAFE"`` and ``"café"`` all become
``"cafe"``; apostrophes are kept (``"don't"``), so ``"DONT"`` is a different key.

>>> lex = Lexicon.load(size=70)                 # doctest: +SKIP
>>> lex.is_word("trance"), lex.name_form("alaska"), lex.abbreviation_form("tsp")  # doctest: +SKIP
(True, 'Alaska', 'tsp')
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from games.lexicon_others import NameLevels, OtherLists, other_word_lists
from games.word_keys import fold
from games.word_lists import (
    DEFAULT_SIZE,
    DEFAULT_VARIANT,
    RARE_WORDS_SIZE,
    SPELLINGS,
    VARIANTS,
    list_name,
    spelling_name,
)
from games.word_sources import WordSources

#: Where Debian and Raspberry Pi OS put the raw SCOWL lists (package ``scowl``).
DEFAULT_DICT_DIR = Path("/usr/share/dict/scowl")
#: SCOWL's sub-categories (the middle part of a file name).
CATEGORIES: tuple[str, ...] = ("words", "upper", "proper-names", "abbreviations", "contractions")

_INSTALL_HINT = "install the scowl package: sudo apt install scowl"
_FILE_NAME = re.compile(r"^(?P<spelling>[a-z_0-9]+)-(?P<category>[a-z-]+)\.(?P<size>\d+)$")


class LexiconMissing(FileNotFoundError):
    """The word list is not installed (or not where the settings say)."""


class LexiconError(ValueError):
    """A word-list setting that cannot work, e.g. a size SCOWL does not have."""


def _case_of(form: str) -> str:
    """'lower' (tsp), 'caps' (VIP, CA) or 'capital' (Tue, Alaska)."""
    if form == form.lower():
        return "lower"
    letters = [ch for ch in form if ch.isalpha()]
    if len(letters) > 1 and all(ch.isupper() for ch in letters):
        return "caps"
    return "capital"


_ABBREVIATION_RANK = {"caps": 0, "lower": 1, "capital": 2}


def _keys(text: str, entries: list[str]) -> list[str]:
    """``fold`` of each of ``entries`` (``text.split()``); a file of plain ASCII, nearly every
    one, is folded in one call, which keeps loading the ~130 lists quick."""
    if text.isascii():
        return text.lower().split()
    return [fold(w) for w in entries]


@dataclass
class Lexicon:
    """One SCOWL dictionary: ``english`` + one spelling variant, every level up to ``size``.

    Parameters: ``size`` (a SCOWL level: 10, 20, 35, 40, 50, 55, 60, 70, 80, 95),
    ``variant`` (both, american, british, british_z, canadian, australian), ``dict_dir``.
    """

    size: int
    variant: str
    dict_dir: Path
    #: ordinary words in lower case, with their possessives ("zebra's") — SCOWL ``words``
    words: set[str] = field(default_factory=set, repr=False)
    #: the ordinary words again, file by file from the commonest level up: the order in
    #: which word searches offer words (TRANCE before TERRACE before TRUNCHEON)
    by_level: list[list[str]] = field(default_factory=list, repr=False)
    #: key -> how it is written, for words never written in lower case ("Alaska", "OK")
    names: dict[str, str] = field(default_factory=dict, repr=False)
    #: key -> how it is written ("tsp", "VIP", "Tue"); see abbreviation_form
    abbreviations: dict[str, str] = field(default_factory=dict, repr=False)
    #: contractions ("don't", "o'clock") — SCOWL ``contractions``
    contractions: set[str] = field(default_factory=set, repr=False)
    #: the SCOWL level of each ``by_level`` list (10 … size)
    levels: list[int] = field(default_factory=list, repr=False)
    #: key -> the spelling list it comes from, for words not in ``english`` ("colour" ->
    #: "british"), so that a ruling can say which spelling it accepted
    spelling: dict[str, str] = field(default_factory=dict, repr=False)
    #: the source files read, for the record and for cache keys
    files: list[Path] = field(default_factory=list, repr=False)
    _by_letters: dict[str, str] | None = field(default=None, repr=False)
    #: every other ordinary-word list (larger sizes, other spellings), asked for reasons
    _others: OtherLists = field(default_factory=lambda: OtherLists([]), repr=False)
    #: this dictionary's abbreviation lists and every other one, for the few abbreviations
    #: that are nouns too (they are searched for the entry in lower case)
    _own_abbreviations: OtherLists = field(default_factory=lambda: OtherLists([]), repr=False)
    _other_abbreviations: OtherLists = field(default_factory=lambda: OtherLists([]), repr=False)
    _noun_abbreviations: dict[str, bool] = field(default_factory=dict, repr=False)
    _levels: NameLevels | None = field(default=None, repr=False)
    #: part-of-speech and unit data (WordNet, GNU units), read on first use
    _sources: WordSources | None = field(default=None, repr=False)

    @classmethod
    def load(
        cls,
        size: int = DEFAULT_SIZE,
        variant: str = DEFAULT_VARIANT,
        dict_dir: str | os.PathLike[str] = DEFAULT_DICT_DIR,
        cache: BlobStore | None = None,
    ) -> Lexicon:
        """Read the SCOWL files for ``variant`` up to ``size``.

        With a ``cache`` (a :class:`BlobStore`), the parsed lists are also kept there as one
        compact blob (``marshal``) with a checksum of its content and of the source files;
        the next load reads that instead of ~40 text files (about four times faster). A
        stale, damaged or unwritable cache is ignored: the text files are the truth.

        Raises :class:`LexiconMissing` when the directory holds no SCOWL lists and
        :class:`LexiconError` for a size or variant the installed lists do not have.
        """
        directory = Path(dict_dir)
        catalogue = _catalogue(directory)
        sizes = sorted({s for (_, _, s) in catalogue})
        try:
            size = int(size)
        except (TypeError, ValueError):
            raise LexiconError(f"the word-list size must be a number, not {size!r}") from None
        if size not in sizes:
            raise LexiconError(
                f"SCOWL has no size {size}; choose one of {', '.join(map(str, sizes))} "
                f"({DEFAULT_SIZE} is a standard desk dictionary)"
            )
        variant = str(variant).strip().lower()
        if variant not in VARIANTS:
            raise LexiconError(f"unknown spelling variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        used = ("english", *SPELLINGS[variant])
        sources = [
            (catalogue[(spelling, category, level)], category)
            for category in CATEGORIES
            for level in sizes
            if level <= size
            for spelling in used
            if (spelling, category, level) in catalogue
        ]
        lex = cls(size=size, variant=variant, dict_dir=directory)
        lex._others = OtherLists(other_word_lists(catalogue, used, size, VARIANTS, RARE_WORDS_SIZE))
        abbreviation_files = [p for p, kind in sources if kind == "abbreviations"]
        lex._own_abbreviations = OtherLists(
            [(int(p.suffix[1:]), p.name.split("-")[0], p) for p in abbreviation_files]
        )
        lex._other_abbreviations = OtherLists(
            other_word_lists(catalogue, used, size, VARIANTS, RARE_WORDS_SIZE, "abbreviations")
        )
        parsed = _Cache(cache, sources, size, variant) if cache is not None else None
        if parsed is not None and parsed.restore(lex):
            return lex
        for path, category in sources:
            lex._read(path, category)
        if parsed is not None:
            parsed.store(lex)
        return lex

    # -- reading ---------------------------------------------------------------------------

    def _read(self, path: Path, category: str) -> None:
        # One entry a line. Upstream SCOWL is ISO-8859-1; Debian's package ships UTF-8.
        raw = path.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        self.files.append(path)
        entries = text.split()
        spelling, level = path.name.split("-", 1)[0], int(path.suffix[1:])
        if category == "words":
            lower = [w for w in entries if w.islower()]
            if not text.isascii():  # a few accented words ("piñata"): keep them folded
                folded = {w: fold(w) for w in entries if not w.isascii()}  # str.isascii: C speed
                lower = [folded.get(w, w) for w in lower]
            self.words.update(lower)
            self.by_level.append(lower)
            self.levels.append(level)
            if spelling != "english":
                for w in lower:
                    self.spelling.setdefault(w, spelling)
            if len(lower) != len(entries):  # a few words are written in capitals ("OK")
                for w in entries:
                    if not w.islower():
                        self.names.setdefault(fold(w), w)
        elif category in ("upper", "proper-names"):
            keys = _keys(text, entries)
            # the first spelling read wins: this file's first for each key, then the earlier files'
            self.names = dict(zip(reversed(keys), reversed(entries), strict=True)) | self.names
        elif category == "abbreviations":
            # When SCOWL writes one abbreviation several ways, keep the strictest for the
            # rule sheets: all capitals (an acronym: ASAP, CO), then lower case (tsp), then
            # a capital initial (Tue, Gen).
            abbreviations = self.abbreviations
            for w in entries:
                key = fold(w)
                old = abbreviations.get(key)
                if old is None or _ABBREVIATION_RANK[_case_of(w)] < _ABBREVIATION_RANK[_case_of(old)]:
                    abbreviations[key] = w
        else:
            self.contractions.update(_keys(text, entries))

    # -- questions -------------------------------------------------------------------------

    def is_word(self, key: str) -> bool:
        """An ordinary word written in lower case (or its possessive)."""
        return key in self.words

    def name_form(self, key: str) -> str | None:
        """How a word that is never written in lower case is written ("Alaska"), else None."""
        return self.names.get(key)

    def abbreviation_form(self, key: str) -> str | None:
        """How an abbreviation is written ("tsp", "VIP", "Tue"), else None.

        Where SCOWL has it both in capitals and in lower case ("ASAP", "asap"), the capitals.
        """
        return self.abbreviations.get(key)

    def is_noun_abbreviation(self, key: str) -> bool:
        """True when the lists have ``key`` only as an abbreviation, written in lower case,
        and WordNet's first word for a noun sense is ``key``: AA (a lava), OS (a bone), PSI
        (a Greek letter), RAD (a unit) are nouns every standard dictionary lists, and so
        words here; LB ("pound, lb") and MM ("millimeter, mm") stay abbreviations, and so
        does AA where the lists have only "AA". Reads WordNet on first use."""
        if key not in self.abbreviations or key in self.words or not key.isalpha():
            return False
        if key not in self._noun_abbreviations:
            self._noun_abbreviations[key] = (
                self.sources().heads_noun(key) and self._own_abbreviations.find(key) is not None
            )
        return self._noun_abbreviations[key]

    def is_contraction(self, key: str) -> bool:
        return key in self.contractions

    def apostrophe_form(self, letters: str) -> str | None:
        """The entry that is ``letters`` with an apostrophe put back: "dont" -> "don't".

        Tiles have no apostrophe, so a player may spell a contraction without one.
        """
        if self._by_letters is None:
            index: dict[str, str] = {}
            for key in (*self.contractions, *(w for w in self.words if "'" in w)):
                index.setdefault(key.replace("'", ""), key)
            self._by_letters = index
        return self._by_letters.get(letters)

    def spelling_of(self, key: str) -> str | None:
        """'British', 'American', 'British variant' … when ``key`` is a word of one spelling
        list only, else None."""
        spelling = self.spelling.get(key)
        return None if spelling is None else spelling_name(spelling)

    def is_chiefly_name(self, key: str) -> bool:
        """True when the name lists write ``key`` with a capital at a commoner level than
        any lower-case entry (Jones, Salem, Royce): see :class:`games.lexicon_others.NameLevels`."""
        if self._levels is None:
            self._levels = NameLevels(self.files, self.levels, self.by_level, self.names.keys(), self.words)
        return self._levels.is_chiefly_name(key)

    def elsewhere(self, key: str) -> tuple[int, str] | None:
        """(size, spelling) of the first other SCOWL list with ``key`` as an ordinary word:
        a larger size of this dictionary first, then another spelling ("grey" is British);
        for a noun the lists keep as an abbreviation (see :meth:`is_noun_abbreviation`),
        the first other abbreviation list that has it in lower case.

        None means no SCOWL word list at any size or spelling has it in lower case, which
        is what lets a ruling say a name is "always capitalized". For names and
        abbreviations an index built on first use (one read of the other lists, ~0.2 s
        once); for other words a byte search of those lists (a few milliseconds).
        """
        if key in self.names or key in self.abbreviations:
            found = self._others.indexed(key, lambda: self.names.keys() | self.abbreviations.keys())
        else:
            found = self._others.find(key)
        if found is None and key.isalpha() and self.sources().heads_noun(key):
            found = self._other_abbreviations.find(key)  # a noun the lists keep as an abbreviation
        return found

    def knows(self, key: str) -> bool:
        """In any list: a word, a name, an abbreviation or a contraction."""
        return key in self.words or key in self.names or key in self.abbreviations or key in self.contractions

    def list_name(self) -> str:
        """'full dictionary', 'everyday list' …: this list as a family's screen names it."""
        return list_name(self.size)

    def spellings_played(self) -> str:
        """'American and British': the spellings this table plays, for reasons."""
        return " and ".join(spelling_name(v) for v in SPELLINGS[self.variant] if "variant" not in v)

    def describe(self) -> str:
        """'SCOWL size 70, American and British, with variants': the list and the spellings
        it accepts, for the technician (``tablekeeper doctor``, ``check --json``)."""
        return f"SCOWL size {self.size}, {self.spellings_played()}, with variants"

    def sources(self) -> WordSources:
        """The part-of-speech and unit data (:class:`games.word_sources.WordSources`), read
        on first use so that loading the word list stays fast."""
        if self._sources is None:
            self._sources = WordSources.load()
        return self._sources

    def use_sources(self, sources: WordSources) -> None:
        """Use these part-of-speech and unit data (read from elsewhere, or none at all)."""
        self._sources = sources

    def __len__(self) -> int:
        return len(self.words) + len(self.names) + len(self.abbreviations) + len(self.contractions)


def _catalogue(directory: Path) -> dict[tuple[str, str, int], Path]:
    """(spelling, category, size) -> file, for every SCOWL list in ``directory``."""
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        raise LexiconMissing(
            f"the word list is not installed: {directory} does not exist; {_INSTALL_HINT}"
        ) from None
    except NotADirectoryError:
        raise LexiconMissing(
            f"the word list directory {directory} is not a directory; {_INSTALL_HINT}"
        ) from None
    except PermissionError:
        raise LexiconMissing(f"cannot read the word list directory {directory}: permission denied") from None
    found: dict[tuple[str, str, int], Path] = {}
    for name in names:
        m = _FILE_NAME.match(name)
        if m and m["category"] in CATEGORIES:
            found[(m["spelling"], m["category"], int(m["size"]))] = directory / name
    if not any(sp == "english" and cat == "words" for (sp, cat, _) in found):
        raise LexiconMissing(f"no SCOWL word lists in {directory}; {_INSTALL_HINT}")
    return found


class BlobStore(Protocol):
    """Somewhere to keep a named blob between runs; the kiosk's is a folder in its data
    directory (``kiosk.files.cache_folder.CacheFolder``). ``games/`` itself writes no file."""

    def read(self, name: str) -> bytes | None:
        """The blob, or None when there is none (or it cannot be read)."""

    def write(self, name: str, data: bytes) -> None:
        """Keep ``data`` under ``name``; may raise OSError (a cache then simply is not kept)."""


class _Cache:
    """The parsed lists as one marshal blob, trusted only while two checksums agree.

    The blob carries a SHA-256 of the word lists it was parsed from (their bytes, names and
    categories: a list replaced by a package upgrade with the same size and time is still
    noticed) and a SHA-256 of its own payload (one flipped byte on the SD card would
    otherwise rule PURPLE illegal and PURPLX legal until someone deleted the file). Hashing
    the ~1 MiB of lists costs a few milliseconds; parsing them costs a few hundred. Any
    mismatch and the text files are parsed again and the blob rewritten.
    """

    FORMAT = 5

    def __init__(self, store: BlobStore, sources: list[tuple[Path, str]], size: int, variant: str) -> None:
        self.store_ = store
        self.name = f"scowl-{variant}-{size}.marshal"
        self.sources = sources
        self._key: str | None = None

    def key(self) -> str:
        """The SHA-256 of the source lists: their paths, categories and bytes."""
        if self._key is None:
            digest = hashlib.sha256()
            for path, category in self.sources:
                data = path.read_bytes()
                digest.update(f"{path}\0{category}\0{len(data)}\0".encode())
                digest.update(data)
            self._key = digest.hexdigest()
        return self._key

    def restore(self, lex: Lexicon) -> bool:
        raw = self.store_.read(self.name)
        if raw is None:
            return False
        try:
            fmt, key, checksum, body = marshal.loads(raw)
            if fmt != self.FORMAT or key != self.key() or hashlib.sha256(body).hexdigest() != checksum:
                return False
            by_level, names, abbreviations, contractions, levels, spelling = marshal.loads(body)
            words: set[str] = set()
            for level in by_level:  # the words are the levels' union: not stored twice
                words.update(level)
        except (OSError, EOFError, ValueError, TypeError):
            return False
        lex.by_level, lex.words, lex.names = by_level, words, names
        lex.levels, lex.spelling = levels, spelling
        lex.abbreviations, lex.contractions = abbreviations, set(contractions)
        lex.files = [path for path, _ in self.sources]
        return True

    def store(self, lex: Lexicon) -> None:
        payload = (
            lex.by_level, lex.names, lex.abbreviations, list(lex.contractions), lex.levels, lex.spelling,
        )
        # A cache is an optimisation: if it cannot be kept, the next load parses the text again.
        with contextlib.suppress(OSError, ValueError):
            body = marshal.dumps(payload)
            blob = (self.FORMAT, self.key(), hashlib.sha256(body).hexdigest(), body)
            self.store_.write(self.name, marshal.dumps(blob))

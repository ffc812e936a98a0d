"""House words: the table's own additions to and strikes from the dictionary.

Every family has words the list lacks ("QI" for the Scrabble fans) or words it refuses
to play. A house entry *allows* or *strikes* one word, for one game or for all games; a
ruling on that word then says "allowed by house rule" / "struck by house rule" with
``source="house"``. An entry for one game beats an entry for all games.

The entries live in a small JSON file whose path the caller passes in (the kiosk uses
``kiosk.paths.house_words_file()``)::

    {"tablekeeper": "house-words", "version": 1,
     "entries": [{"word": "QI", "action": "allow", "game": null}]}

Why so careful with a tiny file: it is the players' own work. Every change re-reads the
file (so two processes do not undo each other), then writes a temporary file, fsyncs it
and renames it over the old one, so a power cut leaves the old list or the new one. A
damaged file is never overwritten: loading it raises :class:`HouseWordsError` saying
where it is and what is wrong, and the file stays exactly as it was.

>>> house = HouseWords()            # in memory; HouseWords.load(path) for a file
>>> house.add("qi").word, house.strike("ok", game="upwords").game
('QI', 'upwords')
>>> house.lookup("qi", "option").action
'allow'
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.lexicon import fold
from games.registry import canonical_name

FORMAT = "house-words"
VERSION = 1
ALLOW = "allow"
STRIKE = "strike"
MAX_LENGTH = 40


class HouseWordsError(ValueError):
    """A house-words file that cannot be read as one, or a word that cannot be a house word."""


@dataclass(frozen=True, slots=True)
class HouseEntry:
    """One house rule: ``word`` (upper case) is ``action`` ("allow"/"strike") in ``game`` (None = all)."""

    word: str
    action: str
    game: str | None = None

    @property
    def key(self) -> str:
        return fold(self.word)

    def scope(self) -> str:
        """'all games' or the game's name, for messages."""
        return "all games" if self.game is None else self.game

    def to_dict(self) -> dict[str, Any]:
        return {"word": self.word, "action": self.action, "game": self.game}


def normalise_word(word: str) -> str:
    """Check a word a player typed for the house list; return it in upper case.

    One word of letters, with apostrophes or hyphens inside it if need be.
    """
    text = str(word).strip().replace("\u2019", "'")
    if not text:
        raise HouseWordsError("a house word cannot be empty")
    if any(ch.isspace() for ch in text):
        raise HouseWordsError(f"{text!r} is more than one word; a house word is one word")
    if len(text) > MAX_LENGTH:
        raise HouseWordsError(f"a house word has at most {MAX_LENGTH} letters")
    if not all(ch.isalpha() or ch in "'-" for ch in text) or not any(ch.isalpha() for ch in text):
        raise HouseWordsError(f"{text!r} has characters other than letters, hyphens and apostrophes")
    return text.upper()


def _game(game: str | None) -> str | None:
    if game is None:
        return None
    try:
        return canonical_name(game)
    except KeyError as exc:
        raise HouseWordsError(str(exc.args[0])) from None


class HouseWords:
    """The house list, kept in ``path`` (or only in memory when ``path`` is None)."""

    def __init__(self, path: str | os.PathLike[str] | None = None, entries: list[HouseEntry] | None = None):
        self.path = Path(path) if path is not None else None
        self._entries: dict[tuple[str, str | None], HouseEntry] = {}
        for entry in entries or ():
            self._entries[(entry.key, entry.game)] = entry

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> HouseWords:
        """Read ``path``; a missing file is an empty list. Raises HouseWordsError if damaged."""
        house = cls(path)
        house._reload()
        return house

    # -- questions -------------------------------------------------------------------------

    def lookup(self, key: str, game: str | None) -> HouseEntry | None:
        """The entry that decides ``key`` (a folded word) in ``game``: the game's own first."""
        if game is not None:
            entry = self._entries.get((key, game))
            if entry is not None:
                return entry
        return self._entries.get((key, None))

    def entries(self) -> list[HouseEntry]:
        """Every entry, sorted by word then game (all-games entries first)."""
        return sorted(self._entries.values(), key=lambda e: (e.word, e.game or ""))

    def allowed_keys(self, game: str) -> set[str]:
        """Folded words allowed by house rule in ``game`` (and not struck for it)."""
        keys = {k for (k, g), e in self._entries.items() if e.action == ALLOW and g in (None, game)}
        return {k for k in keys if (entry := self.lookup(k, game)) is not None and entry.action == ALLOW}

    def struck_keys(self, game: str) -> set[str]:
        """Folded words struck by house rule in ``game`` (and not re-allowed for it)."""
        keys = {k for (k, g), e in self._entries.items() if e.action == STRIKE and g in (None, game)}
        return {k for k in keys if (entry := self.lookup(k, game)) is not None and entry.action == STRIKE}

    def __len__(self) -> int:
        return len(self._entries)

    # -- changes ---------------------------------------------------------------------------

    def add(self, word: str, game: str | None = None) -> HouseEntry:
        """Allow ``word`` in ``game`` (all games when None); replaces a strike of the same scope."""
        return self._put(HouseEntry(normalise_word(word), ALLOW, _game(game)))

    def strike(self, word: str, game: str | None = None) -> HouseEntry:
        """Strike ``word`` from ``game`` (all games when None); replaces an allow of the same scope."""
        return self._put(HouseEntry(normalise_word(word), STRIKE, _game(game)))

    def remove(self, word: str, game: str | None = None) -> HouseEntry:
        """Drop the entry for ``word`` in exactly that scope; KeyError when there is none."""
        scope = (fold(normalise_word(word)), _game(game))
        self._reload()
        entry = self._entries.pop(scope, None)
        if entry is None:
            where = "all games" if scope[1] is None else scope[1]
            raise KeyError(f"there is no house rule for {word.strip().upper()} in {where}")
        self._save()
        return entry

    def _put(self, entry: HouseEntry) -> HouseEntry:
        self._reload()
        self._entries[(entry.key, entry.game)] = entry
        self._save()
        return entry

    # -- the file --------------------------------------------------------------------------

    def _reload(self) -> None:
        if self.path is None:
            return
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            self._entries = {}
            return
        except OSError as exc:
            raise HouseWordsError(f"cannot read the house-words file {self.path}: {exc.strerror}") from None
        self._entries = {(e.key, e.game): e for e in _parse(raw, self.path)}

    def _save(self) -> None:
        if self.path is None:
            return
        data = {
            "tablekeeper": FORMAT,
            "version": VERSION,
            "entries": [e.to_dict() for e in self.entries()],
        }
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        _write_atomically(self.path, text.encode("utf-8"))


def _parse(raw: bytes, path: Path) -> list[HouseEntry]:
    """The entries of a house-words file, or HouseWordsError naming the file and the fault."""

    def damaged(why: str) -> HouseWordsError:
        return HouseWordsError(
            f"the house-words file {path} is damaged ({why}); it was left untouched — "
            f"fix it or move it away to start a new list"
        )

    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise damaged("it is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise damaged(f"not valid JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict) or data.get("tablekeeper") != FORMAT:
        raise damaged("it is not a tablekeeper house-words file")
    if data.get("version") != VERSION:
        raise damaged(f"version {data.get('version')!r}; this tablekeeper reads version {VERSION}")
    items = data.get("entries")
    if not isinstance(items, list):
        raise damaged("'entries' should be a list")
    entries = []
    for n, item in enumerate(items, 1):
        if not isinstance(item, dict):
            raise damaged(f"entry {n} is not an object")
        action = item.get("action")
        if action not in (ALLOW, STRIKE):
            raise damaged(f"entry {n} has action {action!r}; expected 'allow' or 'strike'")
        try:
            entries.append(HouseEntry(normalise_word(item.get("word", "")), action, _game(item.get("game"))))
        except HouseWordsError as exc:
            raise damaged(f"entry {n}: {exc}") from None
    return entries


def _write_atomically(path: Path, data: bytes) -> None:
    """Temporary file, fsync, rename, fsync the directory: old file or new, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    try:
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)

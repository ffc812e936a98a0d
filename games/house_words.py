"""House words: the table's own additions to and strikes from the dictionary.

Every family has words the list lacks ("QI" for the Scrabble fans) or words it refuses
to play. A house entry *allows* or *strikes* one word, for one game or for all games; a
ruling on that word then says "allowed by house rule" / "struck by house rule" with
``source="house"``. An entry for one game beats an entry for all games.

The entries are kept in a small JSON document. ``games/`` never opens a file: the caller
hands :class:`HouseWords` a *storage* (``read()`` / ``write()``); the kiosk's is
``kiosk.files.house_file.HouseWordsFile`` over ``kiosk.files.paths.house_words_file()``::

    {"tablekeeper": "house-words", "version": 1,
     "entries": [{"word": "QI", "action": "allow", "game": null}]}

Why so careful with a tiny list: it is the players' own work. Every change re-reads the
storage (so two processes do not undo each other) before writing the whole list back. A
damaged document is never overwritten: reading it raises :class:`HouseWordsError` saying
where it is and what is wrong, and it stays exactly as it was.

>>> house = HouseWords()            # in memory; kiosk.files.house_file.open_house_words() for the file
>>> house.add("qi").word, house.strike("ok", game="upwords").game
('QI', 'upwords')
>>> house.lookup("qi", "option").action
'allow'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from games.lexicon import fold
from games.registry import canonical_name

FORMAT = "house-words"
VERSION = 1
ALLOW = "allow"
STRIKE = "strike"
MAX_LENGTH = 40


class HouseWordsError(ValueError):
    """A house-words file that cannot be read as one, or a word that cannot be a house word."""


class HouseStorage(Protocol):
    """Where the house list is kept (a file, for the kiosk and the command line)."""

    def read(self) -> bytes | None:
        """The stored document, or None when nothing has been stored yet."""

    def write(self, data: bytes) -> None:
        """Replace the stored document whole (atomically, for a file)."""

    def describe(self) -> str:
        """Where it is, for messages (a file's path)."""


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
    """The house list, kept in ``storage`` (or only in memory when ``storage`` is None)."""

    def __init__(self, storage: HouseStorage | None = None, entries: list[HouseEntry] | None = None):
        self.storage = storage
        self._entries: dict[tuple[str, str | None], HouseEntry] = {}
        for entry in entries or ():
            self._entries[(entry.key, entry.game)] = entry

    def reload(self) -> HouseWords:
        """Read the storage again (it is the truth); raise HouseWordsError if it is damaged."""
        if self.storage is not None:
            raw = self.storage.read()
            entries = parse_house_words(raw, self.storage.describe()) if raw is not None else []
            self._entries = {(e.key, e.game): e for e in entries}
        return self

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
        self.reload()
        entry = self._entries.pop(scope, None)
        if entry is None:
            where = "all games" if scope[1] is None else scope[1]
            raise KeyError(f"there is no house rule for {word.strip().upper()} in {where}")
        self._save()
        return entry

    def _put(self, entry: HouseEntry) -> HouseEntry:
        self.reload()
        self._entries[(entry.key, entry.game)] = entry
        self._save()
        return entry

    def _save(self) -> None:
        if self.storage is not None:
            self.storage.write(dump_house_words(self.entries()))


def dump_house_words(entries: list[HouseEntry]) -> bytes:
    data = {"tablekeeper": FORMAT, "version": VERSION, "entries": [e.to_dict() for e in entries]}
    return (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def parse_house_words(raw: bytes, where: str) -> list[HouseEntry]:
    """The entries of a house-words document, or HouseWordsError naming where it is and the fault."""

    def damaged(why: str) -> HouseWordsError:
        return HouseWordsError(
            f"the house-words file {where} is damaged ({why}); it was left untouched — "
            f"fix it or move it away to start a new list"
        )

    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise damaged("it is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise damaged(f"not valid JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise damaged("a value nested too deeply") from None
    except ValueError as exc:  # a number of thousands of digits, say
        raise damaged(str(exc)) from None
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

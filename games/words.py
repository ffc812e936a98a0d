"""The word authority: "is this word allowed in this game, and if not, why?" for all five games.

One object answers every word question at the table, offline, from the SCOWL word list
(:mod:`games.lexicon`), the rule sheets' word policies (:mod:`games.word_policies`) and the
players' own house words (:mod:`games.house_words`)::

    >>> authority = WordAuthority.load(size=60)                          # doctest: +SKIP
    >>> print(authority.rule("tosswords", "trance", keys=("C", "T"), die=3))  # doctest: +SKIP
    LEGAL — TRANCE is a word and has 3 letters between C and T (Tosswords, 'Retiring two tiles')
    >>> authority.rule("upwords", "part-time").reason                     # doctest: +SKIP
    'PART-TIME needs a hyphen'
    >>> authority.fitting_tosswords(("C", "T"), 3, limit=3)               # doctest: +SKIP
    ['TRANCE', ...]

A ruling is decided in this order: the game's *shape* rules (Tosswords' length and draw,
WordSpiel's spiral), which no house rule lifts; then a house entry, if the players made
one for this word; then the game's word policy against the dictionary.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterable, Sequence

from games.house_words import ALLOW, HouseWords
from games.lexicon import DEFAULT_DICT_DIR, DEFAULT_SIZE, DEFAULT_VARIANT, BlobStore, Lexicon, fold
from games.registry import canonical_name
from games.rulings import Ruling
from games.word_forms import DEFAULT_PLURALS, PLURAL_MODES, analyse, plural_stem
from games.word_policies import POLICIES, house_ruling, wordspiel_word, wots_word
from games.word_rules import TOSSWORDS_MAX, TOSSWORDS_MIN, Context, Draw
from games.wordfit import letters_only, tosswords_misfit

#: the highest number on the Tosswords d12 (its faces are 0-10 and a wild blank)
DIE_MAX = 10


class WordAuthority:
    """The referee for words. Build it with :meth:`load`; it is cheap to ask, slow-ish to build.

    Parameters: ``lexicon`` (a loaded :class:`games.lexicon.Lexicon`) and ``house``
    (a :class:`games.house_words.HouseWords`; an empty in-memory list when None).
    """

    def __init__(
        self, lexicon: Lexicon, house: HouseWords | None = None, plurals: str = DEFAULT_PLURALS
    ) -> None:
        plurals = str(plurals).strip().lower()
        if plurals not in PLURAL_MODES:
            raise ValueError(f"the plural setting is one of {', '.join(PLURAL_MODES)}, not {plurals!r}")
        self.plurals = plurals
        self.lexicon = lexicon
        self.house = house if house is not None else HouseWords()
        self._toss_text: str | None = None
        self._spiel_sorted: list[str] | None = None
        self._spiel_rank: dict[str, int] | None = None

    @classmethod
    def load(
        cls,
        size: int = DEFAULT_SIZE,
        variant: str = DEFAULT_VARIANT,
        dict_dir: str | os.PathLike[str] = DEFAULT_DICT_DIR,
        house: HouseWords | None = None,
        cache: BlobStore | None = None,
        plurals: str = DEFAULT_PLURALS,
    ) -> WordAuthority:
        """Load SCOWL (``size``, ``variant`` from ``dict_dir``), with the table's ``house`` words.

        ``cache`` lets the lexicon keep a parsed copy for faster loads (see
        :meth:`games.lexicon.Lexicon.load`; the kiosk's is ``kiosk.files.cache_folder.CacheFolder``).

        Raises :class:`games.lexicon.LexiconMissing` when the word list is not installed,
        :class:`games.lexicon.LexiconError` for a bad size or variant. The house words come
        ready loaded (``kiosk.files.house_file.open_house_words()`` reads them from disk).
        ``plurals`` is "any" (refuse every plural made with S, RUNS too) or "nouns" (not
        the ones that are also verb forms): see docs/rulings.md.
        """
        lexicon = Lexicon.load(size=size, variant=variant, dict_dir=dict_dir, cache=cache)
        return cls(lexicon, house, plurals)

    # -- rulings ---------------------------------------------------------------------------

    def rule(
        self,
        game: str,
        word: str,
        *,
        keys: Sequence[str] | None = None,
        die: int | str | None = None,
        extras: Iterable[str] = (),
        spiral: str | None = None,
    ) -> Ruling:
        """Rule on ``word`` in ``game`` (a name or alias: "wots", "Upwords" …).

        Tosswords takes the draw: ``keys`` (two letters), ``die`` (0-10, or "wild" for the
        d12 blank) and ``extras`` (the other tiles drawn); without ``keys`` only the word
        itself is judged. WordSpiel takes ``spiral``, the letters played so far (only their
        end matters). Raises ValueError, with a message for a person, for an unknown game,
        an empty word, or a draw or spiral that makes no sense for the game.
        """
        name = _game(game)
        ctx = Context(self.lexicon, name, _draw(name, keys, die, extras), _spiral(name, spiral), self.plurals)
        facts = analyse(word, self.lexicon)
        shape, word_check = POLICIES[name]
        refusal = shape(facts, ctx)
        if refusal is not None:
            return refusal
        entry = self.house.lookup(facts.key, name)
        if entry is not None:
            return house_ruling(facts, ctx, entry.action == ALLOW, entry.game or "all games")
        return word_check(facts, ctx)

    def is_word(self, word: str) -> bool:
        """True when the dictionary has ``word`` as a word of any kind — ordinary ("trance"),
        a name ("Alaska") or a contraction ("don't") — but not as an abbreviation only.

        SCOWL lists no hyphenated words, so a hyphenated one counts only as a name
        ("Zeta-Jones"; not "part-time"). House entries for all games count (an allowed
        word is a word; a struck one is not)."""
        try:
            facts = analyse(word, self.lexicon)
        except ValueError:
            return False
        entry = self.house.lookup(facts.key, None)
        if entry is not None:
            return entry.action == ALLOW
        if facts.spaced or facts.symbols:
            return False
        if facts.hyphenated:
            return wots_word(facts, Context(self.lexicon, "word-on-the-street")).legal
        return bool(facts.is_word or facts.name or facts.contraction)

    def warm(self) -> WordAuthority:
        """Read now what the first questions of some kinds would read (WordNet and GNU
        units, the other SCOWL lists, the name levels: about half a second on a Pi 4), so
        that the kiosk, which loads the authority off the UI thread, answers the first
        challenge at once. Returns the authority."""
        lex = self.lexicon
        lex.sources()
        lex.elsewhere("alaska")
        lex.is_chiefly_name("jones")
        lex.is_noun_abbreviation("aa")  # WordNet's index of nouns
        return self

    def plural_of(self, word: str) -> str | None:
        """The singular (upper case) when ``word`` is a plural made with S under this table's
        plural setting (Tosswords' rule, Upwords rule 5), else None: PLANS -> PLAN; HIS,
        PANTS -> None; RUNS -> RUN with plurals "any", None with "nouns"."""
        key = fold(word)
        if not key.isalpha() or key not in self.lexicon.words:
            return None
        stem = plural_stem(key, self.lexicon, self.plurals)
        return stem.upper() if stem else None

    # -- searches --------------------------------------------------------------------------

    def fitting_tosswords(
        self,
        keys: Sequence[str],
        die: int | str | None,
        extras: Iterable[str] = (),
        limit: int | None = None,
    ) -> list[str]:
        """Every word Tosswords allows that fits the draw, commonest first (upper case).

        The kiosk shows these after a turn that found no word, so the table sees one existed.
        """
        draw = _draw("tosswords", keys, die, extras)
        assert draw is not None
        a, b = (re.escape(k) for k in draw.keys)
        gap = ".*" if draw.die is None else f".{{{draw.die}}}"
        # '.' stops at a newline, so a match is one whole line: one word whose keys are
        # spaced as the die says. That is exactly wordfit.key_spacing_fits (the tests check
        # it against the whole list); extra tiles are then checked by wordfit itself.
        pattern = re.compile(rf"^.*(?:{a}{gap}{b}|{b}{gap}{a}).*$", re.MULTILINE)
        candidates = pattern.findall(self._tosswords_text())
        house = self.house.allowed_keys("tosswords")
        if house:
            candidates += sorted(k for k in house if TOSSWORDS_MIN <= len(letters_only(k)) <= TOSSWORDS_MAX)
        struck = self.house.struck_keys("tosswords")
        if draw.extras or struck or house:
            candidates = [
                k
                for k in dict.fromkeys(candidates)
                if k not in struck
                and all(e in k for e in draw.extras)
                and tosswords_misfit(k, draw.keys, draw.die, draw.extras) is None
            ]
        if limit is not None:
            candidates = candidates[:limit]
        return [k.upper() for k in candidates]

    def spiral_continuations(self, spiral: str, limit: int | None = None) -> list[str]:
        """Every word WordSpiel allows that continues ``spiral``, commonest first (upper case).

        A continuation starts with the spiral's last one or more letters, in order, and adds
        at least one card (FUN -> NO, UNITE, FUNNY).
        """
        letters = _spiral("wordspiel", spiral)
        if letters is None:
            raise ValueError("give the spiral: the letters played so far")
        ordered, rank = self._wordspiel_index()
        struck = self.house.struck_keys("wordspiel")
        house_words = {k for k in self.house.allowed_keys("wordspiel") if k.isalpha()}
        hits: set[str] = set()
        for k in range(1, len(letters) + 1):
            start = letters[-k:].lower()
            i = bisect.bisect_left(ordered, start)
            while i < len(ordered) and ordered[i].startswith(start):
                if len(ordered[i]) > k:
                    hits.add(ordered[i])
                i += 1
            hits.update(w for w in house_words if w.startswith(start) and len(w) > k)
        hits -= struck
        result = sorted(hits, key=lambda w: (rank.get(w, len(rank)), w))
        if limit is not None:
            result = result[:limit]
        return [w.upper() for w in result]

    # -- indexes, built on first use -------------------------------------------------------

    def _tosswords_text(self) -> str:
        """Every dictionary word Tosswords allows, one a line, commonest first (the nouns the
        lists keep as abbreviations at the end).

        One string so that a draw is one compiled regular expression over it (C speed),
        rather than a Python loop over a hundred thousand words.
        """
        if self._toss_text is None:
            lex = self.lexicon
            seen: set[str] = set()
            lines = []
            for level in lex.by_level:
                for w in sorted(level, key=len):
                    if (
                        TOSSWORDS_MIN <= len(w) <= TOSSWORDS_MAX
                        and w.isascii()
                        and w.isalpha()
                        and w not in seen
                        and (w[-1] != "s" or plural_stem(w, lex, self.plurals) is None)
                    ):
                        seen.add(w)
                        lines.append(w)
            lines += sorted(  # the nouns the lists keep as abbreviations (INTRO, THERM), last
                k
                for k in lex.abbreviations
                if TOSSWORDS_MIN <= len(k) <= TOSSWORDS_MAX and k not in seen and lex.is_noun_abbreviation(k)
            )
            self._toss_text = "\n".join(lines)
        return self._toss_text

    def _wordspiel_index(self) -> tuple[list[str], dict[str, int]]:
        """Words and lower-case abbreviations WordSpiel allows: sorted for prefix search,
        and ranked commonest first for the order of the answer."""
        if self._spiel_sorted is None or self._spiel_rank is None:
            lex = self.lexicon
            rank: dict[str, int] = {}
            for level in lex.by_level:
                for w in sorted(level, key=len):
                    if w.isascii() and w.isalpha() and w not in rank:
                        rank[w] = len(rank)
            ctx = Context(lex, "wordspiel")
            for key in lex.abbreviations:
                if key.isalpha() and key not in rank and wordspiel_word(analyse(key, lex), ctx).legal:
                    rank[key] = len(rank)
            self._spiel_rank = rank
            self._spiel_sorted = sorted(rank)
        return self._spiel_sorted, self._spiel_rank


# -- argument checks (ValueError with a message for a person) -----------------------------


def _game(game: str) -> str:
    try:
        return canonical_name(game)
    except KeyError as exc:
        raise ValueError(str(exc.args[0])) from None


def _letter(value: str, what: str) -> str:
    text = str(value).strip()
    if len(text) != 1 or not text.isalpha():
        raise ValueError(f"{what} must be a single letter, not {value!r}")
    return fold(text)


def _draw(game: str, keys: Sequence[str] | None, die: int | str | None, extras: Iterable[str]) -> Draw | None:
    extras = tuple(extras)
    if game != "tosswords":
        if keys is not None or die is not None or extras:
            raise ValueError(f"key tiles, a die and extra tiles belong to Tosswords, not {game}")
        return None
    if keys is None:
        if die is not None or extras:
            raise ValueError("name the two key tiles too (a die and extra tiles need keys)")
        return None
    if isinstance(keys, str) or len(keys) != 2:
        raise ValueError(f"Tosswords needs exactly two key tiles, not {keys!r}")
    k1, k2 = (_letter(k, "a key tile") for k in keys)
    if die is None:
        raise ValueError(f"give the die (0-{DIE_MAX}, or 'wild' for the blank face)")
    if isinstance(die, str) and die.strip().lower() in ("wild", "blank", "any"):
        number = None
    else:
        try:
            number = int(die)
        except (TypeError, ValueError):
            raise ValueError(f"the die shows 0-{DIE_MAX} or 'wild', not {die!r}") from None
        if not 0 <= number <= DIE_MAX:
            raise ValueError(f"the die shows 0-{DIE_MAX} or 'wild', not {number}")
    return Draw((k1, k2), number, tuple(_letter(e, "an extra tile") for e in extras))


def _spiral(game: str, spiral: str | None) -> str | None:
    """The spiral's letters; None (no constraint) when there is none or it is empty."""
    if spiral is not None:
        spiral = str(spiral)  # a games.wordfit.Spiral from the engine's state, or text
    if spiral is None or not spiral.strip():
        return None
    if game != "wordspiel":
        raise ValueError(f"a spiral belongs to WordSpiel, not {game}")
    letters = letters_only(spiral)
    if not letters or letters != "".join(spiral.split()).upper():
        raise ValueError(f"the spiral must be letters, not {spiral!r}")
    return letters

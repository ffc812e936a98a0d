"""The words of an Option play: letters as printed on the prisms, and what each word scores.

A play event lists every word it scores, each letter with its printed points and the
colour of the side showing. Parsing is strict because the numbers are typed at the table:
a word whose letters do not spell it, a colour that is neither dark nor light, or points
no prism carries are refused with the place of the slip ("word 2, letter 3").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.rulings import IllegalEvent

RULE_PLAYING = "Option, 'Playing'"
RULE_COLOUR = "Option, 'Words of one color'"

COLOURS = ("dark", "light")
#: 'Words of one color': the shortest word that can score double.
ONE_COLOUR_MIN = 5
#: No printed value on a prism comes near this; a bigger number is a typing slip.
MAX_LETTER_POINTS = 99


@dataclass(frozen=True, slots=True)
class Letter:
    """One letter as played: the side showing, its printed points and the colour of that side."""

    letter: str
    points: int
    colour: str
    blank: bool = False


@dataclass(frozen=True, slots=True)
class ScoredWord:
    """A word the play scores, with its letters, and what it came to."""

    word: str
    letters: tuple[Letter, ...]
    base: int
    doubled: bool

    @property
    def score(self) -> int:
        return self.base * 2 if self.doubled else self.base

    def describe(self) -> str:
        return f"{self.word} {self.base} x 2 = {self.score}" if self.doubled else f"{self.word} {self.score}"


def parse_words(raw: object) -> tuple[ScoredWord, ...]:
    """The ``words`` of a play event, scored; IllegalEvent in plain words when malformed."""
    if not isinstance(raw, list) or not raw:
        raise IllegalEvent(
            "a play needs 'words': the word formed first, then any others it scores", RULE_PLAYING
        )
    return tuple(_parse_word(w, n) for n, w in enumerate(raw, start=1))


def _parse_word(raw: object, n: int) -> ScoredWord:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("letters"), list) or not raw["letters"]:
        raise IllegalEvent(f"word {n} needs 'letters': each with letter, points and color", RULE_PLAYING)
    letters = tuple(_parse_letter(x, n, k) for k, x in enumerate(raw["letters"], start=1))
    spelt = "".join(x.letter for x in letters)
    given = raw.get("word")
    if given is not None and (not isinstance(given, str) or given.strip().upper() != spelt):
        raise IllegalEvent(f"word {n} is given as {given!r} but its letters spell {spelt}", RULE_PLAYING)
    if len(letters) < 2:
        raise IllegalEvent(f"{spelt} is a single letter, not a word", RULE_PLAYING)
    base = sum(x.points for x in letters)
    doubled = len(letters) >= ONE_COLOUR_MIN and len({x.colour for x in letters}) == 1
    return ScoredWord(spelt, letters, base, doubled)


def _parse_letter(raw: object, n: int, k: int) -> Letter:
    where = f"word {n}, letter {k}"
    if not isinstance(raw, Mapping):
        raise IllegalEvent(f"{where} must be an object with letter, points and color", RULE_PLAYING)
    ch = raw.get("letter")
    if (
        not isinstance(ch, str)
        or len(ch.strip()) != 1
        or not ch.strip().isascii()
        or not ch.strip().isalpha()
    ):
        raise IllegalEvent(f"{where}: {ch!r} is not a letter from A to Z", RULE_PLAYING)
    points = raw.get("points")
    if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= MAX_LETTER_POINTS:
        raise IllegalEvent(
            f"{where}: points must be the number printed on the prism, not {points!r}", RULE_PLAYING
        )
    colour = raw.get("color", raw.get("colour"))
    if colour not in COLOURS:
        raise IllegalEvent(f"{where}: color must be 'dark' or 'light', not {colour!r}", RULE_COLOUR)
    blank = raw.get("blank") is True
    if blank and points:
        raise IllegalEvent(f"{where}: the blank symbol has no point value", RULE_PLAYING)
    return Letter(ch.strip().upper(), points, colour, blank)

"""Tosswords: two sides race to retire their 26 letter tiles, a word at a time.

A move draws two or more of the mover's face-down tiles, names two of them as key tiles,
and tosses the die; a word (3 to 12 letters) with exactly the die's number of letters
between the keys that also contains every other drawn tile retires them all
(``games.wordfit.tosswords_misfit`` checks the shape; the dictionary is the word
authority's business, settled by a challenge). Without a word the tiles go back.

Rulings the sheet leaves open are in ``docs/rulings.md`` ("Tosswords"): a draw may never
leave exactly one tile face down (one tile can never be retired, so "down to three" means
all three are drawn); the regular die shows 0–5; after a time-out with ``steal`` on, the
other side may name a word for the timed-out draw and send one retired tile back.

>>> from games.tosswords import Tosswords
>>> g = Tosswords(["Ann", "Bob"])
>>> _ = g.apply({"type": "move", "tiles": ["C", "T"], "keys": ["C", "T"], "die": 3, "word": "TRANCE"})
>>> g.scores()
{'Ann': 2, 'Bob': 0}
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.base import Game, GameSetupError, Outcome, Step, Turn
from games.rulings import IllegalEvent, ruling_from_event
from games.wordfit import TOSSWORDS_RULE_EXTRAS, TOSSWORDS_RULE_SPACING, letters_only, tosswords_misfit

ALPHABET = string.ascii_uppercase
RULE_MOVE = "Tosswords, 'Making a move'"
RULE_ONE_TILE = "Tosswords, 'A few fine points' (you can't retire only one tile)"
RULE_LENGTH = "Tosswords, 'A few fine points' (three to twelve letters)"
RULE_STEAL = "Tosswords, 'A few fine points' (time limit variation)"
RULE_DIE = "Tosswords, 'A few fine points' (the 12-faced die)"
RULE_WIN = "Tosswords, 'Objective'"
RULE_DRAW = "Tosswords, 'A few fine points' (agree to a draw)"
RULE_CHALLENGE = "Tosswords, 'Making a move' (a word that is not allowed retires nothing)"

#: The faces of each die; ``None`` is the d12's blank wild face (written ``"wild"``).
DICE: dict[str, tuple[int | None, ...]] = {
    "d6": (0, 1, 2, 3, 4, 5),
    "d12": (*range(11), None),
}
MIN_WORD, MAX_WORD = 3, 12


@dataclass(frozen=True, slots=True)
class Draw:
    """The tiles a side turned over, the two keys it named and the die's face."""

    tiles: tuple[str, ...]
    keys: tuple[str, str]
    die: int | None

    @property
    def extras(self) -> tuple[str, ...]:
        return tuple(t for t in self.tiles if t not in self.keys)

    def describe(self) -> str:
        face = "wild" if self.die is None else str(self.die)
        return f"keys {self.keys[0]}–{self.keys[1]}, die {face}"


@dataclass(frozen=True, slots=True)
class LastPlay:
    """The last word that changed the sheet, open to a challenge until the next event.

    ``kind`` is ``"move"`` (``side`` retired ``tiles``) or ``"steal"`` (``side`` sent the
    other side's ``tiles[0]`` back to its pile).
    """

    kind: str
    side: int
    tiles: tuple[str, ...]
    word: str


@dataclass(frozen=True, slots=True)
class TosswordsState:
    """Each side's retired tiles (in the order retired), whose move, and what can be challenged."""

    retired: tuple[tuple[str, ...], tuple[str, ...]]
    to_move: int
    last: LastPlay | None = None
    stealable: Draw | None = None

    def pile(self, side: int) -> tuple[str, ...]:
        """The side's tiles still face down, alphabetically."""
        done = set(self.retired[side])
        return tuple(ch for ch in ALPHABET if ch not in done)


class Tosswords(Game[TosswordsState]):
    """Two players or teams; the score is the number of tiles each side has retired.

    Events: ``move``, ``timeout``, ``steal`` and ``challenge`` (``docs/transcript.md``).
    Options: ``die`` ("d6" or "d12"), ``steal`` (the time-limit variation), ``draw_rule``
    (a draw when the second side retires its last tiles on the move right after the first).
    """

    name = "tosswords"
    title = "Tosswords"
    default_timer = 60.0
    default_options: ClassVar[Mapping[str, Any]] = {"die": "d6", "steal": False, "draw_rule": False}
    min_players = 2
    max_players = 2

    def _check_options(self, options: Mapping[str, Any]) -> None:
        if options["die"] not in DICE:
            raise GameSetupError(f"die must be one of {', '.join(DICE)}, not {options['die']!r}")
        for flag in ("steal", "draw_rule"):
            if not isinstance(options[flag], bool):
                raise GameSetupError(f"{flag} must be true or false, not {options[flag]!r}")

    def _initial_state(self) -> TosswordsState:
        return TosswordsState(retired=((), ()), to_move=0)

    # ------------------------------------------------------------------ events
    def _apply(self, state: TosswordsState, event: Mapping[str, Any]) -> Step:
        kind = event["type"]
        if kind == "move":
            return self._move(state, event)
        if kind == "timeout":
            return self._timeout(state, event)
        if kind == "steal":
            return self._steal(state, event)
        if kind == "challenge":
            return self._challenge(state, event)
        raise IllegalEvent(
            f"Tosswords has no {kind!r} event; it knows move, timeout, steal and challenge", RULE_MOVE
        )

    def _draw(self, state: TosswordsState, side: int, event: Mapping[str, Any]) -> Draw:
        """Check the drawn tiles, keys and die of ``event`` against ``side``'s pile and the die."""
        tiles = event.get("tiles")
        if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
            raise IllegalEvent("a move needs the drawn tiles, as a list of letters", RULE_MOVE)
        drawn = tuple(t.strip().upper() for t in tiles)
        if any(len(t) != 1 or t not in ALPHABET for t in drawn):
            raise IllegalEvent(f"tiles are single letters A–Z, not {', '.join(tiles)}", RULE_MOVE)
        if len(set(drawn)) != len(drawn):
            raise IllegalEvent("each side has one tile of each letter: a letter was drawn twice", RULE_MOVE)
        if len(drawn) < 2:
            raise IllegalEvent("a move draws two or more tiles", RULE_ONE_TILE)
        pile = state.pile(side)
        gone = [t for t in drawn if t not in pile]
        if gone:
            raise IllegalEvent(
                f"{self.players[side]} has already retired {', '.join(gone)}: draw from the face-down tiles",
                RULE_MOVE,
            )
        if len(pile) - len(drawn) == 1:
            raise IllegalEvent(
                f"drawing {len(drawn)} of {len(pile)} tiles would leave one, which can never be retired: "
                f"draw all {len(pile)}",
                RULE_ONE_TILE,
            )
        keys = event.get("keys")
        if (
            not isinstance(keys, list)
            or len(keys) != 2
            or not all(isinstance(k, str) for k in keys)
            or len({k.upper() for k in keys}) != 2
            or not all(k.upper() in drawn for k in keys)
        ):
            raise IllegalEvent(
                "a move names two different drawn tiles as its key tiles", TOSSWORDS_RULE_EXTRAS
            )
        die = event.get("die")
        faces = DICE[self._options["die"]]
        face: int | None
        if die == "wild" and None in faces:
            face = None
        elif isinstance(die, int) and not isinstance(die, bool) and die in faces:
            face = die
        else:
            shown = ", ".join("wild" if f is None else str(f) for f in faces)
            raise IllegalEvent(f"the {self._options['die']} shows {shown}, not {die!r}", RULE_DIE)
        return Draw(drawn, (keys[0].upper(), keys[1].upper()), face)

    @staticmethod
    def _check_word(word: Any, draw: Draw) -> str:
        if not isinstance(word, str) or not word.strip():
            raise IllegalEvent("the word must be text, or null for no word", RULE_MOVE)
        if not word.strip().isalpha():
            raise IllegalEvent(f"{word!r} is not a single word of letters", RULE_MOVE)
        w = letters_only(word)
        if not MIN_WORD <= len(w) <= MAX_WORD:
            raise IllegalEvent(f"{w} has {len(w)} letters; words are 3 to 12 letters", RULE_LENGTH)
        misfit = tosswords_misfit(w, draw.keys, draw.die, draw.extras)
        if misfit:
            rule = TOSSWORDS_RULE_EXTRAS if "drawn tile" in misfit else TOSSWORDS_RULE_SPACING
            raise IllegalEvent(misfit, rule)
        return w

    def _move(self, state: TosswordsState, event: Mapping[str, Any]) -> Step:
        side = state.to_move
        player = self.players[side]
        word = event.get("word")
        base = replace(state, to_move=1 - side, last=None, stealable=None)
        if word is None and not event.get("tiles"):
            # No word found and the draw not recorded: the sheet ends the move all the same
            # (the tiles go back face down), so there is nothing to check it against.
            summary = "no word: the tiles go back"
            return Step(base, (Turn(player, 0, summary),), summary)
        draw = self._draw(state, side, event)
        if word is None:
            summary = f"no word ({draw.describe()}): {', '.join(draw.tiles)} go back"
            return Step(base, (Turn(player, 0, summary),), summary)
        w = self._check_word(word, draw)
        retired = list(state.retired)
        retired[side] = state.retired[side] + draw.tiles
        new = replace(base, retired=(retired[0], retired[1]), last=LastPlay("move", side, draw.tiles, w))
        summary = f"{w} ({draw.describe()}): retired {', '.join(draw.tiles)}"
        return Step(new, (Turn(player, len(draw.tiles), summary),), summary)

    def _timeout(self, state: TosswordsState, event: Mapping[str, Any]) -> Step:
        side = state.to_move
        draw = self._draw(state, side, event) if "tiles" in event else None
        # Without the recorded draw there is nothing to check a stealing word against: no steal.
        stealable = draw if self._options["steal"] else None
        new = replace(state, to_move=1 - side, last=None, stealable=stealable)
        summary = "time ran out: the tiles go back"
        if stealable is not None:
            summary += f"; {self.players[1 - side]} may steal ({stealable.describe()})"
        return Step(new, (Turn(self.players[side], 0, summary),), summary)

    def _steal(self, state: TosswordsState, event: Mapping[str, Any]) -> Step:
        if not self._options["steal"]:
            raise IllegalEvent("stealing is a variation this game does not use (option steal)", RULE_STEAL)
        draw = state.stealable
        if draw is None:
            raise IllegalEvent("a steal must come right after a time-out whose draw was recorded", RULE_STEAL)
        thief, victim = state.to_move, 1 - state.to_move
        by = event.get("by")
        if by is not None and by != self.players[thief]:
            raise IllegalEvent(f"only {self.players[thief]} can steal after this time-out", RULE_STEAL)
        w = self._check_word(event.get("word"), draw)
        tile = event.get("tile")
        if not state.retired[victim]:
            raise IllegalEvent(f"{self.players[victim]} has no retired tile to send back", RULE_STEAL)
        if not isinstance(tile, str) or tile.upper() not in state.retired[victim]:
            raise IllegalEvent(
                f"the tile sent back must be one of {self.players[victim]}'s retired tiles: "
                f"{', '.join(state.retired[victim])}",
                RULE_STEAL,
            )
        t = tile.upper()
        retired = list(state.retired)
        retired[victim] = tuple(x for x in state.retired[victim] if x != t)
        new = replace(
            state, retired=(retired[0], retired[1]), stealable=None, last=LastPlay("steal", thief, (t,), w)
        )
        summary = f"{self.players[thief]} found {w} in time: {t} goes back to the pile"
        return Step(new, (Turn(self.players[victim], -1, summary),), summary)

    def _challenge(self, state: TosswordsState, event: Mapping[str, Any]) -> Step:
        last = state.last
        if last is None:
            raise IllegalEvent(
                "there is no word to challenge: a challenge must follow the word at once", RULE_MOVE
            )
        ruling = ruling_from_event(event, rule=RULE_CHALLENGE, word=last.word, game=self.name)
        if ruling.legal:
            summary = f"challenge of {last.word} fails: it stands"
            return Step(
                replace(state, last=None), (Turn(self.players[last.side], 0, summary, ruling),), summary
            )
        retired = list(state.retired)
        if last.kind == "move":
            retired[last.side] = tuple(x for x in state.retired[last.side] if x not in last.tiles)
            loser, points = last.side, -len(last.tiles)
            summary = f"{last.word} is not allowed: {', '.join(last.tiles)} go back to the pile"
        else:
            victim = 1 - last.side
            retired[victim] = state.retired[victim] + last.tiles
            loser, points = victim, len(last.tiles)
            summary = f"{last.word} is not allowed: the steal is undone, {last.tiles[0]} stays retired"
        new = replace(state, retired=(retired[0], retired[1]), last=None)
        return Step(new, (Turn(self.players[loser], points, summary, ruling),), summary)

    # ------------------------------------------------------------------ questions
    def _to_move(self, state: TosswordsState) -> str | None:
        return None if self._outcome(state) else self.players[state.to_move]

    def _scores(self, state: TosswordsState) -> dict[str, int]:
        return {self.players[i]: len(state.retired[i]) for i in (0, 1)}

    def _outcome(self, state: TosswordsState) -> Outcome | None:
        done = [len(state.retired[i]) == len(ALPHABET) for i in (0, 1)]
        if all(done):
            return Outcome(self.players, f"a draw: both sides retired all 26 tiles ({RULE_DRAW})")
        if done[0] and self._options["draw_rule"] and state.to_move == 1:
            return None  # the second side has one move to retire its last tiles and draw
        for i in (0, 1):
            if done[i]:
                return Outcome((self.players[i],), f"retired all 26 tiles ({RULE_WIN})")
        return None

    def retired(self) -> dict[str, list[str]]:
        """Each side's retired tiles, in the order they were retired."""
        return {self.players[i]: list(self.state.retired[i]) for i in (0, 1)}

    def unretired(self) -> dict[str, list[str]]:
        """Each side's tiles still face down, alphabetically."""
        return {self.players[i]: list(self.state.pile(i)) for i in (0, 1)}

    def draw_sizes(self) -> list[int]:
        """How many tiles the side to move may draw: 2 up to its pile, never leaving exactly one."""
        if self.to_move is None:
            return []
        left = len(self.state.pile(self.state.to_move))
        return [n for n in range(2, left + 1) if left - n != 1]

    def can_challenge(self) -> bool:
        """True while the last word (a move's or a steal's) may still be challenged."""
        return self.state.last is not None

    def can_steal(self) -> bool:
        """True straight after a time-out whose draw can be stolen (option ``steal``)."""
        return self.state.stealable is not None and not self.is_over()

    @property
    def die_faces(self) -> tuple[int | None, ...]:
        """The faces of the die in use (``None`` is the blank wild face)."""
        return DICE[self._options["die"]]

    def describe(self) -> str:
        """``Ann 2/26 [CT] | Bob 0/26 [] | Bob to move``: retired tiles per side, then who moves."""
        sides = [f"{self.players[i]} {len(r)}/26 [{''.join(r)}]" for i, r in enumerate(self.state.retired)]
        who = self.to_move
        outcome = self.outcome()
        tail = f"{who} to move" if who else f"over: {outcome.termination if outcome else ''}"
        return " | ".join([*sides, tail])

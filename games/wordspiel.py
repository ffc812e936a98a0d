"""WordSpiel: each word starts with the end of the spiral and sheds cards from a hand.

The kiosk cannot see hands, so the engine tracks what the table can see or count: the
spiral's letters, how many cards each player holds, exchanges used, whose turn, and the
round totals (one point per card left when a round ends; lowest total after ``rounds``
rounds wins). One player plays the sheet's solitaire: a hand and a draw pile of ``hand``
cards each; a card comes from the draw pile after every word; empty the hand to win.

Rulings the sheet leaves open are in ``docs/rulings.md`` ("WordSpiel").

>>> from games.wordspiel import WordSpiel
>>> g = WordSpiel(["Ann", "Bob"])
>>> _ = g.apply({"type": "start_round", "flipped": "F"})
>>> _ = g.apply({"type": "word", "word": "FUN"})
>>> g.spiral, g.hands()
('FUN', {'Ann': 8, 'Bob': 10})
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from games import wordspiel_solo as solo
from games.base import Game, GameSetupError, Outcome, Step, Turn
from games.rulings import IllegalEvent, ruling_from_event
from games.wordfit import WORDSPIEL_RULE_SPIRAL, Spiral, spiral_overlaps
from games.wordspiel_state import LastWord, SpielState

RULE_DEAL = "WordSpiel, 'Deal' and rule D"
RULE_FIRST = "WordSpiel, rule E"
RULE_EXCHANGE = "WordSpiel, rule C 'Exchanging Cards'"
RULE_NO_WORD = "WordSpiel, rule H 'Run Out of Time or Can't Make a Word'"
RULE_ROUND = "WordSpiel, rules I and J"
RULE_CHALLENGE = "WordSpiel, 'Challenge a Word'"
RULE_SOLO = "WordSpiel, 'Solitaire Instructions'"
MAX_EXCHANGES = 3


class WordSpiel(Game[SpielState]):
    """One to eight players; two or more play rounds, one plays solitaire.

    Events: ``start_round``, ``word``, ``draw``, ``exchange``, ``challenge``
    (``docs/transcript.md``). Scores are round totals (lower is better); in solitaire, the
    cards in hand.
    """

    name = "wordspiel"
    title = "WordSpiel"
    default_timer = 60.0
    warning_seconds = 10.0
    default_options: ClassVar[Mapping[str, Any]] = {"rounds": 5, "hand": 10}
    min_players = 1
    max_players = 8

    def _check_options(self, options: Mapping[str, Any]) -> None:
        for key, top in (("rounds", 99), ("hand", 30)):
            value = options[key]
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
                raise GameSetupError(f"{key} must be a whole number from 1 to {top}, not {value!r}")

    @property
    def solitaire(self) -> bool:
        return len(self.players) == 1

    def _initial_state(self) -> SpielState:
        n = len(self.players)
        zeros = (0,) * n
        return SpielState(hands=zeros, totals=zeros, exchanges=zeros)

    # ------------------------------------------------------------------ events
    def _apply(self, state: SpielState, event: Mapping[str, Any]) -> Step:
        kind = event["type"]
        handler = {
            "start_round": self._start_round,
            "word": self._word,
            "draw": self._draw,
            "exchange": self._exchange,
            "challenge": self._challenge,
        }.get(kind)
        if handler is None:
            raise IllegalEvent(
                f"WordSpiel has no {kind!r} event; it knows start_round, word, draw, exchange and challenge",
                RULE_DEAL,
            )
        if kind not in ("start_round", "challenge") and not state.in_play:
            raise IllegalEvent(
                "no round is being played: deal and flip a card first (start_round)", RULE_DEAL
            )
        return handler(state, event)

    def _start_round(self, state: SpielState, event: Mapping[str, Any]) -> Step:
        if state.in_play:
            raise IllegalEvent(f"round {state.round} is still being played", RULE_ROUND)
        last_round = 1 if self.solitaire else self._options["rounds"]
        if state.round >= last_round:
            raise IllegalEvent("every round has been played", RULE_ROUND)
        flipped = event.get("flipped")
        if (
            not isinstance(flipped, str)
            or len(flipped.strip()) != 1
            or flipped.strip().upper() not in string.ascii_uppercase
        ):
            raise IllegalEvent(
                'start_round needs the flipped card\'s letter, e.g. "flipped": "F"', RULE_FIRST
            )
        n, hand = len(self.players), self._options["hand"]
        number = state.round + 1
        new = replace(
            state,
            round=number,
            in_play=True,
            spiral=Spiral(flipped.strip().upper()),
            hands=(hand,) * n,
            exchanges=(0,) * n,
            to_move=(number - 1) % n,
            turns_taken=0,
            pile=hand if self.solitaire else None,
            last=None,
        )
        message = (
            f"round {number}: {hand} cards each, {new.spiral} flipped; {self.players[new.to_move]} starts"
        )
        turns = (Turn(self.players[0], hand, f"dealt {hand} cards"),) if self.solitaire else ()
        return Step(new, turns, message)

    def _word(self, state: SpielState, event: Mapping[str, Any]) -> Step:
        p = state.to_move
        self._check_player(event, p)
        word = event.get("word")
        if not isinstance(word, str) or not word.strip().isalpha() or not word.strip().isascii():
            raise IllegalEvent("a word is letters only (cards carry single letters)", WORDSPIEL_RULE_SPIRAL)
        w = word.strip().upper()
        fits = spiral_overlaps(state.spiral, w)
        if not fits:
            rule = RULE_FIRST if state.turns_taken == 0 else WORDSPIEL_RULE_SPIRAL
            raise IllegalEvent(
                f"{w} must start with the last letter(s) of the spiral …{state.spiral.tail(12)} "
                f"and add a card",
                rule,
            )
        overlap = event.get("overlap", fits[0])
        if not isinstance(overlap, int) or isinstance(overlap, bool) or overlap not in fits:
            raise IllegalEvent(
                f"{w} cannot build on the last {overlap!r} letters of the spiral; it can on "
                f"{' or '.join(map(str, fits))}",
                WORDSPIEL_RULE_SPIRAL,
            )
        cards = len(w) - overlap
        if cards > state.hands[p]:
            raise IllegalEvent(
                f"{w} needs {cards} cards from the hand but {self.players[p]} holds {state.hands[p]}",
                WORDSPIEL_RULE_SPIRAL,
            )
        hands = list(state.hands)
        hands[p] -= cards
        new = replace(
            state,
            spiral=state.spiral.extend(w[overlap:]),
            hands=tuple(hands),
            to_move=(p + 1) % len(self.players),
            turns_taken=state.turns_taken + 1,
            last=LastWord(p, w, cards, state),
        )
        summary = f"{w}: {cards} card{'s' if cards != 1 else ''} on {state.spiral.tail(overlap)}"
        if self.solitaire:
            return solo.after_word(new, self.players[0], cards, summary)
        turns = [Turn(self.players[p], 0, summary)]
        if hands[p] == 0:
            new, ends = self._end_round(new)
            turns.extend(ends)
            summary += f"; {self.players[p]} is out and round {state.round} ends"
        return Step(new, tuple(turns), summary)

    def _end_round(self, state: SpielState) -> tuple[SpielState, list[Turn]]:
        totals = tuple(t + h for t, h in zip(state.totals, state.hands, strict=True))
        turns = [
            Turn(name, h, f"round {state.round}: {h} card{'s' if h != 1 else ''} left")
            for name, h in zip(self.players, state.hands, strict=True)
        ]
        return replace(state, totals=totals, in_play=False), turns

    def _draw(self, state: SpielState, event: Mapping[str, Any]) -> Step:
        p = state.to_move
        self._check_player(event, p)
        keep = event.get("keep")
        if not isinstance(keep, bool):
            raise IllegalEvent('a draw says whether the card is kept: "keep": true or false', RULE_NO_WORD)
        player = self.players[p]
        turn: dict[str, Any] = {"to_move": (p + 1) % len(self.players), "turns_taken": state.turns_taken + 1,
                                "last": None}
        if self.solitaire:
            if not keep:
                raise IllegalEvent("in solitaire a drawn card goes to the hand", RULE_SOLO)
            return solo.no_word(replace(state, **turn), player)
        hands = list(state.hands)
        if keep:
            hands[p] += 1
            summary = f"no word: drew a card and kept it ({hands[p]} in hand)"
            return Step(replace(state, hands=tuple(hands), **turn), (Turn(player, 0, summary),), summary)
        letter = event.get("letter")
        if not isinstance(letter, str) or letter.strip().upper() not in set(string.ascii_uppercase):
            raise IllegalEvent("a card put on the spiral needs its letter, A to Z", RULE_NO_WORD)
        # one new state a turn (replace() copies every field), and the spiral grows by a node
        new = replace(state, spiral=state.spiral.extend(letter.strip().upper()), **turn)
        summary = f"no word: drew {letter.strip().upper()} and put it on the spiral"
        return Step(new, (Turn(player, 0, summary),), summary)

    def _exchange(self, state: SpielState, event: Mapping[str, Any]) -> Step:
        name = event.get("player", self.players[0] if self.solitaire else None)
        if name not in self.players:
            raise IllegalEvent(
                f"an exchange names the player: one of {', '.join(self.players)}", RULE_EXCHANGE
            )
        p = self.players.index(name)
        if not self.solitaire and p == state.to_move and state.turns_taken > 0:
            raise IllegalEvent(f"{name} may exchange only when it is not their turn", RULE_EXCHANGE)
        if state.exchanges[p] >= MAX_EXCHANGES:
            span = "game" if self.solitaire else "round"
            raise IllegalEvent(f"{name} has exchanged {MAX_EXCHANGES} cards this {span}", RULE_EXCHANGE)
        if state.hands[p] == 0:
            raise IllegalEvent(f"{name} has no card to exchange", RULE_EXCHANGE)
        exchanges = list(state.exchanges)
        exchanges[p] += 1
        new = replace(state, exchanges=tuple(exchanges), last=None)
        summary = f"exchanged a card ({exchanges[p]} of {MAX_EXCHANGES})"
        return Step(new, (Turn(name, 0, summary),), f"{name} {summary}")

    def _challenge(self, state: SpielState, event: Mapping[str, Any]) -> Step:
        last = state.last
        if last is None:
            raise IllegalEvent(
                "there is no word to challenge: a challenge must follow the word at once", RULE_CHALLENGE
            )
        ruling = ruling_from_event(event, rule=RULE_CHALLENGE, word=last.word, game=self.name)
        player = self.players[last.player]
        if ruling.legal:
            summary = f"challenge of {last.word} fails: it stands"
            return Step(replace(state, last=None), (Turn(player, 0, summary, ruling),), summary)
        before = last.before
        if self.solitaire:
            # No opponent to hand a penalty card: the word's cards (and any card drawn after it) go back.
            summary = f"{last.word} is not allowed: its {last.cards} cards go back to the hand"
            points = before.hands[0] - state.hands[0]
            return Step(replace(before, last=None), (Turn(player, points, summary, ruling),), summary)
        hands = list(before.hands)
        hands[last.player] += 1
        new = replace(
            before,
            hands=tuple(hands),
            to_move=(last.player + 1) % len(self.players),
            turns_taken=before.turns_taken + 1,
            last=None,
        )
        summary = f"{last.word} is not allowed: {player} takes back {last.cards} cards and a penalty card"
        turns = [Turn(player, 0, summary, ruling)]
        if not state.in_play:  # the word had ended the round: its scores come off again
            turns.extend(
                Turn(name, before.totals[i] - state.totals[i], f"round {before.round} goes on")
                for i, name in enumerate(self.players)
            )
        return Step(new, tuple(turns), summary)

    def _check_player(self, event: Mapping[str, Any], p: int) -> None:
        named = event.get("player")
        if named is not None and named != self.players[p]:
            raise IllegalEvent(f"it is {self.players[p]}'s turn, not {named}'s", "WordSpiel, rule A")

    # ------------------------------------------------------------------ questions
    def _to_move(self, state: SpielState) -> str | None:
        if self._outcome(state):
            return None
        if not state.in_play:  # between rounds: who starts the next one
            return self.players[state.round % len(self.players)]
        return self.players[state.to_move]

    def _scores(self, state: SpielState) -> dict[str, int]:
        if self.solitaire:
            return {self.players[0]: state.hands[0]}
        return dict(zip(self.players, state.totals, strict=True))

    def _outcome(self, state: SpielState) -> Outcome | None:
        if self.solitaire:
            if state.result == "won":
                return Outcome(self.players, f"every hand card used ({RULE_SOLO})")
            if state.result == "lost":
                return Outcome((), f"the draw pile ran out ({RULE_SOLO})")
            return None
        if state.in_play or state.round < self._options["rounds"]:
            return None
        low = min(state.totals)
        winners = tuple(n for n, t in zip(self.players, state.totals, strict=True) if t == low)
        rounds = f"{state.round} round{'s' if state.round != 1 else ''}"
        return Outcome(winners, f"lowest total after {rounds} ({RULE_ROUND})")

    @property
    def spiral(self) -> str:
        """The spiral's letters (built on demand: a turn never needs them all)."""
        return str(self.state.spiral)

    @property
    def round(self) -> int:
        """The round being played, or the last one played (0 before the first deal)."""
        return self.state.round

    @property
    def phase(self) -> str:
        """``"deal"`` (waiting for ``start_round``), ``"play"`` or ``"over"``."""
        if self.is_over():
            return "over"
        return "play" if self.state.in_play else "deal"

    def overlaps(self, word: str) -> list[int]:
        """The overlaps ``word`` may build on at the spiral's end (shortest first; empty: it cannot)."""
        return spiral_overlaps(self.state.spiral, word) if self.state.in_play else []

    def can_challenge(self) -> bool:
        """True while the last word may still be challenged (straight after it)."""
        return self.state.last is not None

    def hands(self) -> dict[str, int]:
        """How many cards each player holds."""
        return dict(zip(self.players, self.state.hands, strict=True))

    def exchanges_left(self) -> dict[str, int]:
        """Exchanges each player may still make this round (this game in solitaire)."""
        return {n: MAX_EXCHANGES - e for n, e in zip(self.players, self.state.exchanges, strict=True)}

    @property
    def draw_pile(self) -> int | None:
        """Cards left in the solitaire draw pile (None with two or more players)."""
        return self.state.pile

    def describe(self) -> str:
        """``round 1/5 | spiral FUN | Ann 8, Bob 10 cards | totals Ann 0, Bob 0 | Bob to move``."""
        s = self.state
        hands = ", ".join(f"{n} {h}" for n, h in zip(self.players, s.hands, strict=True))
        parts = [
            f"round {s.round}/{1 if self.solitaire else self._options['rounds']}",
            f"spiral {s.spiral or '-'}",
        ]
        parts.append(f"{hands} cards")
        if self.solitaire:
            parts.append(f"draw pile {s.pile if s.pile is not None else '-'}")
        else:
            parts.append(
                "totals " + ", ".join(f"{n} {t}" for n, t in zip(self.players, s.totals, strict=True))
            )
        outcome = self.outcome()
        parts.append(f"over: {outcome.termination}" if outcome else f"{self.to_move} to {self.phase}")
        return " | ".join(parts)

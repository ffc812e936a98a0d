"""Option (Parker Brothers, 1983): two-sided letter prisms, scored word by word.

The board is not modelled: the camera and the screen cannot tell which side of a prism is up
as reliably as the players can, and the prism set (96 prisms, two letters and two point
values each) is not printed in the sheet. So each play lists the words it scores, with
each letter's printed points and colour, and the engine applies the sheet's arithmetic:
the sum of the letters, doubled for a word of five or more letters of one colour, +25 for
each prism turned over, +15 for playing all seven prisms. It counts prisms on the racks and
in the bag, so it knows when someone has gone out with the bag empty.

>>> g = Option(["Ann", "Bob"])
>>> tool = [{"letter": ch, "points": p, "color": "dark"} for ch, p in zip("TOOL", [3, 2, 2, 3])]
>>> _ = g.apply({"type": "play", "prisms": 4, "words": [{"word": "TOOL", "letters": tool}]})
>>> g.scores()
{'Ann': 10, 'Bob': 0}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.base import GameSetupError, Step, Turn
from games.option_words import RULE_PLAYING, ScoredWord, parse_words
from games.rack_games import RackGame, detached, per_player
from games.rulings import IllegalEvent, ruling_from_event

RULE_FIRST = "Option, 'Playing' rule 1"
RULE_TURNING = "Option, 'Turning over a letter prism'"
RULE_EXCHANGE = "Option, 'Playing' note a"
RULE_CHALLENGE = "Option, 'Challenging an opponent's word'"
RULE_END = "Option, 'Ending the game'"
RULE_SCORING = "Option, 'Scoring and winning'"

#: Playing note b: using all seven prisms in one turn.
ALL_PRISMS_BONUS = 15
#: 'Turning over a letter prism': each prism turned.
TURN_BONUS = 25
#: 'Challenging an opponent's word': a wrong challenge costs the challenger.
WRONG_CHALLENGE = 10


@dataclass(frozen=True, slots=True)
class OptionPlay:
    """The last play, kept so a challenge can take it back (``before``) or charge the challenger.

    ``before`` holds its own last play without that play's ``before``, so states never chain
    back through the whole game (comparing or copying one stays shallow).
    """

    player: int
    words: tuple[ScoredWord, ...]
    prisms: int
    turned: int
    points: int
    before: OptionState | None
    challengers: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class OptionState:
    scores: tuple[int, ...]
    racks: tuple[int, ...]
    bag: int
    mover: int
    started: bool = False
    last: OptionPlay | None = None
    challengeable: bool = False
    ended: str | None = None


class Option(RackGame[OptionState]):
    """Option for two to four players.

    Events (``docs/transcript.md``): ``play``, ``pass``, ``exchange``, ``challenge``, ``end``.
    Options: ``first_word_min`` (4), ``rack`` (7), ``prisms`` (96).

    When a player has played every prism with the bag empty, :attr:`needs_end` is True:
    no more plays are accepted (they are refused, saying why) until an ``end`` event gives
    the prisms left on each rack; only then is the game over, with its final scores, and
    :attr:`to_move` None (as in every engine, None exactly when the game is over).
    """

    name = "option"
    title = "Option"
    default_timer = None
    default_options: ClassVar[Mapping[str, Any]] = {"first_word_min": 4, "rack": 7, "prisms": 96}
    min_players = 2
    max_players = 4

    def _check_options(self, options: Mapping[str, Any]) -> None:
        for key, low, high in (("first_word_min", 2, 15), ("rack", 1, 12), ("prisms", 2, 500)):
            value = options[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise GameSetupError(f"Option option {key} must be a whole number from {low} to {high}")
        if options["prisms"] < options["rack"] * len(self.players):
            raise GameSetupError(f"{options['prisms']} prisms cannot fill {len(self.players)} racks")

    def _initial_state(self) -> OptionState:
        n, rack = len(self.players), self._options["rack"]
        return OptionState((0,) * n, (rack,) * n, self._options["prisms"] - rack * n, 0)

    # ----------------------------------------------------------------- read-only views
    @property
    def last_play(self) -> OptionPlay | None:
        return self.state.last

    @property
    def needs_end(self) -> bool:
        """True when someone went out with the bag empty: the racks must be counted (``end``)."""
        return self._went_out(self.state) is not None and not self.state.ended

    def describe(self) -> str:
        """``Ann 45, Bob 0 | racks Ann 7, Bob 7 | bag 82 | Bob to move``."""
        s = self.state
        scores, racks = per_player(self.players, s.scores), per_player(self.players, s.racks)
        if s.ended:
            tail = f"over: {s.ended}"
        elif self.needs_end:
            tail = "count the prisms left on each rack to end the game"
        else:
            tail = f"{self.to_move} to move"
        return f"{scores} | racks {racks} | bag {s.bag} | {tail}"

    @staticmethod
    def _went_out(state: OptionState) -> int | None:
        if state.bag:
            return None
        return next((i for i, n in enumerate(state.racks) if n == 0), None)

    # ----------------------------------------------------------------- the engine
    def _apply(self, state: OptionState, event: Mapping[str, Any]) -> Step:
        kind = event["type"]
        if kind == "challenge":
            return self._challenge(state, event)
        if state.ended:
            raise IllegalEvent("the game is over", RULE_END)
        if kind == "end":
            return self._end(state, event)
        out = self._went_out(state)
        if out is not None:
            raise IllegalEvent(
                f"{self.players[out]} has played every prism and the bag is empty: the game is over; "
                f"count the prisms left on each rack to finish it",
                RULE_END,
            )
        if kind == "play":
            return self._play(state, event)
        if kind in ("pass", "exchange"):
            return self._pass(state, event)
        raise IllegalEvent(
            f"Option has no {kind!r} event; it knows play, pass, exchange, challenge and end", RULE_PLAYING
        )

    def _play(self, state: OptionState, event: Mapping[str, Any]) -> Step:
        me = state.mover
        words = parse_words(event.get("words"))
        prisms = _count(event, "prisms", None)
        turned = _count(event, "turned", 0)
        if prisms < 1 and turned:
            raise IllegalEvent(
                "a prism may be turned over only while forming a crossword or adding letters from the rack",
                RULE_TURNING,
            )
        if prisms < 1:
            raise IllegalEvent("a play puts at least one prism from the rack on the board", RULE_PLAYING)
        if prisms > state.racks[me]:
            raise IllegalEvent(f"{self.players[me]} has only {state.racks[me]} prisms to play", RULE_PLAYING)
        if prisms > len(words[0].letters):
            raise IllegalEvent(
                f"{prisms} prisms cannot all go into {words[0].word}: the prisms played form the first word",
                RULE_PLAYING,
            )
        if not state.started:
            minimum = self._options["first_word_min"]
            if len(words[0].letters) < minimum:
                raise IllegalEvent(f"the first word must have at least {minimum} letters", RULE_FIRST)
            if len(words) > 1 or turned or prisms != len(words[0].letters):
                raise IllegalEvent(
                    "the first word is the only one on the board: every letter comes from the rack, "
                    "with nothing to cross or turn over",
                    RULE_FIRST,
                )
        bonus = TURN_BONUS * turned + (ALL_PRISMS_BONUS if prisms == self._options["rack"] else 0)
        points = sum(w.score for w in words) + bonus
        drawn = min(prisms, state.bag)
        racks = list(state.racks)
        racks[me] += drawn - prisms
        scores = list(state.scores)
        scores[me] += points
        parts = [w.describe() for w in words]
        if turned:
            parts.append(f"{turned} turned {TURN_BONUS * turned}")
        if prisms == self._options["rack"]:
            parts.append(f"all prisms {ALL_PRISMS_BONUS}")
        summary = " + ".join(parts) + (f" = {points}" if len(parts) > 1 else "")
        new = OptionState(
            scores=tuple(scores),
            racks=tuple(racks),
            bag=state.bag - drawn,
            mover=(me + 1) % len(self.players),
            started=True,
            last=OptionPlay(me, words, prisms, turned, points, detached(state)),
            challengeable=True,
        )
        return Step(new, (Turn(self.players[me], points, summary),), summary)

    def _pass(self, state: OptionState, event: Mapping[str, Any]) -> Step:
        me = state.mover
        summary = "passed"
        if event["type"] == "exchange":
            count = _count(event, "count", 1)
            if not 1 <= count <= min(state.racks[me], state.bag):
                raise IllegalEvent(
                    f"{self.players[me]} can exchange from 1 to {min(state.racks[me], state.bag)} prisms "
                    f"({state.racks[me]} on the rack, {state.bag} in the bag), not {count}",
                    RULE_EXCHANGE,
                )
            summary = f"exchanged {count} prism{'s' if count > 1 else ''}"
        new = replace(state, mover=(me + 1) % len(self.players), challengeable=False)
        return Step(new, (Turn(self.players[me], 0, summary),), summary)

    def _challenge(self, state: OptionState, event: Mapping[str, Any]) -> Step:
        last = state.last
        if last is None or not state.challengeable:
            raise IllegalEvent(
                "there is no word to challenge: challenge before the next turn", RULE_CHALLENGE
            )
        word = last.words[0].word
        ruling = ruling_from_event(event, rule=RULE_CHALLENGE, word=word, game=self.name)
        player = self.players[last.player]
        by = event.get("by")
        if by is not None and by not in self.players:
            raise IllegalEvent(
                f"{by!r} is not playing; the players are {', '.join(self.players)}", RULE_CHALLENGE
            )
        if by == player:
            raise IllegalEvent(f"{player} cannot challenge their own word", RULE_CHALLENGE)
        if not ruling.legal:
            # Back to the state before the play, keeping any wrong challenger's 10 points off.
            assert last.before is not None  # only a detached copy lacks it, never challengeable
            scores = list(state.scores)
            scores[last.player] -= last.points
            back = replace(
                last.before,
                scores=tuple(scores),
                mover=(last.player + 1) % len(self.players),
                challengeable=False,
            )
            summary = f"{word} ruled illegal: the word comes off and the turn is forfeited"
            return Step(back, (Turn(player, -last.points, summary, ruling),), summary)
        if by is None:
            raise IllegalEvent(
                "say who challenged: a wrong challenge costs the challenger 10 points", RULE_CHALLENGE
            )
        who = self.players.index(by)
        if who in last.challengers:
            raise IllegalEvent(f"{by} has already challenged {word}", RULE_CHALLENGE)
        scores = list(state.scores)
        scores[who] -= WRONG_CHALLENGE
        new = replace(state, scores=tuple(scores), last=replace(last, challengers=(*last.challengers, who)))
        summary = f"challenged {word} wrongly"
        return Step(new, (Turn(by, -WRONG_CHALLENGE, summary, ruling),), f"{word} stands")

    def _end(self, state: OptionState, event: Mapping[str, Any]) -> Step:
        racks = event.get("racks")
        if not isinstance(racks, Mapping) or set(racks) != set(self.players):
            raise IllegalEvent(
                "the end of the game needs 'racks': for every player, the two point values of each "
                'prism left, e.g. {"Ann": [[3, 5]], "Bob": []}',
                RULE_SCORING,
            )
        left: list[int] = []
        for i, name in enumerate(self.players):
            prisms = racks[name]
            if not isinstance(prisms, list) or not all(_is_pair(p) for p in prisms):
                raise IllegalEvent(
                    f"{name}'s rack must be a list of prisms, each [points, points] for its two sides",
                    RULE_SCORING,
                )
            if len(prisms) != state.racks[i]:
                raise IllegalEvent(
                    f"{name} should have {state.racks[i]} prism{'s' if state.racks[i] != 1 else ''} left, "
                    f"not {len(prisms)}",
                    RULE_SCORING,
                )
            left.append(sum(a + b for a, b in prisms))
        out = self._went_out(state)
        scores = list(state.scores)
        turns = []
        for i, value in enumerate(left):
            if value:
                scores[i] -= value
                noun = "point" if value == 1 else "points"
                turns.append(Turn(self.players[i], -value, f"prisms left: {value} {noun}"))
        lost = sum(left)
        if out is not None and lost:
            scores[out] += lost
            turns.append(Turn(self.players[out], lost, "went out: the others' prisms"))
        why = f"{self.players[out]} went out" if out is not None else "no one could form another word"
        new = replace(state, scores=tuple(scores), ended=why, challengeable=False)
        return Step(new, tuple(turns), "the game is over")

    def _after_end_events(self) -> frozenset[str]:
        return frozenset()


def _is_pair(p: object) -> bool:
    """A prism left on a rack: its two sides' points (no cap: the kiosk may enter a rack's total on one)."""
    return (
        isinstance(p, list)
        and len(p) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in p)
    )


def _count(event: Mapping[str, Any], key: str, default: int | None) -> int:
    value = event.get(key, default)
    if value is None:
        raise IllegalEvent(f"a play must say how many prisms came from the rack ('{key}')", RULE_PLAYING)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise IllegalEvent(f"'{key}' must be a whole number, not {value!r}", RULE_PLAYING)
    return value

"""Upwords (Winning Moves 8x8 edition; the classic 10x10 board as an option) as a pure engine.

The engine keeps the board (every stack, every buried tile), the scores, and how many tiles
each rack and the bag hold: the kiosk cannot see racks, but it can count them, and that is
all the end of the game needs (5 points off a tile left). Letters on racks are never
asked for, so no letter distribution is needed (see ``docs/upwords.md``).

>>> g = Upwords(["Ann", "Bob"])
>>> _ = g.apply({"type": "play", "tiles": [
...     {"row": 3, "col": c, "letter": ch} for c, ch in zip(range(1, 5), "MOOD")]})
>>> g.scores(), g.to_move, g.bag
({'Ann': 8, 'Bob': 0}, 'Bob', 46)
>>> g.board.text()
'8/8/8/1MOOD3/8/8/8/8'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.base import GameSetupError, Step, Turn
from games.rack_games import RackGame, detached, per_player
from games.rulings import IllegalEvent, ruling_from_event
from games.upwords_board import Board, Placement
from games.upwords_rules import RULE_TURN, JudgedPlay, ScoredWord, judge_play, parse_tiles

RULE_CHALLENGE = "Upwords, rule 8 'Challenging a word'"
RULE_PASS = "Upwords, rule 9 'Passing'"
RULE_EXCHANGE = "Upwords, rule 10 'Exchanging a letter'"
RULE_END = "Upwords, rule 11 'How to end the game'"
RULE_LEFTOVER = "Upwords, rule 6F 'Scoring'"
RULE_SOLO = "Upwords, 'Solo play rules'"

#: Rule 6F: points off for each tile a player could not play.
TILE_LEFT_PENALTY = 5
#: How a game the players chose to stop ends (the sheet is silent on it: docs/rulings.md).
AGREED_TO_STOP = "the players agreed to stop"
#: Solo play: letters that may be exchanged in one game.
SOLO_EXCHANGES = 5
#: Tiles in the box by board size: 64 (Winning Moves 8x8), 100 (classic 10x10); see docs/upwords.md.
TILES_BY_SIZE: Mapping[int, int] = {8: 64, 10: 100}


@dataclass(frozen=True, slots=True)
class Deduction:
    """Points a player lost at the end: ``tiles`` left on the rack, ``points`` (negative), by ``rule``."""

    player: str
    tiles: int
    points: int
    rule: str


@dataclass(frozen=True, slots=True)
class LastPlay:
    """The most recent play: who made it, what it formed, and the state it was made on.

    ``before`` is what an upheld challenge goes back to (rule 8: the tiles come off). It
    keeps its own last play without that play's ``before`` (see :func:`games.rack_games.detached`), so
    states never form a chain as long as the game: comparing, hashing or copying one
    stays shallow however many plays were made.
    """

    player: int
    tiles: tuple[Placement, ...]
    words: tuple[ScoredWord, ...]
    bonus: int
    points: int
    before: UpwordsState | None


@dataclass(frozen=True, slots=True)
class UpwordsState:
    """Everything the game is at one moment. Immutable: every event makes a new one."""

    board: Board
    scores: tuple[int, ...]
    racks: tuple[int, ...]
    bag: int
    mover: int
    passes: int = 0
    exchanged: int = 0
    last: LastPlay | None = None
    challengeable: bool = False
    ended: str | None = None


class Upwords(RackGame[UpwordsState]):
    """Upwords for one to four players; one player plays the sheet's solo rules.

    Events (see ``docs/transcript.md``): ``play``, ``pass``, ``exchange``, ``challenge``,
    ``end``. Read-only views for the screen and the camera: :attr:`board`,
    :attr:`last_play`, :attr:`racks`, :attr:`bag`.

    Options: ``size`` (8 or 10), ``rack`` (7), ``tiles`` (None: 64 on 8x8, 100 on 10x10),
    ``max_height`` (5).
    """

    name = "upwords"
    title = "Upwords"
    default_timer = None
    default_options: ClassVar[Mapping[str, Any]] = {"size": 8, "rack": 7, "tiles": None, "max_height": 5}
    min_players = 1
    max_players = 4

    # ----------------------------------------------------------------- set-up
    def _check_options(self, options: Mapping[str, Any]) -> None:
        def whole(key: str, low: int, high: int) -> int:
            value = options[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise GameSetupError(
                    f"Upwords option {key} must be a whole number from {low} to {high}, not {value!r}"
                )
            return value

        size = options["size"]
        if size not in TILES_BY_SIZE:
            raise GameSetupError(f"Upwords boards are 8x8 or 10x10, so size must be 8 or 10, not {size!r}")
        whole("rack", 1, 12)
        whole("max_height", 1, 9)
        if options["tiles"] is None:
            self._options["tiles"] = TILES_BY_SIZE[size]
        tiles = whole("tiles", 2, 400)
        if tiles < options["rack"] * len(self.players):
            raise GameSetupError(f"{tiles} tiles cannot fill {len(self.players)} racks of {options['rack']}")

    def _initial_state(self) -> UpwordsState:
        n, rack = len(self.players), self._options["rack"]
        return UpwordsState(
            board=Board.empty(self._options["size"]),
            scores=(0,) * n,
            racks=(rack,) * n,
            bag=self._options["tiles"] - rack * n,
            mover=0,
        )

    # ----------------------------------------------------------------- read-only views
    @property
    def board(self) -> Board:
        return self.state.board

    @property
    def last_play(self) -> LastPlay | None:
        """The most recent play still on the board (words formed and their scores)."""
        return self.state.last

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def total_tiles(self) -> int:
        return int(self._options["tiles"])

    def preview(self, event: Mapping[str, Any]) -> JudgedPlay:
        """What a play event would score now, without playing it (for the screen's "this play
        makes NET 6 + ON 4 = 10" before the players confirm). Raises IllegalEvent like apply."""
        if self.is_over():
            raise IllegalEvent("the game is over", RULE_END)
        return self._judge(self.state, self._normalise(event))

    def _judge(self, state: UpwordsState, event: Mapping[str, Any]) -> JudgedPlay:
        return judge_play(
            state.board,
            parse_tiles(event.get("tiles"), state.board.size),
            rack=state.racks[state.mover],
            rack_size=self._options["rack"],
            max_height=self._options["max_height"],
            allow_plural_s=event.get("not_plural") is True,
        )

    def describe(self) -> str:
        """``8/8/8/1MOOD3/8/8/8/8 | Ann 8, Bob 0 | racks Ann 7, Bob 7 | bag 46 | Bob to move``."""
        s = self.state
        scores, racks = per_player(self.players, s.scores), per_player(self.players, s.racks)
        tail = f"over: {s.ended}" if s.ended else f"{self.to_move} to move"
        return f"{s.board.text()} | {scores} | racks {racks} | bag {s.bag} | {tail}"

    # ----------------------------------------------------------------- the engine
    def _apply(self, state: UpwordsState, event: Mapping[str, Any]) -> Step:
        kind = event["type"]
        if kind == "challenge":
            return self._challenge(state, event)
        if state.ended:
            raise IllegalEvent("the game is over", RULE_END)
        handlers = {"play": self._play, "pass": self._pass, "exchange": self._exchange, "end": self._end}
        if kind not in handlers:
            raise IllegalEvent(
                f"Upwords has no {kind!r} event; it knows play, pass, exchange, challenge and end", RULE_TURN
            )
        return handlers[kind](state, event)

    def _next(self, mover: int) -> int:
        return (mover + 1) % len(self.players)

    def _play(self, state: UpwordsState, event: Mapping[str, Any]) -> Step:
        me = state.mover
        judged = self._judge(state, event)
        tiles = judged.tiles
        named = event.get("word")
        if named is not None:
            formed = [w.word for w in judged.words]
            if not isinstance(named, str) or named.strip().upper() not in formed:
                raise IllegalEvent(
                    f"the play is said to make {named!r} but its tiles make {', '.join(formed)}", RULE_TURN
                )
        drawn = min(len(tiles), state.bag)
        racks = list(state.racks)
        racks[me] += drawn - len(tiles)
        scores = list(state.scores)
        scores[me] += judged.points
        turns = [Turn(self.players[me], judged.points, judged.summary())]
        new = UpwordsState(
            board=judged.after,
            scores=tuple(scores),
            racks=tuple(racks),
            bag=state.bag - drawn,
            mover=self._next(me),
            exchanged=state.exchanged,
            last=LastPlay(me, judged.tiles, judged.words, judged.bonus, judged.points, detached(state)),
            challengeable=True,
        )
        if new.bag == 0 and racks[me] == 0:
            who = (
                "the bag is empty and every tile is used"
                if self.solo
                else (f"{self.players[me]} used every tile with the bag empty")
            )
            new, penalties = self._finish(new, who)
            turns.extend(penalties)
        return Step(new, tuple(turns), judged.summary())

    def _pass(self, state: UpwordsState, event: Mapping[str, Any]) -> Step:
        me = state.mover
        new = replace(state, mover=self._next(me), passes=state.passes + 1, challengeable=False)
        turns = [Turn(self.players[me], 0, "passed")]
        if new.passes >= len(self.players):
            new, penalties = self._finish(new, "every player passed in turn")
            turns.extend(penalties)
        return Step(new, tuple(turns), "passed")

    def _exchange(self, state: UpwordsState, event: Mapping[str, Any]) -> Step:
        me = state.mover
        count = event.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise IllegalEvent(
                f"an exchange's count must be a whole number of tiles, not {count!r}", RULE_EXCHANGE
            )
        if state.bag < count:
            raise IllegalEvent(
                f"the draw pile holds {_tiles(state.bag)}: not enough to exchange {_tiles(count)}",
                RULE_EXCHANGE,
            )
        if count > state.racks[me]:
            raise IllegalEvent(f"{self.players[me]} holds only {state.racks[me]} tiles", RULE_EXCHANGE)
        if self.solo:
            left = SOLO_EXCHANGES - state.exchanged
            if count > left:
                raise IllegalEvent(
                    f"solo play allows {SOLO_EXCHANGES} letters to be exchanged in a game; {left} remain",
                    RULE_SOLO,
                )
        elif count != 1:
            raise IllegalEvent("a player exchanges one letter tile a turn", RULE_EXCHANGE)
        summary = f"exchanged {count} tile{'s' if count > 1 else ''}"
        if not self.solo:
            summary += " (turn lost)"
        new = replace(
            state, mover=self._next(me), passes=0, exchanged=state.exchanged + count, challengeable=False
        )
        return Step(new, (Turn(self.players[me], 0, summary),), summary)

    def _end(self, state: UpwordsState, event: Mapping[str, Any]) -> Step:
        agreed = event.get("agreed", False)
        if not isinstance(agreed, bool):
            raise IllegalEvent(f"'agreed' must be true or false, not {agreed!r}", RULE_END)
        if state.bag and not agreed and not (self.solo and state.exchanged >= SOLO_EXCHANGES):
            raise IllegalEvent(
                f"{state.bag} tiles are still in the draw pile: a player who cannot make a word can "
                f"exchange a letter, everyone can pass in turn, or the players can agree to stop",
                RULE_END,
            )
        self._check_tiles_left(state, event.get("tiles_left"))
        why = AGREED_TO_STOP if agreed else "no one could make a word"
        new, penalties = self._finish(replace(state, challengeable=False), why)
        return Step(new, tuple(penalties), "the game is over")

    def _check_tiles_left(self, state: UpwordsState, told: object) -> None:
        """An ``end`` may say how many tiles each player has left; it must agree with the count."""
        if told is None:
            return
        if not isinstance(told, Mapping) or not set(told) <= set(self.players):
            raise IllegalEvent("'tiles_left' must map players' names to the tiles they hold", RULE_END)
        for name, n in told.items():
            have = state.racks[self.players.index(name)]
            if n != have or isinstance(n, bool):
                raise IllegalEvent(
                    f"{name} should have {_tiles(have)} left by the count of the game's plays, not {n!r}; "
                    f"undo and correct the play that was entered wrongly",
                    RULE_END,
                )

    def _finish(self, state: UpwordsState, why: str) -> tuple[UpwordsState, list[Turn]]:
        """End the game: rule 6F takes 5 points off for every tile left on a rack."""
        scores = list(state.scores)
        turns = []
        for i, left in enumerate(state.racks):
            if left:
                scores[i] -= TILE_LEFT_PENALTY * left
                turns.append(Turn(self.players[i], -TILE_LEFT_PENALTY * left, _left_off(left)))
        return replace(state, scores=tuple(scores), ended=why), turns

    def deductions(self) -> list[Deduction]:
        """What the end of the game took off each player for the tiles left on the rack (rule
        6F), for the end screen to say who lost what and why; [] while the game goes on."""
        if not self.state.ended:
            return []
        return [
            Deduction(name, left, -TILE_LEFT_PENALTY * left, RULE_LEFTOVER)
            for name, left in zip(self.players, self.state.racks, strict=True)
            if left
        ]

    def _challenge(self, state: UpwordsState, event: Mapping[str, Any]) -> Step:
        last = state.last
        if last is None or not state.challengeable:
            raise IllegalEvent(
                "there is no play to challenge: a word must be challenged before the next turn",
                RULE_CHALLENGE,
            )
        ruling = ruling_from_event(event, rule=RULE_CHALLENGE, game=self.name)
        by = event.get("by")
        if by is not None and (by not in self.players or by == self.players[last.player]):
            raise IllegalEvent(
                f"{by!r} cannot challenge this play: the challenger is another player in the game",
                RULE_CHALLENGE,
            )
        named = str(event.get("word") or ruling.word or "").strip().upper()
        formed = [w.word for w in last.words]
        if named and named not in formed:
            raise IllegalEvent(
                f"{named} was not formed by the last play, which formed {', '.join(formed)}", RULE_CHALLENGE
            )
        word = named or "/".join(formed)
        player = self.players[last.player]
        if ruling.legal:
            return Step(state, (Turn(player, 0, f"{word} challenged and stands", ruling),), f"{word} stands")
        # Rule 8: the tiles come off, the points go; the same player plays again or passes.
        assert last.before is not None  # only a detached copy lacks it, and that is never challengeable
        back = replace(last.before, challengeable=False)
        summary = f"{word} ruled illegal: the tiles come off"
        turns = [Turn(player, -last.points, summary, ruling)]
        for i, (now, then) in enumerate(zip(state.scores, back.scores, strict=True)):
            if i != last.player and now != then:  # the leftover penalties a going-out play caused
                turns.append(Turn(self.players[i], then - now, "tiles-left penalty cancelled"))
        return Step(back, tuple(turns), summary)


def _left_off(left: int) -> str:
    """'3 tiles left: -15 (rule 6F)': the score sheet's line for a rack's penalty."""
    return f"{_tiles(left)} left: -{TILE_LEFT_PENALTY * left} (rule 6F)"


def _tiles(n: int) -> str:
    return f"{n or 'no'} tile{'' if n == 1 else 's'}"

"""The one shape every rule engine has: apply an event, undo it, ask who is to move.

Modelled on python-chess's ``Board``: state changes only by :meth:`Game.apply` (alias
``push``) and :meth:`Game.undo` (alias ``pop``) takes any number of events back. Each engine
writes one pure function, :meth:`Game._apply`, that turns (state, event) into a new state
without touching the old one; the base keeps the stack of states, so undo is free and an
illegal event (``IllegalEvent``) leaves the game exactly as it was.

Events are plain JSON-serialisable dicts with a ``"type"``; the same dicts are the lines
of a transcript (see ``docs/transcript.md``) and the rows of the kiosk's game log.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from games.rulings import IllegalEvent, Ruling

S = TypeVar("S")

#: Keys any event may carry that engines ignore: when it happened and free notes.
META_KEYS = frozenset({"at", "note"})


class GameSetupError(ValueError):
    """Players or options that no game can start with (e.g. three teams in Word on the Street)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One line of the score sheet: what an event did to one player's score.

    ``points`` is the change it made (negative for a penalty or a ruling that takes points
    back). ``summary`` is what a person would write on the pad ("PURPLE: R captured").
    """

    player: str
    points: int
    summary: str
    ruling: Ruling | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"player": self.player, "points": self.points, "summary": self.summary}
        if self.ruling is not None:
            data["ruling"] = self.ruling.to_dict()
        return data


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended. ``winners`` has one name, several for a tie, none if no one won."""

    winners: tuple[str, ...]
    termination: str

    @property
    def winner(self) -> str | list[str] | None:
        if not self.winners:
            return None
        return self.winners[0] if len(self.winners) == 1 else list(self.winners)


@dataclass(frozen=True, slots=True)
class Step:
    """What :meth:`Game._apply` returns: the new state and the score-sheet lines it adds."""

    state: Any
    turns: tuple[Turn, ...] = ()
    message: str = ""


@dataclass(slots=True)
class _Applied:
    event: dict[str, Any]
    step: Step
    turns: tuple[Turn, ...] = field(default=())


class Game(ABC, Generic[S]):
    """A game of one of the five rule sheets, driven by events.

    >>> from games.registry import new_game
    >>> game = new_game("wots", ["Team A", "Team B"])     # doctest: +SKIP
    >>> game.apply({"type": "word", "word": "PURPLE"})    # doctest: +SKIP

    Subclasses set the class variables and implement the abstract methods; everything
    about undo, replay, transcripts and refusing bad input is here, once.
    """

    #: The canonical name used in transcripts and on the command line ("upwords").
    name: ClassVar[str]
    #: The name players know it by ("Upwords").
    title: ClassVar[str]
    #: Turn timer length the rule sheet calls for, in seconds, or None for no timer.
    default_timer: ClassVar[float | None] = None
    #: Seconds before the end at which the timer warns.
    warning_seconds: ClassVar[float] = 10.0
    #: Options and their defaults; a game refuses options not listed here.
    default_options: ClassVar[Mapping[str, Any]] = {}
    #: How many players (or teams) the game takes, inclusive.
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None) -> None:
        names = [str(p).strip() for p in players]
        if not self.min_players <= len(names) <= self.max_players:
            raise GameSetupError(
                f"{self.title} takes {self.min_players} to {self.max_players} players or teams, "
                f"not {len(names)}"
            )
        if any(not n for n in names) or len(set(names)) != len(names):
            raise GameSetupError("every player or team needs a name of its own")
        unknown = set(options or {}) - set(self.default_options) - {"timer"}
        if unknown:
            raise GameSetupError(
                f"{self.title} has no option {', '.join(sorted(unknown))}; "
                f"it knows {', '.join(sorted(self.default_options)) or 'none'}"
            )
        self._players: tuple[str, ...] = tuple(names)
        self._options: dict[str, Any] = {**self.default_options, **(options or {})}
        self._check_options(self._options)
        self._initial: S = self._initial_state()
        self._applied: list[_Applied] = []

    # ----------------------------------------------------------------- for subclasses
    def _check_options(self, options: Mapping[str, Any]) -> None:
        """Raise :class:`GameSetupError` for a bad option value. Default: accept."""

    @abstractmethod
    def _initial_state(self) -> S:
        """The state before any event."""

    @abstractmethod
    def _apply(self, state: S, event: Mapping[str, Any]) -> Step:
        """Return the state after ``event``; never mutate ``state``. Raise IllegalEvent to refuse."""

    @abstractmethod
    def _to_move(self, state: S) -> str | None:
        """Whose turn it is, or None when the game is over."""

    @abstractmethod
    def _scores(self, state: S) -> dict[str, int]:
        """Each player's (team's) standing: points, captured tiles, tiles retired…"""

    @abstractmethod
    def _outcome(self, state: S) -> Outcome | None:
        """None while the game goes on."""

    # ----------------------------------------------------------------- the public API
    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._options)

    @property
    def state(self) -> S:
        return self._applied[-1].step.state if self._applied else self._initial

    @property
    def events(self) -> list[dict[str, Any]]:
        """The events applied so far, oldest first (copies: editing them changes nothing)."""
        return [json.loads(json.dumps(a.event)) for a in self._applied]

    @property
    def event_count(self) -> int:
        """How many events have been applied: ``len(game.events)`` without copying them all."""
        return len(self._applied)

    @property
    def turns(self) -> list[Turn]:
        """The score sheet: every line every event added, oldest first."""
        return [t for a in self._applied for t in a.step.turns]

    @property
    def to_move(self) -> str | None:
        return self._to_move(self.state)

    @property
    def timer_seconds(self) -> float | None:
        """The turn timer this game calls for (the ``timer`` option overrides the sheet)."""
        value = self._options.get("timer", self.default_timer)
        return None if value in (None, 0) else float(value)

    def scores(self) -> dict[str, int]:
        return self._scores(self.state)

    def outcome(self) -> Outcome | None:
        return self._outcome(self.state)

    def is_over(self) -> bool:
        return self.outcome() is not None

    def apply(self, event: Mapping[str, Any]) -> Step:
        """Apply one event; raise :class:`IllegalEvent` (game unchanged) if the rules refuse it."""
        clean = self._normalise(event)
        if self.is_over() and clean["type"] not in self._after_end_events():
            raise IllegalEvent("the game is over", f"{self.title}: end of the game")
        step = self._apply(self.state, {k: v for k, v in clean.items() if k not in META_KEYS})
        if not isinstance(step, Step):
            raise TypeError(f"{type(self).__name__}._apply must return a Step")
        self._applied.append(_Applied(clean, step))
        return step

    push = apply

    def undo(self) -> dict[str, Any]:
        """Take back the last event and return it. Raise IndexError when there is none."""
        if not self._applied:
            raise IndexError("nothing to undo")
        return self._applied.pop().event

    pop = undo

    def peek(self) -> dict[str, Any] | None:
        return json.loads(json.dumps(self._applied[-1].event)) if self._applied else None

    def header(self) -> dict[str, Any]:
        """The first line of this game's transcript."""
        return {
            "tablekeeper": "transcript",
            "version": 1,
            "game": self.name,
            "players": list(self._players),
            "options": dict(self._options),
        }

    def copy(self) -> Game[S]:
        """A new game with the same header and events (states are immutable, so share them)."""
        twin = type(self)(self._players, self._options)
        twin._applied = list(self._applied)
        return twin

    def _after_end_events(self) -> frozenset[str]:
        """Event types still accepted once the game is over (e.g. a challenge of the last word)."""
        return frozenset({"challenge"})

    @staticmethod
    def _normalise(event: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(event, Mapping):
            raise IllegalEvent(f"an event must be an object with a 'type', not {type(event).__name__}")
        try:
            clean = _plain_copy(dict(event))
        except _NotPlain:  # anything unusual takes JSON's own road (and its own error)
            try:
                clean = json.loads(json.dumps(dict(event)))
            except (TypeError, ValueError) as exc:
                raise IllegalEvent(f"an event must be plain JSON data: {exc}") from None
        if not isinstance(clean.get("type"), str) or not clean["type"]:
            raise IllegalEvent("an event needs a 'type'")
        return clean

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} players={list(self._players)} events={len(self._applied)} "
            f"to_move={self.to_move!r} scores={self.scores()}>"
        )


class _NotPlain(Exception):
    """A value :func:`_plain_copy` leaves to the json module (a tuple key, a set, a subclass)."""


def _plain_copy(value: Any) -> Any:
    """A deep copy of plain JSON data, as ``json.loads(json.dumps(value))`` would make it.

    Why not the json round trip itself: every event of every replay passes here, and on a
    100,000-event replay the round trip was a third of the time. Only exact built-in types
    are copied here; anything else raises :class:`_NotPlain` so the caller falls back to json.
    """
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            out[key] = _plain_copy(item)
        return out
    if kind is list or kind is tuple:
        return [_plain_copy(item) for item in value]
    raise _NotPlain

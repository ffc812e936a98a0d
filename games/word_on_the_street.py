"""Word on the Street: two teams pull letter tiles off a five-lane street.

The board is 17 tiles, one per letter of ``LETTERS``, each on a space from −2 to +2: 0 is
the median strip, negative spaces lie toward the first team, positive toward the second.
Each occurrence of a letter in the word the team on the street plays moves that letter's
tile one space toward that team, in spelling order; a tile moved past ±2 is captured by
that team (its position becomes ±3) and never moves again. Vowels and J, Q, X, Z have no
tile. The first team to capture ``tiles_to_win`` tiles (8) wins.

The engine keeps, for the last word, every tile move it made, so a challenge can send
back exactly the tiles the sheet says: those at and after a spelling error, or all of
them. A challenge carries its ruling (or the players' vote); the engine never looks a
word up.

>>> from games.word_on_the_street import WordOnTheStreet
>>> g = WordOnTheStreet(["Team A", "Team B"])
>>> _ = g.apply({"type": "word", "word": "LULL"})
>>> g.captured()
{'Team A': ['L'], 'Team B': []}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.base import Game, GameSetupError, Outcome, Step, Turn
from games.rulings import IllegalEvent, Ruling, ruling_from_event
from games.wordfit import letters_only

#: The 17 letters that have a tile, in board order.
LETTERS = "BCDFGHKLMNPRSTVWY"
_INDEX = {ch: i for i, ch in enumerate(LETTERS)}
#: |position| of a captured tile; the street itself is −2..+2.
CAPTURED = 3

RULE_MOVING = "Word on the Street, 'Moving the Tiles'"
RULE_WINNING = "Word on the Street, 'Winning the Game'"
RULE_TURN = "Word on the Street, 'Playing the Game'"
RULE_SPELLING = "Word on the Street, 'Spelling, Hyphenated Word, and Compound Word Challenges'"
RULE_SELECTION = "Word on the Street, 'Word Selection Challenge'"


@dataclass(frozen=True, slots=True)
class TileMove:
    """One tile moved by one letter of a word: ``index`` counts the word's letters from 0."""

    index: int
    letter: str
    before: int
    after: int

    @property
    def captures(self) -> bool:
        return abs(self.after) == CAPTURED


@dataclass(frozen=True, slots=True)
class PlayedWord:
    """The last word, kept until the next event so that it can be challenged."""

    team: int
    word: str
    moves: tuple[TileMove, ...]


@dataclass(frozen=True, slots=True)
class WotsState:
    """The street: a position per tile, the tiles each team captured, the team on the street."""

    positions: tuple[int, ...]
    captured: tuple[tuple[str, ...], tuple[str, ...]]
    on_street: int
    last: PlayedWord | None = None

    def position(self, letter: str) -> int:
        return self.positions[_INDEX[letter.upper()]]


def direction(team: int) -> int:
    """The way ``team``'s turns move tiles along the street: -1 toward the first team, +1 the second."""
    return -1 if team == 0 else 1


def move_tiles(state: WotsState, team: int, word: str) -> tuple[WotsState, tuple[TileMove, ...]]:
    """Move the tiles for ``word`` played by ``team``, letter by letter, as the sheet's PURPLE."""
    positions = list(state.positions)
    captured = [list(state.captured[0]), list(state.captured[1])]
    step = direction(team)
    moves: list[TileMove] = []
    for i, ch in enumerate(letters_only(word)):
        k = _INDEX.get(ch)
        if k is None or abs(positions[k]) == CAPTURED:
            continue  # a vowel, J Q X Z, or a tile already captured by either team
        before = positions[k]
        positions[k] = before + step
        move = TileMove(i, ch, before, positions[k])
        moves.append(move)
        if move.captures:
            captured[team].append(ch)
    new = replace(state, positions=tuple(positions), captured=(tuple(captured[0]), tuple(captured[1])))
    return new, tuple(moves)


def undo_moves(state: WotsState, team: int, moves: tuple[TileMove, ...]) -> WotsState:
    """Send the given tiles back to where they were before those moves (latest first)."""
    positions = list(state.positions)
    captured = [list(state.captured[0]), list(state.captured[1])]
    for move in reversed(moves):
        positions[_INDEX[move.letter]] = move.before
        if move.captures:
            captured[team].remove(move.letter)
    return replace(state, positions=tuple(positions), captured=(tuple(captured[0]), tuple(captured[1])))


class WordOnTheStreet(Game[WotsState]):
    """Two teams; each word moves tiles toward the team that played it.

    Events (see ``docs/transcript.md``): ``word``, ``no_word``, and ``challenge`` of kind
    ``spelling``, ``compound`` or ``selection``. Scores are tiles captured.
    """

    name = "word-on-the-street"
    title = "Word on the Street"
    default_timer = 30.0
    default_options: ClassVar[Mapping[str, Any]] = {"tiles_to_win": 8}
    min_players = 2
    max_players = 2

    def _check_options(self, options: Mapping[str, Any]) -> None:
        n = options["tiles_to_win"]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(LETTERS):
            raise GameSetupError(f"tiles_to_win must be a whole number from 1 to {len(LETTERS)}, not {n!r}")

    def _initial_state(self) -> WotsState:
        return WotsState(positions=(0,) * len(LETTERS), captured=((), ()), on_street=0)

    # ------------------------------------------------------------------ events
    def _apply(self, state: WotsState, event: Mapping[str, Any]) -> Step:
        kind = event["type"]
        if kind == "word":
            return self._word(state, event)
        if kind == "no_word":
            team = self.players[state.on_street]
            new = replace(state, on_street=1 - state.on_street, last=None)
            return Step(new, (Turn(team, 0, "no word: time ran out"),), f"{team} found no word")
        if kind == "challenge":
            return self._challenge(state, event)
        raise IllegalEvent(
            f"Word on the Street has no {kind!r} event; it knows word, no_word and challenge", RULE_TURN
        )

    def _word(self, state: WotsState, event: Mapping[str, Any]) -> Step:
        word = event.get("word")
        if not isinstance(word, str) or not letters_only(word):
            raise IllegalEvent("a word event needs the word, spelt with letters", RULE_MOVING)
        if any(not (ch.isalpha() or ch in "-' ") for ch in word):
            raise IllegalEvent(f"{word!r} has characters that are not letters", RULE_MOVING)
        team = state.on_street
        moved, moves = move_tiles(state, team, word)
        new = replace(moved, on_street=1 - team, last=PlayedWord(team, word.upper(), moves))
        gained = [m.letter for m in moves if m.captures]
        summary = f"{word.upper()}: {_describe_moves(moves)}"
        return Step(new, (Turn(self.players[team], len(gained), summary),), summary)

    def _challenge(self, state: WotsState, event: Mapping[str, Any]) -> Step:
        last = state.last
        if last is None:
            raise IllegalEvent(
                "there is no word to challenge: a challenge must follow the word at once", RULE_SPELLING
            )
        word_team, challengers = self.players[last.team], self.players[1 - last.team]
        by = event.get("by")
        if by is not None and by != challengers:
            raise IllegalEvent(f"only {challengers} can challenge {word_team}'s word", RULE_SPELLING)
        kind = event.get("kind")
        if kind in ("spelling", "compound"):
            ruling = ruling_from_event(event, rule=RULE_SPELLING, word=last.word, game=self.name)
            if ruling.legal:
                # The challengers lose their next turn: the team on the street plays again.
                new = replace(state, on_street=last.team, last=None)
                summary = f"challenge of {last.word} fails: {challengers} lose their next turn"
                return Step(new, (Turn(challengers, 0, summary, ruling),), summary)
            start = 0 if kind == "compound" else _first_error(event, last)
            back = tuple(m for m in last.moves if m.index >= start)
            what = "every tile goes back" if start == 0 else f"tiles from letter {start + 1} go back"
            return self._take_back(state, last, back, ruling, f"{last.word} ruled out: {what}")
        if kind == "selection":
            accept, reject = _votes(event)
            ruling = Ruling(
                legal=accept > reject,
                reason=f"{accept} accept, {reject} reject",
                rule=RULE_SELECTION,
                word=last.word,
                game=self.name,
                source="players",
            )
            if accept > reject:
                summary = f"{last.word} accepted by vote ({accept}–{reject}): tiles stay"
                return Step(replace(state, last=None), (Turn(word_team, 0, summary, ruling),), summary)
            if reject > accept:
                summary = f"{last.word} rejected by vote ({reject}–{accept}): every tile goes back"
                return self._take_back(state, last, last.moves, ruling, summary)
            summary = f"{last.word}: tied vote, every tile goes back and {word_team} restart with a new card"
            step = self._take_back(state, last, last.moves, ruling, summary)
            return replace(step, state=replace(step.state, on_street=last.team))
        raise IllegalEvent(
            f"a challenge needs a kind: spelling, compound or selection (not {kind!r})", RULE_SPELLING
        )

    def _take_back(
        self, state: WotsState, last: PlayedWord, moves: tuple[TileMove, ...], ruling: Ruling, summary: str
    ) -> Step:
        new = replace(undo_moves(state, last.team, moves), last=None)
        lost = sum(1 for m in moves if m.captures)
        return Step(new, (Turn(self.players[last.team], -lost, summary, ruling),), summary)

    # ------------------------------------------------------------------ questions
    def _to_move(self, state: WotsState) -> str | None:
        return None if self._outcome(state) else self.players[state.on_street]

    def _scores(self, state: WotsState) -> dict[str, int]:
        return {self.players[i]: len(state.captured[i]) for i in (0, 1)}

    def _outcome(self, state: WotsState) -> Outcome | None:
        need = self._options["tiles_to_win"]
        for i in (0, 1):
            if len(state.captured[i]) >= need:
                return Outcome((self.players[i],), f"captured {need} tiles ({RULE_WINNING})")
        return None

    def positions(self) -> dict[str, int]:
        """Each letter's space: −2..+2 on the street, −3 / +3 captured by the first / second team."""
        return dict(zip(LETTERS, self.state.positions, strict=True))

    def preview(self, word: str) -> tuple[TileMove, ...]:
        """The tile moves ``word`` would make for the team on the street, without playing it.

        For the screen, to show which tiles to move before the team commits to the word.
        """
        return move_tiles(self.state, self.state.on_street, word)[1]

    def can_challenge(self) -> bool:
        """True while the last word may still be challenged (straight after it, once)."""
        return self.state.last is not None

    def captured(self) -> dict[str, list[str]]:
        """Each team's captured tiles, in the order they were captured."""
        return {self.players[i]: list(self.state.captured[i]) for i in (0, 1)}

    def describe(self) -> str:
        """The board in one line, e.g. ``B0 C0 … L< … P+2 R> … | Team B on the street``.

        ``<`` marks a tile captured by the first team, ``>`` by the second; a signed number
        is the tile's space (negative toward the first team).
        """
        cells = []
        for ch, pos in zip(LETTERS, self.state.positions, strict=True):
            mark = "<" if pos == -CAPTURED else ">" if pos == CAPTURED else f"{pos:+d}" if pos else "0"
            cells.append(f"{ch}{mark}")
        who = self.to_move
        tail = f"{who} on the street" if who else f"over: {self.outcome().winner} won"  # type: ignore[union-attr]
        return f"{' '.join(cells)} | {tail}"


def _describe_moves(moves: tuple[TileMove, ...]) -> str:
    if not moves:
        return "no tile moves"
    captured = [m.letter for m in moves if m.captures]
    moved = [m.letter for m in moves if not m.captures]
    parts = []
    if moved:
        parts.append(f"{', '.join(moved)} moved")
    if captured:
        parts.append(f"{', '.join(captured)} captured")
    return "; ".join(parts)


def _first_error(event: Mapping[str, Any], last: PlayedWord) -> int:
    """Where the misspelling starts: ``first_error`` (0-based letter index) or from ``spelling``."""
    letters = letters_only(last.word)
    if "first_error" in event:
        index = event["first_error"]
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(letters):
            raise IllegalEvent(
                f"first_error must be a letter index from 0 to {len(letters) - 1} of {last.word}",
                RULE_SPELLING,
            )
        return index
    correct = event.get("spelling")
    if isinstance(correct, str) and letters_only(correct):
        right = letters_only(correct)
        for i, (a, b) in enumerate(zip(letters, right, strict=False)):
            if a != b:
                return i
        if len(letters) != len(right):
            return min(len(letters), len(right))  # a letter too many or too few at the end
        raise IllegalEvent(f"{correct.upper()} is how {last.word} was spelt: no error to undo", RULE_SPELLING)
    raise IllegalEvent(
        "a misspelling needs first_error (which letter was wrong, from 0) or the correct spelling",
        RULE_SPELLING,
    )


def _votes(event: Mapping[str, Any]) -> tuple[int, int]:
    votes = event.get("votes")
    counts = (votes.get("accept"), votes.get("reject")) if isinstance(votes, Mapping) else (None, None)
    accept, reject = (v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else -1 for v in counts)
    if accept < 0 or reject < 0 or accept + reject == 0:
        raise IllegalEvent(
            'a selection challenge needs the votes: {"accept": n, "reject": m}', RULE_SELECTION
        )
    return accept, reject

"""The kiosk's controller: one game, its log, the word authority — and no Kivy.

Every screen talks to a :class:`Session` and nothing else, so the whole referee (start a
game, enter a turn, challenge, undo, resume after a power cut) is testable with plain
pytest. The order of every change is the durability promise of the kiosk:

1. apply the event to a *copy* of the engine — an :class:`IllegalEvent` refuses it and
   nothing is written;
2. append it to the SQLite log (``GameLog.append`` returns only once it is on disk) — a
   :class:`StoreError` (disk full…) refuses it and the screen says the entry was not saved;
3. only then make the copy the live game, so what the screen shows is always on disk.

Undo is the same in reverse: drop the last row, then take the event back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, runtime_checkable

from games.base import Game, GameSetupError, Turn
from games.house_words import HouseWords
from games.registry import canonical_name, new_game
from games.rulings import IllegalEvent, Ruling
from kiosk.files.setting_limits import TURN, turn_length
from kiosk.gamelog.contract import Log
from kiosk.gamelog.queries import GameSummary
from kiosk.play import playbook

log = logging.getLogger(__name__)


@runtime_checkable
class Authority(Protocol):
    """The word authority as the session asks it (``games.words.WordAuthority``): a ruling on a
    word, with the context ``playbook.authority_context`` gives (the Tosswords draw, the spiral)."""

    def rule(
        self,
        game: str,
        word: str,
        *,
        keys: Sequence[str] | None = None,
        die: int | str | None = None,
        extras: Iterable[str] = (),
        spiral: str | None = None,
    ) -> Ruling: ...


@dataclass(frozen=True)
class Result:
    """What a screen needs after an action: did it happen, what to say, the ruling if any."""

    ok: bool
    message: str = ""
    ruling: Ruling | None = None
    turns: tuple[Turn, ...] = ()
    event: dict[str, Any] | None = None

    @classmethod
    def refused(cls, message: str) -> Result:
        return cls(False, message)


@dataclass
class Session:
    """The live game and everything that changes it.

    ``log`` is the game log (:class:`kiosk.gamelog.contract.Log`). ``authority`` is the word authority
    (``games.words.WordAuthority``) or a zero-argument callable that loads it on first use,
    so the start screen never waits for the word list. ``now`` gives the wall-clock time
    written into each event's ``at``.
    """

    log: Log
    authority: Authority | Callable[[], Authority] | None = None
    now: Callable[[], float] = time.time
    game: Game[Any] | None = None
    game_id: int | None = None
    #: The game on the table is the demo's own (its header says ``"demo": true``); only such a
    #: game may be played by the demo's Demo step.
    demo: bool = False
    problems: list[str] = field(default_factory=list)
    _authority_error: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    # ------------------------------------------------------------------ games
    def new_game(
        self,
        name: str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        *,
        demo: bool = False,
    ) -> Result:
        """Start a game; the header is in the log before the game exists on screen.

        A finished game still open is recorded; an unfinished one stays unfinished in the log,
        listed on the start screen to resume (starting a game never throws one away). ``demo``
        marks the demo's own game in its header, so the demo never mistakes a family's game
        (with the same names) for its own, and its names are never offered as the family's.
        """
        try:
            game = new_game(canonical_name(name), [p.strip() for p in players], dict(options or {}))
        except (GameSetupError, KeyError) as exc:
            return Result.refused(str(exc).strip("'\""))
        if "timer" in game.options and turn_length(game.options["timer"], game.default_timer)[1]:
            # Never logged: a game with a timer that cannot run could not be resumed as it was.
            return Result.refused(
                f"{game.title}: the turn timer must be from {TURN.low:g} to {TURN.high:g} seconds "
                f"(0: no timer), not {game.options['timer']!r}"
            )
        self.close_game()
        header = game.header()
        if demo:
            header["demo"] = True
        try:
            game_id = self.log.start_game(header)
        except Exception as exc:  # StoreError and friends: say so, keep the old state
            return Result.refused(_plain(exc))
        self.game, self.game_id, self.demo = game, game_id, demo
        return Result(True, f"{game.title}: {game.to_move} to play")

    def resume(self, game_id: int | None = None) -> bool:
        """Rebuild an unfinished game (default: the newest) from the log; False when there is none."""
        try:
            if game_id is None:
                game_id = self.log.game_in_progress()
            if game_id is None:
                return False
            self.game = self.log.rebuild(game_id)
        except Exception as exc:
            self.problems.append(f"The game in progress could not be restored: {_plain(exc)}")
            return False
        self.game_id = game_id
        self.demo = game_id in self._demo_games()
        _seconds, note = self.turn_length()
        if note:  # logged before the limits were checked: it resumes, on a timer that can run
            title = self.game.title
            self.problems.append(f"This {title} game was logged with a timer that cannot run: {note}.")
        return True

    def turn_length(self) -> tuple[float | None, str]:
        """The game's turn timer in seconds (None: none), made safe to run, and what was changed
        (``kiosk.files.setting_limits.turn_length``: a logged ``-30`` or ``"sixty"`` never
        reaches the countdown)."""
        if self.game is None:
            return None, ""
        raw = self.game.options.get("timer", self.game.default_timer)
        return turn_length(raw, self.game.default_timer)

    def _demo_games(self) -> set[int]:
        """The log ids of the demo's games among the recent ones."""
        try:
            return {g.id for g in self.log.games(200) if g.demo}
        except Exception:
            return set()

    def in_progress(self) -> int | None:
        try:
            return self.log.game_in_progress()
        except Exception:
            return None

    def close_game(self) -> None:
        """Record a finished game's outcome (kept in the log's statistics) and forget it."""
        if self.game is not None and self.game_id is not None:
            outcome = self.game.outcome()
            try:
                if outcome is not None:
                    self.log.finish(
                        self.game_id,
                        {
                            "winners": list(outcome.winners),
                            "termination": outcome.termination,
                            "scores": self.game.scores(),
                        },
                    )
            except Exception as exc:
                self.problems.append(f"The result could not be saved: {_plain(exc)}")
        self.game = self.game_id = None
        self.demo = False

    def leave(self) -> None:
        """Put the game aside, unfinished: it stays in the log, listed on the start screen."""
        if self.game is not None and self.game.is_over():
            self.close_game()
        self.game = self.game_id = None
        self.demo = False

    def unfinished(self, limit: int = 20) -> list[tuple[GameSummary, dict[str, int]]]:
        """The unfinished games, newest first, each with its scores (for the resume list)."""
        try:
            games = [g for g in self.log.games(200) if g.status == "playing"][:limit]
        except Exception as exc:
            self.problems.append(f"The list of unfinished games cannot be read: {_plain(exc)}")
            return []
        out = []
        for summary in games:
            try:
                scores = dict(self.log.rebuild(summary.id).scores())
            except Exception:
                scores = {}
            out.append((summary, scores))
        return out

    def abandon_game(self, game_id: int) -> None:
        """Give up an unfinished game from the resume list (kept in the log, marked abandoned)."""
        if game_id == self.game_id:
            return self.abandon()
        try:
            self.log.abandon(game_id)
        except Exception as exc:
            self.problems.append(f"Could not mark the game abandoned: {_plain(exc)}")

    def abandon(self) -> None:
        """Give up the current game (it stays in the log, marked abandoned)."""
        if self.game_id is not None:
            try:
                self.log.abandon(self.game_id)
            except Exception as exc:
                self.problems.append(f"Could not mark the game abandoned: {_plain(exc)}")
        self.game = self.game_id = None
        self.demo = False

    def recent_players(self, limit: int = 8) -> list[str]:
        """Names typed for recent games, newest first ("Team A", "Player 2" are not names)."""
        try:
            names = list(self.log.recent_players(limit + 12))
        except Exception:
            return []
        return [n for n in names if not playbook.placeholder_name(n)][:limit]

    def last_players(self, name: str) -> list[str]:
        """Who played this game last (the start screen offers them again), or []."""
        try:
            games = self.log.games(50)
        except Exception:
            return []
        return next((list(g.players) for g in games if g.game == name and not g.demo), [])

    def rematch(self) -> Result:
        """The same game, players and options again; the first player moves to the next seat."""
        game = self.game
        if game is None:
            return Result.refused("There is no game to play again.")
        players = [*game.players[1:], game.players[0]]
        return self.new_game(game.name, players, game.options, demo=self.demo)

    # ------------------------------------------------------------------ events
    def submit(self, event: Mapping[str, Any]) -> Result:
        """Apply one event: refuse it (nothing written) or log it, then show it."""
        if self.game is None or self.game_id is None:
            return Result.refused("No game is being played: start one first.")
        event = self._plural_ruling(event)
        stamped = {**dict(event), "at": datetime.fromtimestamp(self.now(), UTC).isoformat(timespec="seconds")}
        twin = self.game.copy()
        try:
            step = twin.apply(stamped)
        except IllegalEvent as exc:
            return Result.refused(_illegal_text(exc))
        try:
            self.log.append(self.game_id, twin.peek() or stamped)
        except Exception as exc:
            return Result.refused(_plain(exc))
        self.game = twin
        message = step.message or "; ".join(t.summary for t in step.turns if t.summary)
        return Result(True, message, turns=step.turns, event=twin.peek())

    def _plural_ruling(self, event: Mapping[str, Any]) -> Mapping[str, Any]:
        """Upwords rule 5: a lone S after a word is refused by the engine unless the event
        says ``not_plural``. When the word list is loaded and says none of the words made
        is a plural (HI + S = HIS; PANT + S = PANTS is a noun of its own), say so in the
        event — it is logged, so a replay rules the same. Never waits for the word list."""
        authority = self.authority
        if self.game is None or self.game.name != "upwords" or event.get("type") != "play":
            return event
        if "not_plural" in event or authority is None or not hasattr(authority, "plural_of"):
            return event
        from games.upwords import Upwords
        from games.upwords_rules import added_s, parse_tiles

        if not isinstance(self.game, Upwords):
            return event
        try:
            pairs = added_s(self.game.board, parse_tiles(event.get("tiles"), self.game.board.size))
            if pairs and all(authority.plural_of(new) != old for new, old in pairs):
                return {**event, "not_plural": True}
        except Exception:  # a malformed play: the engine will say what is wrong with it
            log.debug("plural check skipped", exc_info=True)
        return event

    def try_event(self, event: Mapping[str, Any]) -> tuple[Game[Any] | None, str]:
        """The game as it would be after ``event`` (nothing logged, nothing shown), or why not."""
        if self.game is None:
            return None, "No game is being played."
        twin = self.game.copy()
        try:
            twin.apply(event)
        except IllegalEvent as exc:
            return None, _illegal_text(exc)
        return twin, ""

    def undo(self) -> Result:
        """Take back the last event (a turn, or a ruling). The log row goes first."""
        if self.game is None or self.game_id is None or self.game.peek() is None:
            return Result.refused("There is nothing to undo.")
        try:
            self.log.drop_last(self.game_id)
        except Exception as exc:
            return Result.refused(_plain(exc))
        event = self.game.undo()
        return Result(True, f"Took back: {playbook.describe_event(event)}", event=event)

    def correct(self, index: int, event: Mapping[str, Any]) -> Result:
        """Replace the ``index``-th event and replay the rest (``kiosk.play.correction``); the log
        is rewritten in one transaction before the corrected game is shown."""
        from kiosk.play import correction

        if self.game is None or self.game_id is None:
            return Result.refused("No game is being played.")
        fixed, why = correction.replay(self.game, index, event)
        if fixed is None:
            return Result.refused(f"Not corrected: {why}.")
        try:
            self.log.replace_from(self.game_id, index, fixed.events[index:])
        except Exception as exc:
            return Result.refused(_plain(exc))
        self.game = fixed
        return Result(True, f"Corrected entry {index + 1}: {playbook.describe_event(fixed.events[index])}")

    # ------------------------------------------------------------------ challenges
    def challenge_target(self) -> playbook.Target | None:
        """The word a challenge would be about (the last one played), or None."""
        return None if self.game is None else playbook.target(self.game)

    def rule(self, kind: str = "", word: str | None = None) -> Ruling | None:
        """Ask the word authority about the challenged word (no event yet). None: rule by hand.

        ``word`` picks one of several words a play formed (Upwords); default: the target's.
        """
        target = self.challenge_target()
        if target is None or self.game is None:
            return None
        authority = self._authority()
        if authority is None:
            return None
        if word:
            target = playbook.Target(word.upper(), target.player, target.event)
        context = playbook.authority_context(self.game, target, kind)
        try:
            return authority.rule(self.game.name, target.word, **context)
        except Exception as exc:  # the authority must never take the kiosk down
            log.exception("word authority failed")
            self.problems.append(f"The word list could not rule on {target.word}: {_plain(exc)}")
            return None

    def challenge(self, ruling: Ruling | None = None, word: str | None = None, **details: Any) -> Result:
        """Settle a challenge of the last word: the ruling goes into the event, then the log.

        ``details`` carries what the game's challenge event needs (``kind``, ``by``,
        ``votes``, ``first_error``). Without a ruling (a vote) only the details are sent.
        """
        target = self.challenge_target()
        if self.game is None or target is None:
            return Result.refused("There is no word to challenge yet.")
        event: dict[str, Any] = {"type": "challenge", **{k: v for k, v in details.items() if v is not None}}
        if ruling is not None:
            event["ruling"] = {k: v for k, v in ruling.to_dict().items() if v != ""}
        if word:
            target = playbook.Target(word.upper(), target.player, target.event)
        event.update(playbook.challenge_extras(self.game, target))
        result = self.submit(event)
        if not result.ok:
            return result
        return Result(True, result.message, ruling=ruling, turns=result.turns, event=result.event)

    def add_house_word(self, word: str, game: str | None = None) -> Result:
        """Allow a word the list lacks, in one game or all (``games.house_words``, kept on disk)."""
        authority = self._authority()
        try:
            if authority is not None and hasattr(authority, "house"):
                entry = authority.house.add(word, game)
            else:
                from kiosk.files.house_file import open_house_words

                entry = open_house_words().add(word, game)
        except (ValueError, OSError) as exc:  # HouseWordsError is a ValueError
            return Result.refused(f"{word.upper()} was not added: {_plain(exc)}")
        where = "all games" if game is None else playbook.guide(game).title
        return Result(True, f"{getattr(entry, 'word', word.upper())} is now a house word in {where}.")

    def house_words(self) -> HouseWords:
        """The table's house words (``games.house_words.HouseWords``: list, strike, remove)."""
        authority = self._authority()
        if authority is not None and hasattr(authority, "house"):
            return authority.house
        from kiosk.files.house_file import open_house_words

        return open_house_words()

    def authority_problem(self) -> str:
        return self._authority_error

    def warm_up(self) -> bool:
        """Load the word authority now (the app calls this on a worker thread at start)."""
        return self._authority() is not None

    def use_words(self, loader: Callable[[], Authority]) -> None:
        """Rule from now on with the word list ``loader`` loads (the family chose everyday
        words or the full dictionary); it loads on the next question or on ``warm_up``."""
        with self._lock:
            self.authority = loader
            self._authority_error = ""

    def word_authority(self) -> Authority | None:
        """The word authority (loaded on first use), or None when there is no word list."""
        return self._authority()

    def loaded_authority(self) -> Authority | None:
        """The word authority if it has loaded already: for callers that must never wait for it."""
        with self._lock:
            return self.authority if isinstance(self.authority, Authority) else None

    def _authority(self) -> Authority | None:
        with self._lock:
            if self.authority is None:
                return None
            if not isinstance(self.authority, Authority):
                loader = self.authority
                try:
                    self.authority = loader()
                except Exception as exc:
                    self._authority_error = (
                        f"The word list could not be loaded ({_plain(exc)}): rule by hand."
                    )
                    self.problems.append(self._authority_error)
                    self.authority = None
                    return None
            return self.authority


def _illegal_text(exc: IllegalEvent) -> str:
    return f"{exc.reason[:1].upper()}{exc.reason[1:]}" + (f" ({exc.rule})" if exc.rule else "")


def _plain(exc: BaseException) -> str:
    """An exception as a sentence for the banner (store errors already are one)."""
    text = str(exc).strip("'\"") or type(exc).__name__
    return text[:1].upper() + text[1:]

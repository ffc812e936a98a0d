"""What the camera saw the players do to the street this turn, for the Word on the Street entry.

The kiosk knows where each tile was before the turn (the engine's positions) and the camera's
newest read of the street; the difference is each tile's move. The rule of how a word moves
tiles stays in ``games`` (``games.wots_moves`` asks the engine's ``move_tiles``); this module
only gathers the two reads and says in words where a typed word and the camera disagree.
No Kivy: the entry form shows what it returns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.wots_moves import mismatch, offers, seen_moves


@dataclass(frozen=True)
class StreetMoves:
    """The moves seen (letter -> spaces moved, negative toward the first team) and the words offered."""

    seen: dict[str, int] = field(default_factory=dict)
    words: list[str] = field(default_factory=list)

    def disagreeing(self, game: Any, word: str) -> frozenset[str]:
        """The letters whose move the typed word and the camera disagree on."""
        if not self.seen or not word.strip():
            return frozenset()
        state = game.state
        return frozenset(mismatch(state, state.on_street, word.upper(), self.seen))

    def disagreement(self, game: Any, word: str) -> str:
        """"" when ``word`` makes exactly the moves seen; else which tiles disagree, in words."""
        if not self.seen or not word.strip():
            return ""
        state = game.state
        diff = mismatch(state, state.on_street, word.upper(), self.seen)
        parts = []
        for letter, (wanted, saw) in diff.items():
            if saw == 0:
                parts.append(f"{letter} did not move")
            elif wanted == 0:
                parts.append(f"{letter} moved but is not in the word")
            else:
                parts.append(f"{letter} moved {abs(saw)}, the word moves it {abs(wanted)}")
        return "; ".join(parts)

    def hint(self, game: Any, word: str) -> str:
        """The disagreement short enough for the entry's field (two lines at most beside the
        word): one tile in full, several by their letters; the banner on Done says it all."""
        if not self.seen or not word.strip():
            return ""
        state = game.state
        diff = mismatch(state, state.on_street, word.upper(), self.seen)
        if len(diff) <= 1:
            return self.disagreement(game, word)
        return f"{len(diff)} tiles moved otherwise: {' '.join(diff)}"


def camera_for(game: Any, correcting: int | None, camera: Any) -> Any:
    """The camera, when its read can be compared with the turn being entered; else None.

    The camera sees the street as it is now. A new turn, or a correction of the latest
    entry, is played on the street the camera sees. A correction of an older entry is not:
    the street is rebuilt from the entries up to and including that one, and when a later
    entry moved tiles since, the read now would show that entry's moves as this one's (the
    "moved" warnings would be false). Then the correction is entered without the camera.
    """
    if camera is None or correcting is None or game is None:
        return camera
    from kiosk.play.correction import before

    at_that_turn = before(game, correcting + 1)
    return camera if dict(at_that_turn.positions()) == dict(game.positions()) else None


def street_moves(game: Any, camera: Any, authority: Any, limit: int = 3) -> StreetMoves:
    """The camera's view of this turn: nothing when there is no camera read of the street, and
    no word offered while the camera doubts a tile (a read not sure is asked, never offered)."""
    if camera is None or game is None or game.name != "word-on-the-street" or not hasattr(camera, "view_of"):
        return StreetMoves()
    read = camera.view_of(game)
    positions = getattr(read, "positions", None)
    if not positions:
        return StreetMoves()
    state = game.state
    seen = seen_moves(game.positions(), positions, state.on_street)
    if not seen:
        return StreetMoves()
    if getattr(read, "doubted", frozenset()) or not authority:
        return StreetMoves(seen)
    return StreetMoves(seen, offers(authority, state, state.on_street, seen, limit))


def street_picture(game: Any, camera: Any, flagged: frozenset[str]) -> tuple[Any, ...]:
    """What the street widget (``kiosk.app.widgets.boards.StreetView``) draws on the turn entry:
    the tiles where the camera sees them now (the engine's place for a tile it cannot see), the
    teams, and the letters to frame in red (those the typed word and the camera disagree on,
    and those the camera itself doubts)."""
    positions = dict(game.positions())
    doubtful = frozenset(flagged)
    read = camera.view_of(game) if camera is not None and hasattr(camera, "view_of") else None
    if read is not None and getattr(read, "positions", None):
        seen = read.positions
        positions = {k: (v if seen.get(k) is None else seen[k]) for k, v in positions.items()}
        doubtful |= frozenset(getattr(read, "uncertain", frozenset()))
    return tuple(positions.items()), tuple(game.players), doubtful

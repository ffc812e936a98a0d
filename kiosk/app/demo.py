"""Demo mode: the rule sheet's Upwords game, played on a filmed table, one tap at a time.

``tablekeeper kiosk`` on a machine with no Pi parts starts here: the table timer runs on
gpiozero's mock pins (its ring drawn on screen), and each tap on "Demo step" puts the
next play of the sheet's own example on the table (MOOD, DEAR, NET + ON, WOOD, WOOL +
LEAP, SNACK, PLUS). The demo camera (:mod:`kiosk.camera.demo`) photographs the board and
reads the play off the UI thread; a sure read is scored through the session exactly like
a player's entry, and an unsure one opens turn entry with the play filled in, for the
players to check and confirm — the kiosk never scores a doubtful read on its own. Without
the renderer the script's plays are entered directly.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiosk.camera.demo import DemoCamera

log = logging.getLogger(__name__)

PLAYERS = ("Ann", "Bob")


def _tiles(*cells: tuple[int, int, str]) -> list[dict[str, Any]]:
    return [{"row": r, "col": c, "letter": ch} for r, c, ch in cells]


#: The sheet's figures 1-6 in order (rows and columns from 0 at the top left), each with
#: where its word starts and whether it reads down (for turn entry's row/col/direction).
SCRIPT: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "Ann opens with MOOD across the centre",
        {"type": "play", "word": "MOOD", "tiles": _tiles((3, 1, "M"), (3, 2, "O"), (3, 3, "O"), (3, 4, "D"))},
    ),
    (
        "Bob builds DEAR down from the D",
        {"type": "play", "word": "DEAR", "tiles": _tiles((4, 4, "E"), (5, 4, "A"), (6, 4, "R"))},
    ),
    (
        "Ann plays NET, forming ON too: 6 + 4",
        {"type": "play", "word": "NET", "tiles": _tiles((4, 3, "N"), (4, 5, "T"))},
    ),
    ("Bob stacks W on M: WOOD", {"type": "play", "word": "WOOD", "tiles": _tiles((3, 1, "W"))}),
    (
        "Ann stacks L and P: WOOL and LEAP",
        {"type": "play", "word": "LEAP", "tiles": _tiles((3, 4, "L"), (6, 4, "P"))},
    ),
    (
        "Bob plays SNACK through the P, his arm still over the board",
        {
            "type": "play",
            "word": "SNACK",
            "tiles": _tiles((6, 3, "S"), (6, 4, "N"), (6, 5, "A"), (6, 6, "C"), (6, 7, "K")),
        },
    ),
    (
        "Ann plays PLUS, making NETS",
        {"type": "play", "word": "PLUS", "tiles": _tiles((1, 6, "P"), (2, 6, "L"), (3, 6, "U"), (4, 6, "S"))},
    ),
)


#: The play filmed with a hand still over the board (the camera must ask, not guess).
HAND_OVER_BOARD = 5

#: Where each scripted word starts: (row, col, reads down).
STARTS: tuple[tuple[int, int, bool], ...] = (
    (3, 1, False),
    (3, 4, True),
    (4, 3, False),
    (3, 1, False),
    (3, 4, True),
    (6, 3, False),
    (1, 6, True),
)


@dataclass
class Demo:
    """Steps through :data:`SCRIPT`. ``camera`` is a :class:`kiosk.camera.demo.DemoCamera` or None.

    The app sets ``deliver`` (run a function on the UI thread) and ``report`` (show what
    happened: ``report(message)``, or ``report(message, prefill)`` to open turn entry with a
    play filled in for the players to confirm).
    """

    camera: DemoCamera | None = None
    problems: list[str] = field(default_factory=list)
    deliver: Callable[[Callable[[], Any]], Any] = lambda f: f()
    report: Callable[..., Any] = lambda message, prefill=None: None
    busy: bool = False
    read_by_camera: int = 0
    confirmed_by_players: int = 0
    #: The game (log id, entries) the players were asked about putting aside for the demo.
    _asked: tuple[int | None, int] | None = None

    def close(self) -> None:
        """Stop the demo camera's worker (the app is stopping)."""
        if self.camera is not None:
            self.camera.close()

    @classmethod
    def create(cls, session: Any) -> Demo:
        from kiosk.camera.demo import DemoCamera

        camera = DemoCamera.create()
        demo = cls(camera=camera)
        if camera is None:
            demo.problems.append(
                "Demo: the camera renderer is not available, so the demo runs without a camera view."
            )
        session.problems.extend(demo.problems)
        return demo

    def step(self, session: Any) -> str:
        """Put the next scripted play on the table; start the demo game first if needed."""
        if self.busy:
            return "Demo: the camera is still reading the last play."
        game = session.game
        # Only the demo's own game (marked so in its header) is ever played by a step: a
        # family's game is never written into, whatever its players are called.
        if game is None or not session.demo:
            asking = (session.game_id, len(game.events)) if game is not None else None
            if game is not None and not game.is_over() and self._asked != asking:
                # Never put the table's game aside without asking; the answer is one more tap,
                # straight after (a turn played in between asks again).
                self._asked = asking
                return (
                    f"Demo: tap Demo step again to start the demo; this {game.title} game is kept "
                    "on the start screen to resume."
                )
            self._asked = None
            waiting = next((s.id for s, _ in session.unfinished() if s.demo), None)
            if waiting is not None:
                session.leave()
                if session.resume(waiting):
                    self._film(session)
                    return "Demo: back to the demo's Upwords game. Tap Demo step again."
            result = session.new_game("upwords", list(PLAYERS), {"timer": 60}, demo=True)
            if not result.ok:
                return result.message
            self._film(session)
            return "Demo: a new Upwords game for Ann and Bob. Tap Demo step again."
        position = len(game.events)
        if position >= len(SCRIPT):
            return "Demo: that was the whole script. Try Challenge, Undo or Turn yourself."
        text, event = SCRIPT[position]
        if self.camera is None:
            result = session.submit(event)
            return f"Demo: {text}. {result.message}" if result.ok else result.message
        self.busy = True
        game_id = session.game_id
        self.camera.see_play(
            game.board,
            event["tiles"],
            lambda play: self.deliver(lambda: self._seen(session, game_id, position, play)),
            hand=position == HAND_OVER_BOARD,
        )
        return f"Demo: {text} - the camera is reading the board..."

    def _film(self, session: Any) -> None:
        """The demo camera sees the demo game's board as it is now."""
        if self.camera is not None and session.game is not None:
            self.camera.film(session.game.board)

    def _seen(self, session: Any, game_id: int | None, position: int, play: Any) -> None:
        """On the UI thread: score a sure read, or ask the players to confirm an unsure one."""
        self.busy = False
        game = session.game
        if game is None or not session.demo or session.game_id != game_id or len(game.events) != position:
            return  # the table moved on while the camera was reading
        event = SCRIPT[position][1]
        if play.ok:
            result = session.submit({**play.event(), "word": event["word"]})
            if result.ok:
                self.read_by_camera += 1
                self.report(f"Camera read {event['word']}: {result.message}")
                return
            self.report(
                f"The camera's read was refused ({result.message}): check the play.", self._prefill(position)
            )
            return
        self.report(f"{_doubt(play.problems)}: check the play and tap Done.", self._prefill(position))

    @staticmethod
    def _prefill(position: int) -> dict[str, Any]:
        row, col, down = STARTS[position]
        return {"word": SCRIPT[position][1]["word"], "row": row, "col": col, "down": down}

    def confirmed(self) -> None:
        """The players confirmed a play the camera was unsure of (counted for the demo's report)."""
        self.confirmed_by_players += 1


def _doubt(problems: tuple[str, ...]) -> str:
    """'The camera is not sure of 14 squares (under a hand or arm)': short enough for a banner."""
    if not problems:
        return "The camera could not read the play"
    if len(problems) == 1:
        return f"The camera is not sure of {problems[0]}"
    return f"The camera is not sure of {len(problems)} squares ({problems[0].split(': ', 1)[-1]})"

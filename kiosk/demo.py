"""Demo mode: a scripted Upwords game to step through, and a camera that films it.

``tablekeeper kiosk`` on a machine with no Pi parts starts here: the table timer runs on
gpiozero's mock pins (its ring drawn on screen), and each tap on "Demo step" plays the
next move of the sheet's own example (MOOD, DEAR, NET + ON, WOOD, WOOL + LEAP, SNACK,
PLUS) through the same session a player's taps go through — then challenges a made-up
word so the ruling screen shows too. With ``vision.render`` present, a worker thread
renders a photo of the board after each move, as the camera above the table would see it.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

PLAYERS = ("Ann", "Bob")


def _tiles(*cells: tuple[int, int, str]) -> list[dict[str, Any]]:
    return [{"row": r, "col": c, "letter": ch} for r, c, ch in cells]


#: The sheet's figures 1-6 in order (rows and columns from 0 at the top left).
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
        "Bob plays SNACK through the P",
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


@dataclass
class Demo:
    """Steps through :data:`SCRIPT`; ``camera`` is a :class:`DemoCamera` or None."""

    camera: Any = None
    position: int = 0
    problems: list[str] = field(default_factory=list)

    @classmethod
    def create(cls, session: Any) -> Demo:
        camera = DemoCamera.create()
        demo = cls(camera=camera)
        if camera is None:
            demo.problems.append(
                "Demo: the camera renderer is not available, so the demo runs without a camera view."
            )
        session.problems.extend(demo.problems)
        return demo

    def step(self, session: Any) -> str:
        """Play the next scripted move; start the demo game first if another game is on."""
        game = session.game
        if game is None or game.name != "upwords" or tuple(game.players) != PLAYERS:
            result = session.new_game("upwords", list(PLAYERS), {"timer": 60})
            self.position = 0
            if not result.ok:
                return result.message
            self._film(session)
            return "Demo: a new Upwords game for Ann and Bob. Tap Demo step again."
        self.position = len(game.events)
        if self.position >= len(SCRIPT):
            return "Demo: that was the whole script. Try Challenge, Undo or Turn yourself."
        text, event = SCRIPT[self.position]
        result = session.submit(event)
        self._film(session)
        return f"Demo: {text}. {result.message}" if result.ok else result.message

    def _film(self, session: Any) -> None:
        if self.camera is not None and session.game is not None and session.game.name == "upwords":
            self.camera.film(session.game.board)


@dataclass(frozen=True)
class CameraRead:
    """The board as the camera read it, for the game screen: tops, heights, doubtful cells."""

    tops: tuple[tuple[str | None, ...], ...]
    heights: tuple[tuple[int, ...], ...]
    uncertain: frozenset[tuple[int, int]]
    summary: str


def compare(board: Any, reading: Any) -> CameraRead:
    """Lay the camera's read over the engine's board and mark every cell that needs a look.

    A cell is doubtful when the reader says so (a hand, a hidden stack, low confidence on
    occupancy or height) or when the photo disagrees with the game (a tile where the game
    has none, a stack of another height). Letters the reader could not name (no letters
    taught yet) are taken from the game's history, as the reader itself does for heights.
    """
    tops, heights, doubtful = [], [], set()
    for r in range(board.size):
        row_tops, row_heights = [], []
        for c in range(board.size):
            cell = reading.cell(r, c)
            known = board.top(r, c)
            letter = cell.letter or (known if cell.height else None)
            row_tops.append(letter if cell.height else None)
            row_heights.append(cell.height)
            if (
                cell.flags
                or cell.height != board.height(r, c)
                or (cell.letter and known and cell.letter != known)
            ):
                doubtful.add((r, c))
        tops.append(tuple(row_tops))
        heights.append(tuple(row_heights))
    seen = sum(1 for row in heights for h in row if h)
    summary = (
        f"{seen} stacks seen, {len(doubtful)} to check" if doubtful else f"{seen} stacks seen, all agree"
    )
    return CameraRead(tuple(tops), tuple(heights), frozenset(doubtful), summary)


class DemoCamera:
    """Films the demo board after each move and reads it, on a worker thread (never the UI's).

    ``render`` is ``vision.render.render_upwords``; ``reader`` builds a
    ``vision.upwords_reader.UpwordsReader`` from a photo's corners (in the demo the renderer
    knows them; on the table they come from calibration). ``on_read`` is called (from the
    worker thread) when a new read is ready; the app hands it to the UI with Clock.
    """

    def __init__(self, render: Any, reader: Any) -> None:
        self._render = render
        self._make_reader = reader
        self._lock = threading.Lock()
        self._frame: Any = None
        self._read: CameraRead | None = None
        self._previous: Any = None
        self.frames = 0
        self.on_read: Any = None

    @classmethod
    def create(cls) -> DemoCamera | None:
        try:
            from vision.render import render_upwords
            from vision.upwords_reader import UpwordsReader
        except ImportError as exc:
            log.info("no demo camera: %s", exc)
            return None
        return cls(render_upwords, UpwordsReader)

    def film(self, board: Any) -> None:
        cells = {
            (r, c): (board.top(r, c), board.height(r, c))
            for r in range(board.size)
            for c in range(board.size)
            if board.top(r, c)
        }
        threading.Thread(target=self._shoot, args=(board, cells), name="demo-camera", daemon=True).start()

    def _shoot(self, board: Any, cells: dict[tuple[int, int], tuple[str, int]]) -> None:
        try:
            shot = self._render(cells, seed=len(cells))
            reader = self._make_reader(shot.corners, shot.image_size, rows=board.size, cols=board.size)
            reading = reader.read(shot.image, previous=self._previous)
        except Exception:
            log.exception("demo camera: filming or reading failed")
            return
        with self._lock:
            self._frame = shot.image
            self._previous = reading
            self._read = compare(board, reading)
            self.frames += 1
        if self.on_read is not None:
            self.on_read()

    def latest_image(self) -> Any:
        """The newest photo (a BGR numpy array) or None."""
        with self._lock:
            return self._frame

    def latest(self) -> CameraRead | None:
        """The newest read of the board, or None before the first one."""
        with self._lock:
            return self._read

    def close(self) -> None:
        """Nothing to release: the filming threads are daemons and finish on their own."""

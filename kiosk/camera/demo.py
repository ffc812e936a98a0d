"""The demo's camera: it films the Upwords board and reads each play, off the UI thread.

There is no real camera in demo mode, so ``vision.synthetic.render`` photographs the board as a
camera above the table would (perspective, lighting, noise), and the real reader
(``vision.upwords_reader``) reads the photo with letters taught from rendered teaching
photos (``vision.synthetic.teach``, ``vision.letters``) — never from the demo's own boards.
The kiosk knows the board before the play from the game itself; that is the history the
reader needs for stack heights. Everything here runs on one worker thread; the results go
to a callback, which the app hands to the UI thread.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from games.base import Game
from games.upwords import Upwords
from games.upwords_board import Board
from games.word_on_the_street import WordOnTheStreet
from kiosk.camera.view import CameraRead, StreetRead, compare, compare_street, history

if TYPE_CHECKING:
    import numpy as np

    from games.upwords_read import PlayReading
    from vision.letters import LetterReader
    from vision.reading import BoardReading

log = logging.getLogger(__name__)


class DemoCamera:
    """Films and reads on one worker thread; ``latest()`` / ``latest_image()`` for the screen.

    ``on_read`` (set by the app) is called from the worker after each new read.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self._read: CameraRead | None = None
        self._street: StreetRead | None = None
        self._filmed: tuple[str, object] | None = None
        #: The letters taught on the first photo; False when the letter reader is not installed.
        self._letters: LetterReader | Literal[False] | None = None
        self._jobs: queue.Queue[Callable[[], object] | None] = queue.Queue()
        self._worker = threading.Thread(target=self._work, name="demo-camera", daemon=True)
        self._worker.start()
        self.frames = 0
        self.on_read: Callable[[], object] | None = None
        self.problem = ""

    @classmethod
    def create(cls) -> DemoCamera | None:
        """None when the renderer or the reader is not installed (the demo then runs without).

        Only looks: OpenCV and the renderer are imported by the worker on its first photo, so
        the start screen does not wait for them.
        """
        from importlib.util import find_spec

        if any(
            find_spec(name) is None
            for name in ("vision.synthetic.render", "vision.upwords_reader", "vision.reading")
        ):
            log.info("no demo camera: the renderer or the board reader is not installed")
            return None
        return cls()

    # ------------------------------------------------------------------ the worker
    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                job()
            except Exception as exc:  # a failed photo or read must never reach the UI
                log.exception("demo camera")
                self.problem = f"The demo camera failed: {exc}"

    def _teach(self) -> LetterReader | None:
        """Letters taught from rendered teaching photos, once (about a second, on the worker)."""
        if self._letters is None:
            try:
                from vision.letters import LetterReader, teach
                from vision.synthetic.teach import teaching_samples
            except ImportError:
                self._letters = False  # no letter reader: the camera sees tiles, not letters
                return None
            images, labels = teaching_samples()
            # three poses of every letter already: no augmented copies (a quicker start)
            self._letters = LetterReader(teach(images, labels, augment=False), 0.3)
        return self._letters or None

    def _shoot(self, shown: Board, before: Board, seed: int, hand: bool = False) -> BoardReading:
        from vision.synthetic.render import render_upwords, upwords_cells
        from vision.upwords_reader import UpwordsReader

        effects = None
        if hand:  # a player's arm still over the board, as the kiosk must expect
            from vision.synthetic.effects import Effects, Hand

            effects = Effects(hand=Hand(tip=(560.0, 400.0), angle_deg=300.0, width_px=120.0))
        shot = render_upwords(upwords_cells(shown), seed=seed, effects=effects)
        reader = UpwordsReader(
            shot.corners, shot.image_size, rows=shown.size, cols=shown.size, letters=self._teach()
        )
        reading = reader.read(shot.image, previous=history(before))
        with self._lock:
            self._frame = shot.image
            self._read = compare(shown, reading)
            self.frames += 1
        if self.on_read is not None:
            self.on_read()
        return reading

    # ------------------------------------------------------------------ the public side
    def sync(self, game: Game[Any]) -> None:
        """Film the table again when the game changed by other means than a filmed play
        (a turn typed in, an undo, a ruling), so the view always shows the table as it is."""
        if isinstance(game, Upwords):
            key: tuple[str, object] = ("upwords", game.board.text())
            if key != self._filmed:
                self._filmed = key
                self.film(game.board)
        elif isinstance(game, WordOnTheStreet):
            positions = game.positions()
            key = ("street", tuple(sorted(positions.items())))
            if key != self._filmed:
                self._filmed = key
                self.film_street(positions)

    def film_street(self, positions: dict[str, int]) -> None:
        """Photograph Word on the Street with the tiles where the game has them, and read it."""

        def job() -> None:
            from vision.street import StreetReader
            from vision.synthetic.render import render_street

            shot = render_street(positions, seed=sum(abs(p) for p in positions.values()))
            reading = StreetReader(shot.corners, shot.image_size).read(shot.image)
            with self._lock:
                self._frame = shot.image
                self._street = compare_street(positions, reading)
                self.frames += 1
            if self.on_read is not None:
                self.on_read()

        self._jobs.put(job)

    def view_of(self, game: Game[Any]) -> CameraRead | StreetRead | None:
        """The newest read of this game's table (None before the first, or for another game)."""
        if game.name == "upwords":
            return self.latest()
        if game.name == "word-on-the-street":
            return self.latest_street()
        return None

    def latest_street(self) -> StreetRead | None:
        with self._lock:
            return self._street

    def film(self, board: Board) -> None:
        """Photograph the board as it stands (a new game, an undo)."""
        self._jobs.put(lambda: self._shoot(board, board, seed=board.tile_count()))

    def see_play(
        self,
        before: Board,
        tiles: Iterable[Mapping[str, Any]],
        done: Callable[[PlayReading], object],
        hand: bool = False,
    ) -> None:
        """The players put ``tiles`` on ``before``: photograph, read, and call ``done(play_reading)``.

        ``hand`` films it with an arm still reaching over the board.

        ``play_reading`` is ``games.upwords_read.PlayReading``: ``.ok`` and ``.event()``, or
        ``.problems`` naming the cells the camera is not sure of.
        """
        from games.upwords_board import Placement

        placements = [Placement(int(t["row"]), int(t["col"]), str(t["letter"])) for t in tiles]

        self._filmed = ("upwords", before.place(placements).text())

        def job() -> None:
            from vision.upwords_reader import play_from_reading

            after = before.place(placements)
            reading = self._shoot(after, before, seed=after.tile_count(), hand=hand)
            done(play_from_reading(before, reading))

        self._jobs.put(job)

    def latest_image(self) -> np.ndarray | None:
        """The newest photo (a BGR numpy array) or None."""
        with self._lock:
            return self._frame

    def latest(self) -> CameraRead | None:
        """The newest read of the board, or None before the first one."""
        with self._lock:
            return self._read

    def close(self, wait: float = 10.0) -> None:
        """Let the worker finish the job in hand and stop, waiting up to ``wait`` seconds for it.

        Why wait: the worker is a daemon thread, and a process that exits while it is inside
        OpenCV can abort on the way out ("terminate called without an active exception": a
        kiosk test that stopped the app mid-read failed so). A photo and its read take well
        under a second; teaching the letters, the longest job, a few."""
        self._jobs.put(None)
        if self._worker.is_alive() and self._worker is not threading.current_thread():
            self._worker.join(wait)

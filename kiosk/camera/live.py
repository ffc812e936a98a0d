"""The table's camera in the kiosk: frames to steady readings on a worker thread, never the UI's.

The parts are vision's and calibration's: the source the settings name (``[camera]
source``: the Pi camera, a USB camera, a recording) behind ``vision.camera.ResilientCamera``
(a lost camera is a status, not a crash, and comes back by itself), the calibration file
(where the board is, which letters were taught), the board reader of the calibrated game,
and ``vision.stability.BoardWatcher`` (a reading counts only once the board has been still,
with no hand over it, for a moment, and three reads agree).

The kiosk knows the board better than any photo: it is what the players entered or
confirmed. :meth:`LiveCamera.sync` hands it to the watcher as the last accepted reading,
so stack heights come from history and only a real change is reported. A reported change
is never scored by itself: the app turns it into a proposal the players check.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.base import Game
from games.upwords import Upwords
from games.word_on_the_street import WordOnTheStreet
from kiosk.camera.view import CameraRead, StreetRead, compare, compare_street, history
from kiosk.files import paths

if TYPE_CHECKING:
    import numpy as np

    from calibration.camera_hold import CameraHold
    from calibration.file import Calibration
    from games.upwords_read import PlayReading
    from kiosk.camera.held_light import HeldLight
    from kiosk.camera.thickness import ThicknessFromPlays
    from kiosk.files.settings import Settings
    from vision.appearance import BoardAppearance
    from vision.camera import ResilientCamera
    from vision.camera_sources import CameraSource
    from vision.readers import BoardReader
    from vision.reading import StreetReading
    from vision.stability import BoardWatcher, FrameRead, Reading
    from vision.street import StreetReader
    from vision.upwords_reader import UpwordsReader

log = logging.getLogger(__name__)

#: Calibration kinds and the game each one reads.
GAMES = {"upwords": "upwords", "wots": "word-on-the-street"}


class LiveCamera:
    """Reads the calibrated board from the camera on a worker thread; ``view_of(game)`` for the screen.

    ``on_read`` (set by the app) is called from the worker thread after a new steady reading,
    a change of the camera's status, or of :attr:`waiting_on_hand`; the app hands it to the UI
    thread.
    """

    #: Seconds a still picture is waited on as a hand over the board before the players are
    #: asked (a hand rarely holds that still; a change of light the checks took for one does).
    ASK_AFTER = 3.0

    def __init__(
        self, camera: ResilientCamera, watcher: BoardWatcher, game: str, period: float = 0.1,
        held: HeldLight | None = None, thickness: ThicknessFromPlays | None = None,
    ) -> None:
        self.camera = camera
        self.watcher = watcher
        self.game = game
        self.period = period
        #: Keeps the camera's held controls right when the room's light changes for good.
        self.held = held
        #: Measures the set's tile thickness from confirmed boards where calibration could not.
        self.thickness = thickness
        self.on_read: Callable[[], object] | None = None
        #: The dictionary's words once the word list has loaded, else None (set by the app): a
        #: street turn the camera is sure of is believed when a word makes its moves.
        self.words: Callable[[], Iterable[str] | None] | None = None
        self._street_cache: tuple[StreetReading, object, StreetRead] | None = None
        #: The calibrated board's reader (what ``watcher`` reads with), once opened.
        self.reader: BoardReader | None = None
        self._lock = threading.Lock()
        self._reading: Reading | None = None
        self._frame: np.ndarray | None = None
        self._status = "starting"
        self._synced: str | None = None
        self._stop = threading.Event()
        self._say_clear = threading.Event()  # the players said nothing is over the board
        self._waiting = False
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, settings: Settings) -> tuple[LiveCamera | None, str]:
        """The camera the settings and the calibration describe, or None and why (in plain words).

        Never raises and never waits more than :data:`~kiosk.camera.lane.OPEN_DEADLINE`: any
        failure of the camera stack (an import that fails with a ValueError because picamera2
        was built for another numpy, a driver error, an import or ``Picamera2()`` that never
        returns) becomes "Camera unavailable: <reason> ... Fix: ..." (``kiosk.camera.faults``);
        one that hangs is "Camera unavailable: did not answer (...)".
        """
        from kiosk.camera.faults import sentence
        from kiosk.camera.lane import DidNotAnswer

        try:
            return cls._open(settings)
        except DidNotAnswer as exc:  # said in full by the lane already: no traceback to add
            log.error("the camera could not be opened: %s", exc)
            return None, sentence(exc)
        except Exception as exc:
            log.exception("the camera could not be opened")
            return None, sentence(exc)

    @classmethod
    def _open(cls, settings: Settings) -> tuple[LiveCamera | None, str]:
        source = str(settings.section("camera").get("source", "auto"))
        if source.strip().lower() == "none":
            return None, ""
        from calibration.file import CalibrationError, load_calibration
        from kiosk.camera.faults import TimedSource, explain
        from kiosk.camera.lane import CAPTURE
        from kiosk.camera.opening import open_in_time
        from vision.camera import CameraLost, ResilientCamera

        cal_path = paths.calibration_file()
        try:
            cal = load_calibration(cal_path)
        except CalibrationError as exc:
            return None, f"No camera ({exc}): the kiosk runs by touch."
        if cal.kind not in GAMES:
            return None, f"The camera is calibrated for a {cal.kind} board, which the kiosk does not read."
        first = open_in_time(source, cal.image_size)  # an import or Picamera2() that hangs: DidNotAnswer
        if first.source is None:
            return None, (
                f"Camera unavailable: {first.reason}. The kiosk referees by touch. Fix: connect the "
                f"camera (ribbon cable or USB), then run tablekeeper doctor."
            )
        try:
            reader, watcher, appearance = _reader_and_watcher(cal, cal_path)
        except Exception as exc:
            first.source.close()
            why = f"the board reader could not start ({exc})"
            return None, f"Camera unavailable: {why}. The kiosk referees by touch."
        kept: list[HeldLight] = []  # the keeper, once the camera it steers is made

        def hold_now() -> CameraHold | None:  # what a camera opened again is put on
            return kept[0].hold if kept else cal.camera_hold

        _hold(first.source, hold_now())
        opened = [first.source]

        def factory() -> CameraSource:  # the source already open first, then a fresh one after a loss
            if opened:
                return TimedSource(opened.pop(), lost=CameraLost)
            if CAPTURE.stuck:  # the lost camera's last picture request still hangs: leave it alone
                raise CameraLost(f"did not answer ({CAPTURE.stuck} is still stuck; no new try while it is)")
            try:
                fresh = open_in_time(source, cal.image_size).require()
                _hold(fresh, hold_now())
            except CameraLost:
                raise
            except Exception as exc:  # whatever a driver raises: a lost camera, never a dead thread
                raise CameraLost(explain(exc)[0]) from exc
            return TimedSource(fresh, lost=CameraLost)  # a read that hangs becomes a lost camera

        camera = ResilientCamera(factory, clock=time.monotonic)
        held = _held_light(cal, cal_path, reader, appearance, camera.apply_hold)
        kept.extend([held] if held is not None else [])
        live = cls(camera, watcher, GAMES[cal.kind], held=held, thickness=_thickness(cal, cal_path, reader))
        live.reader = reader
        return live, ""

    def start(self) -> None:
        self._thread.start()

    # ------------------------------------------------------------------ the worker
    def _run(self) -> None:
        while not self._stop.is_set():
            frame = self.camera.read()
            status = self.camera.status
            changed = status != self._status
            self._status = status
            if frame is None:
                with self._lock:  # no picture, no question about it
                    changed |= self._waiting
                    self._waiting = False
                if changed:
                    self._tell()
                self._stop.wait(0.5)
                continue
            try:
                self._take_as_clear(frame)
                reading = self.watcher.feed(frame, time.monotonic())
            except Exception:  # a bad frame must not stop the camera
                log.exception("reading a camera frame")
                reading = None
            self._keep_light(frame)
            self._learn_thickness(frame)
            state = self.watcher.last_state
            # still, and not steady all that while: a hand seen on every frame, or now and then
            waiting = state is not None and not state.steady and state.quiet >= self.ASK_AFTER
            changed |= waiting != self._waiting
            with self._lock:
                self._frame = frame
                self._waiting = waiting
                if reading is not None:
                    self._reading = reading
            if reading is not None or changed:
                self._tell()
            self._stop.wait(self.period)

    def _take_as_clear(self, frame: np.ndarray) -> None:
        """The players' word that nothing is over the board, on the first frame after they gave it."""
        if not self._say_clear.is_set():
            return
        self._say_clear.clear()
        if self.watcher.gate.take_as_clear(frame):
            log.info("the players say nothing is over the board: this picture is the clear one")
        else:
            log.info("the players say nothing is over the board, but the picture moves: still waiting")

    def _keep_light(self, frame: np.ndarray) -> None:
        """Let the held controls follow a lasting change of the room's light (steady pictures only:
        a hand, or tiles going down, is no change of light)."""
        state = self.watcher.last_state
        if self.held is None or state is None or not state.steady:
            return
        try:
            self.held.look(frame, time.monotonic())
        except Exception:  # measuring or steering failed: the camera keeps what it holds
            log.exception("keeping the camera's held controls")

    def _learn_thickness(self, frame: np.ndarray) -> None:
        """Measure the set's thickness on a steady picture of the board the players confirmed last
        (here, between two reads: the reader's geometry changes with it)."""
        state = self.watcher.last_state
        if self.thickness is None or state is None or not state.steady:
            return
        try:
            self.thickness.look(frame)
        except Exception:  # a measure that fails leaves the reader as it was
            log.exception("measuring the set's tile thickness")

    def _tell(self) -> None:
        if self.on_read is not None:
            self.on_read()

    # ------------------------------------------------------------------ the UI side
    @property
    def status(self) -> str:
        """'ok', or 'lost: <why>' (the banner says it; the game goes on by touch)."""
        return self._status

    @property
    def waiting_on_hand(self) -> bool:
        """Whether the camera has waited :attr:`ASK_AFTER` seconds on a still picture it has taken
        for a hand over the board, on every frame or now and then (the screen then asks the
        players; :meth:`say_clear`)."""
        with self._lock:
            return self._waiting

    def say_clear(self) -> None:
        """The players say nothing is over the board: the next frame, if the picture is still, is
        taken as clear (:meth:`vision.stability.SteadinessGate.take_as_clear`). The question is
        off the screen at once; the camera asks again after another still wait if it still sees a
        hand (the picture moved, say)."""
        with self._lock:
            self._waiting = False
        self._say_clear.set()

    def sync(self, game: Game[Any]) -> None:
        """The game's own board (or street) is the history the next reading is compared with."""
        if game.name != self.game:
            return
        if isinstance(game, WordOnTheStreet):
            self._sync_street(game)
            return
        if not isinstance(game, Upwords):
            return
        key = game.board.text()
        if key != self._synced:
            self._synced = key
            with self._lock:
                self.watcher.accepted = history(game.board)
                self._reading = None
            if self.thickness is not None:
                heights = game.board.heights()
                self.thickness.confirmed({(r, c): h for r, row in enumerate(heights)
                                          for c, h in enumerate(row) if h})

    def _sync_street(self, game: WordOnTheStreet) -> None:
        """The game's street as the watcher's accepted street, once the camera has read one: the
        next turn is read against it. Before the first reading the watcher reads the whole street
        as soon as it is steady (an accepted street would wait for a change), and the reading on
        screen stays: it shows the street, which the game now agrees with or the players check."""
        from vision.reading import StreetReading

        key = repr(sorted(game.positions().items()))
        with self._lock:
            if key == self._synced or self.watcher.accepted is None:
                return
            self._synced = key
            self.watcher.accepted = StreetReading.from_positions(game.positions())

    def view_of(self, game: Game[Any]) -> CameraRead | StreetRead | None:
        if game.name != self.game:
            return None
        with self._lock:
            reading = self._reading
        if reading is None:
            return None
        from vision.reading import BoardReading, StreetReading

        if isinstance(game, Upwords) and isinstance(reading, BoardReading):
            return compare(game.board, reading)
        if isinstance(game, WordOnTheStreet) and isinstance(reading, StreetReading):
            return self._street_view(game, reading)
        return None

    def _street_view(self, game: WordOnTheStreet, reading: StreetReading) -> StreetRead:
        """The street as read against the game's, once per reading and turn: with the dictionary
        the rules may scan the word list (about half a second on a large list)."""
        words = self.words() if self.words is not None else None
        if words is None:  # no word list (yet): nothing to scan, nothing to keep
            return compare_street(game.positions(), reading, game.state.on_street)
        turn = (tuple(sorted(game.positions().items())), game.state.on_street)
        cached = self._street_cache
        if cached is not None and cached[0] is reading and cached[1] == turn:
            return cached[2]
        view = compare_street(game.positions(), reading, game.state.on_street, words)
        self._street_cache = (reading, turn, view)
        return view

    def proposal(self, game: Game[Any]) -> PlayReading | None:
        """The play the newest reading shows on the game's board (``PlayReading``), or None."""
        if not isinstance(game, Upwords) or game.name != self.game:
            return None
        with self._lock:
            reading = self._reading
        from vision.reading import BoardReading

        if not isinstance(reading, BoardReading):
            return None
        from vision.upwords_reader import play_from_reading

        return play_from_reading(game.board, reading)

    def latest_image(self) -> np.ndarray | None:
        with self._lock:
            return self._frame

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self.camera.close()


def _hold(source: CameraSource, hold: CameraHold | None) -> None:
    """Put the camera on the exposure, white balance and focus held at calibration (or steered
    since), so its pictures stay comparable with the board's learnt look. A camera that refuses is
    still used (the reader copes with light that changes), and the reason is logged."""
    apply = getattr(source, "apply_hold", None)
    if hold is None or apply is None:
        return
    try:
        if not apply(hold):
            log.info("the %s does not take the calibration's held %s controls", source.describe(),
                     hold.driver)
    except Exception as exc:  # a driver's refusal, of whatever kind: automatic controls stay on
        log.warning("could not hold the camera's controls at calibration's values: %s", exc)


def _held_light(cal: Calibration, cal_path: Path, reader: BoardReader, appearance: BoardAppearance | None,
                apply: Callable[[CameraHold], bool]) -> HeldLight | None:
    """The keeper of the held controls, measuring the light on the board's surround against the
    calibration picture; None without held controls or a learnt picture to compare with."""
    if appearance is None or appearance.scene is None:
        return None
    from kiosk.camera.held_light import held_light
    from vision.arms import surround_light

    scene = appearance.scene

    def measure(frame: np.ndarray) -> np.ndarray | None:
        light = surround_light(frame, reader.corners, reader.rows, reader.cols, scene)
        return None if light is None else light.gains

    return held_light(cal, cal_path, measure, apply)


def _thickness(cal: Calibration, cal_path: Path, reader: BoardReader) -> ThicknessFromPlays | None:
    """The measure of the set's thickness from the game, where an Upwords calibration has none."""
    from vision.upwords_reader import UpwordsReader

    if cal.kind != "upwords" or cal.tile_height or not isinstance(reader, UpwordsReader):
        return None
    from kiosk.camera.thickness import ThicknessFromPlays

    return ThicknessFromPlays(cal_path, reader)


def stacks_read(reader: UpwordsReader) -> FrameRead:
    """How the watcher reads an Upwords board: every cell, with the last accepted board as history.

    Why every cell and not only those the steadiness gate saw change: the gate compares grey
    levels, and a tile as light as the board's square beneath it changes them too little (a
    filmed game, ``bench stream``, offered a play without such a tile). A full read of an 8x8 is
    about 20 ms, made only when the board has settled into a new state."""
    from vision.reading import StreetReading

    def read(frame: np.ndarray, previous: Reading | None, _changed: frozenset[tuple[int, int]] | None,
             *, hand_free: bool = False) -> Reading:
        # An Upwords watcher only ever accepts the Upwords reader's board readings.
        assert not isinstance(previous, StreetReading)
        return reader.read(frame, previous=previous, hand_free=hand_free)

    return read


def street_read(reader: StreetReader) -> FrameRead:
    """How the watcher reads the street: every column, with the last accepted street (the game's,
    once synced) as history, so a tile the game had on the median may be kept there where the
    picture alone doubts it (:mod:`vision.median_kept`)."""
    from vision.reading import StreetReading

    def read(frame: np.ndarray, previous: Reading | None, _changed: frozenset[tuple[int, int]] | None,
             *, hand_free: bool = False) -> Reading:
        return reader.read(frame, previous=previous if isinstance(previous, StreetReading) else None,
                           hand_free=hand_free)

    return read


def _reader_and_watcher(cal: Calibration, cal_path: Path
                        ) -> tuple[BoardReader, BoardWatcher, BoardAppearance | None]:
    """The calibrated game's reader (with the taught letters, if any), its steadiness watcher and
    the board's learnt look."""
    import numpy as np

    from vision.stability import BoardWatcher, SteadinessGate
    from vision.stillness import stillness_beyond_decision, stillness_decision
    from vision.upwords_reader import UpwordsReader

    letters = None
    letters_path = cal.letters_path(cal_path)
    if letters_path is not None and letters_path.exists():
        from vision.letters import LetterClassifier, LetterReader

        letters = LetterReader(LetterClassifier.load(letters_path), 0.5)
    from vision.board_look import load_appearance, reader_for

    corners = np.array(cal.corners, np.float64)
    matrix = None if cal.lens is None else np.array(cal.lens.camera_matrix, np.float64)
    # A damaged board.npz is a CalibrationError in plain words: the camera is then "unavailable"
    # with that reason, and the kiosk referees by touch.
    appearance = load_appearance(cal, cal_path)
    reader = reader_for(cal, corners, cal.image_size, letters=letters,
                        appearance=appearance, camera_matrix=matrix)
    from vision.street import StreetReader

    if isinstance(reader, UpwordsReader):
        read = stacks_read(reader)
    else:  # the kiosk reads the two games GAMES names
        assert isinstance(reader, StreetReader)
        read = street_read(reader)

    hands = None
    if appearance is not None and appearance.scene is not None:
        from vision.hands import hand_over_board

        def hands(frame: np.ndarray) -> bool:
            return hand_over_board(frame, reader.corners, reader.rows, reader.cols, appearance)
    gate = SteadinessGate(lambda f: reader.planes.warp(f, cal.rows, cal.cols, 16), cal.rows, cal.cols,
                          hand_over_board=hands, stillness=None if hands is None else stillness_decision(),
                          corners=reader.corners,
                          stillness_beyond=None if hands is None else stillness_beyond_decision())
    return reader, BoardWatcher(gate, read), appearance

"""Find the board: where the playing area is in the camera's picture, saved as the calibration.

Opened from Settings. It shows the kiosk's own camera picture (the live camera, the demo's
filmed table, or, when no camera reader runs yet — there is none before the first
calibration — one photo taken from the camera the settings name). As soon as there is a
picture it **finds the board by itself** (``vision.board_setup.locate_board``: the corner
markers when all four show, else the board's own grid lines, on a worker thread) and draws
the outline it found for the players to check; when it cannot, it says so and offers two ways:

* **Use the corner markers**: ``calibration.markers.find_board`` on the picture; a hidden
  marker is named in the banner (``MarkersNotFound``) and nothing changes.
* **Tap the four corners** of the playing area in order top-left, top-right, bottom-right,
  bottom-left; each tap is drawn as a numbered dot, **Start over** clears them.

**Save** builds the calibration with ``calibrate board``'s own helper
(:func:`vision.board_setup.board_calibration`: taught letters are kept) for the board
chosen (the current game's by default) and writes it atomically. Impossible corners (swapped,
three in a line) are refused in plain words and the old file is kept. The camera reader
reads the new calibration the next time the kiosk starts.
"""

from __future__ import annotations

import datetime
import logging
import threading
from dataclasses import replace
from typing import Any, ClassVar

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line
from kivy.uix.boxlayout import BoxLayout

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Text
from kiosk.app.widgets.boards import PhotoView
from kiosk.files import paths

log = logging.getLogger(__name__)

CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")
#: The boards the kiosk reads: (calibration kind, rows, cols, what the button says).
BOARDS: tuple[tuple[str, int, int, str], ...] = (
    ("upwords", 8, 8, "Upwords 8x8"),
    ("upwords", 10, 10, "Upwords 10x10"),
    ("wots", 5, 17, "Word on the Street 5x17"),
)


class CornerPicker(PhotoView):
    """The camera picture, fitted; taps on it become corners in the picture's own pixels."""

    DOT: ClassVar[float] = 10.0

    def __init__(self, on_tap: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tid = "calibrate.picture"
        self.corners: list[tuple[float, float]] = []
        self._on_tap = on_tap

    def shown(self) -> tuple[float, float, float, float] | None:
        """Where the picture is drawn in the window: (left, bottom, width, height), or None."""
        if self.data is None:
            return None
        width, height = self.data
        scale = min(self.width / width, self.height / height)
        w, h = width * scale, height * scale
        return self.center_x - w / 2, self.center_y - h / 2, w, h

    def to_image(self, x: float, y: float) -> tuple[float, float] | None:
        """A window point as picture pixels (origin top-left, y down); None off the picture."""
        rect = self.shown()
        if rect is None:
            return None
        left, bottom, w, h = rect
        if not (left <= x <= left + w and bottom <= y <= bottom + h):
            return None
        width, height = self.data
        return (x - left) * width / w, (bottom + h - y) * height / h

    def image_to_window(self, px: float, py: float) -> tuple[float, float]:
        """Picture pixels back to a window point (where a corner's dot is drawn)."""
        left, bottom, w, h = self.shown() or (0.0, 0.0, 1.0, 1.0)
        width, height = self.data or (1, 1)
        return left + px * w / width, bottom + h - py * h / height

    def set_corners(self, corners: list[tuple[float, float]]) -> None:
        self.corners = list(corners)
        self.redraw()

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return bool(super().on_touch_down(touch))
        point = self.to_image(*touch.pos)
        self._on_tap(point)
        return True

    def paint(self, data: tuple[int, int]) -> None:
        super().paint(data)
        points = [self.image_to_window(x, y) for x, y in self.corners]
        if len(points) > 1:
            Color(*theme.ACCENT)
            flat = [v for p in points for v in p]
            if len(points) == 4:
                flat += list(points[0])
            Line(points=flat, width=2)
        for i, (x, y) in enumerate(points):
            Color(*theme.BAD)
            Ellipse(pos=(x - self.DOT, y - self.DOT), size=(2 * self.DOT, 2 * self.DOT))
            self.letter(str(i + 1), x + 2 * self.DOT, y + 2 * self.DOT, theme.SMALL, theme.ACCENT)


class CalibrateScreen(KioskScreen):
    screen_name = "calibrate"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.back_to = "settings"
        self.board = 0
        self.frame: Any = None
        self._poll: Any = None
        self._photo_busy = False
        self._hold: Any = None  # the camera's controls held when this screen took its photo
        self._no_picture = False
        self._auto = "idle"  # the automatic finder: "idle", "busy", "done"
        self.body.add_widget(
            self.title_bar(
                "Find the board",
                BigButton("Back", tid="calibrate.back", on_tap=self.back),
                BigButton("Save", tid="calibrate.save", on_tap=self.save, accent=True),
            )
        )
        row = BoxLayout(spacing=theme.GAP)
        self.picture = CornerPicker(self.tapped, size_hint_x=0.66)
        row.add_widget(self.picture)
        side = BoxLayout(orientation="vertical", spacing=theme.GAP, size_hint_x=0.34)
        self.prompt = Text("", size=theme.BODY, halign="left")
        self.prompt.tid = "calibrate.prompt"
        side.add_widget(self.prompt)
        self.kind_button = BigButton("", tid="calibrate.board", on_tap=self.next_board)
        self.kind_button.size_hint_y, self.kind_button.height = None, theme.TOUCH
        side.add_widget(self.kind_button)
        for text, tid, tap in (
            ("Use the corner markers", "calibrate.markers", self.use_markers),
            ("Start over", "calibrate.clear", self.start_over),
        ):
            button = BigButton(text, tid=tid, on_tap=tap)
            button.size_hint_y, button.height = None, theme.TOUCH
            side.add_widget(button)
        row.add_widget(side)
        self.body.add_widget(row)

    # ------------------------------------------------------------------ showing
    def prepare(self, back: str = "settings", **_context: Any) -> None:
        self.back_to = back
        self._no_picture = False
        self._auto = "idle"
        self.board = self._default_board()
        self.kind_button.text = BOARDS[self.board][3]
        self.picture.set_corners([])
        self._refresh()
        if self._poll is None:  # the live camera's picture keeps coming while the screen is up
            self._poll = Clock.schedule_interval(lambda _dt: self._refresh(), 0.5)

    def on_leave(self, *_args: Any) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None

    def _default_board(self) -> int:
        """The board of the game on the table; else the one calibrated before; else Upwords 8x8."""
        game = self.session.game
        if game is not None and game.name == "word-on-the-street":
            return 2
        if game is not None and game.name == "upwords":
            return 1 if getattr(game.board, "size", 8) == 10 else 0
        from calibration.file import CalibrationError, load_calibration

        try:
            cal = load_calibration(paths.calibration_file())
        except CalibrationError:
            return 0
        for i, (kind, rows, cols, _label) in enumerate(BOARDS):
            if (kind, rows, cols) == (cal.kind, cal.rows, cal.cols):
                return i
        return 0

    def _refresh(self) -> None:
        """Show the camera's newest picture; ask for one when there is none yet."""
        camera = self.app.camera
        image = camera.latest_image() if camera is not None and hasattr(camera, "latest_image") else None
        if image is None:
            self._ask_for_picture(camera)
        else:
            self.frame = image
            self.picture.set(image)
            self._auto_find()
        self._say()

    def _ask_for_picture(self, camera: Any) -> None:
        if camera is not None and hasattr(camera, "film"):
            # The demo's camera films on request: the table as the game has it, or an empty board.
            game = self.session.game
            if (
                game is not None
                and hasattr(camera, "sync")
                and game.name in ("upwords", "word-on-the-street")
            ):
                camera.sync(game)
            elif not self._photo_busy:
                from games.upwords_board import Board

                self._photo_busy = True
                camera.film(Board.empty(8))
            return
        if camera is None and not self._photo_busy:
            self._photo_busy = True
            # Not a daemon: the interpreter waits for the photo (a few frames) before it exits,
            # so OpenCV's capture is never torn down mid-read (that aborts the process).
            threading.Thread(target=self._take_photo, name="calibrate-photo", daemon=False).start()

    def _take_photo(self) -> None:
        """No camera reader runs (none does before the first calibration): one photo, off the UI thread."""
        source = str(self.app.settings.section("camera").get("source", "auto"))
        try:
            from kiosk.camera.opening import open_in_time

            choice = open_in_time(source)  # a camera stack that hangs: "did not answer", not a stuck screen
            if choice.source is None:
                raise RuntimeError(choice.reason)
            from vision.camera_controls import settled_photo

            with choice.source as cam:
                frame, self._hold = settled_photo(cam)
        except Exception as exc:  # any camera failure is a sentence for the players, not a crash
            log.info("no calibration photo: %s", exc)
            message = f"No camera picture ({exc}): check the camera in Settings."
            Clock.schedule_once(lambda _dt: self._no_photo(message), 0)
            return
        Clock.schedule_once(lambda _dt: self._photo(frame), 0)

    def _photo(self, frame: Any) -> None:
        self._photo_busy = False
        if frame is not None:
            self.frame = frame
            self.picture.set(frame)
            self._auto_find()
            self._say()

    def _no_photo(self, message: str) -> None:
        self._no_picture = True
        self.app.warn(message)
        self._say()
        if self._poll is not None:  # stop asking every half second; Back and in again retries
            self._poll.cancel()
            self._poll = None
        self._photo_busy = False

    # ------------------------------------------------------------------ finding it by itself
    def _auto_find(self) -> None:
        """Once per visit, on the first picture: markers, else grid lines, off the UI thread."""
        if self._auto != "idle" or self.frame is None or self.picture.corners:
            return
        self._auto = "busy"
        kind, rows, cols, _label = BOARDS[self.board]
        frame = self.frame
        threading.Thread(target=self._find_worker, args=(frame, kind, rows, cols), name="calibrate-find",
                         daemon=True).start()

    def _find_worker(self, frame: Any, kind: str, rows: int, cols: int) -> None:
        try:
            from vision.board_setup import locate_board

            corners, how = locate_board(frame, kind, rows, cols)
        except Exception as exc:  # CalibrationError in words; anything else must not crash the kiosk
            log.info("the board was not found by itself: %s", exc)
            message = str(exc)
            Clock.schedule_once(lambda _dt: self._not_found(message), 0)
            return
        Clock.schedule_once(lambda _dt: self._found(list(corners), how), 0)

    def _found(self, corners: list[tuple[float, float]], how: str) -> None:
        self._auto = "done"
        if self.picture.corners:  # the players started tapping meanwhile: their taps win
            return
        self.picture.set_corners(corners)
        self._say()
        by = "by the corner markers" if "markers" in how else "by its grid lines"
        self.app.warn(f"Found the board {by}: check the outline, then Save.", "info")

    def _not_found(self, message: str) -> None:
        self._auto = "done"
        self._say()
        short = message.split(";")[0]
        self.app.warn(f"The board was not found by itself ({short}): tap its four corners.", "info")

    def _say(self) -> None:
        taps = len(self.picture.corners)
        status = str(getattr(self.app.camera, "status", "ok"))
        if self.frame is None and status.startswith("lost"):
            self.prompt.text = f"The camera is lost ({status[5:].strip()}): check its cable."
        elif self.frame is None and self._no_picture:
            self.prompt.text = "No camera picture. Check the camera, then Back and Find the board again."
        elif self.frame is None:
            self.prompt.text = "Waiting for the camera's picture..."
        elif self._auto == "busy" and taps == 0:
            self.prompt.text = "Looking for the board in the picture..."
        elif taps < 4:
            self.prompt.text = f"Tap the playing area's {CORNERS[taps]} corner ({taps + 1} of 4)."
        else:
            self.prompt.text = ("All four corners: tap Save (or Start over). Save with the board as "
                                "before play, so the camera learns its look.")

    # ------------------------------------------------------------------ actions
    def tapped(self, point: tuple[float, float] | None) -> None:
        if self.frame is None:
            return
        if point is None:
            self.app.warn("Tap on the picture itself, at the board's corner.", "info")
            return
        if len(self.picture.corners) >= 4:
            self.app.warn("Four corners are in: tap Save, or Start over.", "info")
            return
        self.picture.set_corners([*self.picture.corners, point])
        self._say()

    def start_over(self) -> None:
        self.picture.set_corners([])
        self._say()

    def next_board(self) -> None:
        self.board = (self.board + 1) % len(BOARDS)
        self.kind_button.text = BOARDS[self.board][3]

    def use_markers(self) -> None:
        """The four printed markers find the corners; a hidden one is named and nothing changes."""
        if self.frame is None:
            self.app.warn("There is no camera picture yet.")
            return
        from calibration.file import CalibrationError
        from calibration.markers import find_board

        try:
            corners = find_board(self.frame)
        except CalibrationError as exc:
            self.app.warn(f"The markers did not find the board: {exc}.")
            return
        self.picture.set_corners([(float(x), float(y)) for x, y in corners])
        self._say()
        self.app.warn("The markers found the board: check the outline, then Save.", "info")

    @staticmethod
    def _held_before(out: Any) -> Any:
        """The camera's held controls of the calibration being replaced: a running camera already
        holds them, so the picture on the screen was taken under them."""
        from calibration.file import CalibrationError, load_calibration

        try:
            return load_calibration(out).camera_hold
        except (CalibrationError, OSError):
            return None

    def save(self) -> None:
        from calibration.file import CalibrationError, save_calibration
        from vision.board_setup import board_calibration

        corners = self.picture.corners
        if self.frame is None or len(corners) < 4:
            self.app.warn(f"Tap all four corners first ({len(corners)} of 4 so far); nothing was saved.")
            return
        kind, rows, cols, label = BOARDS[self.board]
        height, width = self.frame.shape[:2]
        out = paths.calibration_file()
        try:
            cal = board_calibration(kind, rows, cols, corners, (width, height), out)
            cal = replace(cal, camera_hold=self._hold or self._held_before(out))
            save_calibration(cal, out)
        except CalibrationError as exc:
            self.app.warn(f"Not saved: {exc}.")
            return
        learnt = self._learn_look(cal, out)
        self.app.warn(f"{label} saved{learnt}. The camera reads it from the next start of the kiosk.", "info")
        self.back()

    def _learn_look(self, cal: Any, out: Any) -> str:
        """Learn the board's look from the same picture (the board as before play), so the reader
        compares each square with this board's own, not with fixed rules; a picture with a hand
        over the board, or any failure, leaves the calibration saved without it."""
        from calibration.file import CalibrationError
        from vision.appearance import board_warp
        from vision.board_setup import learn_board_look
        from vision.hands import hand_cells

        try:
            warped = board_warp(self.frame, cal.corners_for(self.frame.shape[1], self.frame.shape[0]),
                                cal.rows, cal.cols)
            if (hand_cells(warped, cal.rows, cal.cols, None) > 0.08).any():
                return " (a hand was over the board: its look was not learnt; Save again without it)"
            learn_board_look(cal, self.frame, out)
        except (CalibrationError, ValueError, OSError) as exc:
            return f" (its look was not learnt: {exc})"
        return " with its look"

    def back(self) -> None:
        self.app.go(self.back_to, keep=True)


def calibration_status() -> str:
    """One line for the calibration row: the board, its grid and when it was found, or why not."""
    from calibration.file import CalibrationError, load_calibration

    path = paths.calibration_file()
    if not path.exists():
        return "none yet"
    try:
        cal = load_calibration(path)
    except CalibrationError as exc:
        return str(exc)
    names = {"upwords": "Upwords", "wots": "Word on the Street", "grid": "grid"}
    when = datetime.datetime.fromtimestamp(path.stat().st_mtime).strftime("%d %b %Y %H:%M")
    return f"{names.get(cal.kind, cal.kind)} {cal.rows}x{cal.cols}, found {when}"

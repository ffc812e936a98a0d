"""The Kivy app: a banner over a stack of screens, all driven by one :class:`Session`.

The parts are built by :func:`kiosk.app.wiring.build_app` (the composition root); the app holds
them — the session (game, log, word authority), the turn timer, the optional camera, the
demo — and runs the systemd heartbeat. Screens get the app and call ``app.session`` /
``app.timer``; nothing else changes the game.

Import this module only after ``kiosk.cli.kiosk`` has set Kivy's environment.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import ScreenManager

from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import Banner
from kiosk.app.widgets.still import PlainScreenManager
from kiosk.files.settings import Settings
from kiosk.play.session import Session

if TYPE_CHECKING:
    from kiosk.app.demo import Demo
    from kiosk.camera.demo import DemoCamera
    from kiosk.camera.live import LiveCamera
    from kiosk.club.publish.publisher import Publisher
    from kiosk.play.category_table import CategoryTable
    from kiosk.play.speaker import Speaker
    from kiosk.play.turn_timer import TurnTimer

log = logging.getLogger(__name__)


def _notify() -> Any:
    """kiosk.app.systemd_notify, or None where it is missing (then the kiosk runs without it)."""
    try:
        from kiosk.app import systemd_notify
    except ImportError:
        return None
    return systemd_notify


class TableKeeperApp(App):
    """The kiosk's window. ``screenshots``: a folder where each screen is saved when first shown."""

    title = "tablekeeper"

    def __init__(
        self,
        session: Session,
        settings: Settings,
        timer: TurnTimer,
        *,
        camera: DemoCamera | LiveCamera | None = None,
        demo: Demo | None = None,
        speaker: Speaker | None = None,
        screenshots: Path | None = None,
        on_started: Callable[[TableKeeperApp], Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.settings = settings
        self.timer = timer
        self.camera = camera
        self.demo = demo
        #: The audio output (kiosk.play.speaker.Speaker): cues without a buzzer, the optional voice.
        self.speaker = speaker
        self.screenshots = screenshots
        self._on_started = on_started
        self.banner: Banner | None = None
        self.manager: ScreenManager | None = None
        self.screens: dict[str, Any] = {}
        self._deck: CategoryTable | None = None
        self._shot: set[str] = set()
        self._camera_status = "ok"
        #: Makes a word-list loader from settings (``kiosk.app.wiring.authority_loader``), so
        #: that a new choice of dictionary in the Settings takes effect at once.
        self.words_loader: Callable[[Settings], Any] | None = None
        self._words = settings.section("words")
        #: A play the camera saw, waiting for the players to check it in turn entry.
        self.camera_prefill: dict[str, Any] | None = None
        #: Club night's publisher (``kiosk.club.publish.publisher``), or None when it is off.
        self.club: Publisher | None = None
        #: The category card of the turn that just ended (the vote screen shows it).
        self.played_category = ""

    # ------------------------------------------------------------------ building
    def build(self) -> FloatLayout:
        from kiosk.app.screens import build_screens

        # The background is the window's clear colour, not a rectangle: under software GL a
        # full-window rectangle costs as much to paint on every redraw as the clear and the
        # flip together (bench kiosk).
        Window.clearcolor = theme.BG
        root = FloatLayout()
        # The banner takes a strip at the top of the window and the screen below it is laid out
        # in what is left, so a message never covers a button (a tap meant for a button only
        # ever reaches that button); information fades by itself, a problem stays until it is
        # tapped or its screen is left.
        self.banner = Banner(pos_hint={"x": 0, "top": 1})
        self.manager = PlainScreenManager(size_hint=(1, None), pos_hint={"x": 0, "y": 0})

        def below_banner(*_: Any) -> None:
            assert self.manager is not None and self.banner is not None
            self.manager.height = max(1, root.height - self.banner.height)

        root.bind(size=below_banner)
        self.banner.bind(height=below_banner)
        for screen in build_screens(self):
            self.screens[screen.name] = screen
            self.manager.add_widget(screen)
        root.add_widget(self.manager)
        root.add_widget(self.banner)
        for problem in self.settings.problems:
            self.warn(problem)
        return root

    def on_start(self) -> None:
        if self.demo is not None:
            self.demo.deliver = lambda f: Clock.schedule_once(lambda _dt: f(), 0)
            self.demo.report = self._demo_report
        if self.camera is not None:
            # Reads arrive on the camera's thread; the screen is redrawn on the UI thread.
            self.camera.on_read = lambda: Clock.schedule_once(lambda _dt: self._camera_read(), 0)
            if hasattr(self.camera, "words"):
                self.camera.words = self._dictionary_words
            if hasattr(self.camera, "start"):
                self.camera.start()
        resumed = self.session.resume()
        for problem in self._take_problems():
            self.warn(problem)
        self.go("game" if resumed else "start")
        if self.timer is not None and self.timer.problem:
            self.warn(self.timer.problem, "info")
        Clock.schedule_once(self._ready, 0)
        threading.Thread(target=self._warm_authority, name="word-list", daemon=True).start()
        notify = _notify()
        interval = notify.watchdog_interval() if notify else None
        if interval:
            Clock.schedule_interval(lambda _dt: notify.watchdog_ping(), max(0.5, interval / 2))

    def _demo_report(self, message: str, prefill: dict[str, Any] | None = None) -> None:
        """The demo camera's verdict on a play: scored (news), or entry filled in to confirm."""
        if prefill is None:
            self.screens["game"].after_turn()
            self.news(message)
            if self.manager is not None and self.manager.current == "game":
                self.screens["game"].refresh()
            return
        self.go("entry", prefill=prefill)
        self.warn(message, "info")

    def _camera_read(self) -> None:
        """A new steady reading (or a camera lost or found), on the UI thread."""
        status = getattr(self.camera, "status", "ok")
        if status != self._camera_status:
            if status.startswith("lost"):
                self.warn(f"The camera is lost ({status[5:].strip()}): the game goes on by touch.")
            elif self._camera_status.startswith("lost"):
                self.warn("The camera is back.", "info")
            self._camera_status = status
        self._camera_proposal()
        if self.manager is not None and self.manager.current == "game":
            self.screens["game"].refresh()

    def _camera_proposal(self) -> None:
        """A play the camera sees is offered, never scored: Turn opens it filled in to check."""
        game = self.session.game
        proposal = getattr(self.camera, "proposal", None)
        if game is None or proposal is None:
            return
        play = proposal(game)
        if play is None or (not play.tiles and not play.problems):
            return
        if not play.ok:
            self.news(f"The camera is not sure of {len(play.problems)} square(s): enter the play by touch.")
            return
        after, why = self.session.try_event(play.event())
        if after is None:
            self.news(f"The camera sees a play the rules refuse ({why}): check the board.")
            return
        from kiosk.play.playbook import upwords_prefill

        self.camera_prefill = upwords_prefill(after)
        if self.camera_prefill is not None:
            self.news(
                f"The camera sees {self.camera_prefill['word']}: tap Turn to check it, Done to score it."
            )

    def take_camera_prefill(self) -> dict[str, Any] | None:
        prefill, self.camera_prefill = self.camera_prefill, None
        return prefill

    def _ready(self, _dt: float) -> None:
        notify = _notify()
        if notify is not None:
            notify.notify_ready()
        if self._on_started is not None:
            self._on_started(self)

    def _dictionary_words(self) -> Iterable[str] | None:
        """The word list's ordinary words, once it has loaded (never waits for it)."""
        from games.wots_moves import dictionary_words

        lexicon = getattr(self.session.loaded_authority(), "lexicon", None)
        return None if lexicon is None else dictionary_words(lexicon)

    def _warm_authority(self) -> None:
        """Load the word list off the UI thread so the first challenge is instant."""
        self.session.warm_up()
        Clock.schedule_once(lambda _dt: self.show_problems(), 0)

    def on_stop(self) -> None:
        """Ring and buzzer off, camera released, the game log closed (every event is already on disk)."""
        if self.timer is not None:
            self.timer.close()
        if self.camera is not None:
            self.camera.close()
        if self.demo is not None:
            self.demo.close()
        self.session.log.close()

    # ------------------------------------------------------------------ helpers for screens
    def go(self, name: str, **context: Any) -> None:
        """Show a screen; it refreshes itself from the session before it is drawn."""
        screen = self.screens[name]
        assert self.manager is not None
        if self.banner is not None and name != self.manager.current:
            # A problem belongs to the screen it was raised on: leaving that screen puts it
            # away (it is in the journal). One raised on the way here comes along.
            self.banner.leave(self.manager.current, name)
        if hasattr(screen, "prepare"):
            screen.prepare(**context)
        self.manager.current = name
        self.show_problems()
        if self.screenshots is not None and name not in self._shot:
            self._shot.add(name)
            self._shoot_when_shown(name)

    def _shoot_when_shown(self, name: str, patience: float = 15.0) -> None:
        """Save ``first-<name>.png`` once the screen is laid out, its transition over and a
        frame drawn with it, so the picture is what a person saw.

        A fixed delay is not enough: on a busy machine the first screen's delay can end before
        Kivy's first layout pass, and the picture is of widgets at their 100x100 defaults. After
        ``patience`` seconds the picture is taken anyway (a screen that never settles is worth
        seeing too)."""
        waited = 0.0
        frames_seen = Clock.frames_displayed

        def look(dt: float) -> bool:
            nonlocal waited, frames_seen
            waited += dt
            assert self.manager is not None and self.root is not None
            screen = self.screens[name]
            if self.manager.current != name:
                self._shot.discard(name)  # left before it settled: its next showing is pictured
                return False
            settled = (self.manager.current_screen is screen
                       and not self.manager.transition.is_active
                       and tuple(screen.size) == tuple(self.manager.size)
                       and tuple(self.root.size) == tuple(Window.size))
            if not settled:
                frames_seen = Clock.frames_displayed
            if waited >= patience or (settled and Clock.frames_displayed - frames_seen >= 2):
                self.screenshot(f"first-{name}")
                return False
            return True

        Clock.schedule_interval(look, 0.1)

    def news(self, message: str) -> None:
        """What the last action did, on the game screen's news line (not a banner)."""
        self.screens["game"].show_news(message)

    def warn(self, message: str, level: str = "error") -> None:
        """A banner on screen, and the same words in the journal (a person reading the log
        later sees what the players saw)."""
        if message:
            log.log(logging.WARNING if level == "error" else logging.INFO, "banner: %s", message)
        if self.banner is not None and message:
            self.banner.show(message, level, self.manager.current if self.manager is not None else "")

    def show_problems(self) -> None:
        for problem in self._take_problems():
            self.warn(problem)

    def _take_problems(self) -> list[str]:
        problems, self.session.problems[:] = list(self.session.problems), []
        return problems

    def apply_settings(self) -> None:
        """New settings from the settings screen: the timer's warning, ticks and sound, and a
        new choice of dictionary (loaded off the UI thread, as at start)."""
        words = self.settings.section("words")
        if self.words_loader is not None and words != self._words:
            self._words = words
            self.session.use_words(self.words_loader(self.settings))
            threading.Thread(target=self._warm_authority, name="word-list", daemon=True).start()
        if self.timer is not None and hasattr(self.timer, "configure"):
            self.timer.configure(self.settings.section("timer"))
        if self.speaker is not None:
            self.speaker.muted = bool(self.settings.section("timer").get("mute", False))
            self.speaker.voice = bool(self.settings.section("sound").get("voice", False))

    def _apply_mute(self, muted: bool) -> None:
        """The buzzer and the voice silenced (or not); the turn's timer keeps its time."""
        if self.timer is not None and hasattr(self.timer, "set_mute"):
            self.timer.set_mute(muted)
        if self.speaker is not None:
            self.speaker.muted = muted

    def say(self, text: str) -> None:
        """Speak a ruling when the voice is on (Settings; off by default)."""
        if self.speaker is not None:
            self.speaker.say(text)

    def toggle_mute(self) -> bool:
        """Sound off or on with one tap (kept in the settings file); returns True when muted."""
        from kiosk.files import settings as settings_file

        muted = not bool(self.settings.section("timer").get("mute", False))
        self.settings.set("timer", "mute", muted)
        self._apply_mute(muted)
        try:
            settings_file.save(self.settings)
        except OSError as exc:
            self.warn(f"Sound {'off' if muted else 'on'} until the kiosk restarts: {exc.strerror or exc}.")
        return muted

    # ------------------------------------------------------------------ the category deck
    def current_category(self) -> str:
        """The Word on the Street category on the table this turn ("" when none drawn)."""
        table = self._open_deck(quiet=True)
        return table.current if table is not None else ""

    def draw_category(self) -> None:
        """Draw the turn's category from the kiosk's own deck (its place is kept on disk)."""
        table = self._open_deck()
        if table is None:
            return
        try:
            table.draw()
        except OSError as exc:
            self.warn(f"No card was drawn: the deck could not be saved ({exc.strerror or exc}).")
        except Exception as exc:
            self.warn(f"No category could be drawn: {exc}")

    def turn_over(self) -> None:
        """The card goes to the back of the tray when the turn ends."""
        table = self._open_deck(quiet=True)
        if table is not None:
            if table.current:  # a vote on the word just played is about this card
                self.played_category = table.current
            table.put_back()

    def _open_deck(self, quiet: bool = False) -> CategoryTable | None:
        level = str(self.settings.section("kiosk").get("category_level", "green"))
        if self._deck is None or self._deck.level != level:
            try:
                from kiosk.files import paths
                from kiosk.play.category_table import CategoryTable

                self._deck = CategoryTable(paths.data_dir() / "category-deck.json", level)
            except Exception as exc:
                if not quiet:
                    self.warn(f"The category deck could not be opened ({exc}): draw a card from the box.")
                return None
        return self._deck

    def screenshot(self, name: str) -> Path | None:
        """Save the window as ``<screenshots>/<name>.png`` (used by tests and ``--screenshots``)."""
        if self.screenshots is None:
            return None
        self.screenshots.mkdir(parents=True, exist_ok=True)
        path = self.screenshots / f"{name}.png"
        # Rendered from the widget tree (not read back from the screen), so it is exactly
        # the screen as laid out now, whatever the display server's buffers hold. The window's
        # background is its clear colour, which a rendering of the tree does not have: it is
        # painted under the tree for the picture only.
        from kivy.graphics import Color, Rectangle

        background = (Color(*theme.BG), Rectangle(pos=self.root.pos, size=self.root.size))
        for instruction in background:
            self.root.canvas.before.add(instruction)
        try:
            self.root.export_to_png(str(path))
        finally:
            for instruction in background:
                self.root.canvas.before.remove(instruction)
        return path

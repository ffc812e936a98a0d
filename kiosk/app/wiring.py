"""The composition root: build the kiosk's parts from the settings and hand them to the app.

Each outside thing has one small adapter with a real default and a plain-words problem
when it is missing — the game log (SQLite), the word authority (the word list), the table
timer (gpiozero pins, mock off the Pi), the camera (a replay of rendered frames in demo
mode). Nothing here may stop the kiosk from starting: a missing part becomes a banner.

Kivy must already be configured (``kiosk.cli.kiosk.prepare_environment``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.files import settings as settings_file
from kiosk.play.session import Session

if TYPE_CHECKING:
    from games.words import WordAuthority
    from hardware.table_timer import TimerView
    from kiosk.app.kiosk_app import TableKeeperApp
    from kiosk.camera.demo import DemoCamera
    from kiosk.camera.live import LiveCamera
    from kiosk.club.publish.publisher import Publisher
    from kiosk.gamelog.contract import Log
    from kiosk.gamelog.store import GameLog
    from kiosk.play.speaker import Speaker
    from kiosk.play.turn_timer import TurnTimer

log = logging.getLogger(__name__)


def open_log(problems: list[str]) -> GameLog:
    """The game log in the data directory; if it cannot be written (read-only, full, not a
    folder), a copy in a scratch folder, and say so (``kiosk.gamelog.fallback``)."""
    from kiosk.gamelog.fallback import open_game_log

    return open_game_log(problems)


def authority_loader(settings: settings_file.Settings) -> Callable[[], WordAuthority]:
    """A function that loads the word authority (slow: run it off the UI thread).

    It raises what the loaders raise (no word list, a damaged house-words file); the session
    turns that into a banner and goes on refereeing by the players' word.
    """
    from games.word_lists import DEFAULT_SIZE
    from games.words import WordAuthority
    from kiosk.files.cache_folder import CacheFolder
    from kiosk.files.house_file import open_house_words

    section = settings.section("words")

    def load() -> WordAuthority:
        return WordAuthority.load(
            size=int(section.get("size", DEFAULT_SIZE)),
            variant=str(section.get("variant", "both")),
            plurals=str(section.get("plurals", "any")),
            dict_dir=Path(section.get("dict_dir") or "/usr/share/dict/scowl"),
            house=open_house_words(),
            cache=CacheFolder(),
        ).warm()  # off the UI thread: then the first challenge reads no more files

    return load


def open_timer(settings: settings_file.Settings, demo: bool) -> TurnTimer:
    """The table timer (``hardware.build.open_table_timer``) behind a :class:`TurnTimer`.

    Off the Pi, and always in demo mode, its parts sit on gpiozero's mock pins and the ring
    is drawn on screen only; a bad ``[hardware]`` section falls back to the defaults.
    """
    from games.countdown import Countdown
    from kiosk.play.turn_timer import TurnTimer, warning_seconds

    section = settings.section("timer")
    warning = warning_seconds(section)  # checked when read; never a countdown that cannot start
    ticks = bool(section.get("ticks", True))
    countdown = Countdown(30.0, warning=warning, tick_seconds=5 if ticks else 0)
    notes: list[str] = []
    try:
        from hardware.build import open_table_timer
        from hardware.config import HardwareConfig, HardwareConfigError
        from hardware.pins import FactoryChoice, mock_factory
        from hardware.sounds import SoundSettings

        try:
            config = HardwareConfig.from_section(settings.section("hardware"))
        except HardwareConfigError as exc:
            notes.extend(exc.problems)
            config = HardwareConfig()
        choice = FactoryChoice(mock_factory(), "demo mode: gpiozero's mock pins") if demo else None
        sounds = SoundSettings(mute=bool(section.get("mute", False)), ticks=ticks)
        table = open_table_timer(config, countdown, sounds=sounds, choice=choice)
        notes.extend(table.notes)
    except Exception as exc:  # no GPIO parts at all: the countdown still runs on screen
        log.exception("no table timer hardware")
        from hardware.table_timer import TableTimer

        table = TableTimer(countdown)
        notes.append(f"the timer hardware is not available ({exc}); the timer runs on screen only")
    log.info("table timer: %s", "; ".join(notes))
    problem = _timer_problem(notes)
    timer = TurnTimer(table, warning=warning, ticks=ticks, problem=problem)
    timer.start()
    return timer


def open_speaker(settings: settings_file.Settings, timer: TurnTimer) -> Speaker:
    """The audio output (``kiosk.play.speaker``): the timer's cues when no buzzer is heard, the
    optional voice. The cue WAVs are made now, in the data folder."""
    from kiosk.files import paths
    from kiosk.play.speaker import Speaker

    speaker = Speaker(
        paths.data_dir() / "sounds",
        voice=bool(settings.section("sound").get("voice", False)),
        muted=bool(settings.section("timer").get("mute", False)),
    )
    table = timer.table
    # No buzzer a person hears (none fitted, or one on gpiozero's mock pins — demo mode, a
    # laptop): the cues go to the audio output instead, so the timer is never silent.
    if not getattr(table.sounder, "heard", False):

        def play(view: TimerView) -> None:  # on the timer's thread; aplay runs on its own
            for cue in view.cues:
                speaker.cue(cue.kind.value)
                if cue.kind.value == "warning":
                    speaker.say(f"{round(cue.remaining)} seconds")

        table.add_listener(play)
    return speaker


def _timer_problem(notes: list[str]) -> str:
    """One sentence for the players: nothing on a working Pi, a plain note on mock pins."""
    if all(n.startswith("pins: GPIO of this") for n in notes):
        return ""
    if any("mock pins" in n for n in notes):
        return "No Raspberry Pi parts here: the timer's LED ring is drawn on screen (mock GPIO pins)."
    return "Timer: " + "; ".join(notes)


def is_demo(flag: bool | None) -> bool:
    if flag is not None:
        return flag
    try:
        from hardware.pins import is_raspberry_pi
    except ImportError:
        return True
    return not is_raspberry_pi()


def build_app(
    *,
    demo: bool | None = None,
    screenshots: Path | None = None,
    on_started: Callable[[TableKeeperApp], object] | None = None,
) -> TableKeeperApp:
    """The whole kiosk, ready to ``run()``."""
    from kiosk.app.demo import Demo
    from kiosk.app.kiosk_app import TableKeeperApp

    settings = settings_file.load()
    problems: list[str] = []
    store = open_log(problems)
    club, game_log = open_club(settings, store, problems)
    session = Session(game_log, authority_loader(settings))
    if session.authority is None:
        problems.append("The word list is not installed: challenges are ruled by hand.")
    session.problems.extend(problems)
    demo_mode = is_demo(demo)
    timer = open_timer(settings, demo_mode)
    speaker = open_speaker(settings, timer)
    demo_script = Demo.create(session) if demo_mode else None
    camera: DemoCamera | LiveCamera | None = demo_script.camera if demo_script is not None else None
    if not demo_mode:
        from kiosk.camera.live import LiveCamera

        camera, problem = LiveCamera.open(settings)
        if problem:
            session.problems.append(problem)
    app = TableKeeperApp(
        session,
        settings,
        timer,
        camera=camera,
        demo=demo_script,
        speaker=speaker,
        screenshots=screenshots,
        on_started=on_started,
    )
    app.club = club
    app.words_loader = authority_loader
    return app


def open_club(
    settings: settings_file.Settings, store: Log, problems: list[str]
) -> tuple[Publisher | None, Log]:
    """Club night (``[club]``): (the publisher, the log the session writes through), or (None, store).

    Without a ``[club] host`` nothing is imported or opened: no socket at all.
    """
    section = settings.section("club")
    if not section.get("host"):
        return None, store
    from kiosk.club.publish.config import keep_private
    from kiosk.club.publish.publisher import ClubLog, start_club

    if section.get("password"):
        note = keep_private(settings.path)
        if note:
            problems.append(note)
    publisher, problem = start_club(section, store)
    if problem:
        problems.append(problem)
    return publisher, (store if publisher is None else ClubLog(store, publisher))

"""``tablekeeper kiosk``: the touchscreen app (demo mode when there is no Pi hardware).

Kivy reads its settings from the environment when it is first imported, so this module
sets them (no command-line parsing by Kivy, its home in the data directory, an 800x480
window) before anything imports Kivy; ``KCFG_*`` variables a person set win.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
from pathlib import Path

from kiosk.cli.usage import UsageError

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--demo",
        action="store_true",
        help="demo mode even on a Pi: mock GPIO, a replayed camera, a scripted game to step through",
    )
    parser.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help="keep the game log, settings and Kivy files here (default: the data directory)",
    )
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen (the Pi's kiosk mode)")
    parser.add_argument(
        "--screenshots",
        type=Path,
        metavar="DIR",
        help="save a screenshot of each screen as it is first shown",
    )


def prepare_environment(data: Path, fullscreen: bool = False) -> None:
    """Set Kivy's environment before Kivy is imported (a no-op for keys already set, except a
    ``KIVY_HOME`` that cannot be written: see ``kiosk.app.kivy_home``)."""
    from kiosk.app import kivy_home as home

    kivy_home = home.choose(data)
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_HOME", str(kivy_home))
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KCFG_GRAPHICS_WIDTH", "800")
    os.environ.setdefault("KCFG_GRAPHICS_HEIGHT", "480")
    os.environ.setdefault("KCFG_GRAPHICS_RESIZABLE", "0")
    os.environ.setdefault("KCFG_KIVY_EXIT_ON_ESCAPE", "0")
    # Few main-loop turns a second (Kivy's default is 60): nothing on the kiosk moves faster
    # than the timer's digits (once a second), and each turn of the loop, even drawing
    # nothing, costs CPU (about 0.05 % of a core per turn a second here). Kivy sleeps a little
    # short of the cap, so 15 gives about 20 turns a second: a tap is seen within 50 ms.
    # From 30 to 15 saved about 0.8 % of a core with the timer running (bench kiosk).
    os.environ.setdefault("KCFG_GRAPHICS_MAXFPS", "15")
    os.environ.setdefault("KCFG_INPUT_MOUSE", "mouse,disable_multitouch")
    if fullscreen:
        os.environ.setdefault("KCFG_GRAPHICS_FULLSCREEN", "auto")


def run(args: argparse.Namespace) -> int:
    data = args.data
    if data is not None:
        if data.exists() and not data.is_dir():
            raise UsageError(f"--data {data} is a file, not a folder")
        os.environ["TABLEKEEPER_DATA"] = str(data)
        os.environ.setdefault("TABLEKEEPER_CONFIG", str(data / "tablekeeper.toml"))
    from kiosk.files import paths

    data = paths.data_dir()
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # never a crash loop: the kiosk starts and the banner says why
        log.error("cannot use %s for the kiosk's files: %s", data, exc.strerror or exc)
    prepare_environment(data, args.fullscreen)
    from kiosk.app.wiring import build_app

    app = build_app(demo=args.demo or None, screenshots=args.screenshots)
    _stop_on_sigterm(app)
    app.run()
    return 0


def _stop_on_sigterm(app: object) -> None:
    """systemd stops the kiosk with SIGTERM: leave the main loop cleanly, so the timer's ring
    and buzzer are switched off and the log closed (``App.on_stop``) instead of dying mid-beep."""
    from kivy.clock import Clock

    def stop(_signum: int, _frame: object) -> None:
        try:
            from kiosk.app import systemd_notify

            systemd_notify.notify_stopping()
        except ImportError:
            pass
        Clock.schedule_once(lambda _dt: app.stop(), 0)  # type: ignore[attr-defined]

    signal.signal(signal.SIGTERM, stop)

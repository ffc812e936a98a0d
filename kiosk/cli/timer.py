"""``tablekeeper timer [SECONDS]``: the table timer on its own, without the touchscreen.

It drives the LED ring and the buzzer on a Pi (mock pins elsewhere) and shows a live
countdown in the terminal everywhere: the ring's LEDs, a bar and the seconds. The keyboard
is the button — space starts, pauses and resumes, ``r`` resets, ``+``/``-`` add or take
10 seconds, ``q`` quits — read in cbreak mode when standard input is a terminal (restored
on exit). When it is not a terminal the countdown simply runs once. Ctrl-C always leaves
the ring and the buzzer off.

The length given is remembered in the settings file (per game with ``--game``).
"""

from __future__ import annotations

import argparse
import math
import os
import select
import signal
import sys
import termios
import time
import tty
from dataclasses import replace
from typing import TextIO

from games.countdown import Countdown, CountdownError, Phase
from hardware.config import HardwareConfig, HardwareConfigError
from hardware.table_timer import TableTimer, TimerView
from kiosk.cli.usage import UsageError
from kiosk.files.settings import Settings

KEYS_HELP = "space start/pause · r reset · +/- 10 s · q quit"
LABELS = {
    Phase.IDLE: "ready",
    Phase.RUNNING: "running",
    Phase.WARNING: "hurry!",
    Phase.PAUSED: "paused",
    Phase.EXPIRED: "TIME'S UP",
}
REFRESH = 0.1  # seconds between terminal redraws
CORRECTION = 10.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "seconds",
        nargs="?",
        metavar="SECONDS",
        help="turn length: seconds (45) or minutes:seconds (1:30); default: the last one used",
    )
    parser.add_argument("--game", help="use (and remember) this game's turn length, e.g. wordspiel")
    parser.add_argument("--warning", type=float, metavar="S", help="warn this many seconds before the end")
    parser.add_argument("--no-ticks", action="store_true", help="no tick on each of the last 5 seconds")
    parser.add_argument("--mute", action="store_true", help="no sound at all (the ring still runs)")
    parser.add_argument("--mock", action="store_true", help="use mock pins even on a Pi (screen only)")


def run(args: argparse.Namespace) -> int:
    from kiosk.files import settings as settings_file
    from kiosk.files.timer_settings import parse_seconds, remember_seconds, turn_seconds

    settings = settings_file.load()
    for problem in settings.problems:
        print(f"note: {problem}", file=sys.stderr)
    game = _game_name(args.game, UsageError)
    try:
        seconds = parse_seconds(args.seconds) if args.seconds is not None else turn_seconds(settings, game)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    section = settings.section("timer")
    warning = args.warning if args.warning is not None else section.get("warning", 10)
    if isinstance(warning, bool) or not isinstance(warning, int | float) or not 0 <= warning < 3600:
        where = "" if args.warning is not None else f" (timer.warning in {settings.path})"
        raise UsageError(f"the warning must be 0 or more seconds, not {warning!r}{where}")
    config = _hardware_config(settings, mock=args.mock, usage_error=UsageError)
    try:
        remembered = args.seconds is not None and remember_seconds(settings, seconds, game)
    except ValueError as exc:  # runs, but is not written where the kiosk would refuse it
        print(f"note: {seconds:g} s is not remembered: {exc}", file=sys.stderr)
        remembered = False
    if remembered:
        try:
            settings_file.save(settings)
        except OSError as exc:
            print(
                f"note: could not remember {seconds:g} s in {settings.path}: {exc.strerror}", file=sys.stderr
            )

    from hardware.build import open_table_timer
    from hardware.sounds import SoundSettings

    sounds = SoundSettings(
        mute=args.mute or bool(section.get("mute")),
        ticks=not args.no_ticks and bool(section.get("ticks", True)),
    )
    countdown = Countdown(seconds, warning=float(warning))
    out = sys.stdout
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        with open_table_timer(config, countdown, sounds=sounds) as timer:
            for note in timer.notes:
                print(f"note: {note}", file=sys.stderr)
            timer.start_thread()
            if sys.stdin.isatty():
                return _interactive(timer, out)
            return _run_once(timer, out)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # unwinds through the `with`: ring and buzzer off


def _game_name(name: str | None, usage_error: type[Exception]) -> str | None:
    if name is None:
        return None
    from games.registry import canonical_name

    try:
        return canonical_name(name)
    except KeyError as exc:
        raise usage_error(exc.args[0]) from None


def _hardware_config(settings: Settings, *, mock: bool, usage_error: type[Exception]) -> HardwareConfig:
    try:
        config = HardwareConfig.from_section(settings.section("hardware"))
    except HardwareConfigError as exc:
        raise usage_error(f"{exc}\n(in {settings.path})") from None
    return replace(config, pin_factory="mock") if mock else config


# ---------------------------------------------------------------------------- the terminal
def render(view: TimerView, *, colour: bool, unicode: bool = True, width: int = 30) -> str:
    """One line: the ring's LEDs, a bar of the time left, the seconds and the phase."""
    lit_dot, dark_dot, full, empty = ("●", "·", "█", "░") if unicode else ("o", ".", "#", "-")
    dots = []
    for (r, g, b), level in zip(view.frame.pixels(), view.frame.levels, strict=True):
        if level <= 0:
            dots.append(dark_dot)
        elif colour:
            dots.append(f"\x1b[38;2;{r};{g};{b}m{lit_dot}\x1b[0m")
        else:
            dots.append(lit_dot)
    fraction = view.countdown.fraction(view.now)
    filled = round(fraction * width)
    shown = math.ceil(view.remaining * 10 - 1e-9) / 10  # 0.0 only when time is really up
    return (
        f"{''.join(dots)}  [{full * filled}{empty * (width - filled)}] {shown:6.1f} s  {LABELS[view.phase]}"
    )


class _Screen:
    """Redraws one status line in place on a terminal; prints whole seconds elsewhere."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.tty = out.isatty()
        self.unicode = (getattr(out, "encoding", "") or "").lower().replace("-", "").startswith("utf")
        self.colour = self.tty and os.environ.get("NO_COLOR") is None and os.environ.get("TERM") != "dumb"
        self._last: tuple[Phase, int] | None = None

    def draw(self, view: TimerView) -> None:
        line = render(view, colour=self.colour, unicode=self.unicode)
        if self.tty:
            self.out.write(f"\r{line}\x1b[K")
        else:
            key = (view.phase, math.ceil(view.remaining))
            if key == self._last:
                return
            self._last = key
            self.out.write(line + "\n")
        self.out.flush()

    def say(self, text: str) -> None:
        if self.tty:
            self.out.write("\r\x1b[K")
        self.out.write(text + "\n")
        self.out.flush()


def _interactive(timer: TableTimer, out: TextIO) -> int:
    screen = _Screen(out)
    screen.say(f"tablekeeper timer — {KEYS_HELP}")
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        while True:
            ready, _, _ = select.select([fd], [], [], REFRESH)
            if ready:
                data = os.read(fd, 64)
                if not data:  # the terminal went away
                    return 0
                for key in data.decode(errors="ignore"):
                    if key in "qQ":
                        screen.draw(timer.view())
                        return 0  # the last line stays on screen
                    message = _key(timer, key)
                    if message:
                        screen.say(message)
            screen.draw(timer.view())
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        if screen.tty:
            out.write("\n")
            out.flush()


def _key(timer: TableTimer, key: str) -> str:
    """Act on one key; return a message to print, if any."""
    try:
        if key == " ":
            timer.toggle()
        elif key in "rR":
            timer.reset()
        elif key in "+=":
            timer.adjust(CORRECTION)
        elif key in "-_":
            timer.adjust(-CORRECTION)
    except CountdownError as exc:
        return f"({exc})"
    return ""


def _run_once(timer: TableTimer, out: TextIO) -> int:
    """Standard input is not a terminal: start, count down to zero, let the last beep finish."""
    screen = _Screen(out)
    timer.start()
    while (view := timer.view()).phase is not Phase.EXPIRED:
        screen.draw(view)
        time.sleep(min(REFRESH, max(view.remaining, 0.001)))
    screen.draw(timer.view())
    deadline = time.monotonic() + 3.0
    while timer.sounder.sounding and time.monotonic() < deadline:
        time.sleep(0.02)
    screen.say("Time's up.")
    return 0

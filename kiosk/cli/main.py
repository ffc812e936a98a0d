"""``tablekeeper`` — the command line.

Each sub-command lives in its own module under ``kiosk/cli/`` and is imported only
when it is used, so ``tablekeeper check`` never pays for loading Kivy or OpenCV.
Exit status: 0 success (or LEGAL), 1 a negative answer or failure the user should know
about (ILLEGAL, a bad transcript), 2 bad usage — always with a message, never a traceback.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from importlib import import_module

from kiosk.cli.usage import UsageError

#: sub-command -> (module under kiosk.cli, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "kiosk": ("kiosk", "start the touchscreen kiosk (demo mode when there is no Pi hardware)"),
    "check": ("check", "rule on a word for one of the five games"),
    "words": ("words", "list words that fit a Tosswords draw or continue a WordSpiel spiral"),
    "house": ("house", "add or strike a house word"),
    "replay": ("replay", "play a transcript through its engine and print the scores"),
    "timer": ("timer", "run the table timer on its own (ring, buzzer, terminal countdown)"),
    "read": ("read", "read a board from a photo and print what the camera sees"),
    "calibrate": ("calibrate", "find the board, print markers, teach the letter reader"),
    "doctor": ("doctor", "check the camera, GPIO, Tesseract, word list, display and data"),
    "club": ("club", "club night: subscribe to the tables' games and serve the live standings page"),
    "club-night": ("club_night", "turn this kiosk's club night on or off (its [club] settings and network)"),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse prints usage and exits 2 — keep that, shorter
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = _Parser(prog="tablekeeper", description="A table-side referee for word games.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log more detail")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or only == name:
            import_module(f"kiosk.cli.{module}").add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    from kiosk.cli.picture_checks import corner_option_argv

    argv = corner_option_argv(argv)  # `--corners -5,3,...`: negative numbers are values, not options
    chosen = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(only=chosen if chosen in COMMANDS else "")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if args.command is None:
        parser.print_help()
        return 2
    module = import_module(f"kiosk.cli.{COMMANDS[args.command][0]}")
    try:
        return int(module.run(args) or 0)
    except UsageError as exc:
        print(f"tablekeeper {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `tablekeeper words ... | head`: the reader left, nothing is wrong
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keep interpreter shutdown from failing again
        return 0


if __name__ == "__main__":
    sys.exit(main())

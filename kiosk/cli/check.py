"""``tablekeeper check GAME WORD``: rule on a word the way the kiosk does when a player taps
"challenge" — LEGAL or ILLEGAL, the reason in plain words, and the rule it comes from.

Examples::

    tablekeeper check tosswords trance --keys C T --die 3
    tablekeeper check wordspiel unite --spiral FUN
    tablekeeper check wots Sand Dollar          # two words: ILLEGAL
    tablekeeper check upwords part-time --json

Exit status: 0 LEGAL, 1 ILLEGAL, 2 could not rule (bad usage, word list missing, damaged
house-words file) — with a message, never a traceback.
"""

from __future__ import annotations

import argparse
import json

from kiosk.cli.usage import UsageError
from kiosk.cli.word_tools import add_dictionary_arguments, load_authority

GAMES_HELP = "word-on-the-street (wots), upwords, tosswords, wordspiel or option"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "exit status: 0 LEGAL, 1 ILLEGAL, 2 could not rule (bad usage, word list missing, "
        "damaged house-words file)"
    )
    parser.add_argument("game", metavar="GAME", help=GAMES_HELP)
    parser.add_argument("word", metavar="WORD", nargs="+", help="the word (several are ruled as one phrase)")
    parser.add_argument("--keys", nargs=2, metavar=("X", "Y"), help="Tosswords: the two key tiles")
    parser.add_argument("--die", metavar="N", help="Tosswords: the die (0-10, or 'wild' for the blank)")
    parser.add_argument(
        "--extra", nargs="+", action="extend", default=[], metavar="L",
        help="Tosswords: the other tiles drawn",
    )
    parser.add_argument("--spiral", metavar="LETTERS", help="WordSpiel: the letters played so far")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_dictionary_arguments(parser)


def run(args: argparse.Namespace) -> int:

    _check_usage(args)
    authority = load_authority(args)
    try:
        ruling = authority.rule(
            args.game,
            " ".join(args.word),
            keys=args.keys,
            die=args.die,
            extras=args.extra,
            spiral=args.spiral,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        data = {**ruling.to_dict(), "verdict": ruling.verdict, "dictionary": authority.lexicon.describe()}
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(ruling.verdict)
        print(ruling.reason)
        print(f"Rule: {ruling.rule}")
    return 0 if ruling.legal else 1


def _check_usage(args: argparse.Namespace) -> None:
    """Catch the usual mistakes before loading anything, with the reason in plain words."""
    from games.registry import canonical_name

    try:
        game = canonical_name(args.game)
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from None
    draw = args.keys is not None or args.die is not None or args.extra
    if draw and game != "tosswords":
        raise UsageError(f"--keys, --die and --extra are for tosswords, not {game}")
    if args.spiral is not None and game != "wordspiel":
        raise UsageError(f"--spiral is for wordspiel, not {game}")
    if game == "tosswords" and (args.die is not None or args.extra) and args.keys is None:
        raise UsageError("--die and --extra need --keys X Y (the two key tiles)")
    if game == "tosswords" and args.keys is not None and args.die is None:
        raise UsageError("--keys needs --die N (0-10, or 'wild' for the blank face)")

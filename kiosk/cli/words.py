"""``tablekeeper words GAME``: the words that would have fitted — so after a turn that found
nothing, the table can see that a word existed.

Examples::

    tablekeeper words tosswords --keys C T --die 3            # TRANCE, COUNT, TOPIC …
    tablekeeper words tosswords --keys I K --die 2 --extra P  # PIGSKIN, INNKEEPER …
    tablekeeper words wordspiel --spiral FUN                  # NO, UNITE, FUNNY …

Words come commonest first (SCOWL's size levels). Exit status: 0 some words fit, 1 none
does, 2 bad usage or no word list.
"""

from __future__ import annotations

import argparse
import json
import shutil
import textwrap

from kiosk.cli.usage import UsageError
from kiosk.cli.word_tools import add_dictionary_arguments, load_authority

DEFAULT_LIMIT = 30


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = "exit status: 0 some words fit, 1 none does, 2 bad usage or no word list"
    parser.add_argument("game", metavar="GAME", help="tosswords or wordspiel")
    parser.add_argument("--keys", nargs=2, metavar=("X", "Y"), help="Tosswords: the two key tiles")
    parser.add_argument("--die", metavar="N", help="Tosswords: the die (0-10, or 'wild' for the blank)")
    parser.add_argument(
        "--extra",
        nargs="+",
        action="extend",
        default=[],
        metavar="L",
        help="Tosswords: the other tiles drawn",
    )
    parser.add_argument("--spiral", metavar="LETTERS", help="WordSpiel: the letters played so far")
    parser.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        metavar="N",
        help=f"show at most N words (default {DEFAULT_LIMIT}; 0 shows them all)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_dictionary_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from games.registry import canonical_name

    try:
        game = canonical_name(args.game)
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from None
    if args.limit < 0:
        raise UsageError("--limit must be 0 (all) or more")
    if game == "tosswords":
        if args.spiral is not None:
            raise UsageError("--spiral is for wordspiel, not tosswords")
        if args.keys is None or args.die is None:
            raise UsageError("tosswords needs --keys X Y and --die N (0-10, or 'wild')")
    elif game == "wordspiel":
        if args.keys is not None or args.die is not None or args.extra:
            raise UsageError("--keys, --die and --extra are for tosswords, not wordspiel")
        if args.spiral is None:
            raise UsageError("wordspiel needs --spiral LETTERS (the letters played so far)")
    else:
        raise UsageError(f"words lists fits for tosswords and wordspiel only, not {game}")

    authority = load_authority(args)
    try:
        if game == "tosswords":
            found = authority.fitting_tosswords(args.keys, args.die, args.extra)
            what = _draw_text(args)
        else:
            found = authority.spiral_continuations(args.spiral)
            what = f"continue the spiral {args.spiral.upper()}"
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    shown = found if args.limit == 0 else found[: args.limit]
    if args.json:
        data = {
            "game": game,
            "count": len(found),
            "words": shown,
            "dictionary": authority.lexicon.describe(),
        }
        if game == "tosswords":
            keys, extras = [k.upper() for k in args.keys], [e.upper() for e in args.extra]
            die = int(args.die) if str(args.die).strip().isdigit() else "wild"
            data.update(keys=keys, die=die, extras=extras)
        else:
            data.update(spiral=args.spiral.upper())
        print(json.dumps(data, ensure_ascii=False))
        return 0 if found else 1
    if not found:
        print(f"No word in the dictionary ({authority.lexicon.describe()}) would {what}.")
        return 1
    more = "" if len(shown) == len(found) else f"; the commonest {len(shown)}"
    print(f"{len(found)} word{'s' if len(found) != 1 else ''} {what}{more}:")
    width = min(shutil.get_terminal_size((80, 24)).columns, 100)
    print(textwrap.fill(" ".join(shown), width=width, break_on_hyphens=False))
    return 0


def _draw_text(args: argparse.Namespace) -> str:
    k1, k2 = (k.upper() for k in args.keys)
    die = str(args.die).strip().lower()
    if die in ("wild", "blank", "any"):
        gap = "any number of letters"
    else:
        gap = f"{die} letter{'' if die == '1' else 's'}"
    extra = f" and contain {', '.join(e.upper() for e in args.extra)}" if args.extra else ""
    return f"have {gap} between {k1} and {k2}{extra}"

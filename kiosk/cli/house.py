"""``tablekeeper house add|strike|remove|list``: the table's own words.

Examples::

    tablekeeper house add qi                    # allowed in every game
    tablekeeper house strike ok --game upwords  # struck from Upwords only
    tablekeeper house remove qi
    tablekeeper house list --json

Rulings on a house word then say "allowed by house rule" or "struck by house rule". The
list is kept in the data directory (``house-words.json``), written atomically; a damaged
file is reported and left exactly as it is. Exit status: 0 done, 1 nothing to remove,
2 bad usage or a damaged file.
"""

from __future__ import annotations

import argparse
import json

from games.house_words import HouseWords, HouseWordsError
from games.registry import canonical_name
from kiosk.cli.usage import UsageError
from kiosk.files.house_file import open_house_words

ACTIONS = ("add", "strike", "remove", "list")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = "exit status: 0 done, 1 nothing to remove, 2 bad usage or a damaged house-words file"
    parser.add_argument(
        "action", choices=ACTIONS, help="add (allow) a word, strike one, remove a rule, or list them"
    )
    parser.add_argument("word", metavar="WORD", nargs="?", help="the word (not for list)")
    parser.add_argument("--game", metavar="GAME", help="only for this game (default: all games)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    from kiosk.files import paths

    if args.action == "list":
        if args.word is not None:
            raise UsageError("house list takes no word")
    elif not args.word:
        raise UsageError(f"house {args.action} needs a WORD")
    path = paths.house_words_file()
    try:
        house = open_house_words(path)
        if args.action == "list":
            return _list(house, args)
        change = {"add": house.add, "strike": house.strike, "remove": house.remove}[args.action]
        entry = change(args.word, game=args.game)
    except HouseWordsError as exc:
        raise UsageError(str(exc)) from None
    except KeyError as exc:
        print(f"tablekeeper house: {exc.args[0]}")
        return 1
    except OSError as exc:
        problem = f"cannot write the house-words file {path}: {exc.strerror}; nothing changed"
        raise UsageError(problem) from None
    where = entry.scope()
    done = {
        "add": f"{entry.word} is now allowed by house rule in {where}",
        "strike": f"{entry.word} is now struck by house rule in {where}",
        "remove": f"removed the house rule for {entry.word} in {where}",
    }[args.action]
    if args.json:
        print(json.dumps({"action": args.action, **entry.to_dict(), "file": str(path)}, ensure_ascii=False))
    else:
        print(done)
    return 0


def _list(house: HouseWords, args: argparse.Namespace) -> int:

    entries = house.entries()
    if args.game is not None:
        try:
            game = canonical_name(args.game)
        except KeyError as exc:
            raise UsageError(str(exc.args[0])) from None
        entries = [e for e in entries if e.game in (None, game)]
    if args.json:
        print(json.dumps([e.to_dict() for e in entries], ensure_ascii=False))
        return 0
    if not entries:
        print("No house words yet. Add one with: tablekeeper house add WORD [--game GAME]")
        return 0
    width = max(len(e.word) for e in entries)
    for e in entries:
        verb = "allowed" if e.action == "allow" else "struck "
        print(f"{e.word:<{width}}  {verb}  {e.scope()}")
    return 0

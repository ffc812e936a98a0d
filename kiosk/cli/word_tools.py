"""What ``check``, ``words`` and ``house`` share: the word settings, loading the authority,
and turning the authority's errors into plain messages (exit 2, never a traceback).

Exit status for these commands follows grep: 0 yes (LEGAL, words found, done), 1 no
(ILLEGAL, nothing fits, no such house rule), 2 could not answer — bad usage, or a word list
or house-words file that is missing or damaged — always with a message saying what to do.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from games.house_words import HouseWordsError
from games.lexicon import LexiconError, LexiconMissing
from games.word_lists import DEFAULT_SIZE
from games.words import WordAuthority
from kiosk.cli.usage import UsageError


def add_dictionary_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--size", type=int, metavar="N",
        help="SCOWL size: 10, 20, 35, 40, 50, 55, 60, 70, 80 or 95 (default from settings: "
        f"{DEFAULT_SIZE}, the full dictionary; 60 is the everyday words)",
    )
    parser.add_argument(
        "--variant", metavar="NAME",
        help="spelling: both (American and British), american, british, british_z, canadian or "
        "australian (default from settings: both)",
    )
    parser.add_argument(
        "--plurals", metavar="RULE", choices=("any", "nouns"),
        help="plurals made with S: 'any' refuses them all (RUNS too), 'nouns' only those that are "
        "not also verb forms (default from settings: any)",
    )


def word_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The [words] settings, with --size/--variant on top; settings problems go to stderr."""
    from kiosk.files import settings

    loaded = settings.load()
    for problem in loaded.problems:
        print(f"tablekeeper: {problem}", file=sys.stderr)
    section = loaded.section("words")
    if getattr(args, "size", None) is not None:
        section["size"] = args.size
    if getattr(args, "variant", None) is not None:
        section["variant"] = args.variant
    if getattr(args, "plurals", None) is not None:
        section["plurals"] = args.plurals
    return section


def load_authority(args: argparse.Namespace, *, house: bool = True) -> WordAuthority:
    """The authority the settings describe, with the house words; UsageError when it cannot be."""
    from kiosk.files.cache_folder import CacheFolder
    from kiosk.files.house_file import open_house_words

    section = word_settings(args)
    try:
        return WordAuthority.load(
            size=section.get("size", DEFAULT_SIZE),
            variant=section.get("variant", "both"),
            dict_dir=section.get("dict_dir", "/usr/share/dict/scowl"),
            house=open_house_words() if house else None,
            cache=CacheFolder(),
            plurals=section.get("plurals", "any"),
        )
    except (LexiconMissing, LexiconError, HouseWordsError, ValueError) as exc:
        raise UsageError(str(exc)) from None

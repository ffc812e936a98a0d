"""What the kiosk needs to know about each game to *present* it — never its rules.

The rules live in ``games/``. This module holds the table-side words for each game: what
the sides are called, which challenge kinds the sheet has and what each one means for the
players, which word a challenge is about, and how to say an event in a line of history.
It imports no Kivy, so the session and its tests use it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.base import Game


@dataclass(frozen=True)
class ChallengeKind:
    key: str
    label: str
    #: What happens on each verdict, as the sheet says it (shown under the ruling).
    if_legal: str
    if_illegal: str


@dataclass(frozen=True)
class OptionChoice:
    key: str
    label: str
    choices: tuple[Any, ...]
    labels: tuple[str, ...]


@dataclass(frozen=True)
class Guide:
    name: str
    title: str
    side: str  # "Team" or "Player"
    #: Stand-ins until the players name themselves ("Player 1", "Team A": see
    #: :func:`placeholder_name`), never people's names such as the demo's Ann and Bob.
    default_sides: tuple[str, ...]
    score_label: str
    kinds: tuple[ChallengeKind, ...]
    challenger_named: bool = False  # Option: the challenger pays 10 when wrong
    lower_wins: bool = False
    options: tuple[OptionChoice, ...] = ()
    blurb: str = ""
    #: What one of the game's score counts, for "1 point", "6 tiles" (``wording.turn_scored``).
    unit: str = "point"


_WOTS_KINDS = (
    ChallengeKind(
        "spelling",
        "Spelling",
        "The tiles stay; the challengers lose their next turn.",
        "Tiles moved at and after the first wrong letter go back.",
    ),
    ChallengeKind(
        "compound",
        "Two words / hyphen",
        "The tiles stay; the challengers lose their next turn.",
        "Every tile of the word goes back.",
    ),
    ChallengeKind(
        "selection",
        "Fits the category?",
        "Majority accept: the tiles stay.",
        "Majority reject: the tiles go back. A tie: tiles back, new card, same team.",
    ),
)

GUIDES: dict[str, Guide] = {
    "word-on-the-street": Guide(
        "word-on-the-street",
        "Word on the Street",
        "Team",
        ("Team A", "Team B"),
        "captured",
        _WOTS_KINDS,
        unit="letter",
        blurb="Two teams pull letters off the street. First to capture 8 wins.",
    ),
    "upwords": Guide(
        "upwords",
        "Upwords",
        "Player",
        ("Player 1", "Player 2"),
        "points",
        (
            ChallengeKind(
                "word",
                "Challenge the word",
                "The play stands.",
                "The tiles come off, the points are removed; the player plays again or passes.",
            ),
        ),
        options=(OptionChoice("size", "Board", (8, 10), ("8x8", "10x10 classic")),),
        blurb="Build words and stack letters. Most points wins.",
    ),
    "tosswords": Guide(
        "tosswords",
        "Tosswords",
        "Side",
        ("Side A", "Side B"),
        "retired",
        (
            ChallengeKind(
                "word",
                "Challenge the word",
                "The tiles stay retired.",
                "The word is not allowed: its tiles go back to the pile.",
            ),
        ),
        options=(
            OptionChoice("die", "Die", ("d6", "d12"), ("d6 (0-5)", "d12 (0-10, wild)")),
            OptionChoice("steal", "Steal after timeout", (False, True), ("Off", "On")),
        ),
        unit="tile",
        blurb="Retire all 26 tiles with words that fit the die.",
    ),
    "wordspiel": Guide(
        "wordspiel",
        "WordSpiel",
        "Player",
        ("Player 1", "Player 2", "Player 3"),
        "cards",
        (
            ChallengeKind(
                "word",
                "Challenge the word",
                "The word stands.",
                "The player takes back the cards plus a penalty card.",
            ),
        ),
        lower_wins=True,
        options=(OptionChoice("rounds", "Rounds", (5, 3, 1), ("5", "3", "1")),),
        unit="card",
        blurb="Build on the end of the spiral. Lowest score after the last round wins.",
    ),
    "option": Guide(
        "option",
        "Option",
        "Player",
        ("Player 1", "Player 2"),
        "points",
        (
            ChallengeKind(
                "word",
                "Challenge the word",
                "The challenger loses 10 points.",
                "The word comes off the board and the turn is forfeited.",
            ),
        ),
        challenger_named=True,
        blurb="Two-sided prisms: one-colour words of 5+ letters score double.",
    ),
}

GAME_ORDER: tuple[str, ...] = tuple(GUIDES)

#: The event type that carries a challengeable word in each game.
_WORD_EVENTS: dict[str, str] = {
    "word-on-the-street": "word",
    "upwords": "play",
    "tosswords": "move",
    "wordspiel": "word",
    "option": "play",
}


@dataclass(frozen=True)
class Target:
    """The word a challenge is about and the event that played it."""

    word: str
    player: str
    event: dict[str, Any]


def guide(name: str) -> Guide:
    return GUIDES[name]


def event_word(game_name: str, event: Mapping[str, Any]) -> str:
    """The word an event played, or "" (a pass, a timeout, a challenge)."""
    if event.get("type") != _WORD_EVENTS.get(game_name):
        return ""
    if game_name == "option":
        words = event.get("words") or []
        return str(words[0].get("word", "")) if words else ""
    if game_name == "upwords":
        return str(event.get("word") or event.get("note") or "")
    return str(event.get("word") or "")


def target(game: Game[Any]) -> Target | None:
    """The last event if it played a word not yet challenged; else None."""
    events = game.events
    if not events:
        return None
    last = events[-1]
    word = event_word(game.name, last)
    if game.name == "upwords":
        words = upwords_words(game)
        word = words[0] if words else ""
    if not word:
        return None
    player = _mover_of_last(game)
    return Target(word.upper(), player, last)


def upwords_words(game: Game[Any]) -> list[str]:
    """The words the last Upwords play formed (any of them may be challenged), longest first."""
    state = game.state
    play = getattr(state, "last", None)
    if play is None or not getattr(state, "challengeable", False):
        return []
    return sorted((w.word for w in play.words), key=len, reverse=True)


def _mover_of_last(game: Game[Any]) -> str:
    turns = game.turns
    return turns[-1].player if turns else ""


def authority_context(game: Game[Any], tgt: Target, kind: str) -> dict[str, Any]:
    """What the word authority needs beside the word: the Tosswords draw, the WordSpiel spiral.

    Word on the Street's three kinds all ask about the word itself (spelling, one word, a
    hyphen only in a name); the authority's ruling says which, so ``kind`` adds nothing.
    """
    event = tgt.event
    context: dict[str, Any] = {}
    if game.name == "tosswords":
        keys = list(event.get("keys") or [])
        if len(keys) == 2:
            context["keys"] = tuple(keys)
            context["die"] = event.get("die")
            tiles = list(event.get("tiles") or [])
            for k in keys:
                if k in tiles:
                    tiles.remove(k)
            context["extras"] = tuple(tiles)
    elif game.name == "wordspiel":
        last = getattr(game.state, "last", None)
        before = getattr(last, "before", None)
        if before is not None:
            context["spiral"] = before.spiral
    return context


def challenge_extras(game: Game[Any], tgt: Target) -> dict[str, Any]:
    """Fields a game's challenge event carries beside the ruling (Upwords names the word)."""
    return {"word": tgt.word} if game.name == "upwords" else {}


def describe_event(event: Mapping[str, Any]) -> str:
    """One short line for an event (used by undo's message)."""
    kind = str(event.get("type", "?"))
    word = event.get("word") or event.get("note")
    if kind == "challenge":
        verdict = (event.get("ruling") or {}).get("legal")
        return (
            "the challenge ruling" if verdict is None else f"the {'LEGAL' if verdict else 'ILLEGAL'} ruling"
        )
    if kind == "play" and event.get("words"):
        word = event["words"][0].get("word")
    return f"{kind} {word}" if word else kind.replace("_", " ")


def upwords_prefill(after: Game[Any]) -> dict[str, Any] | None:
    """Turn entry's fields (word, first square, direction) for the play just applied to ``after``.

    The word is the one formed along the line of the tiles placed (the main word), as a
    player would say it; None when the play formed no word.
    """
    play = getattr(after.state, "last", None)
    if play is None or not play.words:
        return None
    placed = {p.cell for p in play.tiles}
    main = next((w for w in play.words if placed <= set(w.cells)), None) or max(
        play.words, key=lambda w: len(w.cells)
    )
    (row, col), down = main.cells[0], len(main.cells) > 1 and main.cells[1][0] > main.cells[0][0]
    return {"word": main.word, "row": row, "col": col, "down": down}


def placeholder_name(name: str) -> bool:
    """'Team A', 'Player 2', 'Side B': the start screen's stand-ins, not names people typed."""
    import re

    return re.fullmatch(r"(Team|Player|Side) ([A-Z]|\d{1,2})", name.strip()) is not None


@dataclass(frozen=True)
class TimeUp:
    """What the sheet makes of a turn whose time ran out. ``event``: the move the kiosk records
    at once (the turn passes); None when the player has a choice to make first, which turn
    entry asks for under ``title`` (WordSpiel's draw: keep it or put it on the spiral)."""

    event: dict[str, Any] | None
    hint: str
    title: str = ""


def time_up(game: Game[Any]) -> TimeUp:
    """The turn's time ran out: Word on the Street's team has no word (step 4: the turn is
    over), Tosswords' side times out (its tiles go back), WordSpiel's player draws (rule H);
    Upwords and Option, whose sheets have no timer, pass (docs/rulings.md, the kiosk)."""
    name = game.name
    if name == "word-on-the-street":
        return TimeUp({"type": "no_word"}, "next team")
    if name == "tosswords":
        if game.options.get("steal"):  # a steal is checked against the draw: it is typed first
            return TimeUp(None, "type the draw", "Time's up: the tiles, the die, then Timeout")
        return TimeUp({"type": "timeout"}, "next turn")
    if name == "wordspiel":
        if getattr(game, "phase", "") == "deal":
            return TimeUp(None, "type the card", "WordSpiel: type the flipped card")
        return TimeUp(None, "draw a card", "Time's up: draw a card, keep or spiral")
    return TimeUp({"type": "pass"}, "next turn")

"""``tablekeeper replay FILE [--json]``: play a transcript through its engine and show the score sheet.

The table has one row per score-sheet line (an event can write several, e.g. the end of a
WordSpiel round), the running scores after each event, then the standings and the result.
A refused event stops the replay: the rows before it are still shown, then the line number
and the reason (exit 1). A file that cannot be read is a usage error (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from games.base import Game
from games.transcript import Entry, TranscriptError, TranscriptUnreadable, replay, split_lines
from kiosk.cli.usage import UsageError
from kiosk.files.transcript_file import read_transcript_stream, read_transcript_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a transcript (JSON Lines); - reads standard input")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def run(args: argparse.Namespace) -> int:

    try:
        if args.file == "-":
            text = read_transcript_stream(sys.stdin.buffer)
        else:
            text = read_transcript_text(args.file)
    except TranscriptUnreadable as exc:
        raise UsageError(exc.reason) from None
    entries: list[Entry] = []
    error: TranscriptError | None = None
    game: Game[Any] | None = None
    try:
        game = replay(split_lines(text), entries.append)
    except TranscriptError as exc:
        error = exc
        game = _partial_game(text, exc.line) if exc.line > 1 else None
    where = "standard input" if args.file == "-" else args.file
    if args.json:
        print(json.dumps(as_json(game, entries, error), ensure_ascii=False, indent=2))
    elif game is not None:
        print(as_table(game, entries, where))
    if error is not None:
        print(f"tablekeeper replay: {where}: {error}", file=sys.stderr)
        return 1
    return 0


def _partial_game(text: str, bad_line: int) -> Game[Any] | None:
    """The game as it stood just before the refused line (for the rows already shown)."""
    try:
        return replay(split_lines(text)[: bad_line - 1])
    except TranscriptError:
        return None


def _result(game: Game[Any]) -> dict[str, Any]:
    outcome = game.outcome()
    return {
        "over": outcome is not None,
        "winner": outcome.winner if outcome else None,
        "termination": outcome.termination if outcome else None,
        "to_move": game.to_move,
    }


def as_json(game: Game[Any] | None, entries: list[Entry], error: TranscriptError | None) -> dict[str, Any]:
    """The replay as one object: game, players, scores, winner, turns (and error, if any)."""
    data: dict[str, Any] = {}
    if game is not None:
        data.update(
            game=game.name,
            title=game.title,
            players=list(game.players),
            options=game.options,
            scores=game.scores(),
            **_result(game),
            events=len(game.events),
        )
        describe = getattr(game, "describe", None)
        if callable(describe):
            data["state"] = describe()
    data["turns"] = [
        {"line": e.line, "event": e.event.get("type"), **turn.to_dict()}
        for e in entries
        for turn in e.step.turns
    ]
    if error is not None:
        data["error"] = {"line": error.line, "reason": error.reason}
    return data


def as_table(game: Game[Any], entries: list[Entry], where: str) -> str:
    """The score sheet as a text table, then the standings and the result."""
    names = list(game.players)
    widths = [max(len(n), 4) for n in names]
    player_w = max([6, *(len(n) for n in names)])
    head = f"{'line':>4}  {'player':<{player_w}}  {'pts':>4}  " + "  ".join(
        f"{n:>{w}}" for n, w in zip(names, widths, strict=True)
    )
    lines = [
        f"{game.title}: {' v '.join(names)} ({where})",
        "",
        head + "  what happened",
        "-" * (len(head) + 16),
    ]
    for entry in entries:
        rows = entry.step.turns or ()
        scores = "  ".join(f"{entry.scores.get(n, 0):>{w}}" for n, w in zip(names, widths, strict=True))
        blank = " " * len(scores)
        if not rows:
            lines.append(f"{entry.line:>4}  {'-':<{player_w}}  {'':>4}  {scores}  {entry.step.message}")
            continue
        for i, turn in enumerate(rows):
            note = turn.summary
            if turn.ruling is not None and turn.ruling.reason:
                note += f" [{turn.ruling.verdict}: {turn.ruling.reason}]"
            shown = scores if i == len(rows) - 1 else blank
            lines.append(f"{entry.line:>4}  {turn.player:<{player_w}}  {turn.points:>+4}  {shown}  {note}")
    describe = getattr(game, "describe", None)
    if callable(describe):
        lines += ["", f"Position: {describe()}"]
    lines += ["", "Standings:"]
    lines += [f"  {name:<{player_w}}  {score}" for name, score in game.scores().items()]
    outcome = game.outcome()
    if outcome is None:
        lines.append(f"Not finished: {game.to_move} to move.")
    elif not outcome.winners:
        lines.append(f"Over, no winner: {outcome.termination}.")
    else:
        who = " and ".join(outcome.winners)
        lines.append(f"{'Draw' if len(outcome.winners) > 1 else 'Winner'}: {who} ({outcome.termination}).")
    return "\n".join(lines)

"""The club's topics and messages, shared by the kiosk (publisher) and the club server.

One topic per message, every one retained, under one subtree per table so that a broker
ACL can confine each table's account to its own:

``tablekeeper/<club>/<table>/<game>/0``
    the header: ``{"tablekeeper": "club", "version": 1, "table": ..., "game": KEY,
    "seq": 0, "started": ..., "header": <the transcript's header line>}``
``tablekeeper/<club>/<table>/<game>/<seq>`` (seq 1, 2, ...)
    ``{"seq": 7, "n": 5, "event": <the transcript line>}`` — the game's event number ``n``
    is this line (any later ones are gone: an undo happened before it);
    ``{"seq": 8, "n": 4, "undo": true}`` — the game now has ``n`` events (taken back);
    ``{"seq": 9, "abandoned": true}`` — the table gave the game up.

``seq`` counts the game's messages with no gap and is never reused, so a subscriber
applies them in ``seq`` order and drops a ``seq`` it has seen: that is how at-least-once
delivery (QoS 1, resent after a crash) becomes exactly once. Every message is retained
on its own topic, so a subscriber that (re)subscribes late — a club server restarted,
or subscribed again after a broker restart — is handed the whole evening by the broker.
``KEY`` is ``<log id>-<game id>``: the log id is random per game-log file, so a new SD
card never reuses an old game's topics.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

ROOT = "tablekeeper"
VERSION = 1

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


class WireError(ValueError):
    """A topic or message that is not one of ours; the club server skips it and says why."""


def check_name(what: str, name: str) -> str:
    """A club or table name is one topic level: letters, digits, ``_ . -``, at most 40."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise WireError(
            f"the {what} name {name!r} must be 1 to 40 letters, digits, '-', '_' or '.', "
            f"starting with a letter or digit (it is part of the MQTT topic)"
        )
    return name


def game_topic(club: str, table: str, key: str, seq: int) -> str:
    return f"{ROOT}/{club}/{table}/{key}/{int(seq)}"


def subscriptions(club: str) -> list[str]:
    """What the club server subscribes to: every message of every table."""
    return [f"{ROOT}/{club}/+/+/+"]


@dataclass(frozen=True, slots=True)
class Address:
    """Where a message came from: its club, table, game key and sequence number."""

    club: str
    table: str
    game: str
    seq: int


def parse_topic(topic: str) -> Address:
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or not parts[4].isdigit():
        raise WireError(f"not a tablekeeper club topic: {topic!r}")
    return Address(parts[1], parts[2], parts[3], int(parts[4]))


def header_message(table: str, key: str, started: str, header_json: str) -> str:
    """The retained header; ``header_json`` is the log's header text, kept byte for byte."""
    head = json.dumps(
        {"tablekeeper": "club", "version": VERSION, "table": table, "game": key, "seq": 0},
        ensure_ascii=False,
    )
    head = head[:-1] + ", " + json.dumps({"started": started}, ensure_ascii=False)[1:]
    return head[:-1] + ', "header": ' + header_json + "}"


def event_message(seq: int, n: int, event_json: str) -> str:
    """Event ``n`` of the game; ``event_json`` is the log's line, kept byte for byte."""
    return f'{{"seq": {int(seq)}, "n": {int(n)}, "event": {event_json}}}'


def undo_message(seq: int, n: int) -> str:
    return json.dumps({"seq": int(seq), "n": int(n), "undo": True})


def abandoned_message(seq: int) -> str:
    return json.dumps({"seq": int(seq), "abandoned": True})


def decode(payload: bytes | str) -> dict[str, Any]:
    """A message as a dict with an int ``seq``; WireError names what is wrong with it."""
    try:
        data = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WireError(f"a message that is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise WireError("a message that is not a JSON object")
    seq = data.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise WireError("a message without a sequence number")
    if seq == 0:
        if not isinstance(data.get("header"), dict):
            raise WireError("a header message without its transcript header")
        return data
    n = data.get("n")
    if data.get("abandoned") is True:
        return data
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise WireError(f"message {seq} has no event number")
    if data.get("undo") is True:
        return data
    if not isinstance(data.get("event"), dict) or n < 1:
        raise WireError(f"message {seq} has no event")
    return data

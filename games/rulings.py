"""A ruling and an illegal event: the two ways the core says "no" (or "yes") with a reason.

Every answer a player sees carries the plain-English reason and the rule of the sheet it
comes from, so a ruling is never just a boolean.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class Ruling:
    """A verdict on a word or a play.

    ``rule`` names the source, e.g. ``"Upwords, rule 7A 'Illegal words'"``. ``source`` says
    who decided: ``"dictionary"``, ``"house"`` (a house word added or struck by the
    players), ``"rules"`` (a structural rule needing no dictionary) or ``"players"``
    (a vote or an agreement at the table).
    """

    legal: bool
    reason: str
    rule: str
    word: str = ""
    game: str = ""
    source: str = "rules"

    @property
    def verdict(self) -> str:
        return "LEGAL" if self.legal else "ILLEGAL"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruling:
        return cls(
            legal=bool(data["legal"]),
            reason=str(data.get("reason", "")),
            rule=str(data.get("rule", "")),
            word=str(data.get("word", "")),
            game=str(data.get("game", "")),
            source=str(data.get("source", "rules")),
        )

    def __str__(self) -> str:
        return f"{self.verdict} — {self.reason} ({self.rule})"


class IllegalEvent(ValueError):
    """An event the rules refuse. The game it was applied to is unchanged.

    Like python-chess's ``IllegalMoveError``: a ``ValueError`` carrying a reason a player
    can read and the rule it comes from.
    """

    def __init__(self, reason: str, rule: str = "") -> None:
        super().__init__(f"{reason} ({rule})" if rule else reason)
        self.reason = reason
        self.rule = rule


def ruling_from_event(event: Mapping[str, Any], *, rule: str, word: str = "", game: str = "") -> Ruling:
    """The ruling a challenge event carries, completed with the word and game it settled.

    Engines never consult a dictionary: the table's ruling travels inside the event, so a
    transcript replays the same everywhere. ``rule`` is cited when the ruling names none.
    """
    data = event.get("ruling")
    if not isinstance(data, Mapping) or not isinstance(data.get("legal"), bool):
        example = '{"legal": true or false, "reason": ..., "rule": ...}'
        raise IllegalEvent(f"a challenge needs the ruling that settled it: {example}", rule)
    ruling = Ruling.from_dict(dict(data))
    return replace(ruling, rule=ruling.rule or rule, word=ruling.word or word, game=game or ruling.game)

"""The game log's contract: what the kiosk asks of a log, whoever keeps it.

:class:`~kiosk.gamelog.store.GameLog` keeps it in SQLite; the club's
:class:`~kiosk.club.publish.publisher.ClubLog` wraps one and wakes the publisher after each
write. The session, the screens and club night are written against :class:`Log`, so the
wrapper slots in without them knowing, and a type checker says when either falls behind.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from games.base import Game
from kiosk.gamelog.queries import GameSummary


class Log(Protocol):
    """The game log: every write returns only once it is on disk, or raises ``StoreError``."""

    @property
    def path(self) -> Path:
        """The log's file (club night keeps its outbox in the same file)."""
        ...

    def start_game(self, header: Mapping[str, Any]) -> int: ...

    def append(self, game_id: int, event: Mapping[str, Any]) -> int: ...

    def drop_last(self, game_id: int) -> dict[str, Any] | None: ...

    def replace_from(self, game_id: int, index: int, events: list[dict[str, Any]]) -> None: ...

    def finish(self, game_id: int, outcome: Mapping[str, Any]) -> None: ...

    def abandon(self, game_id: int) -> None: ...

    def game_in_progress(self) -> int | None: ...

    def rebuild(self, game_id: int) -> Game[Any]: ...

    def games(self, limit: int = 50) -> list[GameSummary]: ...

    def player_stats(self) -> dict[str, dict[str, int | None]]: ...

    def recent_players(self, limit: int = 12) -> list[str]: ...

    def close(self) -> None: ...

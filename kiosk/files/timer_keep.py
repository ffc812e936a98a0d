"""The turn timer's time left, kept on disk so a power cut does not reset a running turn.

The game log holds every event but not the timer (it is not a game event), so this small
JSON file holds it: which game, how many seconds were left, and whether it was running.
While the timer runs the game screen writes it each time the digits change (once a second;
a few bytes, written atomically), and on every start, pause and reset. After a restart the
turn comes back *paused* with the time it had, and the screen says so: nobody is at the
table to see the time run out while the kiosk boots.
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass
from pathlib import Path

from calibration.durable import write_atomically

log = logging.getLogger(__name__)
#: timer.json holds three values (under 100 bytes): anything larger is damaged.
_LARGEST = 4096


@dataclass(frozen=True)
class KeptTimer:
    """The timer as it was last written."""

    game_id: int
    remaining: float
    running: bool


class TimerKeep:
    """Reads and writes ``timer.json`` in the data folder (never raises: the game goes on)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._last: KeptTimer | None = None

    def save(self, game_id: int | None, remaining: float, running: bool) -> None:
        if game_id is None:
            return
        kept = KeptTimer(int(game_id), round(float(remaining), 1), bool(running))
        if kept == self._last:
            return
        data = {"game": kept.game_id, "remaining": kept.remaining, "running": kept.running}
        try:
            write_atomically(self.path, json.dumps(data).encode())
            self._last = kept
        except OSError as exc:  # a full or read-only disk costs only this convenience
            log.warning("could not keep the timer in %s: %s", self.path, exc)

    def load(self, game_id: int | None) -> KeptTimer | None:
        """The kept timer of this game, or None (another game's, missing or damaged: too large,
        nested past what JSON may, a time left that is not a finite number 0 or more)."""
        try:
            with self.path.open("rb") as stream:
                raw = stream.read(_LARGEST + 1)
            if len(raw) > _LARGEST:
                return None
            data = json.loads(raw)
            kept = KeptTimer(int(data["game"]), float(data["remaining"]), bool(data["running"]))
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            return None
        if not math.isfinite(kept.remaining) or kept.remaining < 0:
            return None
        return kept if game_id is not None and kept.game_id == int(game_id) else None

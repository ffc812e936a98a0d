"""The kiosk's own Word on the Street card tray: draw a category, and remember the deck on disk.

The shuffling is :mod:`games.category_deck` (pure) and the cards :mod:`kiosk.play.categories`;
this adapter keeps, in one small JSON file in the data directory, where each deck (green,
blue) stands and which card is on the table, so after a restart the deck carries on with
no repeats and the card of the turn is still shown. Writes are atomic (temporary file,
fsync, rename); a damaged file means a fresh shuffle, never a stopped game.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from calibration.durable import write_atomically
from kiosk.play.categories import LEVELS, restore_deck

log = logging.getLogger(__name__)


class CategoryTable:
    """``draw()`` the turn's category from the ``level`` deck; ``current`` is the card shown."""

    def __init__(self, path: Path, level: str = "green") -> None:
        self.path = path
        self.level = level if level in LEVELS else LEVELS[0]
        self._saved = self._read()
        self.current: str = str(self._saved.get("current") or "")

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            log.warning("the category deck file %s is damaged (%s): a fresh shuffle", self.path, exc)
            return {}
        return data if isinstance(data, dict) else {}

    def draw(self) -> str:
        """The next category; the deck's new place is on disk before the card is shown."""
        deck = restore_deck(self.level, self._saved.get(self.level))
        card, deck = deck.draw()
        saved = {**self._saved, self.level: deck.state(), "current": card}
        self._write(saved)  # OSError (disk full) propagates: the screen says the card was not drawn
        self._saved, self.current = saved, card
        return card

    def put_back(self) -> None:
        """The turn is over: the card goes to the back of the tray (none on the table)."""
        if self.current:
            saved = {**self._saved, "current": ""}
            try:
                self._write(saved)
            except OSError as exc:
                log.warning("could not save the category deck: %s", exc)
            self._saved, self.current = saved, ""

    def _write(self, data: dict[str, Any]) -> None:
        write_atomically(self.path, json.dumps(data).encode("utf-8"))

"""The street on the Word on the Street turn entry: where the camera and the typed word disagree.

Why on the entry screen: the camera saw which tiles the players pushed; when the typed word
would move other tiles (a tile that moved but is not in the word, or a move missing), the
players must look at the street to see which of the two is wrong. Telling them in words
alone ("P moved 2, the word moves it 1") makes them find P themselves; the street drawn as
the camera sees it, with those tiles' lanes framed in red, shows it at a glance. It takes
the keyboard's place (the screen has no other room for a street whose tiles can be read);
a tap on it brings the keyboard back, and Done still plays the word as typed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.app.widgets.boards import StreetView


class StreetCheck(StreetView):
    """The game screen's street widget, tappable: ``on_tap`` when a finger lands on it."""

    def __init__(self, on_tap: Callable[[], Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tid = "entry.street"
        self._on_tap = on_tap

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos) and self.opacity > 0:
            self._on_tap()
            return True
        return bool(super().on_touch_down(touch))

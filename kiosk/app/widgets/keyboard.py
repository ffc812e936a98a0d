"""A finger-sized on-screen keyboard: 78 px keys across 800 px (Kivy's VKeyboard is tiny).

It edits one string (``text``) and calls ``on_change`` after each key so the screen that
owns it can show a live preview (the word on the board, the fit of a Tosswords draw).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton


class BigKeyboard(BoxLayout):
    """QWERTY in three rows plus hyphen, apostrophe, space, delete and clear.

    ``allowed`` limits the characters (e.g. letters only for a name of a tile).
    ``max_length`` caps the text (Tosswords words fit a 12-letter strip).
    """

    LETTER_ROWS: ClassVar[tuple[str, ...]] = ("QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM")
    text = StringProperty("")

    def __init__(
        self,
        tid: str = "kb",
        on_change: Callable[[str], Any] | None = None,
        max_length: int = 24,
        extras: str = "-'",
        spaces: bool = True,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("spacing", 2)
        super().__init__(**kwargs)
        self.tid = tid
        self._on_change = on_change
        self.max_length = max_length
        for i, row in enumerate(self.LETTER_ROWS):
            line = BoxLayout(spacing=2)
            keys = row + (extras if i == 2 else "")
            for ch in keys:
                line.add_widget(self._key(ch, ch))
            if i == 1:
                line.add_widget(
                    BigButton(
                        "DEL", tid=f"{tid}.del", on_tap=self.backspace, face=theme.PANEL, size=theme.SMALL
                    )
                )
            self.add_widget(line)
        if spaces:
            last = BoxLayout(spacing=2)
            last.add_widget(
                BigButton(
                    "Clear",
                    tid=f"{tid}.clear",
                    on_tap=self.clear,
                    face=theme.PANEL,
                    size=theme.SMALL,
                    size_hint_x=0.25,
                )
            )
            last.add_widget(self._key(" ", "space", size_hint_x=0.5))
            self.add_widget(last)

    def _key(self, ch: str, label: str, **kwargs: Any) -> BigButton:
        name = "space" if ch == " " else ch
        return BigButton(
            label, tid=f"{self.tid}.{name}", on_tap=lambda: self.type(ch), size=theme.LARGE, **kwargs
        )

    def type(self, text: str) -> None:
        """Type characters as if tapped (also used to pre-fill from the camera's read)."""
        for ch in text:
            if len(self.text) < self.max_length:
                self.text += ch
        self._changed()

    def backspace(self) -> None:
        self.text = self.text[:-1]
        self._changed()

    def clear(self) -> None:
        self.text = ""
        self._changed()

    def set(self, text: str) -> None:
        self.text = text[: self.max_length]
        self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change(self.text)

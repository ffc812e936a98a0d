"""Type a player's or team's name with the big keyboard, or tap a recent name from the log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Panel, Text
from kiosk.app.widgets.keyboard import BigKeyboard


class NamesScreen(KioskScreen):
    screen_name = "names"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self._on_done: Callable[[str], Any] = lambda _name: None
        self._hint = ""
        self.back = "start"
        self.bar = self.title_bar(
            "Name",
            BigButton("Cancel", tid="names.cancel", on_tap=self.cancel),
            BigButton("OK", tid="names.ok", on_tap=self.ok, accent=True),
        )
        self.body.add_widget(self.bar)
        field = Panel(size_hint_y=None, height=theme.TOUCH)
        self.field = Text("", size=theme.LARGE, bold=True)
        self.field.tid = "names.field"
        field.add_widget(self.field)
        self.body.add_widget(field)
        self.recent = BoxLayout(spacing=4, size_hint_y=None, height=theme.TOUCH)
        self.body.add_widget(self.recent)
        self.keyboard = BigKeyboard(tid="names.kb", on_change=self._typed, max_length=16, extras="-'")
        self.body.add_widget(self.keyboard)

    def prepare(
        self,
        current: str = "",
        taken: list[str] | None = None,
        title: str = "Name",
        on_done: Callable[[str], Any] | None = None,
        recent: bool = True,
        back: str = "start",
        **_context: Any,
    ) -> None:
        self._on_done = on_done or (lambda _name: None)
        self.bar.title.text = title
        # The current name is a hint, greyed: a tablet form's placeholder, which the first letter
        # typed replaces (nobody wants "Side AAnn"); OK on the untouched hint keeps it.
        self._hint = current.title() if current.isupper() else current
        self.keyboard.set("")
        self.recent.clear_widgets()
        self.back = back
        names = [n for n in self.session.recent_players(12) if n not in (taken or [])][:5] if recent else []
        for i, name in enumerate(names):
            self.recent.add_widget(
                BigButton(
                    name,
                    tid=f"names.recent.{i}",
                    face=theme.INFO,
                    size=theme.SMALL,
                    on_tap=lambda n=name: self.keyboard.set(n),
                )
            )
        if not names and recent:
            self.recent.add_widget(
                Text("Recent names appear here after the first game.", size=theme.SMALL, color=theme.MUTED)
            )

    def cancel(self) -> None:
        self.app.go(self.back, **({"keep": True} if self.back == "settings" else {}))

    def _typed(self, text: str) -> None:
        """The name so far, or the greyed hint while nothing is typed."""
        # Names read better in Title Case: "ANN" typed on a capitals keyboard becomes "Ann".
        self.field.text = (text.title() if text.isupper() else text) or self._hint
        self.field.color = theme.TEXT if text else theme.MUTED

    def ok(self) -> None:
        self._on_done(" ".join(self.field.text.split()))

"""Correct a past turn: pick the entry that was wrong, enter it again; the engine replays
every later entry from there (``kiosk.play.correction``), or says which one no longer fits."""

from __future__ import annotations

from typing import Any

from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Text
from kiosk.play import correction, playbook


class CorrectScreen(KioskScreen):
    screen_name = "correct"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.bar = self.title_bar(
            "Which entry was wrong?",
            BigButton("Back", tid="correct.back", on_tap=lambda: self.app.go("history")),
        )
        self.body.add_widget(self.bar)
        self.body.add_widget(
            Text(
                "Tap it, then enter it as it should have been. Everything after it is scored again.",
                size=theme.SMALL,
                color=theme.MUTED,
                size_hint_y=None,
                height=48,
            )
        )
        scroll = ScrollView(do_scroll_x=False, bar_width=10)
        self.rows = GridLayout(cols=1, spacing=4, size_hint_y=None)
        self.rows.bind(minimum_height=self.rows.setter("height"))
        scroll.add_widget(self.rows)
        self.body.add_widget(scroll)

    def prepare(self, **_context: Any) -> None:
        self.rows.clear_widgets()
        game = self.session.game
        if game is None:
            return
        for index, event, who in correctable_entries(game):
            label = f"{index + 1}. {who + ': ' if who else ''}{playbook.describe_event(event)}"
            button = BigButton(
                label,
                tid=f"correct.entry.{index}",
                face=theme.PANEL,
                size_hint_y=None,
                height=theme.TOUCH,
                on_tap=lambda i=index: self.app.go("entry", correct=i),
            )
            self.rows.add_widget(button)


def correctable_entries(game: Any) -> list[tuple[int, dict[str, Any], str]]:
    """The entries a person can correct, newest first (the wrong one is usually recent)."""
    return list(reversed(correction.correctable(game)))

"""What every screen shares: a handle on the app and a vertical layout on the dark theme."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, FitText


class KioskScreen(Screen):
    """A screen with ``self.app`` and a padded vertical ``self.body``."""

    screen_name = ""

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(name=self.screen_name, **kwargs)
        self.app = app
        self.body = BoxLayout(orientation="vertical", padding=theme.GAP, spacing=theme.GAP)
        self.add_widget(self.body)

    @property
    def session(self) -> Any:
        return self.app.session

    def prepare(self, **_context: Any) -> None:
        """Refresh from the session just before the screen is shown."""

    def undo(self) -> None:
        """Take back the last event (a ruling, a turn) and show the game: one tap, any screen."""
        result = self.session.undo()
        if result.ok:
            self.app.news(result.message)
        else:
            self.app.warn(result.message)
        self.app.go("game")

    @staticmethod
    def title_bar(text: str, *buttons: BigButton) -> BoxLayout:
        bar = BoxLayout(size_hint_y=None, height=theme.TOUCH, spacing=theme.GAP)
        bar.is_title_bar = True
        label = FitText(text, size=theme.LARGE, bold=True, halign="left")
        bar.add_widget(label)
        bar.title = label
        for button in buttons:
            button.size_hint_x = None
            button.width = max(140, button.width if button.width != 100 else 140)
            bar.add_widget(button)
        return bar

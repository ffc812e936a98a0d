"""Club night: this table's QR code, the address of its page and whether the club has every event.

Reached from the menu (History's Club button) when the kiosk has ``[club]`` settings.
Players scan the code and follow the score sheet on their phones. The screen shows
where the kiosk publishes and how far it is, never the broker's password.
"""

from __future__ import annotations

import io
from typing import Any

from kivy.clock import Clock
from kivy.core.image import Image as CoreImage
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Text


class ClubScreen(KioskScreen):
    screen_name = "club"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.body.add_widget(
            self.title_bar("Club night", BigButton("Back", tid="club.back", on_tap=self.back, accent=True))
        )
        row = BoxLayout(spacing=theme.GAP * 2)
        self.code = Image(size_hint_x=None, width=330, fit_mode="contain")
        row.add_widget(self.code)
        words = BoxLayout(orientation="vertical", spacing=theme.GAP)
        self.heading = Text("", size=theme.LARGE, bold=True, halign="left")
        self.address = Text("", size=theme.BODY, color=theme.ACCENT, halign="left")
        self.state = Text("", size=theme.BODY, color=theme.MUTED, halign="left")
        self.hint = Text(
            "Scan to follow this table's score sheet on a phone. The page is read-only.",
            size=theme.SMALL,
            color=theme.MUTED,
            halign="left",
        )
        for widget in (self.heading, self.address, self.state, self.hint):
            words.add_widget(widget)
        row.add_widget(words)
        self.body.add_widget(row)
        self._url = ""
        self._ticker: Any = None

    def prepare(self, **_context: Any) -> None:
        club = self.app.club
        if club is None:
            self.heading.text = "Club night is off"
            self.address.text = "Add a [club] section to the settings file (docs/club.md)."
            self.state.text = ""
            self.code.texture = None
            return
        config = club.config
        self.heading.text = config.describe()
        url = config.table_url
        if url and url != self._url:
            from kiosk.club.publish.qr import qr_png

            texture = CoreImage(io.BytesIO(qr_png(url)), ext="png").texture
            texture.mag_filter = "nearest"
            self.code.texture = texture
        self._url = url
        self.address.text = url or "Set [club] page = http://<club server>:8080 to show the QR code."
        self._status()

    def _status(self, *_: Any) -> None:
        club = self.app.club
        self.state.text = club.status() if club is not None else ""

    def on_enter(self, *_: Any) -> None:
        self._ticker = Clock.schedule_interval(self._status, 1.0)

    def on_leave(self, *_: Any) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None

    def back(self) -> None:
        self.app.go("game" if self.session.game is not None else "start")

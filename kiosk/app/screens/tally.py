"""The end of an Upwords or Option game: what each player has left on the rack.

Upwords takes the tiles left (5 points off each); Option the points of both sides of the
prisms left, entered as one total per rack (see docs/rulings.md, the kiosk).
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Stepper, Text


class TallyScreen(KioskScreen):
    """The end of an Upwords or Option game: what each player has left."""

    screen_name = "tally"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.kind = ""
        self.bar = self.title_bar(
            "End of the game",
            BigButton("Back", tid="tally.back", on_tap=lambda: self.app.go("game")),
            BigButton("End game", tid="tally.done", on_tap=self.done, accent=True),
        )
        self.body.add_widget(self.bar)
        self.rows = BoxLayout(orientation="vertical", spacing=6)
        self.body.add_widget(self.rows)
        self.steppers: dict[str, Stepper] = {}

    def prepare(self, kind: str = "", **_context: Any) -> None:
        game = self.session.game
        self.kind = kind or (game.name if game else "")
        self.rows.clear_widgets()
        self.steppers = {}
        if game is None:
            return
        what = "tiles left on the rack" if self.kind == "upwords" else "points left on the rack (both sides)"
        self.bar.title.text = f"End: {what}"
        for i, name in enumerate(game.players):
            row = BoxLayout(spacing=8, size_hint_y=None, height=theme.TOUCH)
            row.add_widget(Text(name, size=theme.LARGE, bold=True, halign="left"))
            stepper = Stepper(f"tally.{i}", 0, 0, 200 if self.kind == "option" else 7, "{}")
            self.steppers[name] = stepper
            row.add_widget(stepper)
            self.rows.add_widget(row)
        self.rows.add_widget(Text("", size=theme.SMALL))

    def done(self) -> None:
        game = self.session.game
        if game is None:
            return
        if self.kind == "upwords":
            event = {"type": "end", "tiles_left": {n: s.value for n, s in self.steppers.items()}}
        else:
            racks = game.racks
            counts = racks() if callable(racks) else racks
            event = {
                "type": "end",
                "racks": {n: _rack(counts.get(n, 0), s.value) for n, s in self.steppers.items()},
            }
        self.app.screens["entry"].submit(event)


def _rack(prisms: int, total: int) -> list[list[int]]:
    """A rack of ``prisms`` prisms worth ``total`` points in all (see docs/rulings.md, Kiosk)."""
    if prisms == 0:
        return []
    return [[total, 0]] + [[0, 0] for _ in range(prisms - 1)]

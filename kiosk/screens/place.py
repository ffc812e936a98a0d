"""Upwords: the play on a large board. Tap the first square, choose across or down; the
letters typed show on the board with the points the engine would give them, before Done.

Opened from turn entry's Board button; it works on turn entry's form (the word typed there,
where it starts, which way it reads), so going back loses nothing. The points and any refusal
come from the engine (``Session.try_event``): this screen never scores a play itself.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from kiosk.screens.base import KioskScreen
from kiosk.widgets import theme
from kiosk.widgets.basics import BigButton, Text
from kiosk.widgets.boards import GridView


class PlaceScreen(KioskScreen):
    screen_name = "place"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        row = BoxLayout(spacing=theme.GAP)
        self.board = GridView(size_hint_x=None, width=440)
        self.board.tid = "place.board"
        self.board.on_cell = self.tapped
        row.add_widget(self.board)
        side = BoxLayout(orientation="vertical", spacing=theme.GAP)
        self.hint = Text("", size=theme.BODY, color=theme.MUTED, size_hint_y=None, height=80)
        self.hint.tid = "place.hint"
        side.add_widget(self.hint)
        self.word = Text("", size=theme.HUGE, bold=True, size_hint_y=None, height=70)
        self.word.tid = "place.word"
        side.add_widget(self.word)
        self.score = Text("", size=theme.BODY, color=theme.ACCENT)
        self.score.tid = "place.score"
        side.add_widget(self.score)
        self.direction = BigButton("Across", tid="place.direction", on_tap=self.turn, face=theme.INFO)
        side.add_widget(self.direction)
        buttons = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.TOUCH)
        buttons.add_widget(
            BigButton("Type", tid="place.type", on_tap=lambda: self.app.go("entry", keep=True))
        )
        buttons.add_widget(BigButton("Done", tid="place.done", accent=True, on_tap=self.done))
        side.add_widget(buttons)
        row.add_widget(side)
        self.body.add_widget(row)

    @property
    def entry(self) -> Any:
        return self.app.screens["entry"]

    def prepare(self, **_context: Any) -> None:
        self.draw()

    def draw(self) -> None:
        form = self.entry.form
        if form is None or not hasattr(form, "planned"):
            return
        text = self.entry.keyboard.text
        after, covered, said = form.planned(text)
        board = after.board
        tops = tuple(tuple(board.top(r, c) for c in range(board.size)) for r in range(board.size))
        heights = tuple(tuple(board.height(r, c) for c in range(board.size)) for r in range(board.size))
        start = frozenset({(form.row, form.col)})
        self.board.set((tops, heights, frozenset(), covered or start))
        self.word.text = text or "…"
        self.score.text = said
        self.direction.text = "Reads down" if form.down else "Reads across"
        self.hint.text = (
            f"Starts at row {form.row + 1}, column {form.col + 1}. Tap another square to move it."
        )

    def tapped(self, row: int, col: int) -> None:
        self.entry.form.place(row, col)
        self.draw()

    def turn(self) -> None:
        self.entry.form.turn()
        self.draw()

    def done(self) -> None:
        self.entry.done()

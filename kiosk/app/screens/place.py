"""Upwords: the play on a large board. Tap the first square, choose across or down, and type:
each letter shows on the board as it is typed, with the points the engine would give the
play, before Done.

Opened from turn entry's Board button; it works on turn entry's form and keyboard text (the
word typed, where it starts, which way it reads), so going back to the full keyboard loses
nothing. The letters typed here go into that same text. The points and any refusal come from
the engine (``Session.try_event``): this screen never scores a play itself. A word the engine
does not take (yet: "MO" on the way to "MOOD", or one that runs off the board) still shows its
letters where they would go, framed as not yet a play, with the engine's reason beside it.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from kiosk.app.screens.base import KioskScreen
from kiosk.app.screens.forms import letters
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, FitText, Text
from kiosk.app.widgets.boards import GridView

#: Seven 60 px keys a row beside the board (A-Z and DEL in four rows): alphabetical, as a
#: grid of 7 cannot keep the QWERTY rows.
KEYS_PER_ROW = 7
KEY = 60


class PlaceScreen(KioskScreen):
    screen_name = "place"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        row = BoxLayout(spacing=theme.GAP)
        self.board = GridView()
        self.board.tid = "place.board"
        self.board.on_cell = self.tapped
        row.add_widget(self.board)
        side = BoxLayout(orientation="vertical", spacing=4, size_hint_x=None)
        side.width = KEYS_PER_ROW * KEY + (KEYS_PER_ROW - 1) * 3
        self.hint = Text("", size=theme.SMALL, color=theme.MUTED, size_hint_y=None, height=44)
        self.hint.tid = "place.hint"
        side.add_widget(self.hint)
        self.word = FitText("", size=theme.LARGE, bold=True, size_hint_y=None, height=40)
        self.word.tid = "place.word"
        side.add_widget(self.word)
        self.score = Text("", size=theme.SMALL, color=theme.ACCENT, size_hint_y=None, height=44)
        self.score.tid = "place.score"
        side.add_widget(self.score)
        # The keys take the height left (60 px each on the full screen; a message at the top
        # of the window takes some for a moment).
        pad = GridLayout(cols=KEYS_PER_ROW, spacing=3)
        pad.tid = "place.kb"
        for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            pad.add_widget(
                BigButton(ch, tid=f"place.kb.{ch}", size=theme.BODY, on_tap=lambda ch=ch: self.key(ch))
            )
        pad.add_widget(
            BigButton("DEL", tid="place.kb.del", face=theme.PANEL, size=theme.SMALL, on_tap=self.backspace)
        )
        side.add_widget(pad)
        buttons = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.TOUCH)
        self.direction = BigButton("Across", tid="place.direction", on_tap=self.turn, face=theme.INFO)
        buttons.add_widget(self.direction)
        # Back to turn entry (the full keyboard, Pass, Exchange, End) with everything kept.
        buttons.add_widget(
            BigButton("Back", tid="place.type", on_tap=lambda: self.app.go("entry", keep=True))
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
        tops = [[board.top(r, c) for c in range(board.size)] for r in range(board.size)]
        heights = [[board.height(r, c) for c in range(board.size)] for r in range(board.size)]
        word = letters(text)
        doubtful: frozenset[tuple[int, int]] = frozenset()
        if word and not covered:
            # Not (yet) a play the engine takes: the letters still show where they would go,
            # framed in red, and the line under the word says why.
            covered = doubtful = _tentative(form, word, tops, heights)
        start = frozenset({(form.row, form.col)})
        self.board.set((_freeze(tops), _freeze(heights), doubtful, covered or start))
        self.word.text = word or "…"
        self.score.text = said
        self.direction.text = "Reads down" if form.down else "Reads across"
        self.hint.text = f"Starts at row {form.row + 1}, column {form.col + 1}: tap a square to move it."

    # ------------------------------------------------------------------ taps
    def key(self, ch: str) -> None:
        """A letter typed here goes into turn entry's text (one word, wherever it is typed)."""
        self.entry.keyboard.type(ch)
        self.draw()

    def backspace(self) -> None:
        self.entry.keyboard.backspace()
        self.draw()

    def tapped(self, row: int, col: int) -> None:
        self.entry.form.place(row, col)
        self.draw()

    def turn(self) -> None:
        self.entry.form.turn()
        self.draw()

    def done(self) -> None:
        self.entry.done()


def _tentative(
    form: Any, word: str, tops: list[list[Any]], heights: list[list[int]]
) -> frozenset[tuple[int, int]]:
    """Put the typed letters on ``tops``/``heights`` where the form would place them; the
    squares they cover on the board (letters past the edge are not drawn)."""
    from games.upwords_board import QU

    faces = [QU if ch == "Q" else ch for ch in word.replace("QU", "Q")]
    size = len(tops)
    covered = set()
    for i, face in enumerate(faces):
        r, c = (form.row + i, form.col) if form.down else (form.row, form.col + i)
        if not (0 <= r < size and 0 <= c < size):
            break
        if tops[r][c] != face:
            tops[r][c] = face
            heights[r][c] = heights[r][c] + 1
        covered.add((r, c))
    return frozenset(covered)


def _freeze(grid: list[list[Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(row) for row in grid)

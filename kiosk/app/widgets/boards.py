"""The middle of the game screen: each game's table drawn from its engine (or the camera).

Each view takes plain values (positions, a grid of tops and heights, letters) so it can
draw the engine's state or the camera's read alike; uncertain cells of a camera read get
a red frame so the players check them before a turn is scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle, RoundedRectangle
from kivy.uix.widget import Widget

from kiosk.app.widgets import theme

_TEX_CACHE: dict[tuple[str, int, bool], Any] = {}
#: The smallest font of a stack's height digit (px): see :meth:`GridView._stack`.
STACK_DIGIT = 12


def _text_texture(text: str, size: int, bold: bool = True) -> Any:
    key = (text, size, bold)
    if key not in _TEX_CACHE:
        label = CoreLabel(text=text, font_size=size, bold=bold)
        label.refresh()
        _TEX_CACHE[key] = label.texture
    return _TEX_CACHE[key]


class _Canvas(Widget):
    """A widget that redraws itself from ``self.data`` whenever the data or its size changes."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data: Any = None
        #: Every text drawn in the last redraw, in order (what a test reads off the board).
        self.painted_text: list[str] = []
        #: Where each text (and each mark drawn to carry one, a height badge) was drawn in the
        #: last redraw: (what, (x, y, width, height), group). Texts of one group belong together
        #: (a badge and its digit); the overlap audit checks that no others cover each other.
        self.painted_boxes: list[tuple[str, tuple[float, float, float, float], int]] = []
        self._group = 0
        self.bind(size=lambda *_: self.redraw(), pos=lambda *_: self.redraw())

    def set(self, data: Any) -> None:
        if data != self.data:
            self.data = data
            self.redraw()

    def redraw(self) -> None:
        self.canvas.clear()
        self.painted_text = []
        self.painted_boxes = []
        self._group = 0
        if self.data is not None:
            with self.canvas:
                self.paint(self.data)

    def paint(self, data: Any) -> None:
        raise NotImplementedError

    def letter(
        self,
        text: str,
        cx: float,
        cy: float,
        size: int,
        rgba: Sequence[float] = theme.TEXT,
        group: int = 0,
    ) -> tuple[float, float, float, float]:
        """Draw ``text`` centred on (cx, cy); returns the box it was drawn in (x, y, w, h)."""
        tex = _text_texture(text, max(theme.SMALL, size))
        Color(*rgba)
        return self.paint_text(text, tex, cx - tex.width / 2, cy - tex.height / 2, group)

    def paint_text(
        self, text: str, tex: Any, x: float, y: float, group: int = 0
    ) -> tuple[float, float, float, float]:
        """Draw a text's texture at (x, y) and note where (``painted_text``, ``painted_boxes``)."""
        box = (x, y, float(tex.width), float(tex.height))
        self.painted_text.append(text)
        self.painted_boxes.append((text, box, group or self.new_group()))
        Rectangle(texture=tex, pos=(x, y), size=tex.size)
        return box

    def new_group(self) -> int:
        self._group += 1
        return self._group


class StreetView(_Canvas):
    """Word on the Street: 17 letter lanes of 5 spaces between two kerbs.

    ``data`` = (positions: ((letter, -3..3), ...), team names, letters the camera doubts —
    their lanes get a red frame). The first team's kerb is at the bottom, the second's at
    the top; each kerb is labelled with its team's name and captured count, and a captured
    tile (±3) is drawn on its captor's kerb, outside the street, in amber.

    The five spaces of a lane get the height; a kerb row is 85 % of a space (a
    captured tile only needs to be read, not pushed), so the street's tiles are as large as
    the widget allows. A tile's letter is sized to sit inside its tile.
    """

    LABEL = 20  # the kerb's name line
    KERB_GAP = 2
    KERB_ROW = 0.8  # a kerb row's height, in street rows

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: Each tile drawn in the last redraw: (letter, tile side, font px, letter width, letter height).
        self.tiles: list[tuple[str, float, int, int, int]] = []

    def redraw(self) -> None:
        self.tiles = []
        super().redraw()

    def paint(self, data: tuple[tuple[tuple[str, int], ...], tuple[str, str], frozenset[str]]) -> None:
        positions, teams, doubtful = data
        n = len(positions)
        col_w = self.width / max(1, n)
        row_h = (self.height - 2 * (self.LABEL + self.KERB_GAP)) / (5 + 2 * self.KERB_ROW)
        kerb_h = row_h * self.KERB_ROW
        street_y = self.y + self.LABEL + kerb_h + self.KERB_GAP
        Color(*theme.PANEL)
        RoundedRectangle(pos=(self.x, street_y), size=(self.width, 5 * row_h), radius=[8])
        Color(0.3, 0.32, 0.38, 1)  # the median strip
        Rectangle(pos=(self.x, street_y + row_h * 2), size=(self.width, row_h))
        Color(0.55, 0.57, 0.62, 1)  # the kerbs: a line each side of the street
        Rectangle(pos=(self.x, street_y - 2), size=(self.width, 2))
        Rectangle(pos=(self.x, street_y + 5 * row_h), size=(self.width, 2))
        names = [*teams, "", ""]
        counts = (sum(1 for _, p in positions if p <= -3), sum(1 for _, p in positions if p >= 3))
        bottom_label_y = self.y + self.LABEL / 2
        top_label_y = self.y + self.height - self.LABEL / 2
        for name, count, cy in ((names[0], counts[0], bottom_label_y), (names[1], counts[1], top_label_y)):
            if name:
                owner = f"{name}'" if name.endswith("s") else f"{name}'s"
                self.label_left(f"{owner} kerb: {count} captured", self.x + 4, cy, theme.SMALL, theme.MUTED)
        street_side = min(col_w, row_h) - 3
        kerb_side = min(col_w, kerb_h) - 2
        for i, (letter, pos) in enumerate(positions):
            cx = self.x + col_w * (i + 0.5)
            captured = abs(pos) >= 3
            if pos <= -3:  # on the first team's kerb, below the street
                cy = street_y - self.KERB_GAP - kerb_h / 2
            elif pos >= 3:
                cy = street_y + 5 * row_h + self.KERB_GAP + kerb_h / 2
            else:
                cy = street_y + row_h * (pos + 2.5)
            side = kerb_side if captured else street_side
            Color(*(theme.ACCENT if captured else (0.93, 0.9, 0.8, 1)))
            RoundedRectangle(pos=(cx - side / 2, cy - side / 2), size=(side, side), radius=[4])
            self.tile_letter(letter, cx, cy, side)
            if letter in doubtful:  # the camera is not sure of this column: the players look
                Color(*theme.BAD)
                Line(rectangle=(cx - col_w / 2 + 1, street_y + 2, col_w - 2, 5 * row_h - 4), width=2)

    def tile_letter(self, letter: str, cx: float, cy: float, side: float) -> None:
        """The largest letter (from 80 % of the tile down) whose rendering fits inside the tile."""
        font = max(1, int(side * 0.8))
        tex = _text_texture(letter, font)
        while font > 8 and (tex.height > side or tex.width > side):
            font -= 1
            tex = _text_texture(letter, font)
        self.tiles.append((letter, side, font, tex.width, tex.height))
        Color(*theme.ACCENT_TEXT)
        self.paint_text(letter, tex, cx - tex.width / 2, cy - tex.height / 2)

    def label_left(self, text: str, x: float, cy: float, size: int, rgba: Sequence[float]) -> None:
        tex = _text_texture(text, max(theme.SMALL, size))
        Color(*rgba)
        self.paint_text(text, tex, x, cy - tex.height / 2)


class GridView(_Canvas):
    """A square board of stacks: ``data`` = (tops, heights, uncertain cells, highlighted cells).

    Rows and columns are numbered along the left and top edges (as turn entry names them).
    A stack taller than one tile shows its height as a small digit in the square's top right
    corner, and its letter as large as fits in the rest of the square: the two never share a
    pixel, so LOAD on a stack reads LOAD at every height (a badge over the letter made it
    unreadable). ``on_cell(row, col)``, when set, is called for a tap on a square.
    ``stack_boxes`` keeps, for each stacked square, where its letter and its height were drawn.
    """

    on_cell: Any = None

    def paint(self, data: tuple[Any, Any, frozenset[tuple[int, int]], frozenset[tuple[int, int]]]) -> None:
        tops, heights, uncertain, highlight = data
        size = len(tops)
        edge = max(14.0, min(self.width, self.height) * 0.06)  # room for the row/column numbers
        cell = (min(self.width, self.height) - edge) / max(1, size)
        x0 = self.x + (self.width - cell * size - edge) / 2 + edge
        y0 = self.y + (self.height - cell * size - edge) / 2
        self._geometry = (x0, y0, cell, size)
        self.stack_boxes: dict[tuple[int, int], tuple[tuple[float, ...], tuple[float, ...]]] = {}
        number = max(theme.SMALL, int(min(edge, cell * 0.5) * 0.9))
        for i in range(size):
            self.letter(str(i + 1), x0 - edge / 2, y0 + (size - 1 - i) * cell + cell / 2, number, theme.MUTED)
            self.letter(
                str(i + 1), x0 + i * cell + cell / 2, y0 + size * cell + edge / 2, number, theme.MUTED
            )
        for r in range(size):
            for c in range(size):
                x, y = x0 + c * cell, y0 + (size - 1 - r) * cell
                top = tops[r][c]
                h = heights[r][c] if heights else (1 if top else 0)
                if (r, c) in highlight:
                    Color(*theme.ACCENT)
                elif top:
                    shade = 0.95 - 0.1 * min(4, max(0, (h or 1) - 1))
                    Color(shade, shade * 0.93, shade * 0.8, 1)
                else:
                    Color(*theme.PANEL_HI)
                Rectangle(pos=(x + 1, y + 1), size=(cell - 2, cell - 2))
                if top and h and h > 1:
                    self._stack(str(top), h, (r, c), x, y, cell)
                elif top:
                    self.letter(str(top), x + cell / 2, y + cell / 2, int(cell * 0.7), theme.ACCENT_TEXT)
                if (r, c) in uncertain:
                    Color(*theme.BAD)
                    Line(rectangle=(x + 2, y + 2, cell - 4, cell - 4), width=2)

    def _stack(self, top: str, height: int, spot: tuple[int, int], x: float, y: float, cell: float) -> None:
        """A stacked square: the height as a small digit in the top right corner, the letter
        centred in the room left of it, in the largest font that keeps it clear of the digit.

        The digit is the one text on screen allowed below :data:`theme.SMALL` (down to
        :data:`STACK_DIGIT` px): it is a mark on a tile, like the tile's own printed points,
        and on the game screen's small squares a full-size digit would leave the letter no room.
        """
        digit = _text_texture(str(height), max(STACK_DIGIT, int(cell * 0.4)))
        dx, dy = x + cell - 1 - digit.width, y + cell - 1 - digit.height
        Color(*theme.ACCENT_TEXT)
        self.paint_text(str(height), digit, dx, dy)
        room = dx - (x + 1)  # the square's width left of the digit's column
        font = int(cell * 0.62)
        face = _text_texture(top, font)
        while font > STACK_DIGIT and (face.width > room - 1 or face.height > cell - 2):
            font -= 1
            face = _text_texture(top, font)
        lx, ly = x + 1 + (room - face.width) / 2, y + (cell - face.height) / 2
        box = self.paint_text(top, face, lx, ly)
        self.stack_boxes[spot] = (box, (dx, dy, float(digit.width), float(digit.height)))

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The (row, col) under a window point, or None off the squares."""
        geometry = getattr(self, "_geometry", None)
        if geometry is None:
            return None
        x0, y0, cell, size = geometry
        col, row_up = int((x - x0) // cell), int((y - y0) // cell)
        if not (0 <= col < size and 0 <= row_up < size) or x < x0 or y < y0:
            return None
        return size - 1 - row_up, col

    def on_touch_down(self, touch: Any) -> bool:
        if self.on_cell is not None and self.collide_point(*touch.pos):
            spot = self.cell_at(*touch.pos)
            if spot is not None:
                self.on_cell(*spot)
                return True
        return bool(super().on_touch_down(touch))


class TilesView(_Canvas):
    """Rows of letter tiles, lit or dim: ``data`` = ((label, letters, lit letters), ...)."""

    def paint(self, data: tuple[tuple[str, str, str], ...]) -> None:
        rows = len(data)
        band = self.height / max(1, rows)
        for i, (label, letters, lit) in enumerate(data):
            top = self.y + self.height - band * i
            self.letter(label, self.x + self.width / 2, top - 14, theme.SMALL, theme.MUTED)
            per_line = 13
            lines = [letters[j : j + per_line] for j in range(0, len(letters), per_line)] or [""]
            cell = min(self.width / per_line, (band - 30) / len(lines))
            remaining = list(lit)
            for li, line in enumerate(lines):
                for k, ch in enumerate(line):
                    x = self.x + (self.width - cell * per_line) / 2 + k * cell
                    y = top - 30 - (li + 1) * cell
                    on = ch in remaining
                    if on:
                        remaining.remove(ch)
                    Color(*(theme.GOOD if on else theme.PANEL_HI))
                    RoundedRectangle(pos=(x + 1, y + 1), size=(cell - 2, cell - 2), radius=[3])
                    self.letter(
                        ch,
                        x + cell / 2,
                        y + cell / 2,
                        int(cell * 0.6),
                        theme.ACCENT_TEXT if on else theme.MUTED,
                    )


class PhotoView(_Canvas):
    """The camera's latest photo (a BGR numpy array), fitted into the widget."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._texture: Any = None
        self._frame_id = 0

    def set(self, data: Any) -> None:
        if data is None or id(data) == self._frame_id:
            return
        from kivy.graphics.texture import Texture

        height, width = data.shape[:2]
        texture = Texture.create(size=(width, height), colorfmt="rgb")
        texture.blit_buffer(data[::-1].tobytes(), colorfmt="bgr", bufferfmt="ubyte")
        self._texture, self._frame_id, self.data = texture, id(data), (width, height)
        self.redraw()

    def paint(self, data: tuple[int, int]) -> None:
        width, height = data
        scale = min(self.width / width, self.height / height)
        w, h = width * scale, height * scale
        Color(1, 1, 1, 1)
        Rectangle(texture=self._texture, pos=(self.center_x - w / 2, self.center_y - h / 2), size=(w, h))

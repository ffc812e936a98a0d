"""The LED ring drawn on screen: the same frame the hardware ring shows, LED for LED.

A frame is a list of (r, g, b) values 0-255, one per LED, clockwise from 12 o'clock — the
output of ``games.ring_frames``. Drawing the very frame the LEDs get is what makes the
on-screen ring a mirror rather than a second opinion. The big digits sit in the middle.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from kivy.graphics import Color, Ellipse, InstructionGroup, Line
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label

from kiosk.app.widgets import theme

RGB = tuple[int, int, int]
#: A dot of at most 16 px looks round with 16 sides.
DOT_SEGMENTS = 16


class RingView(FloatLayout):
    """A ring of LED dots with the remaining seconds in large digits inside."""

    def __init__(self, leds: int = 24, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tid = "ring"
        self._frame: list[RGB] = [(0, 0, 0)] * leds
        self._dots = InstructionGroup()
        self.canvas.before.add(self._dots)
        self.digits = Label(
            text="",
            font_size=theme.HUGE,
            bold=True,
            color=theme.TEXT,
            pos_hint={"center_x": 0.5, "center_y": 0.5},
        )
        self.digits.tid = "ring.digits"
        self.add_widget(self.digits)
        self.bind(size=lambda *_: self._draw(), pos=lambda *_: self._draw())

    #: Called when the ring is tapped (the game screen resets the timer).
    on_tap: Any = None

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos) and self.on_tap is not None:
            self.on_tap()
            return True
        return bool(super().on_touch_down(touch))

    def show(self, frame: Sequence[Sequence[int]], text: str, color: tuple[float, ...] = theme.TEXT) -> None:
        """Draw one frame; cheap enough to call every UI frame (only changed inputs redraw)."""
        new = [tuple(int(c) for c in rgb[:3]) for rgb in frame]
        if new != self._frame:
            self._frame = new  # type: ignore[assignment]
            self._draw()
        if self.digits.text != text:
            self.digits.text = text
            self._size_digits()
        if list(self.digits.color) != list(color):
            self.digits.color = color

    def _size_digits(self) -> None:
        """As large as the ring allows, and smaller for a longer text ("TIME!", "1:30")."""
        radius = min(self.width, self.height) / 2 - 10
        across = 2 * radius * 0.78  # the width inside the dots
        chars = max(1, len(self.digits.text))
        self.digits.font_size = max(theme.SMALL, int(min(radius * 0.62, across / (0.62 * chars))))

    @property
    def frame(self) -> list[RGB]:
        return list(self._frame)

    def _draw(self) -> None:
        self._dots.clear()
        n = max(1, len(self._frame))
        cx, cy = self.center_x, self.center_y
        radius = min(self.width, self.height) / 2 - 10
        dot = max(6.0, min(16.0, 2 * math.pi * radius / n * 0.7))
        self._size_digits()
        add = self._dots.add
        add(Color(0.18, 0.2, 0.25, 1))
        # Few segments: under software GL every triangle costs set-up time on each redraw, and
        # Kivy's default (180 a circle, 25 circles) cost more than the rest of the ring.
        add(Line(circle=(cx, cy, radius, 0, 360, 72), width=1.2))
        for i, (r, g, b) in enumerate(self._frame):
            angle = math.pi / 2 - 2 * math.pi * i / n
            x, y = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
            lit = (r, g, b) != (0, 0, 0)
            add(Color(r / 255, g / 255, b / 255, 1) if lit else Color(0.22, 0.24, 0.28, 1))
            add(Ellipse(pos=(x - dot / 2, y - dot / 2), size=(dot, dot), segments=DOT_SEGMENTS))

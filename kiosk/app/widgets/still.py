"""A layer drawn once into an off-screen picture and then shown as that picture.

Why: under Mesa's software GL (llvmpipe: the Pi's desktop without a GPU driver, Xvfb in the
tests) every redraw of the window is paid by the kiosk's own CPU, and a redraw repaints
every widget of the screen: about 40 ms of CPU for the game screen's ~580 canvas
instructions. The running timer changes the ring and its digits once a second and nothing
else, so the game screen keeps everything but the ring in a :class:`StillLayer`: Kivy
re-renders the layer's frame buffer only when something inside it changes (a canvas
instruction inside flags the Fbo), and otherwise a redraw is one textured rectangle plus
the ring (``bench kiosk`` measures the CPU with the timer running).

Children keep their usual coordinates and receive touches as in any layout; only their
drawing goes to the frame buffer, which is cleared to the theme's background (opaque, so
text drawn into it blends exactly as it would on the window).
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import (
    Callback,
    ClearBuffers,
    ClearColor,
    Color,
    Fbo,
    PopMatrix,
    PushMatrix,
    Rectangle,
    Translate,
)
from kivy.graphics import opengl as gl
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from kiosk.app.widgets import theme


class StillLayer(FloatLayout):
    """A FloatLayout whose children are drawn into one frame buffer (see the module's note)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.canvas:
            self.fbo = Fbo(size=(max(1, int(self.width)), max(1, int(self.height))))
            Color(1, 1, 1, 1)
            # The picture is opaque: painting it without blending skips reading the window's
            # pixels back (about 2 ms a redraw under llvmpipe); blending is on again after it.
            Callback(lambda *_: gl.glDisable(gl.GL_BLEND))
            self._picture = Rectangle(pos=self.pos, size=self.size, texture=self.fbo.texture)
            Callback(lambda *_: gl.glEnable(gl.GL_BLEND))
        with self.fbo.before:
            ClearColor(*theme.BG[:3], 1)
            ClearBuffers()
            PushMatrix()
            self._shift = Translate(-self.x, -self.y)
        with self.fbo.after:
            PopMatrix()
        self.bind(pos=self._placed, size=self._placed)

    def _placed(self, *_: Any) -> None:
        size = (max(1, round(self.width)), max(1, round(self.height)))
        if tuple(self.fbo.size) != size:
            self.fbo.size = size  # a new texture: the rectangle must show the new one
        texture = self.fbo.texture
        # Shown pixel for pixel: nearest sampling gives the same picture for less work.
        texture.min_filter = texture.mag_filter = "nearest"
        self._picture.texture = texture
        self._picture.pos, self._picture.size = self.pos, size
        self._shift.xy = (-self.x, -self.y)

    # Children draw into the frame buffer instead of this widget's own canvas.
    def add_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        canvas, self.canvas = self.canvas, self.fbo
        try:
            super().add_widget(widget, *args, **kwargs)
        finally:
            self.canvas = canvas

    def remove_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        canvas, self.canvas = self.canvas, self.fbo
        try:
            super().remove_widget(widget, *args, **kwargs)
        finally:
            self.canvas = canvas


class PlainScreenManager(ScreenManager):
    """Kivy's ScreenManager without its stencil clip.

    Kivy's style clips the screens with a stencil: two full-window rectangles and a stencil
    test on every pixel of every redraw. With no transition (the kiosk's screens replace
    each other at once) each screen fills the manager and nothing needs clipping; under
    software GL the stencil cost as much as the rest of a game-screen redraw.
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("transition", NoTransition())
        super().__init__(**kwargs)
        self.canvas.before.clear()
        self.canvas.after.clear()


def _no_clear(*_: object) -> None:
    """The window's clear, skipped: an opaque full-window picture is drawn over it anyway."""


def cover_window(covered: bool) -> None:
    """Skip (True) or restore (False) the window's clear before each redraw.

    While a full-window, opaque :class:`StillLayer` is on screen every pixel is painted by its
    picture, so clearing colour, depth and stencil first is wasted work: about 3 ms of a
    15-20 ms redraw under software GL. Every other screen needs the clear (its background is
    the clear colour, and a ScrollView's stencil must start empty), so the screen that owns
    the layer turns this on when it is entered and off when it is left.
    """
    from kivy.core.window import Window

    if covered:
        Window.clear = _no_clear
    else:
        Window.__dict__.pop("clear", None)

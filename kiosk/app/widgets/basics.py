"""The few building blocks every screen uses: a big button, a label, a panel, a banner.

Every interactive widget gets a ``tid`` (test id, e.g. ``"start.go"``) so GUI tests find it
in the widget tree with :func:`find` and tap it with a real touch event.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.properties import ListProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.app.widgets import theme


class Panel(BoxLayout):
    """A box with a rounded, filled background."""

    bg = ListProperty(list(theme.PANEL))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.canvas.before:
            self._color = Color(*self.bg)
            self._rect = RoundedRectangle(radius=[10])
        self.bind(pos=self._redraw, size=self._redraw, bg=self._recolor)

    def _redraw(self, *_: Any) -> None:
        self._rect.pos, self._rect.size = self.pos, self.size

    def _recolor(self, *_: Any) -> None:
        self._color.rgba = self.bg


def fill(widget: Widget, rgba: tuple[float, ...]) -> None:
    """Paint a flat background behind ``widget`` that follows its size."""
    with widget.canvas.before:
        color = Color(*rgba)
        rect = Rectangle(pos=widget.pos, size=widget.size)
    widget._fill = (color, rect)

    def follow(*_: Any) -> None:
        rect.pos, rect.size = widget.pos, widget.size

    widget.bind(pos=follow, size=follow)


def fit_font(label: Label, largest: float, wrap: bool = True, pad: float = 8) -> bool:
    """Give ``label`` the largest font (from ``largest`` down to :data:`theme.SMALL`) whose
    text fits its box whole; True when it fits, False when even the smallest is too big.

    Wrapped text is measured at the box's width with no height limit (Kivy draws only the
    lines that fit a fixed ``text_size`` height, which is how a verdict's reason lost all
    but its last line); one-line text is measured unwrapped. A binary search over whole
    pixel sizes: a handful of renders, only when the text or the box changes.
    """
    width, height = label.width - pad, label.height
    if width <= 1 or height <= 1:
        return True
    label.text_size = (width, None) if wrap else (None, None)

    def fits(size: float) -> bool:
        label.font_size = size
        label.texture_update()
        w, h = label.texture_size
        return h <= height and (wrap or w <= width)

    low, high = int(theme.SMALL), int(max(largest, theme.SMALL))
    if fits(high):
        return True
    if not fits(low):
        return False
    while high - low > 1:  # invariant: low fits, high does not
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    fits(low)
    return True


class Text(Label):
    """Wrapped text that always shows whole: the font shrinks (down to :data:`theme.SMALL`)
    until every line fits the box; the box never shows only some of the lines."""

    def __init__(
        self,
        text: str = "",
        size: int = theme.BODY,
        color: tuple[float, ...] = theme.TEXT,
        bold: bool = False,
        halign: str = "center",
        **kwargs: Any,
    ) -> None:
        super().__init__(
            text=text,
            font_size=max(size, theme.SMALL),
            color=color,
            bold=bold,
            halign=halign,
            valign="middle",
            markup=True,
            **kwargs,
        )
        self._largest = max(size, theme.SMALL)
        #: False while even the smallest font cannot show the whole text (a layout to fix).
        self.whole = True
        self._refit = Clock.create_trigger(self._fit, -1)
        self.bind(size=self._refit, text=self._refit)

    def set_largest(self, size: int) -> None:
        """A new largest font (the text still shrinks to fit)."""
        self._largest = max(size, theme.SMALL)
        self._refit()

    def _fit(self, *_: Any) -> None:
        self.whole = fit_font(self, self._largest)


class FitText(Text):
    """One line that shrinks its font (down to :data:`theme.SMALL`) rather than wrap; only a
    line too long even then is cut with "...", and :attr:`whole` says so."""

    def __init__(self, text: str = "", size: int = theme.LARGE, **kwargs: Any) -> None:
        super().__init__(text, size=size, **kwargs)
        self.max_lines = 1

    def _fit(self, *_: Any) -> None:
        self.shorten = False
        self.whole = fit_font(self, self._largest, wrap=False)
        if self.whole:  # one line that fits: a box-wide text_size lets halign place it
            self.text_size = (max(1, self.width - 8), None)
        else:
            self.shorten, self.shorten_from = True, "right"
            self.text_size = (max(1, self.width - 8), None)


class LongText(Text):
    """Wrapped text whose height follows its content (for scrolling lists)."""

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        super().__init__(text, size_hint_y=None, **kwargs)
        self.bind(texture_size=lambda *_: setattr(self, "height", max(36, self.texture_size[1] + 8)))
        self.unbind(size=self._refit)
        self.bind(width=self._refit)

    def _fit(self, *_: Any) -> None:
        self.text_size = (max(1, self.width - 8), None)


class BigButton(Button):
    """A flat, rounded, high-contrast button at least :data:`theme.TOUCH` px tall."""

    face = ListProperty(list(theme.PANEL_HI))

    def __init__(
        self,
        text: str = "",
        tid: str = "",
        on_tap: Callable[[], Any] | None = None,
        accent: bool = False,
        face: tuple[float, ...] | None = None,
        size: int = theme.BODY,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("min_height", theme.TOUCH)
        min_h = kwargs.pop("min_height")
        super().__init__(
            text=text,
            font_size=max(size, theme.SMALL),
            bold=True,
            background_normal="",
            background_down="",
            background_color=(0, 0, 0, 0),
            color=theme.ACCENT_TEXT if accent else theme.TEXT,
            halign="center",
            valign="middle",
            markup=True,
            **kwargs,
        )
        self.tid = tid
        self.face = list(face or (theme.ACCENT if accent else theme.PANEL_HI))
        if self.size_hint_y is None and self.height < min_h:
            self.height = min_h
        with self.canvas.before:
            self._color = Color(*self.face)
            self._rect = RoundedRectangle(radius=[10])
        self.bind(
            pos=self._redraw, size=self._redraw, face=self._redraw, state=self._redraw, disabled=self._redraw
        )
        self._largest = max(size, theme.SMALL)
        #: False while even the smallest font cannot show the whole label.
        self.whole = True
        self._refit = Clock.create_trigger(lambda *_: self._fit(), -1)
        self.bind(size=self._refit, text=self._refit)
        if on_tap is not None:
            self.bind(on_release=lambda *_: on_tap())

    def _redraw(self, *_: Any) -> None:
        r, g, b, a = self.face
        if self.state == "down":
            r, g, b = (min(1.0, c + 0.15) for c in (r, g, b))
        if self.disabled:
            a = 0.35
        self._color.rgba = (r, g, b, a)
        self._rect.pos = (self.x + 2, self.y + 2)
        self._rect.size = (self.width - 4, self.height - 4)

    def _fit(self) -> None:
        self.whole = fit_font(self, self._largest, pad=10)

    def set_face(self, rgba: tuple[float, ...], dark_text: bool = False) -> None:
        self.face = list(rgba)
        self.color = theme.ACCENT_TEXT if dark_text else theme.TEXT


class LongPressButton(BigButton):
    """A button that acts only when held down for ``hold`` seconds (a door for technicians:
    a passing tap does nothing, so the family never lands among the GPIO pins by mistake)."""

    def __init__(
        self, text: str = "", on_long_press: Callable[[], Any] | None = None, hold: float = 1.5, **kwargs: Any
    ):
        super().__init__(text, **kwargs)
        self.hold = hold
        self._on_long_press = on_long_press
        self._pending: Any = None
        self._pressed_by: Any = None  # the finger (touch uid) whose hold is being timed

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos) and not self.disabled:
            from kivy.clock import Clock

            self._cancel()
            self._pressed_by = touch.uid
            self._pending = Clock.schedule_once(lambda _dt: self._fire(), self.hold)
        return bool(super().on_touch_down(touch))

    def on_touch_up(self, touch: Any) -> bool:
        # Only the holding finger's lift ends the hold. Every lift reaches this button, and in a
        # scrolling list a tap's lift comes 0.2 s after the tap (the list waits to see whether
        # the finger scrolls): taken for the end of a hold begun in between, it cancelled the
        # hold (a GUI test's long press after a passing tap failed so, on a slow frame).
        if touch.uid == self._pressed_by:
            self._cancel()
        return bool(super().on_touch_up(touch))

    def _cancel(self) -> None:
        self._pressed_by = None
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    def _fire(self) -> None:
        self._pending = None
        if self._on_long_press is not None:
            self._on_long_press()


class Stepper(BoxLayout):
    """``[-] label [+]`` for a whole number in a range; ``on_change`` gets the new value."""

    def __init__(
        self,
        tid: str,
        value: int,
        low: int,
        high: int,
        fmt: str | Callable[[int], str] = "{}",
        on_change: Callable[[int], Any] | None = None,
        step: int = 1,
        **kwargs: Any,
    ) -> None:
        super().__init__(spacing=2, **kwargs)
        self.tid = tid
        self.value, self.low, self.high, self.fmt, self.step = value, low, high, fmt, step
        self._on_change = on_change
        vertical = self.orientation == "vertical"
        # Across: [-] value [+]. Up and down (a column per letter): [+] over value over [-].
        shape: dict[str, Any] = (
            {"size_hint_y": None, "height": theme.TOUCH}
            if vertical
            else {"size_hint_x": None, "width": theme.TOUCH}
        )
        less = BigButton(
            "-", tid=f"{tid}.less", on_tap=lambda: self.change(-self.step), size=theme.LARGE, **shape
        )
        more = BigButton(
            "+", tid=f"{tid}.more", on_tap=lambda: self.change(self.step), size=theme.LARGE, **shape
        )
        self.label = Text(self._show(value), size=theme.BODY, bold=True)
        if vertical:
            self.label.size_hint_y, self.label.height = None, 40
            self.size_hint_y, self.height = None, 2 * theme.TOUCH + 40 + 4
        for part in (more, self.label, less) if vertical else (less, self.label, more):
            self.add_widget(part)

    def _show(self, value: int) -> str:
        """The value in words: a format string ("{} s") or a function (0 -> "No timer")."""
        return self.fmt(value) if callable(self.fmt) else self.fmt.format(value)

    def change(self, delta: int) -> None:
        self.set(max(self.low, min(self.high, self.value + delta)))

    def set(self, value: int) -> None:
        self.value = value
        self.label.text = self._show(value)
        if self._on_change is not None:
            self._on_change(value)


class Banner(BoxLayout):
    """A strip at the top of the window for news and problems in plain words.

    Information fades after a few seconds; a problem stays until it is tapped (then the next
    one, if several are waiting) or until the screen it was raised on is left (:meth:`leave`).
    The app lays the screen out below the strip (``TableKeeperApp.build``), so a message never
    covers a button; its height is at most :attr:`MOST` of the window (the font shrinks first).
    """

    INFO_SECONDS: ClassVar[float] = 4.0
    #: The largest share of the window's height a message may take from the screen below it.
    MOST: ClassVar[float] = 0.25

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(size_hint_y=None, height=0, opacity=0, padding=(6, 3), **kwargs)
        # Opaque: the game screen skips the window's clear (widgets.still.cover_window), so the
        # strip paints every pixel it owns, its margins too.
        fill(self, theme.BG)
        self.label = BigButton("", tid="banner", on_tap=self.hide, face=theme.BAD, size=theme.BODY)
        self.add_widget(self.label)
        #: (message, level, the screen it was raised on, the frame it was raised in)
        self.messages: list[tuple[str, str, str, int]] = []
        self._fade: Any = None

    def show(self, message: str, level: str = "error", screen: str = "") -> None:
        from kivy.clock import Clock

        if not message or any(m[0] == message for m in self.messages):
            return
        if level != "error":  # news replaces news; problems queue up
            self.messages = [m for m in self.messages if m[1] == "error"]
        self.messages.append((message, level, screen, Clock.frames))
        self.messages.sort(key=lambda m: m[1] != "error")
        self._render()

    def leave(self, screen: str, to: str) -> None:
        """The table leaves ``screen`` for ``to``: its messages go, except one raised just now (a
        screen that says why and moves on in the same tap: that message belongs to ``to``)."""
        from kivy.clock import Clock

        now = Clock.frames
        kept = [
            (m[0], m[1], to, m[3]) if m[3] == now else m
            for m in self.messages
            if m[2] != screen or m[3] == now
        ]
        if len(kept) != len(self.messages):
            self.messages = kept
            self._render()
        else:
            self.messages = kept

    def _render(self) -> None:
        from kivy.clock import Clock

        if self._fade is not None:
            self._fade.cancel()
            self._fade = None
        if not self.messages:
            self.height, self.opacity, self.disabled = 0, 0, True
            return
        message, level = self.messages[0][:2]
        more = f"  (+{len(self.messages) - 1} more)" if len(self.messages) > 1 else ""
        self.label.text = message + more
        self.label.set_face(theme.BAD if level == "error" else theme.INFO)
        # A long message gets the lines it needs, wrapped at the window's width (the strip's
        # own width is not laid out yet when the first problems arrive at start-up), in the
        # largest font whose lines fit the strip's most.
        from kivy.core.window import Window

        most = int(Window.height * self.MOST)
        width = Window.width - 32
        self.label.text_size = (width, None)
        for size in range(theme.BODY, theme.SMALL - 1, -1):
            self.label.font_size = size
            self.label.texture_update()
            if self.label.texture_size[1] + 22 <= most:
                break
        # The whole message is the button that taps it away: a full touch target, even on one line.
        pad = self.padding[1] + self.padding[3]
        self.height = min(most, max(theme.TOUCH + pad, self.label.texture_size[1] + 22))
        self.opacity, self.disabled = 1, False
        if level != "error":
            self._fade = Clock.schedule_once(lambda _dt: self.hide(), self.INFO_SECONDS)

    def hide(self) -> None:
        if self.messages:
            self.messages.pop(0)
        self._render()

    def on_touch_down(self, touch: Any) -> bool:
        # Hidden, the banner must not swallow a tap meant for what is under it (its button
        # keeps its old place until the next layout pass).
        if not self.messages:
            return False
        return bool(super().on_touch_down(touch))

    @property
    def showing(self) -> str:
        return self.messages[0][0] if self.messages else ""


def find(root: Widget, tid: str) -> Widget | None:
    """The widget with this test id under ``root`` (depth first), or None."""
    for widget in root.walk(restrict=True):
        if getattr(widget, "tid", None) == tid:
            return widget
    return None


def find_all(root: Widget, prefix: str) -> Iterator[Widget]:
    for widget in root.walk(restrict=True):
        if str(getattr(widget, "tid", "")).startswith(prefix):
            yield widget

"""The clipping audit: is any label's text cut, measured apart from the widget's own fitting?

Each visible label's text is rendered again by Kivy's core text renderer at the label's font,
wrapped at the label's wrap width with no line limit and no shortening; the text is cut when
that rendering is taller or wider than the label's box (a fixed ``text_size`` height drops
lines, a ``shorten`` cuts with "...", a too-small box lets lines spill over its neighbours).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: Pixels of slack for rounding in Kivy's text layout.
SLACK = 2


def shown(widget: Any, root: Any) -> bool:
    """On screen: it and every parent up to the root have a size and are not transparent."""
    visible = widget.opacity > 0 and widget.height > 0 and widget.width > 0
    parent = widget.parent
    for _ in range(40):  # a Window is its own parent: count the steps
        if not visible or parent is None or parent is root:
            break
        visible = parent.opacity > 0 and parent.height > 0 and parent.width > 0
        parent = parent.parent
    return visible


def cut(label: Any) -> str:
    """Why this label's text does not fit its box ("" when it fits)."""
    from kivy.core.text import Label as CoreLabel
    from kivy.core.text.markup import MarkupLabel

    text = str(label.text)
    if not text.strip():
        return ""
    wrap = label.text_size[0] if label.text_size and label.text_size[0] else None
    renderer = MarkupLabel if label.markup else CoreLabel
    core = renderer(
        text=text,
        font_size=label.font_size,
        font_name=label.font_name,
        bold=label.bold,
        halign=label.halign,
        text_size=(wrap, None),
        padding=label.padding,
    )
    core.refresh()
    width, height = core.texture.size
    if height > label.height + SLACK:
        return f"{height:.0f} px of text in a {label.height:.0f} px box"
    if width > label.width + SLACK:
        return f"{width:.0f} px of text in a {label.width:.0f} px wide box"
    return ""


def audit_clipping(root: Any, where: str) -> list[str]:
    """Every visible label on the screen whose text is cut, in words."""
    from kivy.uix.label import Label

    found = []
    for widget in root.walk(restrict=True):
        if isinstance(widget, Label) and shown(widget, root):
            why = cut(widget)
            if why:
                found.append(
                    f"{where}: {getattr(widget, 'tid', '') or type(widget).__name__} "
                    f"{widget.text[:40]!r}: {why}"
                )
    return found


# ---------------------------------------------------------------------- overlaps
#: Pixels two boxes may share before they count as one covering the other (anti-aliasing,
#: rounding in Kivy's layout).
OVERLAP = 2

Box = tuple[float, float, float, float]  # left, bottom, right, top in window pixels


def _window_box(widget: Any, x: float, y: float, w: float, h: float) -> Box:
    x0, y0 = widget.to_window(x, y)
    x1, y1 = widget.to_window(x + w, y + h)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _cut_to(box: Box, frame: Box) -> Box | None:
    left, bottom = max(box[0], frame[0]), max(box[1], frame[1])
    right, top = min(box[2], frame[2]), min(box[3], frame[3])
    return (left, bottom, right, top) if right - left > OVERLAP and top - bottom > OVERLAP else None


def _seen_through(widget: Any, box: Box, root: Any) -> Box | None:
    """The part of ``box`` a person sees: a scrolling list shows only what is inside it."""
    from kivy.core.window import Window
    from kivy.uix.scrollview import ScrollView

    seen: Box | None = _cut_to(box, (0, 0, Window.width, Window.height))
    parent = widget.parent
    for _ in range(40):
        if seen is None or parent is None or parent is root or parent is parent.parent:
            break
        if isinstance(parent, ScrollView):
            seen = _cut_to(seen, _window_box(parent, parent.x, parent.y, parent.width, parent.height))
        parent = parent.parent
    return seen


def text_boxes(root: Any) -> list[tuple[str, str, Box, Any, int]]:
    """Every visible text on screen: (name, kind, window box, widget, group).

    A button is its whole face (a finger's target); a label is the text it draws (its
    texture, centred in the label); a board's text is each letter, number or badge it paints.
    A screen the manager is leaving (for a frame both are attached) is not on screen.
    """
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    found = []
    for widget in root.walk(restrict=True):
        if not shown(widget, root) or _leaving(widget):
            continue
        name = getattr(widget, "tid", "") or type(widget).__name__
        if isinstance(widget, Button) and (widget.text.strip() or getattr(widget, "tid", "")):
            box = _window_box(widget, widget.x, widget.y, widget.width, widget.height)
            kind = "button"
        elif isinstance(widget, Label) and widget.text.strip():
            tw, th = widget.texture_size
            box = _window_box(widget, widget.center_x - tw / 2, widget.center_y - th / 2, tw, th)
            kind = "label"
        else:
            for text, (x, y, w, h), group in getattr(widget, "painted_boxes", ()):
                seen = _seen_through(widget, _window_box(widget, x, y, w, h), root)
                if seen is not None:
                    found.append((f"{name} {text!r}", "painted", seen, widget, group))
            continue
        seen = _seen_through(widget, box, root)
        if seen is not None:
            found.append((f"{name} {widget.text[:30]!r}", kind, seen, widget, 0))
    return found


def _lineage(widget: Any, limit: int = 60) -> Iterator[Any]:
    """The widget, then its parents up to the window (a parent that is its own parent ends it)."""
    for _ in range(limit):
        if widget is None or widget is widget.parent:
            return
        yield widget
        widget = widget.parent


def _leaving(widget: Any) -> bool:
    """Inside a screen that is not its manager's current one."""
    from kivy.uix.screenmanager import Screen

    for parent in _lineage(widget):
        if isinstance(parent, Screen) and parent.manager is not None:
            return parent.manager.current_screen is not parent
    return False


def _related(a: Any, b: Any) -> bool:
    """One inside the other (a label on its panel, a button's own text)."""
    return any(parent is outer for inner, outer in ((a, b), (b, a)) for parent in _lineage(inner.parent, 40))


def audit_overlaps(
    root: Any, where: str, items: list[tuple[str, str, Box, Any, int]] | None = None
) -> list[str]:
    """Every pair of visible texts or buttons that cover each other, in words.

    Left out: a widget and what it holds (containment), texts a board paints as one mark, and
    a layer meant to lie over the screen (a widget with ``layer_over = True``; none yet: a
    popup over a dimmed screen would be one). The message banner is no such layer: it takes a
    strip at the top and the screen is laid out below it, so it covers nothing.
    """
    items = [i for i in (text_boxes(root) if items is None else items) if not _layered(i[3])]
    found = []
    for n, (name_a, kind_a, a, wa, ga) in enumerate(items):
        for name_b, _kind_b, b, wb, gb in items[n + 1 :]:
            if wa is wb and (kind_a != "painted" or ga == gb):
                continue
            if wa is not wb and _related(wa, wb):
                continue
            share = _cut_to(a, b)
            if share is None:
                continue
            width, height = share[2] - share[0], share[3] - share[1]
            found.append(f"{where}: {name_a} and {name_b} overlap ({width:.0f}x{height:.0f} px)")
    return found


def _layered(widget: Any) -> bool:
    return any(getattr(parent, "layer_over", False) for parent in _lineage(widget, 40))


#: Overlaps another branch is fixing: (pattern of the audit's line, what covers what). The audit
#: lets these through so the rest of it holds; each gets a strict expected failure in
#: tests/test_kiosk_gui_overlaps.py, which fails (XPASS) once the overlap is gone, so the entry
#: can be dropped and the audit tightened. None now: the start screen's banner over the Word on
#: the Street button and the Upwords height badge over a stacked letter were fixed on main.
KNOWN_OVERLAPS: list[tuple[str, str]] = []


def known_overlap(line: str) -> str | None:
    """Why an overlap the audit found is known and left for now, or None."""
    import re

    for pattern, reason in KNOWN_OVERLAPS:
        if re.search(pattern, line):
            return reason
    return None

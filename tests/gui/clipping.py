"""The clipping audit: is any label's text cut, measured apart from the widget's own fitting?

Each visible label's text is rendered again by Kivy's core text renderer at the label's font,
wrapped at the label's wrap width with no line limit and no shortening; the text is cut when
that rendering is taller or wider than the label's box (a fixed ``text_size`` height drops
lines, a ``shorten`` cuts with "...", a too-small box lets lines spill over its neighbours).
"""

from __future__ import annotations

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

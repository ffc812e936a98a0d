"""The name form: a suggested name is a hint that the first letter typed replaces."""

from __future__ import annotations

from typing import Any

from play_steps import Steps


def name_hint(ui: Any) -> Steps:
    """Rename side 1 by typing straight away (no Clear), keep side 2's suggestion with OK."""
    yield
    yield from ui.press("start.game.word-on-the-street")
    ui.note("suggested", ui.text("start.name.0"))
    yield from ui.press("start.name.0")
    ui.note("field_hint", ui.text("names.field"))
    ui.type("Pa", keyboard="names.kb")
    yield
    ui.note("field_typed", ui.text("names.field"))
    ui.type("rents", keyboard="names.kb")
    yield from ui.shot("names-typed-over-hint")
    yield from ui.press("names.ok")
    ui.note("renamed", ui.text("start.name.0"))
    ui.note("other", ui.text("start.name.1"))
    yield from ui.press("start.name.1")
    yield from ui.press("names.kb.del")  # a delete on a hint clears nothing and keeps nothing
    ui.note("field_after_del", ui.text("names.field"))
    yield from ui.press("names.ok")
    ui.note("kept", ui.text("start.name.1"))

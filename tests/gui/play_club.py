"""Club night on the kiosk: play a word, open the menu's Club screen, show the table's QR code."""

from __future__ import annotations

from typing import Any

from play_steps import Steps, enter_word, pick_game


def _texts(widget: Any) -> list[str]:
    found = [str(getattr(widget, "text", ""))]
    for child in widget.children:
        found += _texts(child)
    return found


def club_qr(ui: Any) -> Steps:
    """Word on the Street with the club on: PURPLE is published; the Club screen shows the QR."""
    yield
    ui.note("banner_at_start", ui.banners)
    yield from pick_game(ui, "word-on-the-street")
    yield from enter_word(ui, "PURPLE")
    assert ui.screen == "game", ui.screen
    yield from ui.press("game.menu")
    yield from ui.press("history.club")
    assert ui.screen == "club", ui.screen
    club = ui.app.screens["club"]
    # until the broker has acknowledged every message (at most 10 s)
    yield from ui.wait_for(lambda: "every event" in club.state.text, 100, 0.1)
    yield 1.1  # the screen's own once-a-second refresh shows it
    ui.app.banner.hide()
    yield from ui.shot("club")
    ui.note("heading", club.heading.text)
    ui.note("address", club.address.text)
    ui.note("state", club.state.text)
    ui.note("all_texts", [t for t in _texts(ui.app.root) if t])
    ui.note("events", [e["type"] for e in ui.app.session.game.events])
    yield from ui.press("club.back")
    ui.note("back_to", ui.screen)

"""The settings screen's house words: every house rule listed, a word added or struck by
typing it, a rule removed with one tap — what ``tablekeeper house`` does, on the screen."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Text
from kiosk.play import playbook


def house_rows(screen: Any) -> None:
    """Add the house-word rows to ``screen.rows`` (a SettingsScreen)."""
    session = screen.session
    buttons = BoxLayout(spacing=8, size_hint_y=None, height=theme.TOUCH)
    buttons.add_widget(Text("House words", size=theme.BODY, halign="left"))
    buttons.add_widget(BigButton("Allow a word", tid="settings.house", on_tap=lambda: _type(screen, "allow")))
    buttons.add_widget(
        BigButton("Strike a word", tid="settings.house_strike", on_tap=lambda: _type(screen, "strike"))
    )
    screen.rows.add_widget(buttons)
    try:
        entries = list(session.house_words().entries())
    except Exception as exc:  # a damaged file: say so, the rest of the settings still work
        screen.rows.add_widget(
            Text(
                f"The house words cannot be read: {exc}",
                size=theme.SMALL,
                color=theme.BAD,
                size_hint_y=None,
                height=48,
            )
        )
        return
    if not entries:
        screen.rows.add_widget(
            Text("No house words yet.", size=theme.SMALL, color=theme.MUTED, size_hint_y=None, height=36)
        )
    for i, entry in enumerate(entries):
        where = "all games" if entry.game is None else playbook.guide(entry.game).title
        verb = "allowed" if entry.action == "allow" else "struck"
        row = BoxLayout(spacing=8, size_hint_y=None, height=theme.TOUCH)
        label = Text(f"[b]{entry.word}[/b]: {verb} in {where}", size=theme.BODY, halign="left")
        label.tid = f"settings.house.{i}"
        row.add_widget(label)
        row.add_widget(
            BigButton(
                "Remove",
                tid=f"settings.house.{i}.remove",
                size_hint_x=None,
                width=160,
                on_tap=lambda e=entry: _remove(screen, e),
            )
        )
        screen.rows.add_widget(row)


def _type(screen: Any, action: str) -> None:
    def done(word: str) -> None:
        if word:
            _change(screen, word, action)
        screen.app.go("settings", keep=True)

    title = "A house word for every game" if action == "allow" else "A word to strike from every game"
    screen.app.go("names", title=title, on_done=done, recent=False, back="settings")


def _change(screen: Any, word: str, action: str) -> None:
    if action == "allow":
        result = screen.session.add_house_word(word)
        screen.app.warn(result.message, "info" if result.ok else "error")
        return
    try:
        entry = screen.session.house_words().strike(word)
    except (ValueError, OSError) as exc:
        screen.app.warn(f"{word.upper()} was not struck: {exc}")
        return
    screen.app.warn(f"{entry.word} is now struck in all games.", "info")


def _remove(screen: Any, entry: Any) -> None:
    try:
        screen.session.house_words().remove(entry.word, entry.game)
    except (KeyError, ValueError, OSError) as exc:
        screen.app.warn(f"The house rule was not removed: {str(exc).strip(chr(39))}")
    else:
        screen.app.warn(f"{entry.word} is no longer a house rule.", "info")
    screen.prepare(keep=True)

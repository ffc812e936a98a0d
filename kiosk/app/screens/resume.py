"""Unfinished games: every game not played to its end, to resume or (two taps) give up.

Reached from the start screen's Resume button when more than one game is waiting. Each
row says what a person needs to recognise the game: which game, who plays, when it was
started and the score now.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Panel, Text
from kiosk.play import playbook
from kiosk.play.wording import plural, scores_line, when


class ResumeScreen(KioskScreen):
    screen_name = "resume"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.bar = self.title_bar(
            "Unfinished games", BigButton("Back", tid="resume.back", on_tap=lambda: self.app.go("start"))
        )
        self.body.add_widget(self.bar)
        scroll = ScrollView(do_scroll_x=False, bar_width=10)
        self.rows = GridLayout(cols=1, spacing=theme.GAP, size_hint_y=None)
        self.rows.bind(minimum_height=self.rows.setter("height"))
        scroll.add_widget(self.rows)
        self.body.add_widget(scroll)
        self._armed: int | None = None

    def prepare(self, **_context: Any) -> None:
        self._armed = None
        self._draw()

    def _draw(self) -> None:
        self.rows.clear_widgets()
        games = self.session.unfinished()
        self.bar.title.text = f"Unfinished games ({len(games)})"
        if not games:
            self.rows.add_widget(Text("No game is waiting.", size=theme.BODY, size_hint_y=None, height=60))
        for i, (summary, scores) in enumerate(games):
            row = Panel(
                size_hint_y=None, height=2 * theme.TOUCH + 3 * theme.GAP, padding=theme.GAP, spacing=theme.GAP
            )
            title = playbook.guide(summary.game).title
            turns = summary.events
            text = (
                f"[b]{title}[/b]: {scores_line(scores) or ', '.join(summary.players)}\n"
                f"[size={theme.SMALL}]started {when(summary.started)}, {plural(turns, 'entry')}"
                f"[/size]"
            ).replace("entrys", "entries")
            label = Text(text, size=theme.BODY, halign="left")
            label.tid = f"resume.game.{i}"
            row.add_widget(label)
            buttons = BoxLayout(orientation="vertical", spacing=4, size_hint_x=None, width=190)
            buttons.add_widget(
                BigButton(
                    "Resume",
                    tid=f"resume.go.{i}",
                    accent=True,
                    on_tap=lambda gid=summary.id: self.resume(gid),
                )
            )
            give_up = BigButton(
                "Give up",
                tid=f"resume.abandon.{i}",
                face=theme.BAD,
                size=theme.SMALL,
                on_tap=lambda gid=summary.id, i=i: self.abandon(gid, i),
            )
            if self._armed == summary.id:
                give_up.text = "Tap again to give up"
            buttons.add_widget(give_up)
            row.add_widget(buttons)
            self.rows.add_widget(row)

    def resume(self, game_id: int) -> None:
        self.session.leave()
        if self.session.resume(game_id):
            self.app.go("game", fresh=True)
        else:
            self.app.show_problems()
            self._draw()

    def abandon(self, game_id: int, index: int) -> None:
        """Two taps: the first arms it (a mis-tap never throws a game away)."""
        if self._armed != game_id:
            self._armed = game_id
            self._draw()
            return
        self._armed = None
        self.session.abandon_game(game_id)
        self.app.show_problems()
        if not self.session.unfinished():
            self.app.go("start")
            return
        self._draw()

"""History and menu: every turn, score and ruling of this game; or the games played so far.

Reached from the game screen's Menu button (with the game's menu: settings, give up) and
from the start screen's Games button (the list of games and each player's record).
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, LongText, Text
from kiosk.play import playbook
from kiosk.play.wording import verdict_word, when


class HistoryScreen(KioskScreen):
    screen_name = "history"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.stats = False
        self.leave_button = BigButton("Leave game", tid="history.leave", on_tap=self.leave)
        club = (  # club night on: the table's QR code and how far the publishing is
            [BigButton("Club", tid="history.club", on_tap=lambda: self.app.go("club"))]
            if getattr(app, "club", None) is not None
            else []
        )
        self.bar = self.title_bar(
            "History",
            self.leave_button,
            *club,
            BigButton("Settings", tid="history.settings", on_tap=lambda: self.app.go("settings")),
            BigButton("Back", tid="history.back", on_tap=self.back, accent=True),
        )
        self.body.add_widget(self.bar)
        self.scroll = ScrollView(do_scroll_x=False, bar_width=12)
        self.lines = GridLayout(cols=1, spacing=2, size_hint_y=None)
        self.lines.bind(minimum_height=self.lines.setter("height"))
        self.scroll.add_widget(self.lines)
        self.body.add_widget(self.scroll)
        # Giving up is kept apart from the everyday buttons: bottom right, and two taps.
        self.danger = BoxLayout(size_hint_y=None, height=theme.TOUCH, spacing=theme.GAP)
        self.danger_hint = Text(
            "Leave game keeps it to resume later.", size=theme.SMALL, color=theme.MUTED, halign="left"
        )
        self.fix_button = BigButton(
            "Correct a turn",
            tid="history.correct",
            face=theme.INFO,
            size_hint_x=None,
            width=220,
            on_tap=lambda: self.app.go("correct"),
        )
        self.danger.add_widget(self.fix_button)
        self.danger.add_widget(self.danger_hint)
        self.give_up = BigButton(
            "Give up game",
            tid="history.abandon",
            on_tap=self.abandon,
            face=theme.BAD,
            size_hint_x=None,
            width=260,
        )
        self.danger.add_widget(self.give_up)
        self.body.add_widget(self.danger)
        self._armed = False

    def prepare(self, stats: bool = False, **_context: Any) -> None:
        self.stats = stats or self.session.game is None
        self._armed = False
        self.give_up.text = "Give up game"
        for part in (self.give_up, self.leave_button):
            part.disabled = self.stats
            part.opacity = 0 if self.stats else 1
        self.danger.height = 0 if self.stats else theme.TOUCH
        self.danger.opacity = 0 if self.stats else 1
        self.lines.clear_widgets()
        if self.stats:
            self.bar.title.text = "Games played"
            self._games()
        else:
            self._turns()

    def _line(self, text: str, colour: tuple[float, ...] = theme.TEXT) -> None:
        self.lines.add_widget(LongText(text, size=theme.BODY, color=colour, halign="left"))

    def _turns(self) -> None:
        game = self.session.game
        self.bar.title.text = f"{game.title}: history"
        totals = dict.fromkeys(game.players, 0)
        turns = game.turns
        if not turns:
            self._line("No turn yet.", theme.MUTED)
        for n, turn in enumerate(turns, start=1):
            totals[turn.player] = totals.get(turn.player, 0) + turn.points
            self._line(
                f"{n}. [b]{turn.player}[/b]  {turn.points:+d}  {turn.summary}  (total {totals[turn.player]})"
            )
            if turn.ruling is not None:
                colour = theme.GOOD if turn.ruling.legal else theme.BAD
                verdict = verdict_word(turn.ruling)
                self._line(f"     {verdict}: {turn.ruling.reason} - {turn.ruling.rule}", colour)
        self._line("Scores now: " + ", ".join(f"{p} {s}" for p, s in game.scores().items()), theme.ACCENT)

    def _games(self) -> None:
        store = self.session.log
        try:
            games = store.games(12)
            stats = store.player_stats()
        except Exception as exc:
            self._line(f"The game log cannot be read: {exc}", theme.BAD)
            return
        if not games:
            self._line("No game played yet.", theme.MUTED)
        for g in games:
            who = ", ".join(g.players)
            won = (
                f", won by {g.winners[0]}"
                if len(g.winners) == 1
                else f", a tie: {' & '.join(g.winners)}"
                if g.winners
                else ""
            )
            status = {"playing": "unfinished", "abandoned": "given up"}.get(g.status, g.status)
            title = playbook.guide(g.game).title if g.game in playbook.GAME_ORDER else g.game
            self._line(f"[b]{title}[/b], {when(g.started)}: {who} ({status}{won})")
        if stats:
            self._line("Players: games / wins / best turn", theme.ACCENT)
            for name, s in sorted(stats.items()):
                self._line(
                    f"   {name}: {s.get('games', 0)} / {s.get('wins', 0)} / {s.get('best_turn') or '-'}"
                )

    def back(self) -> None:
        self.app.go("game" if self.session.game is not None and not self.stats else "start")

    def leave(self) -> None:
        """Back to the start screen; the game stays unfinished in the log, listed to resume."""
        game = self.session.game
        self.session.leave()
        if game is not None:
            self.app.warn(f"{game.title} is kept: Resume on the start screen brings it back.", "info")
        self.app.go("start")

    def abandon(self) -> None:
        """Two taps: the first arms it (a mis-tap never throws a game away)."""
        if not self._armed:
            self._armed = True
            self.give_up.text = "Tap again to give up"
            return
        self.session.abandon()
        self.app.go("start")

"""End of game: the winner in giant type, the final scores, and what to do next.

The last word can still be challenged (and any ruling undone) from here; the result is
written to the log's statistics only when the table leaves this screen for a new game.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Text
from kiosk.play import playbook
from kiosk.play.summary import summarise
from kiosk.play.wording import plural, winner_line


class EndScreen(KioskScreen):
    screen_name = "end"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.body.add_widget(
            Text("Game over", size=theme.LARGE, color=theme.MUTED, size_hint_y=None, height=34)
        )
        # The winner and the scores share what the fixed rows leave (a message at the top of
        # the window takes some for a moment): the giant type shrinks before anything is cut.
        self.winner = Text("", size=theme.GIANT, bold=True, color=theme.ACCENT, size_hint_y=1.2)
        self.winner.tid = "end.winner"
        self.body.add_widget(self.winner)
        self.how = Text("", size=theme.BODY, color=theme.MUTED, size_hint_y=None, height=34)
        self.how.tid = "end.how"
        self.body.add_widget(self.how)
        #: What the end took off whom and why (Upwords: the tiles left on each rack, rule 6F).
        self.deducted = Text("", size=theme.BODY, color=theme.WARN, size_hint_y=None, height=0)
        self.deducted.tid = "end.deducted"
        self.body.add_widget(self.deducted)
        middle = BoxLayout(spacing=theme.GAP)
        self.table = BoxLayout(orientation="vertical", spacing=2)
        middle.add_widget(self.table)
        self.summary = Text("", size=theme.BODY, color=theme.TEXT, halign="left", size_hint_x=1.3)
        self.summary.tid = "end.summary"
        middle.add_widget(self.summary)
        self.body.add_widget(middle)
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.TOUCH + 6)
        self.challenge = BigButton(
            "Challenge last word",
            tid="end.challenge",
            face=theme.BAD,
            on_tap=lambda: self.app.go("challenge"),
        )
        row.add_widget(self.challenge)
        row.add_widget(BigButton("Undo", tid="end.undo", on_tap=self.undo))
        row.add_widget(BigButton("History", tid="end.history", on_tap=lambda: self.app.go("history")))
        row.add_widget(BigButton("Rematch", tid="end.rematch", face=theme.GOOD, on_tap=self.rematch))
        row.add_widget(BigButton("New game", tid="end.new", accent=True, on_tap=self.new_game))
        self.body.add_widget(row)

    def prepare(self, **_context: Any) -> None:
        game = self.session.game
        if game is None or game.outcome() is None:
            return
        outcome = game.outcome()
        names = outcome.winners
        guide = playbook.guide(game.name)
        self.winner.text = winner_line(names, guide.side)
        self.how.text = outcome.termination
        lines = deduction_lines(game)
        if lines:
            first = game.deductions()[0]
            self.how.text = f"{outcome.termination}: {-first.points // first.tiles} points off each tile left"
        self.deducted.text = "\n".join(lines)
        self.deducted.height = 26 * len(lines)
        self.deducted.opacity = 1 if lines else 0
        self.table.clear_widgets()
        scores = game.scores()
        lower = playbook.guide(game.name).lower_wins
        for name, score in sorted(scores.items(), key=lambda kv: kv[1], reverse=not lower):
            colour = theme.ACCENT if name in names else theme.TEXT
            self.table.add_widget(
                Text(f"{name}:  {score}", size=theme.LARGE, bold=name in names, color=colour)
            )
        self.challenge.disabled = self.session.challenge_target() is None
        try:
            past = self.session.log.games(200)
        except Exception:
            past = []
        self.summary.text = "\n".join(summarise(game, past, lower, guide.unit).lines())

    def rematch(self) -> None:
        """Same players and options; the first player moves to the next seat."""
        result = self.session.rematch()
        if not result.ok:
            self.app.warn(result.message)
            return
        self.app.go("game", fresh=True)
        self.app.news(f"Rematch: {result.message}")

    def new_game(self) -> None:
        self.session.close_game()
        self.app.go("start")


def deduction_lines(game: Any) -> list[str]:
    """'Bob: 3 tiles left, -15 (rule 6F)': what the end of the game took off each player."""
    deductions = getattr(game, "deductions", None)
    if not callable(deductions):
        return []
    return [
        f"{d.player}: {plural(d.tiles, 'tile')} left, {d.points} ({_short(d.rule)})" for d in deductions()
    ]


def _short(rule: str) -> str:
    """"Upwords, rule 6F 'Scoring'" -> "rule 6F": the game is on the screen already."""
    return rule.split(", ", 1)[-1].split(" '", 1)[0]

"""The end of an Upwords or Option game: what each player has left on the rack.

Upwords counts the tiles left itself (the engine knows every rack's count) and shows what
each player will lose for them (rule 6F, 5 points a tile) before anyone confirms; with tiles
still in the bag the game ends only when the players agree to stop (docs/rulings.md). Option
takes the points of both sides of the prisms left, entered as one total per rack.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Stepper, Text
from kiosk.play.wording import plural


class TallyScreen(KioskScreen):
    """The end of an Upwords or Option game: what each player has left."""

    screen_name = "tally"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.kind = ""
        self.done_button = BigButton("End game", tid="tally.done", on_tap=self.done, accent=True)
        self.bar = self.title_bar(
            "End of the game",
            BigButton("Back", tid="tally.back", on_tap=lambda: self.app.go("game")),
            self.done_button,
        )
        self.done_button.width = 220
        self.body.add_widget(self.bar)
        self.rows = BoxLayout(orientation="vertical", spacing=6)
        self.body.add_widget(self.rows)
        self.steppers: dict[str, Stepper] = {}

    def prepare(self, kind: str = "", **_context: Any) -> None:
        game = self.session.game
        self.kind = kind or (game.name if game else "")
        self.rows.clear_widgets()
        self.steppers = {}
        if game is None:
            return
        if self.kind == "upwords":
            self._upwords(game)
            return
        self.bar.title.text = "End: points left on the rack (both sides)"
        self.done_button.text = "End game"
        for i, name in enumerate(game.players):
            row = BoxLayout(spacing=8, size_hint_y=None, height=theme.TOUCH)
            row.add_widget(Text(name, size=theme.LARGE, bold=True, halign="left"))
            stepper = Stepper(f"tally.{i}", 0, 0, 200 if self.kind == "option" else 7, "{}")
            self.steppers[name] = stepper
            row.add_widget(stepper)
            self.rows.add_widget(row)
        self.rows.add_widget(Text("", size=theme.SMALL))

    def _upwords(self, game: Any) -> None:
        """Each rack's count and what it would cost, as the engine would end the game now:
        nothing to count or type."""
        bag = game.bag
        ended, _why = self.session.try_event(self._upwords_end(game))
        lost = {d.player: d for d in ended.deductions()} if ended is not None else {}
        self.bar.title.text = "End the game now?"
        self.done_button.text = "We agree: end" if bag else "End game"
        for i, (name, left) in enumerate(game.racks.items()):
            row = BoxLayout(spacing=8, size_hint_y=None, height=theme.TOUCH - 8)
            row.add_widget(Text(name, size=theme.LARGE, bold=True, halign="left"))
            now = game.scores().get(name, 0)
            then = ended.scores().get(name, now) if ended is not None else now
            cost = (f"{plural(left, 'tile')} left: {lost[name].points} ({now} → {then})" if name in lost
                    else f"no tiles left ({now})")
            label = Text(cost, size=theme.BODY, halign="right", color=theme.WARN if left else theme.TEXT)
            label.tid = f"tally.left.{i}"
            row.add_widget(label)
            self.rows.add_widget(row)
        why = (
            f"{plural(bag, 'tile')} still in the bag: the game ends here only if everyone agrees to stop. "
            if bag
            else "The bag is empty: end the game when no one can make a word. "
        )
        rate = next(iter(lost.values()), None)
        each = f"{-rate.points // rate.tiles} points" if rate is not None else "points"
        note = Text(
            f"{why}Each player loses {each} for every tile left on the rack (rule 6F). "
            "Back to keep playing.",
            size=theme.BODY,
            color=theme.MUTED,
        )
        note.tid = "tally.note"
        self.rows.add_widget(note)

    @staticmethod
    def _upwords_end(game: Any) -> dict[str, Any]:
        """The engine's own counts; with tiles in the bag only the players' agreement ends it."""
        return {"type": "end", "tiles_left": dict(game.racks), "agreed": bool(game.bag)}

    def done(self) -> None:
        game = self.session.game
        if game is None:
            return
        if self.kind == "upwords":
            event = self._upwords_end(game)
        else:
            racks = game.racks
            counts = racks() if callable(racks) else racks
            event = {
                "type": "end",
                "racks": {n: _rack(counts.get(n, 0), s.value) for n, s in self.steppers.items()},
            }
        self.app.screens["entry"].submit(event)


def _rack(prisms: int, total: int) -> list[list[int]]:
    """A rack of ``prisms`` prisms worth ``total`` points in all (see docs/rulings.md, Kiosk)."""
    if prisms == 0:
        return []
    return [[total, 0]] + [[0, 0] for _ in range(prisms - 1)]

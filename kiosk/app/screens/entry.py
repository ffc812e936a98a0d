"""Turn entry by touch: the word (or tiles, die, cards) typed on a big keyboard.

The screen is the same for every game — a field, a row of the game's own controls, a row
of its other moves (pass, no word, timeout…) and the keyboard; the game-specific part is a
*form* from :mod:`kiosk.app.screens.forms`. A refused turn keeps everything typed and says why.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from kiosk.app.screens import forms
from kiosk.app.screens.base import KioskScreen
from kiosk.app.screens.option_form import OptionForm
from kiosk.app.screens.street_check import StreetCheck
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Panel, Text
from kiosk.app.widgets.keyboard import BigKeyboard


class EntryScreen(KioskScreen):
    screen_name = "entry"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        # Five rows and a three-row keyboard share 480 px: tighter gaps keep every key >= 60 px.
        self.body.spacing = 3
        self.body.padding = (theme.GAP, 4)
        self.form: forms.Form | None = None
        self.confirming = False
        self.correcting: int | None = None
        self.bar = self.title_bar(
            "Turn",
            BigButton("Cancel", tid="entry.cancel", on_tap=lambda: self.app.go("game")),
            BigButton("Done", tid="entry.done", on_tap=self.done, accent=True),
        )
        self.bar.title.tid = "entry.title"
        #: The turn's time left, small in the title bar: typing a word is part of the turn.
        self.clock = Text("", size=theme.BODY, bold=True, size_hint_x=None, width=84)
        self.clock.tid = "entry.timer"
        self.bar.add_widget(self.clock, index=2)
        self._clock_event: Any = None
        #: Opened because the turn's time ran out: once the move is in, the next timer starts.
        self.time_up = False
        self.body.add_widget(self.bar)
        field = Panel(size_hint_y=None, height=theme.TOUCH, padding=(10, 0), spacing=8)
        self.field = Text("", size=theme.LARGE, bold=True, halign="left")
        self.field.tid = "entry.field"
        self.preview = Text("", size=theme.SMALL, color=theme.MUTED, halign="right")
        self.preview.tid = "entry.preview"
        field.add_widget(self.field)
        field.add_widget(self.preview)
        self.body.add_widget(field)
        self.controls = BoxLayout(spacing=4, size_hint_y=None, height=theme.TOUCH)
        self.body.add_widget(self.controls)
        self.actions = BoxLayout(spacing=4, size_hint_y=None, height=theme.TOUCH)
        self.body.add_widget(self.actions)
        self.keyboard = BigKeyboard(tid="kb", on_change=self.typed, spaces=False)
        self.body.add_widget(self.keyboard)
        #: Word on the Street: the street as the camera sees it, in the keyboard's place while
        #: the players check the tiles the typed word and the camera disagree on.
        self.street = StreetCheck(on_tap=self.hide_street)
        self._keyboard_title = ""

    def prepare(
        self,
        prefill: dict[str, Any] | None = None,
        keep: bool = False,
        correct: int | None = None,
        time_up: str = "",
        **_context: Any,
    ) -> None:
        """``prefill``: a play read by the camera (word, row, col, down) for the players to check.
        ``keep``: back from the large board, with the form as it was left there.
        ``time_up``: the title when the turn's time ran out and the player has a choice to make."""
        game = self.session.game
        if game is None:
            return
        self.hide_street()
        self.hide_choices()
        if not keep:
            self.time_up = bool(time_up)
        if keep and self.form is not None:
            typed = self.keyboard.text
            self._build_rows()
            self.keyboard.set(typed)
            return
        self.confirming = prefill is not None
        #: Correcting entry ``correcting`` of the game (the form works on the game before it).
        self.correcting = correct
        if correct is not None:
            from kiosk.play.correction import before

            game = before(game, correct)
        self.form = form_for(self, game)
        if prefill is not None:
            self.form.prefill(prefill)
        self._build_rows()
        self.keyboard.max_length = self.form.max_length
        self.keyboard.set(self.form.initial_text())
        if self.confirming:
            self.bar.title.text = "Check the camera's read, then Done"
        if correct is not None:
            self.bar.title.text = f"Correct entry {correct + 1} ({game.to_move})"
            self.keyboard.set(str(self.session.game.events[correct].get("word") or ""))
        if time_up:
            self.bar.title.text = time_up

    def on_enter(self, *_: Any) -> None:
        from kivy.clock import Clock

        self._show_clock()
        self._clock_event = Clock.schedule_interval(lambda _dt: self._show_clock(), 0.25)

    def on_leave(self, *_: Any) -> None:
        if self._clock_event is not None:
            self._clock_event.cancel()
            self._clock_event = None

    def _show_clock(self) -> None:
        """The turn's time left as the ring shows it ("0:42", "TIME!"), or nothing without a timer."""
        timer = self.app.timer
        if timer is None or not timer.enabled or self.correcting is not None:
            text, colour = "", theme.MUTED
        else:
            view = timer.view()
            digits = view.digits if ":" in view.digits else f"{view.digits} s"
            text = "TIME!" if view.phase == "expired" else digits
            colour = {"expired": theme.BAD, "warning": theme.WARN}.get(
                view.phase, theme.MUTED if view.phase in ("paused", "idle") else theme.TEXT
            )
        if self.clock.text != text:
            self.clock.text, self.clock.color = text, colour

    def _correct(self, event: dict[str, Any]) -> bool:
        """A past entry entered again: the session replays everything after it."""
        index, self.correcting = self.correcting, None
        result = self.session.correct(index, event)
        if not result.ok:
            self.correcting = index  # keep what was typed; the banner says which entry broke
            self.app.warn(result.message)
            return False
        self.app.news(result.message)
        self.app.go("history")
        return True

    def _build_rows(self) -> None:
        assert self.form is not None
        self.bar.title.text = self.form.title
        self.controls.clear_widgets()
        self.actions.clear_widgets()
        self.form.build(self.controls, self.actions)
        for row in (self.controls, self.actions):
            row.height = theme.TOUCH if row.children else 0
            row.opacity = 1 if row.children else 0

    def show_street(self, data: Any, title: str) -> None:
        """The street (``StreetView`` data) in place of the keyboard and the row of other moves."""
        if self.street.parent is None:
            self._keyboard_title = self.bar.title.text
            self.body.remove_widget(self.keyboard)
            self.actions.opacity, self.actions.height = 0, 0
            self.body.add_widget(self.street)
        self.street.set(data)
        self.bar.title.text = title

    def hide_street(self) -> None:
        """The keyboard back (a tap on the street, a new turn)."""
        if self.street.parent is None:
            return
        self.body.remove_widget(self.street)
        self.body.add_widget(self.keyboard)
        if self.actions.children:
            self.actions.opacity, self.actions.height = 1, theme.TOUCH
        self.bar.title.text = self._keyboard_title

    def show_choices(self, choices: Any, title: str) -> None:
        """Big buttons to choose from (a steal's tile to send back) in the keyboard's place."""
        self.hide_choices()
        self._choice_title = self.bar.title.text
        self.body.remove_widget(self.keyboard)
        self.body.add_widget(choices)
        self._choices = choices
        self.bar.title.text = title

    def hide_choices(self) -> None:
        """The keyboard back, with what was typed."""
        if getattr(self, "_choices", None) is None:
            return
        self.body.remove_widget(self._choices)
        self._choices = None
        self.body.add_widget(self.keyboard)
        self.bar.title.text = self._choice_title

    def typed(self, text: str) -> None:
        if self.form is None:
            return
        self.field.text = self.form.show(text)
        self.preview.text = self.form.preview(text)

    def refresh_preview(self) -> None:
        self.typed(self.keyboard.text)

    def done(self) -> None:
        if self.form is None:
            return
        event = self.form.event(self.keyboard.text)
        if event is not None:
            self.submit(event)

    def submit(self, event: dict[str, Any]) -> bool:
        """Send a move to the session; on success back to the game with the timer reset."""
        if getattr(self, "correcting", None) is not None:
            return self._correct(event)
        result = self.session.submit(event)
        if not result.ok:
            self.app.warn(result.message)
            return False
        if self.form is not None:
            self.form.after_submit(event)
        if self.confirming and self.app.demo is not None:
            self.app.demo.confirmed()
        self.app.news(result.message or "Saved.")
        game_screen = self.app.screens["game"]
        game_screen.after_turn(event, start=self.time_up)
        self.time_up = False
        self.app.go("game")
        return True


def form_for(screen: Any, game: Any) -> forms.Form:
    """The entry form for ``game``: each game asks for its turn in its own words."""
    kinds: dict[str, type[forms.Form]] = {
        "word-on-the-street": forms.WotsForm,
        "upwords": forms.UpwordsForm,
        "tosswords": forms.TosswordsForm,
        "wordspiel": forms.SpielForm,
        "option": OptionForm,
    }
    form = kinds.get(game.name, forms.Form)(screen, game)
    if isinstance(form, forms.SpielForm) and game.phase == "deal":
        form.title = "WordSpiel: type the flipped card"
    return form

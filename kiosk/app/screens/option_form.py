"""Option turn entry: the word on the keyboard, then each letter's printed points and colour.

The prism set is not in the rule sheet, so the kiosk cannot know a letter's value: the
player taps it in on a number pad — one tap a letter, the next letter is selected by
itself — and the colour of the side showing, for the one-colour double. A letter's points
are remembered once taught, across restarts (``kiosk.files.letter_values``: a small file in the
data folder), so later words — and later games — come filled in.
Further words formed by the same turn are added one after another.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from kiosk.app.screens.base import KioskScreen
from kiosk.app.screens.forms import Form, letters
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Stepper, Text
from kiosk.files.letter_values import FILE_NAME, LetterValues
from kiosk.play.wording import agreeing


class OptionForm(Form):
    title = "Option: the word formed"
    max_length = 15

    def build(self, controls: BoxLayout, actions: BoxLayout) -> None:
        self.count = Stepper("entry.exchange_count", 1, 1, 7, "swap {}")
        controls.add_widget(self.count)
        self.action(
            controls, "Exchange", "entry.exchange", lambda: {"type": "exchange", "count": self.count.value}
        )
        self.action(actions, "Pass", "entry.pass", {"type": "pass"})
        self.action(
            actions,
            "End: count the racks",
            "entry.end",
            lambda: self.screen.app.go("tally", kind="option"),
            face=theme.WARN,
        )

    def preview(self, text: str) -> str:
        return "next: each letter's points and colour"

    def event(self, text: str) -> dict[str, Any] | None:
        word = letters(text)
        if not word:
            self.screen.app.warn("Type the word formed (or Pass).")
            return None
        self.screen.app.go("letters", word=word)
        return None


class LettersScreen(KioskScreen):
    """Points and colour of each letter of a word, then Done (or add another word)."""

    screen_name = "letters"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.words: list[dict[str, Any]] = []
        self.word = ""
        self.bar = self.title_bar(
            "Points of each letter",
            BigButton("Back", tid="letters.back", on_tap=lambda: self.app.go("entry")),
            BigButton("+ Word", tid="letters.more", on_tap=self.another, face=theme.INFO),
            BigButton("Done", tid="letters.done", on_tap=self.done, accent=True),
        )
        self.body.add_widget(self.bar)
        self.columns = BoxLayout(spacing=4)
        self.body.add_widget(self.columns)
        pad = BoxLayout(spacing=3, size_hint_y=None, height=theme.TOUCH)
        for n in range(12):  # one tap sets the selected letter's points (12 keys fit 800 px)
            pad.add_widget(
                BigButton(str(n), tid=f"letters.pad.{n}", face=theme.INFO, on_tap=lambda n=n: self.key(n))
            )
        self.body.add_widget(pad)
        bottom = BoxLayout(spacing=8, size_hint_y=None, height=theme.TOUCH)
        self.prisms = Stepper("letters.prisms", 1, 1, 7, "{} from rack")
        self.turned = Stepper("letters.turned", 0, 0, 20, "{} turned")
        bottom.add_widget(self.prisms)
        bottom.add_widget(self.turned)
        self.body.add_widget(bottom)
        self.points: list[BigButton] = []
        self.colours: list[BigButton] = []
        self.values: list[int] = []
        self.selected = 0
        #: Each letter's points as last entered: the set's table, taught once (opened at first use).
        self._taught: LetterValues | None = None

    @property
    def taught(self) -> LetterValues:
        if self._taught is None:
            from kiosk.files import paths

            self._taught = LetterValues(paths.data_dir() / FILE_NAME)
        return self._taught

    def prepare(self, word: str = "", **_context: Any) -> None:
        if word:
            self.word = word
        if not self.words:
            self.prisms.set(min(7, len(self.word)))
            self.turned.set(0)
        self.bar.title.text = f"{self.word}: points, colour" + (
            f" (+{len(self.words)} words)" if self.words else ""
        )
        self.columns.clear_widgets()
        self.points, self.colours = [], []
        self.values = [self.taught.value(ch) for ch in self.word]
        problem = self.taught.take_problem()
        if problem:
            self.app.warn(problem)
        self.selected = 0
        for i, ch in enumerate(self.word):
            column = BoxLayout(orientation="vertical", spacing=2)
            column.add_widget(Text(ch, size=theme.HUGE, bold=True, color=theme.ACCENT))
            points = BigButton(
                "",
                tid=f"letters.points.{i}",
                size_hint_y=None,
                height=theme.TOUCH,
                on_tap=lambda i=i: self.select(i),
            )
            self.points.append(points)
            column.add_widget(points)
            colour = BigButton(
                "dark",
                tid=f"letters.colour.{i}",
                face=theme.PANEL_HI,
                size=theme.SMALL,
                size_hint_y=None,
                height=theme.TOUCH,
            )
            colour.bind(on_release=lambda b: self._flip(b))
            self.colours.append(colour)
            column.add_widget(colour)
            self.columns.add_widget(column)

        self._show_points()

    def _show_points(self) -> None:
        for i, button in enumerate(self.points):
            value = self.values[i]
            button.text = f"{value}\n[size={theme.SMALL}]{agreeing(value, 'point')}[/size]"
            chosen = i == self.selected
            button.set_face(theme.ACCENT if chosen else theme.PANEL_HI, dark_text=chosen)

    def select(self, index: int) -> None:
        """The letter the number pad sets next."""
        self.selected = index
        self._show_points()

    def key(self, value: int) -> None:
        """A number tapped: the selected letter's points; then the next letter is selected."""
        if not self.values:
            return
        self.values[self.selected] = value
        self.taught.teach(self.word[self.selected], value)
        problem = self.taught.take_problem()
        if problem:
            self.app.warn(problem)
        self.selected = min(len(self.values) - 1, self.selected + 1)
        self._show_points()

    @staticmethod
    def _flip(button: BigButton) -> None:
        button.text = "light" if button.text == "dark" else "dark"
        button.set_face(
            (0.85, 0.85, 0.8, 1) if button.text == "light" else theme.PANEL_HI,
            dark_text=button.text == "light",
        )

    def _current(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "letters": [
                {"letter": ch, "points": self.values[i], "color": self.colours[i].text}
                for i, ch in enumerate(self.word)
            ],
        }

    def another(self) -> None:
        """Keep this word and type the next one the turn formed."""
        self.words.append(self._current())
        self.app.go("entry")

    def done(self) -> None:
        words = [*self.words, self._current()]
        event = {"type": "play", "words": words, "prisms": self.prisms.value, "turned": self.turned.value}
        if self.app.screens["entry"].submit(event):
            self.words = []

"""Start: pick a game, name the players or teams, set the options, or resume.

Everything a table needs before the first turn, on one screen with no scrolling: five
game buttons on the left, the players and options on the right, Start at the bottom.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from games.registry import game_class
from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Text
from kiosk.play import playbook
from kiosk.play.wording import scores_line

TIMER_STEPS = (0, 15, 20, 30, 45, 60, 90, 120, 180)


class StartScreen(KioskScreen):
    screen_name = "start"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.game_name = playbook.GAME_ORDER[0]
        self.waiting: list[tuple[Any, dict[str, int]]] = []
        self.names: dict[str, list[str]] = {}
        self.options: dict[str, dict[str, Any]] = {}
        middle = BoxLayout(spacing=theme.GAP * 2)
        games = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.36)
        self.game_buttons: dict[str, BigButton] = {}
        for name in playbook.GAME_ORDER:
            button = BigButton(
                playbook.guide(name).title,
                tid=f"start.game.{name}",
                on_tap=lambda n=name: self.pick(n),
                size=theme.BODY,
            )
            self.game_buttons[name] = button
            games.add_widget(button)
        middle.add_widget(games)
        # The rows share the column's height (a message at the top of the window takes some of
        # it for a moment): none has a fixed height that could push another off the screen.
        right = BoxLayout(orientation="vertical", spacing=4)
        top = BoxLayout(spacing=4)
        self.blurb = Text("", size=theme.SMALL, color=theme.MUTED)
        top.add_widget(self.blurb)
        top.add_widget(
            BigButton(
                "Games",
                tid="start.stats",
                size_hint_x=None,
                width=120,
                size=theme.SMALL,
                on_tap=lambda: self.app.go("history", stats=True),
            )
        )
        top.add_widget(
            BigButton(
                "Settings",
                tid="start.settings",
                size_hint_x=None,
                width=120,
                size=theme.SMALL,
                on_tap=lambda: self.app.go("settings"),
            )
        )
        right.add_widget(top)
        self.name_grid = GridLayout(cols=2, spacing=4, size_hint_y=2)
        right.add_widget(self.name_grid)
        counts = BoxLayout(spacing=4)
        self.add_button = BigButton("+ Add", tid="start.add", on_tap=self.add_side, face=theme.PANEL)
        self.remove_button = BigButton(
            "- Remove", tid="start.remove", on_tap=self.remove_side, face=theme.PANEL
        )
        counts.add_widget(self.add_button)
        counts.add_widget(self.remove_button)
        right.add_widget(counts)
        self.option_row = BoxLayout(spacing=4)
        right.add_widget(self.option_row)
        middle.add_widget(right)
        self.body.add_widget(middle)
        self.bottom = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.TOUCH + 6)
        self.resume_button = BigButton("Resume game", tid="start.resume", on_tap=self.resume, face=theme.INFO)
        self.start_button = BigButton(
            "Start game", tid="start.go", on_tap=self.start, accent=True, size=theme.LARGE
        )
        self.body.add_widget(self.bottom)
        #: The unfinished game of the chosen kind that Start game offers to resume first.
        self.offered: Any = None
        self.offer = Text("", size=theme.BODY, bold=True, halign="left")
        self.offer.tid = "start.offer"
        self.offer_resume = BigButton(
            "Resume", tid="start.offer.resume", accent=True, size_hint_x=None, width=170,
            on_tap=self.resume_offered,
        )
        self.offer_new = BigButton(
            "New game", tid="start.offer.new", face=theme.PANEL_HI, size_hint_x=None, width=170,
            on_tap=self.start_new,
        )
        self._show_offer(None)

    # ------------------------------------------------------------------ state
    def prepare(self, **_context: Any) -> None:
        if getattr(self, "_settings_seen", None) is not self.app.settings:
            self._settings_seen = self.app.settings
            self.options = {}  # new settings (timer lengths): start from them again
        self.waiting = self.session.unfinished()
        self.resume_button.disabled = not self.waiting
        self.resume_button.opacity = 0.35 if self.resume_button.disabled else 1
        if len(self.waiting) == 1:
            summary, scores = self.waiting[0]
            title = playbook.guide(summary.game).title
            self.resume_button.text = f"Resume {title}\n[size={theme.SMALL}]{scores_line(scores)}[/size]"
        elif self.waiting:
            waiting = f"{len(self.waiting)} unfinished"
            self.resume_button.text = f"Resume a game\n[size={theme.SMALL}]{waiting}[/size]"
        else:
            self.resume_button.text = "No game to resume"
        self.pick(self.game_name)

    def sides(self) -> list[str]:
        """This game's sides: as set on this screen, else who played it last, else stand-ins."""
        if self.game_name not in self.names:
            guide = playbook.guide(self.game_name)
            cls = game_class(self.game_name)
            last = self.session.last_players(self.game_name)
            fits = cls.min_players <= len(last) <= cls.max_players
            self.names[self.game_name] = last if fits else list(guide.default_sides)
        return self.names[self.game_name]

    def game_options(self) -> dict[str, Any]:
        if self.game_name not in self.options:
            cls = game_class(self.game_name)
            durations = self.app.settings.section("timer").get("durations", {})
            timer = durations.get(self.game_name, cls.default_timer or 0)
            self.options[self.game_name] = {"timer": int(timer or 0)}
            for choice in playbook.guide(self.game_name).options:
                self.options[self.game_name][choice.key] = cls.default_options.get(
                    choice.key, choice.choices[0]
                )
        return self.options[self.game_name]

    # ------------------------------------------------------------------ taps
    def pick(self, name: str) -> None:
        self._show_offer(None)
        self.game_name = name
        for other, button in self.game_buttons.items():
            button.set_face(theme.ACCENT if other == name else theme.PANEL_HI, dark_text=other == name)
        guide = playbook.guide(name)
        self.blurb.text = guide.blurb
        self._draw_names()
        self._draw_options()

    def _draw_names(self) -> None:
        self.name_grid.clear_widgets()
        cls = game_class(self.game_name)
        sides = self.sides()
        for i, name in enumerate(sides):
            self.name_grid.add_widget(
                BigButton(name, tid=f"start.name.{i}", face=theme.PANEL, on_tap=lambda i=i: self.rename(i))
            )
        self.add_button.disabled = len(sides) >= cls.max_players
        self.remove_button.disabled = len(sides) <= cls.min_players
        self.add_button.text = f"+ Add {playbook.guide(self.game_name).side.lower()}"

    def _draw_options(self) -> None:
        self.option_row.clear_widgets()
        options = self.game_options()
        for choice in playbook.guide(self.game_name).options:
            value = options[choice.key]
            label = choice.labels[choice.choices.index(value)] if value in choice.choices else str(value)
            self.option_row.add_widget(
                BigButton(
                    f"{choice.label}: {label}",
                    tid=f"start.option.{choice.key}",
                    face=theme.PANEL,
                    size=theme.SMALL,
                    on_tap=lambda c=choice: self.cycle(c),
                )
            )
        seconds = options.get("timer", 0)
        self.option_row.add_widget(
            BigButton(
                "-",
                tid="start.timer.less",
                size_hint_x=None,
                width=theme.TOUCH,
                on_tap=lambda: self.step_timer(-1),
            )
        )
        self.timer_label = Text(f"Timer {seconds} s" if seconds else "No timer", size=theme.SMALL)
        self.timer_label.tid = "start.timer"
        self.option_row.add_widget(self.timer_label)
        self.option_row.add_widget(
            BigButton(
                "+",
                tid="start.timer.more",
                size_hint_x=None,
                width=theme.TOUCH,
                on_tap=lambda: self.step_timer(1),
            )
        )

    def cycle(self, choice: playbook.OptionChoice) -> None:
        options = self.game_options()
        i = choice.choices.index(options[choice.key]) if options[choice.key] in choice.choices else -1
        options[choice.key] = choice.choices[(i + 1) % len(choice.choices)]
        self._draw_options()

    def step_timer(self, direction: int) -> None:
        options = self.game_options()
        current = int(options.get("timer", 0))
        steps = sorted({*TIMER_STEPS, current})
        i = steps.index(current) + direction
        options["timer"] = steps[max(0, min(len(steps) - 1, i))]
        self._draw_options()

    def add_side(self) -> None:
        sides = self.sides()
        guide = playbook.guide(self.game_name)
        recent = [n for n in self.session.recent_players(12) if n not in sides]
        n = len(sides) + 1
        fallback = f"{guide.side} {chr(ord('A') + n - 1)}" if guide.side != "Player" else f"Player {n}"
        sides.append(recent[0] if recent and guide.side == "Player" else fallback)
        self._draw_names()

    def remove_side(self) -> None:
        self.sides().pop()
        self._draw_names()

    def rename(self, index: int) -> None:
        sides = self.sides()

        def done(name: str) -> None:
            if name and name not in sides[:index] + sides[index + 1 :]:
                sides[index] = name
            elif name:
                self.app.warn(f"{name} is already playing: every {self.playbook_side()} needs its own name.")
            self.app.go("start")

        self.app.go(
            "names",
            current=sides[index],
            taken=[s for s in sides if s != sides[index]],
            title=f"Name of {self.playbook_side()} {index + 1}",
            on_done=done,
        )

    def playbook_side(self) -> str:
        return playbook.guide(self.game_name).side.lower()

    def start(self) -> None:
        """Start game: with a game of this kind unfinished, first ask whether to resume it (a
        tap on Start game every evening made a new game each time and left the old ones
        waiting); otherwise start a new one."""
        waiting = [
            summary for summary, _ in self.waiting if summary.game == self.game_name and not summary.demo
        ]
        if waiting:
            self._show_offer(waiting[0])
            return
        self.start_new()

    def _show_offer(self, summary: Any) -> None:
        """The bottom row: Resume game and Start game, or the question about ``summary``."""
        self.offered = summary
        self.bottom.clear_widgets()
        if summary is None:
            self.bottom.add_widget(self.resume_button)
            self.bottom.add_widget(self.start_button)
            return
        title = playbook.guide(summary.game).title
        self.offer.text = (
            f"Resume {title} with {_names(summary.players)} from turn {summary.events + 1}?"
        )
        for widget in (self.offer, self.offer_resume, self.offer_new):
            self.bottom.add_widget(widget)

    def resume_offered(self) -> None:
        summary, self.offered = self.offered, None
        self._show_offer(None)
        if summary is not None and self.session.resume(summary.id):
            self.app.go("game", fresh=True)
        else:
            self.app.show_problems()
            self.prepare()

    def start_new(self) -> None:
        """Start a new game; an unfinished one stays in the list to resume (nothing is lost)."""
        self._show_offer(None)
        options = {k: v for k, v in self.game_options().items() if not (k == "timer" and not v)}
        if "timer" not in options:
            options["timer"] = 0
        result = self.session.new_game(self.game_name, self.sides(), options)
        if not result.ok:
            self.app.warn(result.message)
            return
        self.names.pop(self.game_name, None)  # next time: who played last (a rematch may reseat them)
        self.app.go("game", fresh=True)

    def resume(self) -> None:
        """One game waiting: straight back into it; several: the list to choose from."""
        if len(self.waiting) > 1:
            self.app.go("resume")
            return
        if self.waiting and self.session.resume(self.waiting[0][0].id):
            self.app.go("game", fresh=True)
        else:
            self.app.show_problems()
            self.prepare()


def _names(players: tuple[str, ...]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy'."""
    names = list(players)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

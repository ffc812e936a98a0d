"""Settings: timer lengths, warning, ticks, mute, LED brightness, word list, camera.

Edits a copy of the settings and writes them through ``kiosk.settings.save`` (atomic) on
Save; a failed save (disk full, read-only card) says so and keeps the old file.
"""

from __future__ import annotations

import copy
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from kiosk import playbook
from kiosk import settings as settings_file
from kiosk.screens.base import KioskScreen
from kiosk.widgets import theme
from kiosk.widgets.basics import BigButton, Stepper, Text

WORD_LIST_SIZES = (35, 50, 60, 70, 80, 95)
CAMERA_SOURCES = ("auto", "none", "replay")


class SettingsScreen(KioskScreen):
    screen_name = "settings"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.back_to = "start"
        self.body.add_widget(
            self.title_bar(
                "Settings",
                BigButton("Cancel", tid="settings.cancel", on_tap=lambda: self.app.go(self.back_to)),
                BigButton("Save", tid="settings.save", on_tap=self.save, accent=True),
            )
        )
        scroll = ScrollView(do_scroll_x=False, bar_width=12)
        self.rows = GridLayout(cols=1, spacing=4, size_hint_y=None)
        self.rows.bind(minimum_height=self.rows.setter("height"))
        scroll.add_widget(self.rows)
        self.body.add_widget(scroll)
        self.draft = settings_file.Settings()

    def prepare(self, keep: bool = False, **_context: Any) -> None:
        """``keep``: back from typing a house word, with the unsaved changes still in the draft."""
        if not keep:
            current = self.app.manager.current if self.app.manager else "start"
            self.back_to = "game" if self.session.game is not None and current != "start" else "start"
            self.draft = copy.deepcopy(self.app.settings)
        self.rows.clear_widgets()
        timer = self.draft.section("timer")
        durations = dict(timer.get("durations", {}))
        for name in ("word-on-the-street", "wordspiel", "tosswords"):
            self._row(
                f"{playbook.guide(name).title} timer",
                Stepper(
                    f"settings.timer.{name}",
                    int(durations.get(name, 60)),
                    10,
                    300,
                    "{} s",
                    step=5,
                    on_change=lambda v, n=name: self._duration(n, v),
                ),
            )
        self._row(
            "Warning before the end",
            Stepper(
                "settings.warning",
                int(timer.get("warning", 10)),
                0,
                30,
                "{} s",
                on_change=lambda v: self.draft.set("timer", "warning", v),
            ),
        )
        self._toggle(
            "Tick the last seconds", "settings.ticks", "timer", "ticks", bool(timer.get("ticks", True))
        )
        self._toggle("Mute the buzzer", "settings.mute", "timer", "mute", bool(timer.get("mute", False)))
        hardware = self.draft.section("hardware")
        self._row(
            "LED ring brightness",
            Stepper(
                "settings.brightness",
                round(float(hardware.get("brightness", 0.4)) * 100),
                5,
                100,
                "{} %",
                step=5,
                # [hardware] brightness is 0.0-1.0 (hardware.config); people think in per cent.
                on_change=lambda v: self.draft.set("hardware", "brightness", round(v / 100, 2)),
            ),
        )
        words = self.draft.section("words")
        self._cycle(
            "Word list size", "settings.words", "words", "size", int(words.get("size", 60)), WORD_LIST_SIZES
        )
        self._cycle(
            "Category cards",
            "settings.categories",
            "kiosk",
            "category_level",
            str(self.draft.section("kiosk").get("category_level", "green")),
            ("green", "blue"),
        )
        camera = self.draft.section("camera")
        self._cycle(
            "Camera", "settings.camera", "camera", "source", str(camera.get("source", "auto")), CAMERA_SOURCES
        )
        pins = ", ".join(f"{k} {v}" for k, v in hardware.items() if k != "brightness") or "the defaults"
        self._note(f"GPIO pins: {pins} (edit {self.draft.path or 'the settings file'}).")
        self._row(
            "House words (all games)",
            BigButton("Add a word", tid="settings.house", on_tap=self.add_house_word),
        )
        self._note("Strike or list house words: tablekeeper house.  Calibration: tablekeeper calibrate.")

    def add_house_word(self) -> None:
        """Type a word the word list lacks; it is allowed in every game from now on."""

        def done(word: str) -> None:
            if word:
                result = self.session.add_house_word(word)
                self.app.warn(result.message, "info" if result.ok else "error")
            self.app.go("settings", keep=True)

        self.app.go("names", title="A house word for every game", on_done=done, recent=False, back="settings")

    def _row(self, label: str, control: Any) -> None:
        row = BoxLayout(spacing=8, size_hint_y=None, height=theme.TOUCH)
        row.add_widget(Text(label, size=theme.BODY, halign="left"))
        control.size_hint_x = 0.9
        row.add_widget(control)
        self.rows.add_widget(row)

    def _note(self, text: str) -> None:
        self.rows.add_widget(Text(text, size=theme.SMALL, color=theme.MUTED, size_hint_y=None, height=48))

    def _toggle(self, label: str, tid: str, section: str, key: str, value: bool) -> None:
        button = BigButton("On" if value else "Off", tid=tid)

        def flip() -> None:
            new = button.text != "On"
            button.text = "On" if new else "Off"
            self.draft.set(section, key, new)

        button.bind(on_release=lambda *_: flip())
        self._row(label, button)

    def _cycle(
        self, label: str, tid: str, section: str, key: str, value: Any, choices: tuple[Any, ...]
    ) -> None:
        button = BigButton(str(value), tid=tid)

        def step() -> None:
            i = (
                choices.index(type(choices[0])(button.text))
                if type(choices[0])(button.text) in choices
                else -1
            )
            new = choices[(i + 1) % len(choices)]
            button.text = str(new)
            self.draft.set(section, key, new)

        button.bind(on_release=lambda *_: step())
        self._row(label, button)

    def _duration(self, name: str, seconds: int) -> None:
        durations = dict(self.draft.section("timer").get("durations", {}))
        durations[name] = seconds
        self.draft.set("timer", "durations", durations)

    def save(self) -> None:
        try:
            settings_file.save(self.draft)
        except OSError as exc:
            self.app.warn(f"The settings were not saved ({exc.strerror or exc}); the old ones are kept.")
            return
        self.app.settings = self.draft
        if hasattr(self.app, "apply_settings"):
            self.app.apply_settings()
        self.app.warn("Settings saved.", "info")
        self.app.go(self.back_to)

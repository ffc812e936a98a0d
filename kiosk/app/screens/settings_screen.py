"""Settings: the family's (timers, sound, category cards, the dictionary, house words) and,
behind a long press, the technician's (LED brightness, word list size, camera, GPIO pins,
calibration).

Edits a copy of the settings and writes them through ``kiosk.files.settings.save`` (atomic) on
Save; a failed save (disk full, read-only card) says so and keeps the old file. The GPIO
pins are checked by ``hardware.config`` before anything is written: a pin used twice, or
one a NeoPixel ring ties up, is refused in the banner and the file stays as it was.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from games.registry import game_class
from games.word_lists import DEFAULT_SIZE, EVERYDAY_SIZE, list_name
from hardware.config import NEOPIXEL_PINS, HardwareConfig, HardwareConfigError
from kiosk.app.screens.base import KioskScreen
from kiosk.app.screens.calibrate_screen import calibration_status
from kiosk.app.screens.house_rows import house_rows
from kiosk.app.screens.pin_rows import PinStepper, grown, hardware_values, led_count, other_pins
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, LongPressButton, LongText, Stepper, Text
from kiosk.files import settings as settings_file
from kiosk.files.setting_limits import TURN, limit
from kiosk.play import playbook

WORD_LIST_SIZES = (35, 50, 60, 70, 80, 95)
#: The family's choice of dictionary, named by what it holds: never a library or a size.
DICTIONARIES = {DEFAULT_SIZE: "Full dictionary", EVERYDAY_SIZE: "Everyday words"}
CAMERA_SOURCES = ("auto", "none", "replay")
BUZZERS = HardwareConfig.CHOICES["buzzer"]
RINGS = HardwareConfig.CHOICES["ring"]
#: The limits the steppers share with the settings file's reader (kiosk.files.setting_limits).
WARNING = limit("timer", "warning")
#: The steppers' top for a ring's LEDs (hardware.config allows more; no table ring has them).
MAX_LEDS = 60


class SettingsScreen(KioskScreen):
    screen_name = "settings"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.back_to = "start"
        self.technician = False
        self.body.add_widget(
            self.title_bar(
                "Settings",
                BigButton("Cancel", tid="settings.cancel", on_tap=lambda: self.app.go(self.back_to)),
                BigButton("Save", tid="settings.save", on_tap=self.save, accent=True),
            )
        )
        scroll = ScrollView(do_scroll_x=False, bar_width=12)
        # Room right of the rows for the scroll bar and below the last row: scrolled to its
        # end, the list shows the technician's door (or the last technician row) whole, clear
        # of the bar and of the screen's edge.
        self.rows = GridLayout(
            cols=1, spacing=4, size_hint_y=None, padding=(0, 0, scroll.bar_width + 6, theme.GAP * 2)
        )
        self.rows.bind(minimum_height=self.rows.setter("height"))
        scroll.add_widget(self.rows)
        self.body.add_widget(scroll)
        self.draft = settings_file.Settings()

    def prepare(self, keep: bool = False, **_context: Any) -> None:
        """``keep``: back from typing a house word, with the unsaved changes still in the draft."""
        if not keep:
            self.technician = False
            current = self.app.manager.current if self.app.manager else "start"
            self.back_to = "game" if self.session.game is not None and current != "start" else "start"
            self.draft = copy.deepcopy(self.app.settings)
        self.rows.clear_widgets()
        timer = self.draft.section("timer")
        durations = dict(timer.get("durations", {}))
        for name in playbook.GAME_ORDER:  # every game: a timer can be used with any of them
            default = game_class(name).default_timer or 0
            self._row(
                f"{playbook.guide(name).title} timer",
                Stepper(
                    f"settings.timer.{name}",
                    int(durations.get(name, default)),
                    int(TURN.low),
                    int(TURN.high),
                    lambda v: f"{v} s" if v else "No timer",
                    step=TURN.step,
                    on_change=lambda v, n=name: self._duration(n, v),
                ),
            )
        self._row(
            "Warning before the end",
            Stepper(
                "settings.warning",
                int(timer.get("warning", WARNING.default)),
                int(WARNING.low),
                int(WARNING.high),
                "{} s",
                on_change=lambda v: self.draft.set("timer", "warning", v),
            ),
        )
        self._toggle(
            "Tick the last seconds", "settings.ticks", "timer", "ticks", bool(timer.get("ticks", True))
        )
        self._toggle("Mute the sound", "settings.mute", "timer", "mute", bool(timer.get("mute", False)))
        self._toggle(
            "Speak rulings aloud",
            "settings.voice",
            "sound",
            "voice",
            bool(self.draft.section("sound").get("voice", False)),
        )
        self._cycle(
            "Category cards",
            "settings.categories",
            "kiosk",
            "category_level",
            str(self.draft.section("kiosk").get("category_level", "green")),
            limit("kiosk", "category_level").choices,
        )
        self._cycle(
            "Dictionary",
            "settings.dictionary",
            "words",
            "size",
            int(self.draft.section("words").get("size", DEFAULT_SIZE)),
            tuple(DICTIONARIES),
            shown=dictionary_label,
        )
        house_rows(self)
        door = LongPressButton(
            "Technician settings: press and hold" if not self.technician else "Technician settings",
            tid="settings.technician",
            face=theme.PANEL,
            size=theme.SMALL,
            on_long_press=self.open_technician,
        )
        door.size_hint_y, door.height = None, theme.TOUCH
        self.rows.add_widget(door)
        if self.technician:
            self._technician()

    def open_technician(self) -> None:
        """Held down: the pins, the word list, the camera and calibration (not for the family)."""
        self.technician = True
        self.prepare(keep=True)

    def _technician(self) -> None:
        """GPIO pins, LED brightness, word list size, camera and board calibration."""
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
        size = int(words.get("size", DEFAULT_SIZE))
        self._cycle("Word list size", "settings.words", "words", "size", size, WORD_LIST_SIZES)
        camera = self.draft.section("camera")
        self._cycle(
            "Camera", "settings.camera", "camera", "source", str(camera.get("source", "auto")), CAMERA_SOURCES
        )
        self._pin_rows(hardware)
        status = LongText(
            f"Board calibration: {calibration_status()}", size=theme.SMALL, color=theme.MUTED, halign="left"
        )
        status.tid = "settings.calibration"
        self.rows.add_widget(status)
        self._row(
            "Board calibration",
            BigButton("Find the board", tid="settings.calibrate", on_tap=self.find_board),
        )

    # ------------------------------------------------------------------ GPIO pins
    def _pin_rows(self, raw: dict[str, Any]) -> None:
        """Buzzer, button and LED ring pins: the [hardware] section, checked on Save."""
        shown = hardware_values(raw)
        self._note("GPIO pins (BCM numbers). Pin changes apply the next time the kiosk starts.")
        self._cycle(
            "Buzzer", "settings.buzzer", "hardware", "buzzer", shown["buzzer"], BUZZERS, then=self._enable
        )
        self.buzzer_pin = self._pin("Buzzer pin", "settings.buzzer_pin", "buzzer_pin", shown["buzzer_pin"])
        self._pin("Button pin", "settings.button_pin", "button_pin", shown["button_pin"], allow_none=True)
        self._cycle(
            "LED ring", "settings.ring", "hardware", "ring", shown["ring"], RINGS, then=self._ring_changed
        )
        self.ring_pin = self._cycle(
            "Ring data pin (NeoPixel)",
            "settings.ring_pin",
            "hardware",
            "ring_pin",
            shown["ring_pin"],
            NEOPIXEL_PINS,
            shown=lambda pin: f"GPIO{pin}",
        )
        self.leds_stepper = Stepper(
            "settings.leds",
            led_count(shown),
            1,
            MAX_LEDS,
            "{} LEDs",
            on_change=self._led_count,
        )
        self._row("LEDs on the ring", self.leds_stepper)
        self.led_pins_note = Text(
            "", size=theme.SMALL, color=theme.MUTED, size_hint_y=None, height=48, halign="left"
        )
        self.led_pins_note.tid = "settings.led_pins"
        self.rows.add_widget(self.led_pins_note)
        self._show_led_pins()
        self._enable()

    def _pin(self, label: str, tid: str, key: str, value: int | None, allow_none: bool = False) -> Stepper:
        """A -/+ stepper over the header's GPIOs; with ``allow_none`` one step below 0 is "none"."""
        stepper = PinStepper(
            tid,
            value,
            allow_none,
            # TOML has no null: hardware.config reads the text "none" as no part fitted.
            on_change=lambda v: self.draft.set("hardware", key, "none" if v is None else v),
        )
        self._row(label, stepper)
        return stepper

    def _enable(self, *_changed: Any) -> None:
        """Grey out what the chosen parts do not use (a buzzer pin with no buzzer, ...)."""
        hardware = hardware_values(self.draft.section("hardware"))
        self.buzzer_pin.disabled = hardware["buzzer"] == "none"
        self.ring_pin.disabled = hardware["ring"] != "neopixel"
        self.leds_stepper.disabled = hardware["ring"] == "none"

    def _ring_changed(self, ring: str) -> None:
        """One GPIO per LED counts its pins; a NeoPixel ring its ``leds``: show the right one.

        Switched to one GPIO per LED, the pin list leaves out the buzzer's and the button's
        pins (the default list holds GPIO19, say, where a buzzer may have been moved).
        """
        hardware = hardware_values(self.draft.section("hardware"))
        if ring == "leds":
            others = set(other_pins(hardware))
            kept = [p for p in hardware["led_pins"] if p not in others]
            self.draft.set("hardware", "led_pins", grown(kept, len(hardware["led_pins"]), others))
        self.leds_stepper.set(led_count(hardware_values(self.draft.section("hardware"))))
        self._enable()

    def _led_count(self, count: int) -> None:
        """NeoPixel: the ``leds`` count. One GPIO per LED: the pin list grows or shrinks to it."""
        hardware = hardware_values(self.draft.section("hardware"))
        if hardware["ring"] == "leds":
            pins = grown(list(hardware["led_pins"])[:count], count, set(other_pins(hardware)))
            self.draft.set("hardware", "led_pins", pins)
            self.draft.set("hardware", "leds", len(pins))
        else:
            self.draft.set("hardware", "leds", count)
        self._show_led_pins()

    def _show_led_pins(self) -> None:
        hardware = hardware_values(self.draft.section("hardware"))
        if hardware["ring"] == "leds":
            pins = ", ".join(str(p) for p in hardware["led_pins"])
            self.led_pins_note.text = f"One GPIO per LED: {pins}."
        elif hardware["ring"] == "neopixel":
            self.led_pins_note.text = f"NeoPixel data on GPIO{hardware['ring_pin']}; LED pins unused."
        else:
            self.led_pins_note.text = "No LED ring: the timer is shown on screen only."

    def find_board(self) -> None:
        """Where the board is in the camera's picture: markers or four taps (unsaved changes kept)."""
        self.app.go("calibrate", back="settings")

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
        self,
        label: str,
        tid: str,
        section: str,
        key: str,
        value: Any,
        choices: tuple[Any, ...],
        then: Callable[[Any], Any] | None = None,
        shown: Callable[[Any], str] = str,
    ) -> BigButton:
        """A button that steps through ``choices``; a value not among them steps to the first."""
        button = BigButton(shown(value), tid=tid)
        current = [value]

        def step() -> None:
            i = choices.index(current[0]) if current[0] in choices else -1
            current[0] = choices[(i + 1) % len(choices)]
            button.text = shown(current[0])
            self.draft.set(section, key, current[0])
            if then is not None:
                then(current[0])

        button.bind(on_release=lambda *_: step())
        self._row(label, button)
        return button

    def _duration(self, name: str, seconds: int) -> None:
        durations = dict(self.draft.section("timer").get("durations", {}))
        durations[name] = seconds
        self.draft.set("timer", "durations", durations)

    def save(self) -> None:
        """Write the draft; pins that clash or do not exist are refused and nothing is written."""
        pins = self.draft.section("hardware")
        # Brightness lives in [hardware] too, but is no pin: only a pin change can be refused.
        changed = _without_brightness(pins) != _without_brightness(self.app.settings.section("hardware"))
        try:
            HardwareConfig.from_section(pins)
        except HardwareConfigError as exc:
            if changed:
                self.app.warn("Not saved: " + "; ".join(exc.problems) + ".")
                return
            # The file's own mistake, untouched here: the rest may still be saved.
            self.app.warn("The GPIO pins in the settings file have problems: " + "; ".join(exc.problems))
        try:
            settings_file.save(self.draft)
        except OSError as exc:
            self.app.warn(f"The settings were not saved ({exc.strerror or exc}); the old ones are kept.")
            return
        self.app.settings = self.draft
        if hasattr(self.app, "apply_settings"):
            self.app.apply_settings()
        restart = " Pin changes apply the next time the kiosk starts." if changed else ""
        self.app.warn("Settings saved." + restart, "info")
        self.app.go(self.back_to)


def dictionary_label(size: int) -> str:
    """'Full dictionary', 'Everyday words'; a technician's other size by what it holds."""
    return DICTIONARIES.get(size) or list_name(size).capitalize()


def _without_brightness(section: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in section.items() if k != "brightness"}

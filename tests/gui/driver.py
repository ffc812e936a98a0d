"""Run one GUI scenario inside the real kiosk app, then quit: one Kivy app per process.

    python tests/gui/driver.py SCENARIO DATA_DIR SHOTS_DIR RESULT_JSON

The app is built exactly as ``tablekeeper kiosk`` builds it (``kiosk.app.wiring.build_app``)
with its data in DATA_DIR. A scenario (``tests/gui/scenarios.py``) is a generator that taps
widgets by their test id with real touch events (``kivy.tests.common.UnitTestTouch``),
reads labels, and saves screenshots; each ``yield`` lets the app draw a frame or two. The
scenario's findings go to RESULT_JSON for the pytest side to check; any failure exits 1
with the traceback on stderr.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the plays the tests share (plays.py)
sys.path.insert(0, str(Path(__file__).parent))


class UI:
    """What a scenario may do: tap, type, read, take a screenshot — like a person would."""

    def __init__(self, app: Any, shots: Path) -> None:
        self.app = app
        self.shots = shots
        self.found: dict[str, Any] = {"clipped": [], "overlaps": []}
        self._measured: set[tuple[Any, ...]] = set()
        self._laid_out: set[tuple[Any, ...]] = set()

    def audit(self) -> None:
        """The clipping audit of the screen as the next frame draws it (each label measured once
        per size): a screen just rebuilt by a tap is laid out first, as Kivy does before drawing,
        so a box not yet given its size is not taken for text cut short."""
        from clipping import cut, shown
        from kivy.uix.label import Label

        self._lay_out()
        for widget in self.app.root.walk(restrict=True):
            if not isinstance(widget, Label):
                continue
            key = (widget.text, widget.font_size, tuple(widget.size), tuple(widget.text_size or ()))
            if key in self._measured or not shown(widget, self.app.root):
                continue
            self._measured.add(key)
            why = cut(widget)
            if why:
                name = getattr(widget, "tid", "") or type(widget).__name__
                self.found["clipped"].append(f"{self.screen}: {name} {widget.text[:60]!r}: {why}")

    def _lay_out(self) -> None:
        """Every layout's pending pass, top down, until sizes settle (nested layouts that size by
        their children take a few)."""
        from kivy.uix.layout import Layout

        for _ in range(3):
            for widget in self.app.root.walk(restrict=True):
                if isinstance(widget, Layout):
                    widget.do_layout()

    def audit_overlaps(self) -> None:
        """The overlap audit of the screen as drawn (each arrangement of texts once). Run when
        the app has drawn a frame, not between two taps of one step: a screen rebuilt by the
        first tap is laid out only at the next frame, and nobody sees it in between."""
        from clipping import audit_overlaps, text_boxes

        items = text_boxes(self.app.root)
        key = tuple((name, box) for name, _kind, box, _widget, _group in items)
        if key in self._laid_out:
            return
        self._laid_out.add(key)
        for found in audit_overlaps(self.app.root, self.screen, items):
            if found not in self.found["overlaps"]:
                self.found["overlaps"].append(found)

    @property
    def screen(self) -> str:
        return self.app.manager.current

    def widget(self, tid: str) -> Any:
        from kiosk.app.widgets.basics import find

        widget = find(self.app.root, tid)
        if widget is None:
            raise AssertionError(f"no widget {tid!r} on the {self.screen} screen")
        return widget

    def has(self, tid: str) -> bool:
        from kiosk.app.widgets.basics import find

        widget = find(self.app.root, tid)
        return widget is not None and not widget.disabled and widget.opacity > 0

    def _reach(self, tid: str) -> tuple[Any, float, float]:
        """The widget and where a finger lands on it, once the messages over that spot are gone."""
        self.audit()
        widget = self.widget(tid)
        x, y = widget.to_window(*widget.center)
        banner = self.app.banner
        while banner.messages and banner.collide_point(x, y) and widget is not banner.label:
            banner.hide()  # as a person would: tap the message away, then the button under it
            self.app.root.do_layout()  # the next message's strip, where it will be drawn
        return widget, x, y

    def tap(self, tid: str) -> None:
        from kivy.tests.common import UnitTestTouch

        widget, x, y = self._reach(tid)
        if widget.disabled:
            raise AssertionError(f"{tid!r} on the {self.screen} screen is disabled")
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()

    def hold(self, tid: str, seconds: float = 3.0) -> Any:
        """``yield from ui.hold(tid)``: a finger held on a widget, then lifted (a long press).

        Twice the kiosk's 1.5 s: inside a scroll view the touch reaches the button only after
        the view's scroll timeout, and on a loaded machine (CI under other work) frames come
        late; at 2.2 s a fresh-clone run once lifted the finger before the press counted."""
        from kivy.tests.common import UnitTestTouch

        _widget, x, y = self._reach(tid)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        yield seconds
        touch.touch_up()
        yield

    def press(self, tid: str, wait: float | None = None) -> Iterator[Any]:
        """``yield from ui.press(tid)``: a tap, then a frame (or ``wait`` seconds) for the app to
        answer it; the step every scenario takes most."""
        self.tap(tid)
        yield wait

    def tap_at(self, x: float, y: float) -> None:
        """A finger on a point of the window (a board corner in a picture, say), not on a button."""
        from kivy.tests.common import UnitTestTouch

        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()

    def scroll_to(self, tid: str) -> None:
        """Scroll the list holding a widget until it is in view (what a finger's drag does)."""
        from kivy.uix.scrollview import ScrollView

        widget = self.widget(tid)
        parent = widget.parent
        while parent is not None and not isinstance(parent, ScrollView):
            parent = parent.parent
        if parent is None:
            raise AssertionError(f"{tid!r} is not in a scrolling list")
        parent.scroll_to(widget, padding=10, animate=False)

    def into_view(self, tid: str, wait: float = 0.2) -> Iterator[Any]:
        """``yield from ui.into_view(tid)``: scroll to it, then let the list lay it out there."""
        self.scroll_to(tid)
        yield wait

    def wait_for(self, done: Callable[[], object], tries: int, step: float) -> Iterator[Any]:
        """``yield from ui.wait_for(done, tries, step)``: what runs on a worker thread (the camera,
        the broker) takes its time; wait ``step`` seconds at a time, at most ``tries`` times."""
        for _ in range(tries):
            if done():
                return
            yield step

    @property
    def banners(self) -> list[str]:
        """Every message the banner holds, the one showing first."""
        return [message[0] for message in self.app.banner.messages]

    def clear_banners(self) -> None:
        """Tap every message away, as a person would before going on."""
        while self.app.banner.messages:
            self.app.banner.hide()

    def scores(self) -> list[str]:
        """The first two seats' scores as shown (every game has at least two)."""
        return [self.text("game.score.0"), self.text("game.score.1")]

    def type(self, text: str, keyboard: str = "kb") -> None:
        for ch in text.upper():
            self.tap(f"{keyboard}.{'space' if ch == ' ' else ch}")

    def text(self, tid: str) -> str:
        return str(self.widget(tid).text)

    def read(self, tid: str) -> str:
        """A label as a person reads it: its markup tags gone, its lines joined by a space."""
        import re

        return " ".join(re.sub(r"\[/?[a-z]+(?:=[^\]]*)?\]", "", self.text(tid)).split())

    def shot(self, name: str) -> Any:
        """``yield from ui.shot(name)``: let the app lay out and draw, then save the screen."""
        yield 0.12
        self.audit()
        self.app.screenshot(name)

    def note(self, key: str, value: Any) -> None:
        self.found[key] = value


def main(argv: list[str]) -> int:
    scenario_name, data, shots, result_path = argv[0], Path(argv[1]), Path(argv[2]), Path(argv[3])
    os.environ["TABLEKEEPER_DATA"] = str(data)
    os.environ["TABLEKEEPER_CONFIG"] = str(data / "tablekeeper.toml")
    from kiosk.cli.kiosk import prepare_environment

    prepare_environment(data)
    import scenarios
    from kivy.clock import Clock

    from kiosk.app.wiring import build_app

    scenario = getattr(scenarios, scenario_name)
    outcome: dict[str, Any] = {"ok": False}
    started = time.perf_counter()

    def begin(app: Any) -> None:
        ui = UI(app, shots)
        outcome["start_seconds"] = time.perf_counter() - started
        steps = scenario(ui)

        def advance(_dt: float) -> None:
            try:
                ui.audit_overlaps()  # what the last frame showed
                wait = next(steps)
            except StopIteration:
                outcome["ok"] = True
                outcome.update(ui.found)
                if ui.found.get("pull_the_plug"):
                    # Like a power cut: no clean shutdown, no closing of the log.
                    result_path.write_text(json.dumps(outcome, indent=1, default=str))
                    os.kill(os.getpid(), signal.SIGKILL)
                app.stop()
                return
            except Exception:
                outcome["error"] = traceback.format_exc()
                outcome.update(ui.found)
                outcome["banner"] = ui.banners
                try:
                    app.screenshot("failure-" + scenario_name)
                finally:
                    app.stop()
                return
            Clock.schedule_once(advance, wait if isinstance(wait, int | float) else 0.06)

        Clock.schedule_once(advance, 0.1)

    demo = scenario_name.startswith("demo") or scenario_name.endswith("_demo")
    app = build_app(demo=demo, screenshots=shots, on_started=begin)
    app.run()
    result_path.write_text(json.dumps(outcome, indent=1, default=str))
    if not outcome["ok"]:
        print(outcome.get("error", "the scenario did not finish"), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

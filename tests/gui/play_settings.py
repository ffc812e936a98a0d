"""GUI scenarios for the Settings screen's GPIO pins, its dictionary, and the Find the board screen.

Real touches on the real app: steppers and cycle buttons for the [hardware] pins, Save
(accepted, or refused with the checker's words), and four taps on the demo camera's picture
of an empty Upwords board at the corners the renderer put there.
"""

from __future__ import annotations

from typing import Any

from play_situations import _audit
from play_steps import Steps, challenge, enter_word, pick_game


def _open_settings(ui: Any) -> Steps:
    yield
    ui.clear_banners()  # the start-up notes (mock pins, ...) tapped away
    yield from ui.press("start.settings")
    assert ui.screen == "settings", ui.screen
    yield from open_technician(ui)


def open_technician(ui: Any) -> Steps:
    """The technician's settings open only to a finger held on their button."""
    yield from ui.into_view("settings.technician")
    yield from ui.press("settings.technician")  # a passing tap does nothing
    assert not ui.has("settings.buzzer_pin")
    yield from ui.hold("settings.technician")
    assert ui.has("settings.buzzer_pin")


def _step(ui: Any, tid: str, direction: str, times: int) -> Steps:
    yield from ui.into_view(tid)  # laid out where the scroll put it
    for _ in range(times):
        ui.tap(f"{tid}.{direction}")


def pins_saved(ui: Any) -> Steps:
    """Buzzer to GPIO19, no button, the ring to one GPIO per LED with 10 LEDs; Save writes them."""
    yield from _open_settings(ui)
    yield from _step(ui, "settings.buzzer_pin", "more", 2)  # 17 -> 19
    ui.note("buzzer_pin", ui.widget("settings.buzzer_pin").label.text)
    yield from _step(ui, "settings.button_pin", "less", 28)  # 27 -> 0 -> none: no button fitted
    ui.note("button_pin", ui.widget("settings.button_pin").label.text)
    yield from ui.into_view("settings.ring")
    yield from ui.press("settings.ring")  # neopixel -> leds
    ui.note("ring", ui.text("settings.ring"))
    ui.note("ring_pin", ui.text("settings.ring_pin"))
    ui.note("ring_pin_usable", ui.has("settings.ring_pin"))  # a NeoPixel data pin: not with LEDs
    ui.note("leds_after_ring", ui.widget("settings.leds").label.text)
    yield from _step(ui, "settings.leds", "less", 2)  # 12 LED pins -> 10
    yield 0.2
    ui.note("led_pins_note", ui.text("settings.led_pins"))
    _audit(ui, "settings pins")  # the kiosk's text and touch-target sizes, as drawn
    yield from ui.shot("settings-pins")
    yield from ui.press("settings.save")
    ui.note("banner", ui.app.banner.showing)
    ui.note("screen_after_save", ui.screen)


def pins_clash(ui: Any) -> Steps:
    """The buzzer on the button's pin, then on a pin the NeoPixel's SPI holds: both refused."""
    yield from _open_settings(ui)
    yield from _step(ui, "settings.buzzer_pin", "more", 10)  # 17 -> 27, the button's pin
    yield
    yield from ui.press("settings.save")
    ui.note("twice_banner", ui.app.banner.showing)
    ui.note("screen_after_twice", ui.screen)
    yield from ui.shot("settings-pins-refused")
    ui.clear_banners()
    yield from _step(ui, "settings.buzzer_pin", "less", 16)  # 27 -> 11: SPI clock, taken by a ring on GPIO10
    yield
    yield from ui.press("settings.save")
    ui.note("reserved_banner", ui.app.banner.showing)
    ui.note("screen_after_reserved", ui.screen)
    ui.clear_banners()
    yield from ui.press("settings.cancel")
    ui.note("screen_after_cancel", ui.screen)


def _picture_point(ui: Any, x: float, y: float) -> tuple[float, float]:
    """Where picture pixel (x, y) is drawn in the window: the picture fitted, centred, y up."""
    picture = ui.widget("calibrate.picture")
    height, width = ui.app.screens["calibrate"].frame.shape[:2]
    scale = min(picture.width / width, picture.height / height)
    left = picture.center_x - width * scale / 2
    top = picture.center_y + height * scale / 2
    wx, wy = picture.to_window(left + x * scale, top - y * scale)
    return float(round(wx)), float(round(wy))  # a finger lands on a whole screen pixel


def demo_calibrate(ui: Any) -> Steps:
    """Find the board on the demo camera's picture: by itself first (its grid lines), then the
    markers (none on it), then four taps."""
    import numpy as np

    from games.upwords_board import Board
    from vision.synthetic.render import render_upwords, upwords_cells

    yield from _open_settings(ui)
    yield from ui.into_view("settings.calibrate")
    ui.note("status_before", ui.text("settings.calibration"))
    yield from ui.press("settings.calibrate")
    assert ui.screen == "calibrate", ui.screen
    screen = ui.app.screens["calibrate"]
    # the demo camera renders the empty board on its worker
    yield from ui.wait_for(lambda: screen.frame is not None, 100, 0.2)
    assert screen.frame is not None, ui.text("calibrate.prompt")
    yield 0.2
    ui.note("board_button", ui.text("calibrate.board"))
    _audit(ui, "find the board")
    # the screen finds the board by itself first, on a worker thread
    yield from ui.wait_for(lambda: screen._auto == "done", 300, 0.1)
    yield 0.2
    ui.note("auto_banner", ui.app.banner.showing)
    ui.note("auto_corners", [list(map(float, p)) for p in screen.picture.corners])
    ui.note("prompt_found", ui.text("calibrate.prompt"))
    yield from ui.shot("calibrate-found-by-itself")
    ui.clear_banners()
    yield from ui.press("calibrate.clear")  # the players may always tap the corners themselves
    ui.note("prompt_first", ui.text("calibrate.prompt"))
    # What the demo camera filmed: an empty 8x8 board, rendered with seed 0 (its tile count).
    shot = render_upwords(upwords_cells(Board.empty(8)), seed=0)
    ui.note("same_picture", bool(np.array_equal(shot.image, screen.frame)))
    ui.note("image_size", list(shot.image_size))
    ui.note("true_corners", [list(map(float, p)) for p in shot.corners])
    yield from ui.press("calibrate.markers")  # the rendered table has no printed markers
    ui.note("markers_banner", ui.app.banner.showing)
    ui.clear_banners()
    tl, tr, br, bl = shot.corners
    for x, y in (tl, br, tr, bl):  # two corners swapped: no board outline
        ui.tap_at(*_picture_point(ui, x, y))
        yield
    yield from ui.press("calibrate.save")
    ui.note("swapped_banner", ui.app.banner.showing)
    ui.note("screen_after_swapped", ui.screen)
    ui.clear_banners()
    yield from ui.press("calibrate.clear")
    for x, y in (tl, tr, br, bl):
        ui.tap_at(*_picture_point(ui, x, y))
        yield
    ui.note("prompt_done", ui.text("calibrate.prompt"))
    ui.note("tapped", [list(p) for p in screen.picture.corners])
    yield from ui.shot("calibrate-four-corners")
    yield from ui.press("calibrate.save")
    ui.note("saved_banner", ui.app.banner.showing)
    ui.note("screen_after_save", ui.screen)
    yield from ui.into_view("settings.calibrate")
    ui.note("status_after", ui.text("settings.calibration"))
    yield from ui.shot("settings-calibrated")


def no_camera_calibrate(ui: Any) -> Steps:
    """No camera at all (not demo mode, no calibration, [camera] source = none): said plainly."""
    yield from _open_settings(ui)
    yield from ui.into_view("settings.calibrate")
    ui.tap("settings.calibrate")
    yield 0.2
    yield from ui.wait_for(lambda: ui.app.banner.showing, 49, 0.2)
    ui.note("banner", ui.app.banner.showing)
    ui.note("prompt", ui.text("calibrate.prompt"))
    yield from ui.press("calibrate.save")
    ui.note("save_banner", ui.banners)


def markers_from_photo(ui: Any) -> Steps:
    """No calibration yet, so no camera reader: one photo from the camera named in Settings
    (a recording here), and the printed corner markers on it find the board."""
    yield from _open_settings(ui)
    yield from ui.into_view("settings.calibrate")
    ui.tap("settings.calibrate")
    screen = ui.app.screens["calibrate"]
    yield 0.1
    yield from ui.wait_for(lambda: screen.frame is not None, 99, 0.1)  # the photo is taken on a worker thread
    assert screen.frame is not None, ui.text("calibrate.prompt")
    ui.note("frame_size", [int(screen.frame.shape[1]), int(screen.frame.shape[0])])
    yield from ui.press("calibrate.markers")
    ui.note("markers_banner", ui.app.banner.showing)
    ui.note("prompt", ui.text("calibrate.prompt"))
    yield from ui.shot("calibrate-markers")
    yield from ui.press("calibrate.save")
    ui.note("screen_after_save", ui.screen)
    yield from ui.into_view("settings.calibration", 0.3)
    ui.note("status_after", ui.text("settings.calibration"))


def pins_bad_file(ui: Any) -> Steps:
    """The file's own pins are wrong (typed by hand): other settings still save; a pin tap fixes it."""
    yield from _open_settings(ui)
    ui.note("buzzer_pin_shown", ui.widget("settings.buzzer_pin").label.text)
    yield from ui.into_view("settings.mute")
    ui.tap("settings.mute")
    yield from ui.press("settings.save")
    ui.note("first_save_banners", ui.banners)
    ui.note("screen_after_first_save", ui.screen)
    ui.clear_banners()
    yield from ui.press("start.settings")
    yield from open_technician(ui)
    yield from _step(ui, "settings.buzzer_pin", "more", 1)  # shown as the default 17 -> 18
    yield from ui.press("settings.save", 0.3)
    ui.note("second_save_banners", ui.banners)
    ui.note("screen_after_second_save", ui.screen)


def technician_late_lift(ui: Any) -> Steps:
    """A finger held on the technician's door while another touch's lift reaches it: the hold
    still opens the door. (In a scrolling list a tap's lift reaches the buttons 0.2 s after the
    tap; on a slow frame it came after a hold begun straight after the tap, and ended it.)"""
    from kivy.tests.common import UnitTestTouch

    yield
    ui.clear_banners()
    yield from ui.press("start.settings")
    yield from ui.into_view("settings.technician")
    door = ui.widget("settings.technician")
    holding, passing = UnitTestTouch(*door.center), UnitTestTouch(*door.center)
    for touch in (holding, passing):  # handed on by the list: in the door's own coordinates
        touch.x, touch.y = door.center  # (a touch not yet dispatched has no position of its own)
        touch.pos = (touch.x, touch.y)
    door.on_touch_down(holding)  # the list has handed the holding finger to the door ...
    door.on_touch_up(passing)  # ... and the passing tap's late lift arrives
    yield door.hold + 0.5
    ui.note("open_while_held", ui.has("settings.buzzer_pin"))
    door.on_touch_up(holding)
    yield
    ui.note("screen", ui.screen)


def dictionary_choice(ui: Any) -> Steps:
    """The family's dictionary: named by what it holds, one tap to everyday words, and the
    next ruling comes from that list (the settings saved and the word list reloaded)."""
    from kivy.uix.label import Label

    yield
    ui.clear_banners()
    yield from ui.press("start.settings")
    screen = ui.app.manager.get_screen("settings")
    ui.note("family_texts", [w.text for w in screen.walk(restrict=True) if isinstance(w, Label)])
    yield from ui.into_view("settings.dictionary")
    ui.note("dictionary_before", ui.text("settings.dictionary"))
    yield from ui.press("settings.dictionary")
    ui.note("dictionary_after", ui.text("settings.dictionary"))
    _audit(ui, "settings dictionary")
    yield from ui.shot("settings-dictionary")
    yield from ui.press("settings.save")
    authority = ui.app.session.word_authority()  # read, as a challenge would: the list now in use
    ui.note("list_in_use", authority.lexicon.list_name() if authority is not None else None)
    ui.note("qi", authority.rule("upwords", "qi").reason if authority is not None else None)
    # A spelling challenge of a full-dictionary word on the everyday list: the longest kind
    # of reason, shown whole on the challenge screen (every tap runs the clipping audit).
    yield from pick_game(ui, "word-on-the-street", ["Reds", "Blues"])
    yield from ui.press("game.card")
    yield from enter_word(ui, "IRREGARDLESS")
    yield from challenge(ui, legal_by_hand=False, kind="spelling")
    yield from ui.press("challenge.letter.0")
    ui.note("verdict", ui.text("challenge.verdict"))
    screen = ui.app.manager.get_screen("challenge")
    ui.note("verdict_texts", [w.text for w in screen.walk() if isinstance(w, Label)])
    ui.audit()
    yield from ui.shot("challenge-verdict-everyday")


def _inside(ui: Any, tid: str) -> dict[str, Any]:
    """Where a widget is drawn against the scrolling list that shows it and the window: every
    edge inside both, and clear of the list's scroll bar."""
    from kivy.core.window import Window
    from kivy.uix.scrollview import ScrollView

    widget = ui.widget(tid)
    view = widget.parent
    while not isinstance(view, ScrollView):
        view = view.parent
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    vx0, vy0 = view.to_window(view.x, view.y)
    vx1, vy1 = view.to_window(view.right, view.top)
    bar = vx1 - view.bar_width - view.bar_margin
    return {
        "widget": [x0, y0, x1, y1],
        "view": [vx0, vy0, vx1, vy1],
        "whole": vx0 <= x0 and vy0 <= y0 and x1 <= vx1 and y1 <= vy1 and y0 >= 0 and y1 <= Window.height,
        "clear_of_bar": x1 <= bar,
    }


def settings_bottom(ui: Any) -> Steps:
    """The Settings list scrolled to its end, before and after the technician's door opens."""
    yield
    ui.clear_banners()
    yield from ui.press("start.settings")
    scroll = ui.app.screens["settings"].rows.parent
    scroll.scroll_y = 0
    yield 0.3
    ui.note("door", _inside(ui, "settings.technician"))
    yield from ui.shot("settings-bottom")
    yield from ui.hold("settings.technician")
    scroll.scroll_y = 0
    yield 0.3
    ui.note("calibrate", _inside(ui, "settings.calibrate"))
    yield from ui.shot("settings-technician-bottom")

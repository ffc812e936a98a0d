"""The kiosk in other situations: a power cut, settings, missing or damaged files, the timer, demo."""

from __future__ import annotations

import errno
import time
from pathlib import Path
from typing import Any

from clipping import audit_clipping
from play_steps import Steps, enter_word, no_word, pick_game, place_word


def resume_part1(ui: Any) -> Steps:
    """Start Upwords, play MOOD and DEAR — then the power is cut (the driver SIGKILLs itself)."""
    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    yield from place_word(ui, "MOOD", "entry.col.less", "entry.col.less")
    yield from place_word(ui, "DEAR", "entry.col.more", "entry.direction")
    ui.note("mover", ui.text("game.mover"))
    ui.note("scores", ui.scores())
    ui.note("board", ui.app.session.game.board.text())
    ui.note("pull_the_plug", True)


def resume_part2(ui: Any) -> Steps:
    """A fresh app on the same data: straight back into the game, then play on."""
    yield
    ui.note("screen_at_start", ui.screen)
    ui.note("mover", ui.text("game.mover"))
    ui.note("scores", ui.scores())
    ui.note("board", ui.app.session.game.board.text())
    ui.note("ring", ui.text("ring.digits"))
    yield from ui.shot("game-resumed")
    yield from place_word(ui, "NET", "entry.row.more")
    ui.note("scores_after", ui.scores())


def settings_and_stats(ui: Any) -> Steps:
    """Settings: lengthen the Word on the Street timer, mute, save; then the games played."""
    yield
    yield from ui.press("start.settings")
    yield from ui.shot("settings")
    ui.tap("settings.timer.word-on-the-street.more")
    ui.tap("settings.timer.word-on-the-street.more")
    yield from ui.into_view("settings.mute")
    yield from ui.press("settings.mute")
    from play_settings import open_technician

    yield from open_technician(ui)
    yield from ui.into_view("settings.brightness")
    ui.tap("settings.brightness.more")  # 40 % -> 45 %
    ui.note("brightness", ui.widget("settings.brightness").label.text)
    yield from ui.into_view("settings.house", 0.3)
    yield from ui.shot("settings-scrolled")
    yield from ui.press("settings.house")  # a house word for every game, typed on the big keyboard
    ui.type("ZORBLE", keyboard="names.kb")
    yield from ui.press("names.ok")
    ui.note("house_banner", ui.app.banner.showing)
    ui.note("mute_kept", ui.text("settings.mute"))
    yield from ui.into_view("settings.house_strike")
    yield from ui.press("settings.house_strike")  # strike a word, see it listed, then remove the rule
    ui.type("QI", keyboard="names.kb")
    yield from ui.press("names.ok")
    yield from ui.into_view("settings.house.1")
    ui.note("house_listed", [ui.text("settings.house.0"), ui.text("settings.house.1")])
    yield from ui.shot("settings-house-words")
    yield from ui.press("settings.house.0.remove")  # QI: the list is in alphabetical order
    ui.note("house_after_remove", ui.has("settings.house.1"))
    yield from ui.press("settings.save")
    assert ui.screen == "start", ui.screen
    yield from ui.press("start.game.word-on-the-street")
    ui.note("wots_timer", ui.text("start.timer"))
    yield from ui.press("start.stats")
    yield from ui.shot("games-played")
    ui.note("stats_lines", [w.text for w in ui.app.screens["history"].lines.children][::-1])
    yield from ui.press("history.back")
    assert ui.screen == "start", ui.screen


def no_word_list(ui: Any) -> Steps:
    """The word list is missing: the kiosk says so and the table rules by hand."""
    yield
    ui.note("banner_at_start", ui.banners)
    yield from pick_game(ui, "wordspiel", ["Ann", "Bob"])
    yield from place_word(ui, "F")
    yield from enter_word(ui, "FUN")
    yield from ui.press("game.challenge")
    yield
    yield from ui.shot("challenge-by-hand")
    yield from ui.press("challenge.hand.illegal")
    ui.note("verdict", ui.text("challenge.verdict"))
    ui.note("event", ui.app.session.game.events[-1])


def damaged_settings(ui: Any) -> Steps:
    """A half-written settings file: defaults, a banner, and the kiosk works."""
    yield
    ui.note("banner_at_start", ui.banners)
    yield from ui.shot("banner-settings-damaged")
    yield from pick_game(ui, "word-on-the-street")
    ui.note("mover", ui.text("game.mover"))


def timer(ui: Any) -> Steps:
    """A 15 s Word on the Street timer: start, drain, pause, reset on the next turn, then the warning."""
    yield
    yield from ui.press("start.game.word-on-the-street")
    yield from ui.press("start.timer.less")  # 30 -> 20
    yield from ui.press("start.timer.less")  # 20 -> 15
    yield from pick_game(ui, "word-on-the-street")
    ui.note("before", ui.text("ring.digits"))
    yield from ui.press("game.timer", 1.3)
    ui.note("running", ui.text("ring.digits"))
    ui.note("frame_running", ui.widget("ring").frame)
    ui.note("button_running", ui.text("game.timer"))
    yield from ui.shot("game-timer-running")
    yield from ui.press("game.timer", 0.3)
    ui.note("paused", ui.text("ring.digits"))
    ui.note("button_paused", ui.text("game.timer"))
    ui.note("paused_state", ui.text("game.timer_state"))
    yield from ui.shot("game-timer-paused")
    yield 0.6
    ui.note("paused_later", ui.text("ring.digits"))
    yield from ui.press("ring", 0.1)  # tap the ring: a full turn again
    ui.note("after_ring_tap", ui.text("ring.digits"))
    yield from no_word(ui)
    yield 0.1
    ui.note("next_turn", ui.text("ring.digits"))
    yield from ui.press("game.card", 1.0)  # drawing the card starts the timer, as the sheet says
    # The window is redrawn when a pixel changes: once a second while it runs (the digits),
    # not every frame. Counted over 2 s or so of running, with the ring drawn over the still layer.
    from kivy.core.window import Window

    flips: list[float] = []

    def flipped(*_: Any) -> None:
        flips.append(time.perf_counter())

    Window.bind(on_flip=flipped)
    started = time.perf_counter()
    digits_seen = {ui.text("ring.digits")}
    for _ in range(20):
        yield 0.1
        digits_seen.add(ui.text("ring.digits"))
    Window.unbind(on_flip=flipped)
    ui.note("running_flips", len(flips))
    ui.note("running_seconds", time.perf_counter() - started)
    ui.note("running_digits_seen", sorted(digits_seen))
    game = ui.app.screens["game"]
    ui.note("ring_outside_still", game.ring not in list(game.still.walk(restrict=True)))
    # The window as the X server shows it is the widget tree (the still picture, the ring over
    # it, no clear underneath); and on the next screen the clear is back (no game-screen left).
    ui.note("window_vs_tree_game", _window_vs_tree(ui, "game"))
    ui.tap("game.menu")
    # The X server shows the next screen once Kivy has drawn it: on a loaded machine later than
    # 0.3 s (CI once read back the game screen still showing, 40 % of the pixels apart).
    for _ in range(4):  # not longer: the turn runs on, and its last 10 s are checked next
        yield 0.3
        apart = _window_vs_tree(ui, "history")
        if apart < SAME_SCREEN_BELOW:
            break
    ui.note("window_vs_tree_history", apart)
    yield from ui.press("history.back", 0.3)
    # on into the last 10 s (amber)
    yield from ui.wait_for(lambda: int(ui.text("ring.digits")) <= 10, 100, 0.1)
    yield 0.2
    ui.note("warning", ui.text("ring.digits"))
    ui.note("frame_warning", ui.widget("ring").frame)
    yield from ui.shot("game-timer-warning")
    yield 10.2  # the rest of the turn runs out
    ui.note("time_up", ui.text("ring.digits"))
    ui.note("time_up_state", ui.text("game.timer_state"))
    yield from ui.shot("game-timer-time-up")
    frames = []
    for _ in range(8):  # the ring flashes red
        frames.append(ui.widget("ring").frame)
        yield 0.15
    ui.note("expired_frames", frames)
    ui.note("sound_before", ui.text("game.mute"))
    yield from ui.press("game.mute")  # one tap: silence
    ui.note("sound_after", ui.text("game.mute"))
    ui.note("speaker_muted", ui.app.speaker.muted)


#: Pixels of the 800x480 window that may differ when the X server and the widget tree show the
#: same screen (1 %: text anti-aliasing, a digit that changed between the two reads).
SAME_SCREEN_BELOW = 800 * 480 // 100


def _window_vs_tree(ui: Any, name: str) -> int:
    """How many pixels of the real window (read back from the X server) differ from the widget
    tree rendered off screen: 0 but for anti-aliasing and a digit that changed in between."""
    import os

    from PIL import Image, ImageChops, ImageGrab

    real = ImageGrab.grab(xdisplay=os.environ["DISPLAY"]).convert("RGB").crop((0, 0, 800, 480))
    path = ui.shots / f"window-{name}-tree.png"
    ui.app.root.export_to_png(str(path))
    tree = Image.open(path).convert("RGB")
    path.unlink()
    return sum(1 for px in ImageChops.difference(real, tree).getdata() if max(px) > 40)


def demo(ui: Any) -> Steps:
    """Demo mode: the sheet's Upwords game put on the table play by play and read by the camera;
    where the camera is unsure the play comes up in turn entry and the players confirm it."""
    yield
    for _ in range(90):  # generous: on a loaded machine the camera's reads take longer
        if ui.screen == "start":
            yield from ui.press("start.go")  # any game; the demo step starts its own
        elif ui.screen == "entry":  # the camera asked: check the filled-in play, then Done
            if "confirm_shot" not in ui.found:
                yield from ui.shot("entry-camera-unsure")
                ui.note("confirm_shot", ui.text("entry.preview"))
                banner = ui.app.banner
                ui.note("camera_banner", banner.showing)
                ui.note("banner_covers", [tid for tid in ("entry.done", "entry.cancel", "entry.title")
                                          if banner.collide_widget(ui.widget(tid))])
            yield from ui.press("entry.done")
        elif ui.app.session.game is not None and len(ui.app.session.game.events) >= 7:
            break
        else:
            yield from ui.press("game.demo", 0.4)  # the camera films and reads on its worker thread
    yield 0.5
    ui.note("scores", ui.scores())
    ui.note("news", ui.text("game.news"))
    camera = ui.app.camera
    ui.note("frames", camera.frames if camera is not None else None)
    ui.note("read_by_camera", ui.app.demo.read_by_camera)
    ui.note("confirmed_by_players", ui.app.demo.confirmed_by_players)
    yield from ui.shot("game-demo")
    if camera is not None:
        ui.note("camera_caption", ui.app.screens["game"].table.caption.text)
        yield from ui.press("game.table")
        yield from ui.shot("game-demo-photo")
        ui.note("photo_kind", ui.app.screens["game"].table.kind)


def idle(ui: Any) -> Steps:
    """Start, show the start screen for a moment (systemd's heartbeat runs), quit."""
    yield 1.5
    ui.note("screen", ui.screen)


def disk_full(ui: Any) -> Steps:
    """The data disk fills up mid-game: the turn is refused in plain words, nothing typed is lost."""
    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    yield from place_word(ui, "MOOD", "entry.col.less", "entry.col.less")
    filler = Path(ui.app.session.log.path).parent / "filler.bin"
    with filler.open("wb", buffering=0) as fh:  # take every free block of the little disk
        try:
            while True:
                fh.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
    yield from place_word(ui, "DEAR", "entry.col.more", "entry.direction")
    ui.note("banner", ui.app.banner.showing)
    ui.note("screen_after_refusal", ui.screen)
    ui.note("typed_after_refusal", ui.text("entry.field"))
    ui.note("events_after_refusal", len(ui.app.session.game.events))
    yield from ui.shot("banner-disk-full")
    filler.unlink()  # the players make room; the same Done now works
    yield from ui.press("banner")
    yield from ui.press("entry.done")
    ui.note("screen_after_room", ui.screen)
    ui.note("scores_after_room", ui.scores())


def _audit(ui: Any, where: str) -> None:
    """Every visible text at least 18 px, every visible button at least 60 px both ways."""
    from kivy.uix.label import Label

    from kiosk.app.widgets.basics import BigButton

    small = ui.found.setdefault("small_text", [])
    tight = ui.found.setdefault("small_buttons", [])
    for widget in ui.app.root.walk(restrict=True):
        shown, parent = widget.opacity > 0 and widget.height > 0 and widget.width > 0, widget.parent
        for _ in range(40):  # up to the root (a Window is its own parent, so count the steps)
            if not shown or parent is None or parent is ui.app.root:
                break
            shown = parent.opacity > 0 and parent.height > 0
            parent = parent.parent
        if not shown:
            continue
        if isinstance(widget, Label) and widget.text.strip() and widget.font_size < 18:
            small.append(f"{where}: {widget.text[:20]!r} at {widget.font_size}px")
        if isinstance(widget, BigButton) and not widget.disabled and min(widget.size) < 60:
            tight.append(f"{where}: {getattr(widget, 'tid', '?')} {widget.width:.0f}x{widget.height:.0f}")
    ui.found.setdefault("clipped", []).extend(audit_clipping(ui.app.root, where))
    ui.found.setdefault("audited", []).append(where)


def audit(ui: Any) -> Steps:
    """Walk through every screen and measure text and touch targets as drawn at 800x480."""
    yield
    ui.clear_banners()
    yield
    _audit(ui, "start")
    ui.app.banner.show("Saved.", "info")  # a one-line message is tapped away like any button
    yield
    _audit(ui, "one-line message")
    ui.clear_banners()
    yield
    yield from ui.press("start.name.0")
    _audit(ui, "names")
    yield from ui.press("names.cancel")
    for game in ("word-on-the-street", "upwords", "tosswords", "wordspiel", "option"):
        yield from ui.press(f"start.game.{game}")
        _audit(ui, f"start {game}")
        yield from ui.press("start.go")
        _audit(ui, f"game {game}")
        yield from ui.press("game.turn")
        _audit(ui, f"entry {game}")
        if game == "option":
            ui.type("TOOL")
            yield from ui.press("entry.done")
            _audit(ui, "letters")
            yield from ui.press("letters.back")
            yield from ui.press("entry.end")
            _audit(ui, "tally")
            yield from ui.press("tally.back")
        else:
            yield from ui.press("entry.cancel")
        yield from ui.press("game.menu")
        _audit(ui, f"history {game}")
        ui.tap("history.abandon")
        yield from ui.press("history.abandon")
    yield from pick_game(ui, "word-on-the-street")
    yield from enter_word(ui, "STRENGTHS")
    yield from ui.press("game.challenge")
    _audit(ui, "challenge kinds")
    yield from ui.press("challenge.kind.selection")
    _audit(ui, "vote")
    ui.tap("challenge.vote.accept")
    yield from ui.press("challenge.vote.done")
    _audit(ui, "verdict")
    yield from ui.press("challenge.ok")
    yield from ui.press("game.menu")
    yield from ui.press("history.settings")
    _audit(ui, "settings")
    from play_settings import open_technician

    yield from open_technician(ui)
    _audit(ui, "settings, technician")


def demo_street(ui: Any) -> Steps:
    """Demo mode, Word on the Street: the camera films the street after each word and reads it."""
    yield
    yield from pick_game(ui, "word-on-the-street", ["Reds", "Blues"])
    yield from enter_word(ui, "STRENGTHS")
    camera = ui.app.camera
    for _ in range(40):  # the renderer and the street reader run on the camera's thread
        read = camera.latest_street() if camera is not None else None
        if camera is None or (read is not None and read.positions.get("S") == -2):
            break
        yield 0.25
    yield
    ui.note("camera_problem", getattr(camera, "problem", None))
    ui.note("caption", ui.app.screens["game"].table.caption.text)
    ui.note("read_positions", None if read is None else read.positions)
    yield from ui.shot("game-demo-street")
    yield from ui.press("game.table")
    yield from ui.shot("game-demo-street-photo")
    ui.note("photo_kind", ui.app.screens["game"].table.kind)


def live_camera(ui: Any) -> Steps:
    """The table's camera (a recording here): a play it sees is offered, the players confirm it;
    then the camera is unplugged and the game goes on by touch."""
    import shutil

    frames = Path(ui.app.settings.section("camera")["source"])
    data = frames.parent
    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    yield 1.5  # the camera settles on the empty board
    ui.note("before", ui.text("game.news"))
    shutil.copyfile(data / "mood.png", data / "next.png")
    (data / "next.png").replace(frames / "board.png")  # the players put MOOD down
    yield from ui.wait_for(lambda: "camera sees" in ui.text("game.news"), 60, 0.2)
    ui.note("news", ui.text("game.news"))
    ui.note("caption", ui.app.screens["game"].table.caption.text)
    yield from ui.shot("game-live-camera")
    yield from ui.press("game.turn")
    ui.note("entry_title", ui.app.screens["entry"].bar.title.text)
    ui.note("entry_preview", ui.text("entry.preview"))
    yield from ui.shot("entry-live-camera")
    yield from ui.press("entry.done")
    ui.note("scores", ui.scores())
    shutil.rmtree(frames)  # the camera's cable is pulled
    yield from ui.wait_for(lambda: "camera is lost" in ui.app.banner.showing, 40, 0.2)
    ui.note("lost_banner", ui.app.banner.showing)


def live_camera_asks(ui: Any) -> Steps:
    """The table's camera (a recording): the players put MOOD down as a warm lamp comes on, and
    the camera takes the warm board for a hand. After a still wait it asks; a tap on its question
    and the play is offered."""
    import shutil

    frames = Path(ui.app.settings.section("camera")["source"])
    data = frames.parent
    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    yield 1.5  # the camera settles on the empty board
    shutil.copyfile(data / "mood-warm.png", data / "next.png")
    (data / "next.png").replace(frames / "board.png")
    table = ui.app.screens["game"].table
    yield from ui.wait_for(lambda: ui.has("game.table.clear"), 80, 0.2)
    ui.note("asked", ui.has("game.table.clear"))
    ui.note("question", table.clear_button.text)
    ui.note("news_while_asked", ui.text("game.news"))
    yield from ui.shot("game-live-camera-asks")
    yield from ui.press("game.table.clear")
    ui.note("asked_after_tap", ui.has("game.table.clear"))
    ui.note("photo_after_tap", table.photo)
    yield from ui.wait_for(lambda: "camera sees" in ui.text("game.news"), 80, 0.2)
    ui.note("news", ui.text("game.news"))
    yield from ui.shot("game-live-camera-answered")


def live_street_asks(ui: Any) -> Steps:
    """Word on the Street with the table's camera (a recording): a warm lamp comes on over the
    street, which the colour rule takes for a hand. The question takes the caption's line and
    leaves the street readable; a tap and the street is read again."""
    import shutil

    from play_steps import street_measured

    frames = Path(ui.app.settings.section("camera")["source"])
    data = frames.parent
    yield
    yield from pick_game(ui, "word-on-the-street", ["Reds", "Blues"])
    table = ui.app.screens["game"].table
    yield from ui.wait_for(lambda: table.caption.text.startswith("camera:"), 80, 0.2)
    ui.note("caption_before", table.caption.text)
    shutil.copyfile(data / "street-warm.png", data / "next.png")
    (data / "next.png").replace(frames / "board.png")
    yield from ui.wait_for(lambda: ui.has("game.table.clear"), 80, 0.2)
    ui.note("asked", ui.has("game.table.clear"))
    ui.note("question", table.clear_button.text)
    ui.note("street_measured", street_measured(ui))
    yield from ui.shot("game-wots-camera-asks")
    yield from ui.press("game.table.clear")
    yield from ui.wait_for(lambda: not ui.has("game.table.clear") and table.caption.text, 20, 0.2)
    yield 1.0  # the camera reads the street on its worker: the question does not come back
    ui.note("asked_after_tap", ui.has("game.table.clear"))
    ui.note("caption_after", table.caption.text)


def overlaps_known(ui: Any) -> Steps:
    """The overlaps the audit once let through, as a family met them: a start-up problem's
    banner on the start screen, and a W stacked on an M on the Upwords board."""
    from clipping import audit_overlaps

    yield 0.3
    assert ui.banners, "the damaged settings file gives a banner at start"
    ui.note("start", audit_overlaps(ui.app.root, "start"))
    yield from ui.shot("overlap-start-banner")
    ui.clear_banners()
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    yield from place_word(ui, "MOOD", "entry.col.less", "entry.col.less")
    yield from place_word(ui, "DEAR", "entry.col.more", "entry.direction")
    yield from place_word(ui, "NET", "entry.row.more")
    yield from place_word(ui, "WOOD", "entry.col.less", "entry.col.less")  # W stacked on the M
    yield 0.2
    ui.clear_banners()
    ui.note("board", audit_overlaps(ui.app.root, "game"))
    yield from ui.shot("overlap-upwords-badge")

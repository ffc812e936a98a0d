"""GUI scenario: the camera drives a Word on the Street turn (demo camera, real street reader)."""

from __future__ import annotations

from typing import Any

from play_steps import Steps, pick_game, street_measured


def _wait_for_street(ui: Any, want: dict[str, int] | None) -> Steps:
    """Until the camera has read the street (with the tiles of ``want`` where it says)."""

    def seen() -> bool:
        read = ui.app.camera.latest_street()
        return read is not None and (want is None or all(read.positions.get(k) == v for k, v in want.items()))

    yield from ui.wait_for(seen, 80, 0.25)  # the renderer and the street reader run on the camera's thread


def demo_street_turn(ui: Any) -> Steps:
    """The Reds move P twice and R, L once toward them (PURPLE); the camera films it; turn entry
    offers the words that make exactly those moves; a mistyped PURLE is flagged; one tap on
    the offer plays PURPLE."""
    from games.word_on_the_street import LETTERS, move_tiles

    yield
    yield from pick_game(ui, "word-on-the-street", ["Reds", "Blues"])
    camera = ui.app.camera
    assert camera is not None, "demo mode has a camera"
    yield from _wait_for_street(ui, None)
    game = ui.app.session.game
    moved, _ = move_tiles(game.state, game.state.on_street, "PURPLE")
    after = dict(zip(LETTERS, moved.positions, strict=True))
    camera.film_street(after)  # the players pushed the tiles; the camera films the street
    yield from _wait_for_street(ui, {"P": -2, "R": -1, "L": -1})
    ui.note("read", camera.latest_street().positions)
    yield from ui.press("game.turn")
    assert ui.screen == "entry", ui.screen
    ui.note("offers", [ui.text(f"entry.offer.{i}") for i in range(3) if ui.has(f"entry.offer.{i}")])
    ui.type("PURLE")
    yield
    ui.note("preview_typo", ui.text("entry.preview"))
    yield from ui.press("entry.done")
    ui.note("flag_banner", ui.app.banner.showing)
    ui.note("screen_after_typo", ui.screen)
    ui.clear_banners()
    # The street is drawn on the entry screen itself, in the keyboard's place, the tile framed.
    street = ui.widget("entry.street")
    ui.note("entry_street", {"shown": ui.has("entry.street"), "keyboard": ui.has("kb"),
                             "flagged": sorted(street.data[2]), "tiles": dict(street.data[0]),
                             "title": ui.text("entry.title") if ui.has("entry.title") else None})
    yield from ui.shot("entry-wots-camera-flagged")
    yield from ui.press("entry.street")  # a tap on the street: the keyboard again, the word as typed
    ui.note("after_street_tap", {"street": ui.has("entry.street"), "keyboard": ui.has("kb"),
                                 "field": ui.text("entry.field")})
    yield from ui.press("entry.cancel", 0.3)  # the players look at the street: the disagreeing tile is framed
    ui.note("street_flagged", sorted(ui.widget("game.table.street").data[2]))
    yield from ui.shot("game-wots-camera-flagged")
    ui.note("street_measured", street_measured(ui))  # with the camera's caption under it
    yield from ui.press("game.turn")
    offers = [ui.text(f"entry.offer.{i}") for i in range(3) if ui.has(f"entry.offer.{i}")]
    filmed = camera.frames
    yield from ui.press(f"entry.offer.{offers.index('PURPLE')}")  # one tap confirms the camera's word
    ui.note("screen_after_offer", ui.screen)
    ui.note("positions_after", ui.app.session.game.positions())
    ui.note("last_word", ui.app.session.game.state.last.word if ui.app.session.game.state.last else None)
    yield from ui.shot("game-wots-camera-word")
    # The game changed, so the camera films the street again: let it finish before the app
    # closes (a render cut off mid-way at exit aborts the process).
    yield from ui.wait_for(lambda: camera.frames > filmed and camera._jobs.empty(), 80, 0.25)
    yield 1.0


def _film_turn(ui: Any, word: str) -> Steps:
    """The side to play pushes the tiles of ``word``; the camera films the street."""
    from games.word_on_the_street import LETTERS, move_tiles

    game = ui.app.session.game
    moved, _ = move_tiles(game.state, game.state.on_street, word)
    after = dict(zip(LETTERS, moved.positions, strict=True))
    want = {k: v for k, v in after.items() if v != game.positions()[k] and abs(v) < 3}
    ui.app.camera.film_street(after)
    yield from _wait_for_street(ui, want)


def demo_street_correction(ui: Any) -> Steps:
    """Two turns filmed and played (PURPLE, then GIANT); the first corrected from History: the
    camera sees the street after GIANT, so it is left out of that correction (no "moved"
    warning from GIANT's moves); the latest turn is compared with the camera as usual, and its
    "camera:" hint stays inside the field, clear of Cancel and Done."""
    yield
    yield from pick_game(ui, "word-on-the-street", ["Reds", "Blues"])
    camera = ui.app.camera
    yield from _wait_for_street(ui, None)
    for word in ("PURPLE", "GIANT"):
        yield from _film_turn(ui, word)
        yield from ui.press("game.turn")
        ui.type(word)
        yield
        ui.note(f"preview_{word}", ui.text("entry.preview"))
        yield from ui.press("entry.done", 0.3)
        assert ui.screen == "game", (ui.screen, ui.banners)
    filmed = camera.frames
    yield from ui.wait_for(lambda: camera.frames > filmed and camera._jobs.empty(), 80, 0.25)
    yield from ui.press("game.menu")
    yield from ui.press("history.correct")
    yield from ui.press("correct.entry.0")  # "1. Reds: PURPLE", two turns back
    yield 0.2
    ui.note("old_preview", ui.text("entry.preview"))
    ui.note("old_field", ui.text("entry.field"))
    yield from ui.shot("entry-wots-correct-old")
    yield from ui.press("entry.done", 0.3)
    ui.note("old_screen_after", ui.screen)
    ui.note("old_banners", ui.banners)
    ui.clear_banners()
    yield from ui.press("history.correct")
    yield from ui.press("correct.entry.1")  # "2. Blues: GIANT", the latest: the camera sees it
    yield 0.2
    ui.app.screens["entry"].keyboard.set("ROBOTS")
    yield
    ui.note("latest_preview", ui.text("entry.preview"))
    bar, preview = ui.widget("entry.cancel"), ui.widget("entry.preview")
    ui.note("preview_top", preview.to_window(preview.x, preview.top)[1])
    ui.note("preview_text_top", preview.to_window(0, preview.center_y + preview.texture_size[1] / 2)[1])
    ui.note("bar_bottom", bar.to_window(bar.x, bar.y)[1])
    yield from ui.shot("entry-wots-correct-latest")
    yield from ui.press("entry.cancel")

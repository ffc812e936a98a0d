"""GUI scenario: the camera drives a Word on the Street turn (demo camera, real street reader)."""

from __future__ import annotations

from typing import Any

from play_steps import Steps, pick_game


def _wait_for_street(ui: Any, want: dict[str, int] | None) -> Steps:
    camera = ui.app.camera
    for _ in range(80):  # the renderer and the street reader run on the camera's thread
        read = camera.latest_street()
        if read is not None and (want is None or all(read.positions.get(k) == v for k, v in want.items())):
            return
        yield 0.25


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
    ui.tap("game.turn")
    yield
    assert ui.screen == "entry", ui.screen
    ui.note("offers", [ui.text(f"entry.offer.{i}") for i in range(3) if ui.has(f"entry.offer.{i}")])
    ui.type("PURLE")
    yield
    ui.note("preview_typo", ui.text("entry.preview"))
    ui.tap("entry.done")
    yield
    ui.note("flag_banner", ui.app.banner.showing)
    ui.note("screen_after_typo", ui.screen)
    while ui.app.banner.messages:
        ui.app.banner.hide()
    # The street is drawn on the entry screen itself, in the keyboard's place, the tile framed.
    street = ui.widget("entry.street")
    ui.note("entry_street", {"shown": ui.has("entry.street"), "keyboard": ui.has("kb"),
                             "flagged": sorted(street.data[2]), "tiles": dict(street.data[0]),
                             "title": ui.text("entry.title") if ui.has("entry.title") else None})
    yield from ui.shot("entry-wots-camera-flagged")
    ui.tap("entry.street")  # a tap on the street: the keyboard again, the word as typed
    yield
    ui.note("after_street_tap", {"street": ui.has("entry.street"), "keyboard": ui.has("kb"),
                                 "field": ui.text("entry.field")})
    ui.tap("entry.cancel")  # the players look at the street: the disagreeing tile is framed
    yield 0.3
    ui.note("street_flagged", sorted(ui.widget("game.table.street").data[2]))
    yield from ui.shot("game-wots-camera-flagged")
    ui.tap("game.turn")
    yield
    offers = [ui.text(f"entry.offer.{i}") for i in range(3) if ui.has(f"entry.offer.{i}")]
    filmed = camera.frames
    ui.tap(f"entry.offer.{offers.index('PURPLE')}")  # one tap confirms the camera's word
    yield
    ui.note("screen_after_offer", ui.screen)
    ui.note("positions_after", ui.app.session.game.positions())
    ui.note("last_word", ui.app.session.game.state.last.word if ui.app.session.game.state.last else None)
    yield from ui.shot("game-wots-camera-word")
    # The game changed, so the camera films the street again: let it finish before the app
    # closes (a render cut off mid-way at exit aborts the process).
    for _ in range(80):
        if camera.frames > filmed and camera._jobs.empty():
            break
        yield 0.25
    yield 1.0

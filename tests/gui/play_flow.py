"""What a new family stumbled on, played again by touch: stacked Upwords letters, a demo step
beside a family's game, ending Upwords early, Tosswords' entry, the timer running out, and
messages that never cover a button."""

from __future__ import annotations

from typing import Any

from play_steps import Steps, pick_game, place_word, toss


def _rect(widget: Any) -> tuple[float, float, float, float]:
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, x + widget.width, y + widget.height


def _covered(ui: Any) -> list[str]:
    """The buttons of the screen on show that the banner overlaps (it must be none)."""
    from kiosk.app.widgets.basics import BigButton

    banner = ui.app.banner
    if not banner.messages:
        return []
    bx0, by0, bx1, by1 = _rect(banner)
    hit = []
    for widget in ui.app.manager.current_screen.walk(restrict=True):
        if isinstance(widget, BigButton) and widget.opacity > 0 and widget.width > 1 and widget.height > 1:
            x0, y0, x1, y1 = _rect(widget)
            if x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y1:
                hit.append(getattr(widget, "tid", "") or widget.text)
    return hit


# ---------------------------------------------------------------------- stacked letters
def _stack_of(board: Any, spot: tuple[int, int]) -> dict[str, Any]:
    """Where a stacked square's letter and height were drawn, and whether they are clear."""
    x0, y0, cell, size = board._geometry
    row, col = spot
    cx, cy = x0 + col * cell, y0 + (size - 1 - row) * cell
    letter, digit = board.stack_boxes[spot]

    def inside(box: tuple[float, ...]) -> bool:
        x, y, w, h = box
        return x >= cx - 0.5 and y >= cy - 0.5 and x + w <= cx + cell + 0.5 and y + h <= cy + cell + 0.5

    lx, ly, lw, lh = letter
    dx, dy, dw, dh = digit
    apart = lx + lw <= dx or dx + dw <= lx or ly + lh <= dy or dy + dh <= ly
    return {"cell": cell, "letter_h": lh, "digit_h": dh, "inside": inside(letter) and inside(digit),
            "apart": apart}


def _game_board(ui: Any) -> Any:
    from kiosk.app.widgets.boards import GridView

    return next(w for w in ui.app.screens["game"].walk(restrict=True) if isinstance(w, GridView))


def _square(board: Any, row: int, col: int) -> tuple[float, float]:
    x0, y0, cell, size = board._geometry
    return board.to_window(x0 + (col + 0.5) * cell, y0 + (size - 1 - row + 0.5) * cell)


def stacked_letters(ui: Any) -> Steps:
    """MOOD, then W, F, G and H stacked on its M: heights 2 to 5, each read on the large board
    as it is typed and on the game screen once scored."""
    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    yield from place_word(ui, "MOOD", "entry.col.less", "entry.col.less")
    ui.note("single", sorted(_game_board(ui).stack_boxes))  # height 1 everywhere: no digits
    for height, word in enumerate(("WOOD", "FOOD", "GOOD", "HOOD"), start=2):
        yield from ui.press("game.turn")
        yield from ui.press("entry.board")
        board = ui.widget("place.board")
        ui.tap_at(*_square(board, 3, 1))
        for ch in word:
            ui.tap(f"place.kb.{ch}")
        yield 0.1
        ui.note(f"place_{height}", _stack_of(board, (3, 1)))
        if height == 5:
            yield from ui.shot("place-stack-5")
        yield from ui.press("place.done", 0.2)
        assert ui.screen == "game", (ui.screen, ui.banners)
        ui.note(f"game_{height}", _stack_of(_game_board(ui), (3, 1)))
        ui.note(f"painted_{height}", list(_game_board(ui).painted_text))
    yield from ui.shot("game-stack-5")


# ---------------------------------------------------------------------- the demo's own game
def demo_own_game(ui: Any) -> Steps:
    """The demo's game is started beside a family's; the family then names its players as the
    demo's (Ann and Bob) and plays MOOD: Demo step asks, and never writes into that game."""
    yield
    yield from pick_game(ui, "upwords", ["Mum", "Dad"])  # the family's last Upwords players
    yield from ui.press("game.menu")
    yield from ui.press("history.leave")
    yield from pick_game(ui, "word-on-the-street", ["Reds", "Blues"])
    yield from ui.press("game.demo")
    yield from ui.press("game.demo")  # yes: the demo's game, the Reds' kept
    ui.note("demo_game", [ui.app.session.game.name, ui.app.session.demo])
    yield from ui.press("game.menu")
    yield from ui.press("history.leave")
    ui.clear_banners()
    yield from ui.press("start.game.upwords")
    ui.note("offered_names", [ui.text("start.name.0"), ui.text("start.name.1")])
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    family = ui.app.session.game_id
    yield from place_word(ui, "MOOD", "entry.col.less", "entry.col.less")
    yield from ui.press("game.demo")
    ui.note("asked", ui.text("game.news"))
    ui.note("family_after_ask", [ui.app.session.game_id == family, len(ui.app.session.game.events)])
    yield from ui.shot("game-demo-beside-family")
    yield from ui.press("game.demo")  # the demo's own game comes back; the family's is kept
    ui.note("then", [ui.app.session.game_id != family, ui.app.session.demo, ui.text("game.news")])
    ui.note("family_id", family)


# ---------------------------------------------------------------------- Upwords ended early
def upwords_agree(ui: Any) -> Steps:
    """Two plays, then the players agree to stop with tiles in the bag."""
    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    yield from place_word(ui, "MOOD", "entry.col.less", "entry.col.less")
    yield from ui.press("game.turn")
    yield from ui.press("entry.end")
    ui.note("tally_title", ui.app.screens["tally"].bar.title.text)
    ui.note("tally_rows", [ui.read("tally.left.0"), ui.read("tally.left.1")])
    ui.note("tally_note", ui.read("tally.note"))
    ui.note("tally_done", ui.text("tally.done"))
    yield from ui.shot("tally-upwords-agree")
    yield from ui.press("tally.done", 0.2)
    ui.note("screen", ui.screen)
    ui.note("winner", ui.text("end.winner"))
    ui.note("how", ui.read("end.how"))
    ui.note("deducted", ui.text("end.deducted"))
    yield from ui.shot("end-upwords-agreed")


# ---------------------------------------------------------------------- Tosswords entry
def toss_entry(ui: Any) -> Steps:
    """Done and No word with nothing typed, Steal greyed until a time-out, then a steal."""
    yield
    yield from ui.press("start.game.tosswords")
    yield from ui.press("start.option.steal")  # the time-limit variation on
    yield from pick_game(ui, "tosswords", ["Mum", "Kim"])
    yield from toss(ui, "CT", 3, "TRANCE")  # Mum retires C and T
    yield from ui.press("game.turn")  # Kim
    ui.note("steal_before", [ui.text("entry.steal"), ui.widget("entry.steal").disabled])
    yield from ui.press("entry.done")
    ui.note("done_empty", ui.banners[:1])
    yield from ui.shot("entry-tosswords-empty-done")
    yield from ui.press("entry.no_word", 0.2)
    ui.note("no_word_empty", [ui.screen, ui.text("game.mover"), ui.app.session.game.turns[-1].summary])
    yield from ui.press("game.turn")  # Mum: a draw typed, then time runs out
    ui.type("AB")
    ui.tap("entry.die.1")
    yield from ui.press("entry.timeout", 0.2)
    yield from ui.press("game.turn")  # Kim may steal
    ui.note("steal_title", ui.text("entry.title"))
    ui.note("steal_offer", [ui.text("entry.steal"), ui.widget("entry.steal").disabled])
    yield from ui.press("entry.steal")
    ui.note("steal_empty", ui.banners[:1])
    ui.clear_banners()
    ui.type("AMBER")
    yield from ui.press("entry.steal", 0.2)
    ui.note("send_back_title", ui.text("entry.title"))
    yield from ui.shot("entry-tosswords-send-back")
    yield from ui.press("entry.send_back.C", 0.2)
    ui.note("after_steal", [ui.screen, ui.app.session.game.scores()])


# ---------------------------------------------------------------------- the timer
def timer_runs_out(ui: Any) -> Steps:
    """Tosswords at 15 s: the entry screen shows the time; Settings saved mid-turn keep it;
    when time is up a tap on the words under the ring passes the turn and the next runs."""
    yield
    yield from ui.press("start.game.tosswords")
    for _ in range(4):  # 60 -> 45 -> 30 -> 20 -> 15
        yield from ui.press("start.timer.less")
    ui.note("start_timer", ui.text("start.timer"))
    yield from pick_game(ui, "tosswords", ["Mum", "Kim"])
    yield from ui.press("game.timer", 1.2)
    yield from ui.press("game.turn", 0.6)
    ui.note("entry_clock", ui.text("entry.timer"))
    yield from ui.shot("entry-with-timer")
    yield from ui.press("entry.cancel")
    yield from ui.press("game.menu")
    yield from ui.press("history.settings")
    before = ui.app.timer.view().remaining
    yield from ui.press("settings.save", 0.3)
    ui.note("settings_kept", [before, ui.app.timer.view().remaining, ui.app.timer.view().phase])
    while ui.screen != "game":
        yield from ui.press("history.back" if ui.screen == "history" else "settings.cancel")
    yield from ui.wait_for(lambda: ui.app.timer.view().phase == "expired", 200, 0.1)
    yield 0.6
    ui.note("expired_hint", ui.read("game.timer_state"))
    yield from ui.shot("game-time-is-up")
    ui.note("mover_before", ui.text("game.mover"))
    yield from ui.press("game.timer_state", 0.4)
    ui.note("mover_after", ui.text("game.mover"))
    ui.note("phase_after", ui.app.timer.view().phase)
    ui.note("news_after", ui.text("game.news"))
    ui.note("last_turn", ui.app.session.game.turns[-1].summary)


# ---------------------------------------------------------------------- messages
def banner_strip(ui: Any) -> Steps:
    """The '... is kept' message above the start screen's buttons, never over them; a problem
    goes with its screen; Start game offers the waiting game first."""
    yield
    yield from pick_game(ui, "word-on-the-street", ["Reds", "Blues"])
    yield from ui.press("game.menu")
    yield from ui.press("history.leave", 0.3)
    ui.note("kept", ui.app.banner.showing)
    ui.note("kept_covers", _covered(ui))
    yield from ui.shot("start-kept-banner")
    yield from ui.press("start.game.word-on-the-street")
    ui.note("tap_reached", [ui.app.screens["start"].game_name, bool(ui.app.banner.messages)])
    yield from ui.press("start.go", 0.2)
    ui.note("offer", [ui.screen, ui.read("start.offer")])
    ui.note("offer_covers", _covered(ui))
    yield from ui.shot("start-resume-offer")
    kept_id = ui.app.session.unfinished()[0][0].id
    yield from ui.press("start.offer.resume", 0.2)
    ui.note("resumed", [ui.screen, ui.app.session.game_id == kept_id])
    yield from ui.press("game.turn")
    yield from ui.press("entry.done", 0.2)  # nothing typed: a problem on the entry screen
    ui.note("entry_problem", ui.banners[:1])
    ui.note("entry_covers", _covered(ui))
    yield from ui.shot("entry-problem-banner")
    yield from ui.press("entry.cancel", 0.2)
    ui.note("problem_after_leaving", ui.banners)
    yield from ui.press("game.menu")
    yield from ui.press("history.leave", 0.2)
    yield from ui.press("start.go", 0.2)
    yield from ui.press("start.offer.new", 0.2)
    ui.note("new", [ui.screen, ui.app.session.game_id != kept_id, len(ui.app.session.unfinished())])

"""No game lost to one tap: leaving keeps a game, the start screen lists the unfinished ones,
demo mode asks before it puts a game aside, Give up takes two taps."""

from __future__ import annotations

from typing import Any

from play_steps import Steps, enter_word, passes, pick_game, place_word


def keep_games(ui: Any) -> Steps:
    """Two games left unfinished, both listed, either resumed; one tap on Give up loses nothing."""
    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    yield from place_word(ui, "MOOD", "entry.col.less", "entry.col.less")
    ui.note("upwords_news", ui.text("game.news"))
    yield from ui.press("game.menu")
    yield from ui.press("history.leave")
    ui.note("leave_banner", ui.app.banner.showing)
    ui.note("screen_after_leave", ui.screen)
    ui.note("resume_one", ui.text("start.resume"))
    yield from ui.shot("start-one-unfinished")
    yield from pick_game(ui, "word-on-the-street", ["Reds", "Blues"])
    ui.note("fresh_news", ui.text("game.news"))  # nothing said yet in this game
    yield from enter_word(ui, "STRENGTHS")
    yield from ui.press("game.menu")
    yield from ui.press("history.leave")
    ui.note("resume_two", ui.text("start.resume"))
    yield from ui.press("start.resume")
    assert ui.screen == "resume", ui.screen
    ui.note("listed", [ui.text("resume.game.0"), ui.text("resume.game.1")])
    yield from ui.shot("resume-list")
    yield from ui.press("resume.abandon.0")  # one tap only arms it
    ui.note("armed", ui.text("resume.abandon.0"))
    yield from ui.press("resume.go.1")  # the Upwords game
    ui.note("resumed_scores", ui.scores())
    ui.note("resumed_mover", ui.text("game.mover"))
    yield from ui.press("game.menu")
    yield from ui.press("history.abandon")  # one tap: armed, nothing given up
    ui.note("give_up_armed", ui.text("history.abandon"))
    yield from ui.press("history.back")
    ui.note("after_one_give_up_tap", ui.screen)
    ui.note("unfinished", len(ui.app.session.unfinished()))


def demo_asks(ui: Any) -> Steps:
    """Demo mode with a family game on the table: Demo step asks first and keeps that game."""
    yield
    yield from pick_game(ui, "word-on-the-street", ["Reds", "Blues"])
    yield from enter_word(ui, "STRENGTHS")
    yield from ui.press("game.demo")
    ui.note("asked", ui.text("game.news"))
    ui.note("still", ui.app.session.game.name)
    yield from ui.shot("game-demo-asks")
    yield from ui.press("game.demo")
    ui.note("then", ui.app.session.game.name)
    ui.note("unfinished", sorted(g.game for g, _ in ui.app.session.unfinished()))


def _square(ui: Any, row: int, col: int) -> tuple[float, float]:
    board = ui.widget("place.board")
    x0, y0, cell, size = board._geometry
    return board.to_window(x0 + (col + 0.5) * cell, y0 + (size - 1 - row + 0.5) * cell)


def upwords_board(ui: Any) -> Steps:
    """Upwords on the large board: type MOOD, tap its first square, see it placed and scored
    before Done; then DEAR down from the D, chosen the same way."""
    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    yield from ui.press("game.turn")
    ui.type("MOOD")
    yield from ui.press("entry.board")
    ui.tap_at(*_square(ui, 3, 1))  # row 4, column 2
    yield
    ui.note("mood_score", ui.text("place.score"))
    ui.note("mood_hint", ui.text("place.hint"))
    ui.note("mood_drawn", list(ui.widget("place.board").painted_text))
    yield from ui.shot("place-mood")
    yield from ui.press("place.done")
    ui.note("after_mood", ui.scores())
    yield from ui.press("game.turn")
    yield from ui.press("entry.board")  # nothing typed yet: the board first, then the word typed on it
    ui.tap_at(*_square(ui, 7, 6))  # row 8, column 7, across: DEA would run off the board
    yield
    for ch in "DEA":
        yield from ui.press(f"place.kb.{ch}")
    ui.note("off_board", [t for t in ui.widget("place.board").painted_text if t.isalpha()])
    ui.note("off_board_score", ui.text("place.score"))
    ui.note("off_board_framed", sorted(ui.widget("place.board").data[2]))
    yield from ui.shot("place-off-board")
    for _ in "DEA":
        ui.tap("place.kb.del")
    yield
    ui.tap_at(*_square(ui, 3, 4))  # down from MOOD's D
    yield from ui.press("place.direction")
    for ch in "DEA":  # each letter shows on the board as it is typed, before the word is whole
        yield from ui.press(f"place.kb.{ch}")
        ui.note(f"typed_{ch}", [t for t in ui.widget("place.board").painted_text if t.isalpha()])
        ui.note(f"typed_{ch}_score", ui.text("place.score"))
        ui.note(f"typed_{ch}_word", ui.text("place.word"))
    yield from ui.shot("place-typing")
    yield from ui.press("place.kb.R")
    ui.note("dear_score", ui.text("place.score"))
    yield from ui.shot("place-dear")
    yield from ui.press("place.type")  # back to the keyboard: the word and its place are kept
    ui.note("entry_preview", ui.text("entry.preview"))
    yield from ui.shot("entry-upwords-placed")
    yield from ui.press("entry.done")
    ui.note("after_dear", ui.scores())
    yield from ui.shot("game-upwords-board")


def correct_turn(ui: Any) -> Steps:
    """Upwords: Bob's turn was entered as a pass, but he played MA; corrected two turns later
    from History, and Ann's DEAR after it is scored again."""
    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    yield from place_word(ui, "MOOD", "entry.col.less", "entry.col.less")
    yield from passes(ui, 1)
    yield from place_word(ui, "DEAR", "entry.col.more", "entry.direction")
    ui.note("before", ui.scores())
    yield from ui.press("game.menu")
    yield from ui.press("history.correct")
    yield from ui.shot("correct-list")
    yield from ui.press("correct.entry.1")  # "2. Bob: pass"
    ui.note("title", ui.app.screens["entry"].bar.title.text)
    ui.tap("entry.col.less")
    ui.tap("entry.col.less")
    ui.tap("entry.direction")
    ui.type("MA")
    yield
    ui.note("preview", ui.text("entry.preview"))
    yield from ui.press("entry.done")
    ui.note("screen_after", ui.screen)
    yield from ui.shot("history-corrected")
    yield from ui.press("history.back")
    ui.note("after", ui.scores())
    ui.note("news", ui.text("game.news"))

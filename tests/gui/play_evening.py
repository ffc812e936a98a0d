"""A family evening at the kiosk, by touch: all five games played to their ends, the power cut
in the middle of each (the driver SIGKILLs itself) and the game resumed exactly — the turn,
the scores and the timer — plus a correction of an earlier turn and a rematch.

Each game is two scenarios: ``evening_<game>_a`` plays the first half and pulls the plug
with the timer running; ``evening_<game>_b`` is the next boot: it notes what came back, then
plays to the end and records the result with New game.
"""

from __future__ import annotations

from typing import Any

from play_games import TOSS_MOVES, option_word
from play_steps import Steps, enter_word, mover, pick_game, place_word

GAMES = ("word-on-the-street", "upwords", "tosswords", "wordspiel", "option")


def _state(ui: Any) -> dict[str, Any]:
    game = ui.app.session.game
    return {
        "game": game.name,
        "mover": ui.text("game.mover"),
        "scores": game.scores(),
        "events": len(game.events),
        "digits": ui.text("ring.digits"),
    }


def _cut(ui: Any, start_timer: bool = True) -> Steps:
    """The timer runs for a moment, then the power goes."""
    if start_timer:
        ui.tap("game.timer")
    yield 1.6
    assert ui.text("game.timer") == "Pause", ui.text("game.timer")  # running at the cut
    ui.note("at_cut", _state(ui))
    ui.note("pull_the_plug", True)


def _came_back(ui: Any) -> Steps:
    yield 0.4
    ui.note("screen", ui.screen)
    ui.note("back", _state(ui))
    ui.note("timer_state", ui.text("game.timer_state"))
    ui.note("news", ui.text("game.news"))
    ui.tap("game.timer")  # Resume: the turn goes on from the time it had
    yield 0.2


def _finish(ui: Any, shot: str) -> Steps:
    yield
    assert ui.screen == "end", ui.screen
    ui.note("winner", ui.text("end.winner"))
    ui.note("summary", ui.text("end.summary"))
    yield from ui.shot(shot)


def _new_game(ui: Any) -> Steps:
    ui.tap("end.new")  # the result is recorded; back to Start
    yield
    assert ui.screen == "start", ui.screen


def _timer_on(ui: Any, game: str) -> Steps:
    """A 45 s timer for a game that has none by default (the start screen's + steps)."""
    ui.tap(f"start.game.{game}")
    yield
    for _ in range(5):  # No timer -> 15 -> 20 -> 30 -> 45 -> 60
        ui.tap("start.timer.more")
    yield


# ---------------------------------------------------------------------- Word on the Street
WOTS_WORDS = ["STRENGTHS", "THRONGS", "DUMMY", "MUMMY", "MY", "STRENGTHS", "THRONGS", "MUMMY", "MY"]


def evening_wots_a(ui: Any) -> Steps:
    yield
    yield from pick_game(ui, "word-on-the-street", ["Parents", "Kids"])
    ui.tap("game.card")
    yield
    yield from enter_word(ui, "STRENGTHS")  # the Parents
    ui.tap("game.card")  # the Kids' card: the timer starts with it
    yield from _cut(ui, start_timer=False)


def evening_wots_b(ui: Any) -> Steps:
    yield from _came_back(ui)
    words = iter(WOTS_WORDS[1:])
    for _turn in range(40):
        if ui.screen == "end":
            break
        if mover(ui) == "Parents":
            yield from enter_word(ui, next(words))
        else:
            ui.tap("game.turn")
            yield
            ui.tap("entry.no_word")
            yield
    yield from _finish(ui, "evening-end-wots")
    yield from _new_game(ui)


# ---------------------------------------------------------------------- Upwords
def evening_upwords_a(ui: Any) -> Steps:
    yield
    yield from _timer_on(ui, "upwords")
    yield from pick_game(ui, "upwords", ["Mum", "Dad"])
    yield from place_word(ui, "MOOD", "entry.col.less", "entry.col.less")
    yield from place_word(ui, "DEAR", "entry.col.more", "entry.direction")
    yield from _cut(ui)


def evening_upwords_b(ui: Any) -> Steps:
    """Dad's DEAR was really DEAN: corrected from History; then both pass; then a rematch."""
    yield from _came_back(ui)
    ui.tap("game.menu")
    yield
    ui.tap("history.correct")
    yield
    ui.tap("correct.entry.1")
    yield
    ui.app.screens["entry"].keyboard.set("")
    ui.tap("entry.col.more")
    ui.tap("entry.direction")
    ui.type("DEAN")
    ui.tap("entry.done")
    yield
    ui.note("corrected_on", ui.screen)
    ui.note("corrected", ui.app.screens["game"].news.text)
    ui.tap("history.back")
    yield
    ui.note("after_correction", ui.app.session.game.scores())
    for _ in range(2):
        ui.tap("game.turn")
        yield
        ui.tap("entry.pass")
        yield
    yield from _finish(ui, "evening-end-upwords")
    ui.tap("end.rematch")  # the same players; Mum moves to the next seat
    yield
    ui.note("rematch_players", list(ui.app.session.game.players))
    ui.note("rematch_mover", ui.text("game.mover"))
    for _ in range(2):
        ui.tap("game.turn")
        yield
        ui.tap("entry.pass")
        yield
    yield
    assert ui.screen == "end", ui.screen
    ui.note("rematch_summary", ui.text("end.summary"))
    yield from _new_game(ui)


# ---------------------------------------------------------------------- Tosswords
def _toss(ui: Any, moves: list[tuple[str, int, str]]) -> Steps:
    for tiles, die, word in moves:
        ui.tap("game.turn")
        yield
        ui.type(tiles)
        ui.tap(f"entry.die.{die}")
        ui.tap("entry.done")
        yield
        ui.type(word)
        ui.tap("entry.done")
        yield
        if ui.screen == "end":
            return
        ui.tap("game.turn")  # Kim runs out of time every turn
        yield
        ui.tap("entry.timeout")
        yield


def evening_tosswords_a(ui: Any) -> Steps:
    yield
    yield from pick_game(ui, "tosswords", ["Mum", "Kim"])
    yield from _toss(ui, TOSS_MOVES[:4])
    yield from _cut(ui)


def evening_tosswords_b(ui: Any) -> Steps:
    yield from _came_back(ui)
    yield from _toss(ui, TOSS_MOVES[4:])
    yield from _finish(ui, "evening-end-tosswords")
    yield from _new_game(ui)


# ---------------------------------------------------------------------- WordSpiel
def evening_wordspiel_a(ui: Any) -> Steps:
    yield
    ui.tap("start.game.wordspiel")
    yield
    ui.tap("start.option.rounds")  # 5 -> 3
    yield
    ui.tap("start.option.rounds")  # 3 -> 1
    yield
    yield from pick_game(ui, "wordspiel", ["Mum", "Dad", "Kim"])
    ui.tap("game.turn")
    yield
    ui.type("F")
    ui.tap("entry.done")  # the flip starts the timer (rule D)
    yield
    yield from enter_word(ui, "FUN")
    yield from _cut(ui)


def evening_wordspiel_b(ui: Any) -> Steps:
    yield from _came_back(ui)
    yield from enter_word(ui, "NO")  # Dad
    ui.tap("game.turn")  # Dad exchanges a card out of turn
    yield
    ui.tap("entry.exchange.1")
    yield
    yield from enter_word(ui, "OXQ")  # Kim (nobody challenges)
    yield from enter_word(ui, "QUICKSAND")  # Mum goes out: the round and the game end
    yield from _finish(ui, "evening-end-wordspiel")
    yield from _new_game(ui)


# ---------------------------------------------------------------------- Option
def evening_option_a(ui: Any) -> Steps:
    yield
    yield from _timer_on(ui, "option")
    yield from pick_game(ui, "option", ["Mum", "Dad"])
    yield from option_word(ui, "TOOL", [3, 2, 2, 3])
    yield from _cut(ui)


def evening_option_b(ui: Any) -> Steps:
    yield from _came_back(ui)
    yield from option_word(ui, "LOOT", [3, 2, 2, 3])
    ui.tap("game.turn")
    yield
    ui.tap("entry.end")
    yield
    for _ in range(2):
        ui.tap("tally.0.more")
    ui.tap("tally.done")
    yield
    yield from _finish(ui, "evening-end-option")
    yield from _new_game(ui)
    ui.tap("start.stats")  # the evening in the Games list
    yield
    ui.note("games_list", [w.text for w in ui.app.screens["history"].lines.children][::-1])
    yield from ui.shot("evening-games-played")

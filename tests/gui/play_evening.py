"""A family evening at the kiosk, by touch: all five games played to their ends, the power cut
in the middle of each (the driver SIGKILLs itself) and the game resumed exactly — the turn,
the scores and the timer — plus a correction of an earlier turn and a rematch.

Each game is two scenarios: ``evening_<game>_a`` plays the first half and pulls the plug
with the timer running; ``evening_<game>_b`` is the next boot: it notes what came back, then
plays to the end and records the result with New game.
"""

from __future__ import annotations

from typing import Any

from play_steps import (
    Steps,
    enter_word,
    one_round_of_wordspiel,
    option_word,
    passes,
    pick_game,
    place_word,
    street_to_the_end,
    the_end,
    timeout,
    toss,
)
from plays import TOSS_MOVES

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
    yield from ui.press("game.timer", 0.2)  # Resume: the turn goes on from the time it had


def _recorded(ui: Any, shot: str) -> Steps:
    """The game is over: what the end screen says, then New game records it."""
    yield from the_end(ui, shot)
    yield from _new_game(ui)


def _new_game(ui: Any) -> Steps:
    yield from ui.press("end.new")  # the result is recorded; back to Start
    assert ui.screen == "start", ui.screen


def _timer_on(ui: Any, game: str) -> Steps:
    """A 45 s timer for a game that has none by default (the start screen's + steps)."""
    yield from ui.press(f"start.game.{game}")
    for _ in range(5):  # No timer -> 15 -> 20 -> 30 -> 45 -> 60
        ui.tap("start.timer.more")
    yield


# ---------------------------------------------------------------------- Word on the Street
WOTS_WORDS = ["STRENGTHS", "THRONGS", "DUMMY", "MUMMY", "MY", "STRENGTHS", "THRONGS", "MUMMY", "MY"]


def evening_wots_a(ui: Any) -> Steps:
    yield
    yield from pick_game(ui, "word-on-the-street", ["Parents", "Kids"])
    yield from ui.press("game.card")
    yield from enter_word(ui, "STRENGTHS")  # the Parents
    ui.tap("game.card")  # the Kids' card: the timer starts with it
    yield from _cut(ui, start_timer=False)


def _mute_mid_turn(ui: Any) -> Steps:
    """Dinner is served mid-turn: the sound off with one tap and on again; the turn's timer
    runs on with the time it had (``TurnTimer.set_mute``)."""

    def look() -> dict[str, Any]:
        view = ui.app.timer.view()
        return {"phase": view.phase, "remaining": view.remaining, "sound": ui.text("game.mute"),
                "button": ui.text("game.timer")}

    yield 0.3
    before = look()
    yield from ui.press("game.mute", 0.1)
    muted = look()
    yield from ui.shot("evening-muted-mid-turn")
    yield from ui.press("game.mute", 0.1)
    ui.note("mute", {"before": before, "muted": muted, "unmuted": look(),
                     "speaker_muted": ui.app.speaker.muted})


def evening_wots_b(ui: Any) -> Steps:
    yield from _came_back(ui)
    yield from _mute_mid_turn(ui)
    yield from street_to_the_end(ui, "Parents", iter(WOTS_WORDS[1:]), turns=40)
    yield from _recorded(ui, "evening-end-wots")


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
    yield from ui.press("game.menu")
    yield from ui.press("history.correct")
    yield from ui.press("correct.entry.1")
    ui.app.screens["entry"].keyboard.set("")
    ui.tap("entry.col.more")
    ui.tap("entry.direction")
    ui.type("DEAN")
    yield from ui.press("entry.done")
    ui.note("corrected_on", ui.screen)
    ui.note("corrected", ui.app.screens["game"].news.text)
    yield from ui.press("history.back")
    ui.note("after_correction", ui.app.session.game.scores())
    # Bedtime with tiles still in the bag: they agree to stop, and the end says what it cost.
    yield from ui.press("game.turn")
    yield from ui.press("entry.end")
    ui.note("agree_rows", [ui.read("tally.left.0"), ui.read("tally.left.1")])
    yield from ui.press("tally.done")
    ui.note("ended_early", [ui.read("end.how"), ui.text("end.deducted")])
    yield from the_end(ui, "evening-end-upwords")
    yield from ui.press("end.rematch")  # the same players; Mum moves to the next seat
    ui.note("rematch_players", list(ui.app.session.game.players))
    ui.note("rematch_mover", ui.text("game.mover"))
    yield from passes(ui, 2)
    yield
    assert ui.screen == "end", ui.screen
    ui.note("rematch_summary", ui.text("end.summary"))
    yield from _new_game(ui)


# ---------------------------------------------------------------------- Tosswords
def _toss(ui: Any, moves: list[tuple[str, int, str]]) -> Steps:
    for tiles, die, word in moves:
        yield from toss(ui, tiles, die, word)
        if ui.screen == "end":
            return
        yield from timeout(ui)  # Kim runs out of time every turn


def evening_tosswords_a(ui: Any) -> Steps:
    yield
    yield from pick_game(ui, "tosswords", ["Mum", "Kim"])
    yield from _toss(ui, TOSS_MOVES[:4])
    yield from _cut(ui)


def evening_tosswords_b(ui: Any) -> Steps:
    yield from _came_back(ui)
    yield from _toss(ui, TOSS_MOVES[4:])
    yield from _recorded(ui, "evening-end-tosswords")


# ---------------------------------------------------------------------- WordSpiel
def evening_wordspiel_a(ui: Any) -> Steps:
    yield
    yield from one_round_of_wordspiel(ui, ["Mum", "Dad", "Kim"])
    yield from enter_word(ui, "FUN")
    yield from _cut(ui)


def evening_wordspiel_b(ui: Any) -> Steps:
    yield from _came_back(ui)
    yield from enter_word(ui, "NO")  # Dad
    yield from ui.press("game.turn")  # Dad exchanges a card out of turn
    yield from ui.press("entry.exchange.1")
    yield from enter_word(ui, "OXQ")  # Kim (nobody challenges)
    yield from enter_word(ui, "QUICKSAND")  # Mum goes out: the round and the game end
    yield from _recorded(ui, "evening-end-wordspiel")


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
    yield from ui.press("game.turn")
    yield from ui.press("entry.end")
    for _ in range(2):
        ui.tap("tally.0.more")
    yield from ui.press("tally.done")
    yield from _recorded(ui, "evening-end-option")
    yield from ui.press("start.stats")  # the evening in the Games list
    ui.note("games_list", [w.text for w in ui.app.screens["history"].lines.children][::-1])
    yield from ui.shot("evening-games-played")


# ---------------------------------------------------------------------- the demo, at bedtime
def evening_demo(ui: Any) -> Steps:
    """Guests named Ann and Bob (the demo's own names) play Upwords; a child taps Demo step
    with their game open: it asks, and their game goes on untouched. A second tap opens the
    demo's own game; Start game then offers the guests' game back."""
    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    guests = ui.app.session.game_id
    yield from place_word(ui, "MOOD", "entry.col.less", "entry.col.less")
    yield from ui.press("game.demo")
    ui.note("demo_asked", ui.text("game.news"))
    yield from place_word(ui, "DEAR", "entry.col.more", "entry.direction")  # Bob plays on
    ui.note("guests_go_on", [ui.app.session.game_id == guests, ui.app.session.demo])
    yield from ui.press("game.demo")  # a turn later: it asks again
    yield from ui.press("game.demo")  # straight after: yes, the demo's game; the guests' kept
    ui.note("demo_open", [ui.app.session.game_id != guests, ui.app.session.demo])
    yield from ui.press("game.menu")
    yield from ui.press("history.leave")
    ui.note("names_after_demo", [ui.text("start.name.0"), ui.text("start.name.1")])
    yield from ui.press("start.game.upwords")
    yield from ui.press("start.go")
    ui.note("offer", ui.read("start.offer"))
    yield from ui.press("start.offer.resume", 0.2)
    ui.note("guests_back", [ui.app.session.game_id == guests, ui.app.session.demo, ui.scores()])
    ui.note("guests_id", guests)

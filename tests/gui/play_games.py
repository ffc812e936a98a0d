"""Whole short games of each of the five games, tapped through the real app (see driver.py)."""

from __future__ import annotations

from typing import Any

from play_steps import Steps, enter_word, mover, pick_game, place_word, rule


def wots(ui: Any) -> Steps:
    """Word on the Street to 8 captured tiles, with all three challenge kinds and undo."""
    yield
    yield from ui.shot("start")
    yield from pick_game(ui, "word-on-the-street", ["Reds", "Blues"])
    ui.tap("game.card")
    yield
    yield from ui.shot("game-wots")
    ui.note("kerb_labels", ui.app.screens["game"].table.view.painted_text)
    ui.note("category", ui.text("game.category"))
    ui.note("deck_file", (ui.app.screens["game"].app.settings.path.parent / "category-deck.json").read_text())
    # Reds play STRENGTHS; Blues challenge the word selection and the table votes 1-2: tiles back.
    yield from enter_word(ui, "STRENGTHS", done=False)
    yield from ui.shot("entry-wots")
    ui.tap("entry.done")
    yield
    ui.tap("game.challenge")
    yield
    yield from ui.shot("challenge-kind")
    ui.tap("challenge.kind.selection")
    yield
    ui.tap("challenge.vote.accept")
    ui.tap("challenge.vote.reject")
    ui.tap("challenge.vote.reject")
    yield
    yield from ui.shot("challenge-vote")
    ui.note("vote_card", ui.text("challenge.vote.card"))
    ui.tap("challenge.vote.done")
    yield
    yield from ui.shot("challenge-verdict-vote")
    ui.note("vote_verdict", ui.text("challenge.verdict"))
    # One tap undoes the ruling: STRENGTHS stands again.
    ui.tap("challenge.undo")
    yield
    assert ui.screen == "game", ui.screen
    # Now a spelling challenge of the same word: it is spelt right, so the Blues lose a turn.
    ui.tap("game.challenge")
    yield
    ui.tap("challenge.kind.spelling")
    yield
    yield from rule(ui, legal_by_hand=True)
    ui.note("spelling_verdict", ui.text("challenge.verdict"))
    yield from ui.shot("challenge-verdict-legal")
    ui.tap("challenge.ok")
    yield
    # Reds play on (the Blues lost their turn); a misspelt word gets challenged.
    ui.note("after_spelling_mover", mover(ui))
    yield from enter_word(ui, "STRENGHTS")
    ui.tap("game.challenge")
    yield
    ui.tap("challenge.kind.spelling")
    yield
    yield from rule(ui, legal_by_hand=False)
    yield from ui.shot("challenge-first-error")
    ui.tap("challenge.letter.6")  # STRENG|H: the H is the first wrong letter
    yield
    ui.note("misspelt_verdict", ui.text("challenge.verdict"))
    yield from ui.shot("challenge-verdict-illegal")
    ui.tap("challenge.ok")
    yield
    yield from ui.shot("game-wots-midgame")
    # The Blues play SANDBOX; the Reds say it is two words: it is one, so the Reds lose a turn.
    ui.note("before_sandbox_mover", mover(ui))
    yield from enter_word(ui, "SANDBOX")
    ui.tap("game.challenge")
    yield
    ui.tap("challenge.kind.compound")
    yield
    yield from rule(ui, legal_by_hand=True)
    ui.note("compound_verdict", ui.text("challenge.verdict"))
    ui.note("compound_now", ui.text("challenge.now"))
    ui.tap("challenge.ok")
    yield
    ui.note("after_compound_mover", mover(ui))
    # A compound-word challenge of a real word (upheld as one word).
    words = iter(["STRENGTHS", "THRONGS", "DUMMY", "MUMMY", "MY", "STRENGTHS", "THRONGS"])
    for _turn in range(30):
        if ui.screen == "end":
            break
        if mover(ui) == "Reds":
            yield from enter_word(ui, next(words))
        else:
            ui.tap("game.turn")
            yield
            ui.tap("entry.no_word")
            yield
    assert ui.screen == "end", ui.screen
    ui.note("winner", ui.text("end.winner"))
    yield from ui.shot("end-wots")
    ui.tap("end.history")
    yield
    yield from ui.shot("history-wots")
    ui.note("history_lines", len(list(ui.app.screens["history"].lines.children)))


def upwords(ui: Any) -> Steps:
    """Upwords on the 8x8 board: the sheet's MOOD, DEAR, NET, WOOD; a challenge each way; the end."""
    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    # MOOD across row 4 (1-based), columns 2-5: the start cell is row 4, col 4 by default.
    ui.tap("game.turn")
    yield
    ui.tap("entry.col.less")
    ui.tap("entry.col.less")
    ui.type("MOOD")
    yield
    yield from ui.shot("entry-upwords")
    ui.note("mood_preview", ui.text("entry.preview"))
    ui.tap("entry.done")
    yield
    # DEAR down from the D of MOOD (row 4, col 5).
    yield from place_word(ui, "DEAR", "entry.col.more", "entry.direction")
    # NET across row 5 from col 4: forms ON as well (6 + 4 = 10).
    yield from place_word(ui, "NET", "entry.row.more")
    ui.note("after_net", ui.text("game.news"))
    # NET also formed ON: a challenge asks which word; ON is fine, and the ruling is undone.
    ui.tap("game.challenge")
    yield
    yield from ui.shot("challenge-which-word")
    ui.tap("challenge.word.1")
    yield
    yield from rule(ui, legal_by_hand=True)
    ui.note("on_word", ui.text("challenge.word"))
    ui.note("on_verdict", ui.text("challenge.verdict"))
    ui.tap("challenge.undo")
    yield
    # WOOD: W stacked on the M.
    yield from place_word(ui, "WOOD", "entry.col.less", "entry.col.less")
    yield from ui.shot("game-upwords")
    ui.tap("game.challenge")
    yield
    yield from rule(ui, legal_by_hand=True)
    ui.note("wood_verdict", ui.text("challenge.verdict"))
    yield from ui.shot("challenge-upwords")
    ui.tap("challenge.ok")
    yield
    # Ann adds a made-up word off NET: DEARX is not a word; the challenge takes it off.
    yield from place_word(ui, "DEARZ", "entry.col.more", "entry.direction")
    ui.note("scores_before_challenge", ui.text("game.score.0"))
    ui.tap("game.challenge")
    yield
    yield from rule(ui, legal_by_hand=False)
    ui.note("dearz_verdict", ui.text("challenge.verdict"))
    ui.tap("challenge.ok")
    yield
    # Ann asks to end the game while tiles are left: refused, in plain words.
    ui.tap("game.turn")
    yield
    ui.tap("entry.end")
    yield
    ui.tap("tally.done")
    yield
    ui.note("early_end", ui.app.banner.showing)
    yield from ui.shot("tally-upwords")
    ui.tap("tally.back")
    yield
    # Everyone passes in turn: the game is over.
    for _ in range(2):
        ui.tap("game.turn")
        yield
        ui.tap("entry.pass")
        yield
    yield
    assert ui.screen == "end", ui.screen
    ui.note("winner", ui.text("end.winner"))
    ui.note("summary", ui.text("end.summary"))
    yield from ui.shot("end-upwords")
    ui.tap("end.rematch")  # same players, Ann moves to the next seat
    yield
    ui.note("rematch_mover", ui.text("game.mover"))
    ui.note("rematch_players", list(ui.app.session.game.players))
    ui.tap("game.menu")
    yield
    ui.tap("history.leave")
    yield
    ui.note("names_remembered", [ui.text("start.name.0"), ui.text("start.name.1")])


TOSS_MOVES = [  # tiles drawn (first two are the keys), die, word: every letter once
    ("CT", 3, "TRANCE"),
    ("QU", 0, "QUIT"),
    ("ZA", 1, "ZEAL"),
    ("JO", 0, "JOB"),
    ("XE", 0, "EXIT"),
    ("KING", 0, "KING"),
    ("WHY", 0, "WHY"),
    ("FLP", 0, "FLOP"),
    ("BRD", 0, "BRED"),
    ("MSV", 3, "MOVES"),
]


def tosswords(ui: Any) -> Steps:
    """Tosswords on the d6: one side retires all 26 tiles; a timeout, a challenge and its undo."""
    yield
    yield from pick_game(ui, "tosswords", ["Kim", "Lee"])
    for n, (tiles, die, word) in enumerate(TOSS_MOVES):
        ui.tap("game.turn")
        yield
        ui.type(tiles)
        ui.tap(f"entry.die.{die}")
        ui.tap("entry.done")  # first Done moves on to the word
        yield
        ui.type(word)
        if n == 0:
            yield from ui.shot("entry-tosswords")
        ui.tap("entry.done")
        yield
        if n == 0:
            ui.note("after_trance", ui.text("game.news"))
            ui.tap("game.challenge")
            yield
            yield from rule(ui, legal_by_hand=True)
            ui.note("trance_verdict", ui.text("challenge.verdict"))
            ui.tap("challenge.undo")  # one tap takes the ruling back
            yield
        if ui.screen == "end":
            break
        ui.tap("game.turn")  # Lee runs out of time every turn
        yield
        ui.tap("entry.timeout")
        yield
        if n == 1:
            yield from ui.shot("game-tosswords")
    yield
    assert ui.screen == "end", ui.screen
    ui.note("winner", ui.text("end.winner"))
    yield from ui.shot("end-tosswords")


def wordspiel(ui: Any) -> Steps:
    """WordSpiel, one round for three: FUN, NO, an exchange, a challenged word kept as a house word."""
    yield
    ui.tap("start.game.wordspiel")
    yield
    ui.tap("start.option.rounds")  # 5 -> 3
    yield
    ui.tap("start.option.rounds")  # 3 -> 1
    yield
    yield from pick_game(ui, "wordspiel", ["Ann", "Bob", "Cy"])
    ui.tap("game.turn")
    yield
    ui.type("F")
    ui.tap("entry.done")  # the dealer flips F: the flip starts the timer (rule D)
    yield
    ui.note("after_flip", ui.text("game.timer"))
    yield from enter_word(ui, "FUN")
    yield from enter_word(ui, "NO", done=False)
    yield from ui.shot("entry-wordspiel")
    ui.tap("entry.done")
    yield
    ui.tap("game.challenge")
    yield
    yield from rule(ui, legal_by_hand=True)
    ui.note("no_verdict", ui.text("challenge.verdict"))
    ui.tap("challenge.ok")
    yield
    ui.tap("game.turn")  # Bob exchanges a card while it is Cy's turn
    yield
    ui.tap("entry.exchange.1")
    yield
    yield from enter_word(ui, "OXQ")  # Cy
    ui.tap("game.challenge")
    yield
    yield from rule(ui, legal_by_hand=False)
    ui.note("oxq_verdict", ui.text("challenge.verdict"))
    yield from ui.shot("challenge-wordspiel")
    # The table knows OXQ (a family word): allowed as a house word, ruled again, then undone.
    ui.tap("challenge.house")
    yield
    ui.note("oxq_house_verdict", ui.text("challenge.verdict"))
    yield from ui.shot("challenge-house-word")
    ui.tap("challenge.ok")
    yield
    yield from ui.shot("game-wordspiel")
    yield from enter_word(ui, "QUICKSAND")  # Ann goes out on OXQ's Q: the round and the game end
    yield
    assert ui.screen == "end", ui.screen
    ui.note("winner", ui.text("end.winner"))
    yield from ui.shot("end-wordspiel")


def option_word(ui: Any, word: str, points: list[int], shot: str = "") -> Steps:
    ui.tap("game.turn")
    yield
    ui.type(word)
    ui.tap("entry.done")
    yield
    assert ui.screen == "letters", ui.screen
    ui.note(f"{word}_came_with", [ui.text(f"letters.points.{i}") for i in range(len(word))])
    for value in points:  # one tap a letter on the number pad; the next letter is selected
        ui.tap(f"letters.pad.{value}")
    yield
    if shot:
        yield from ui.shot(shot)
    ui.tap("letters.done")
    yield


def option(ui: Any) -> Steps:
    """Option: TOOL (3+2+2+3), a wrong challenge (-10), a made-up word challenged off, the end."""
    yield
    yield from pick_game(ui, "option", ["Ann", "Bob"])
    yield from option_word(ui, "TOOL", [3, 2, 2, 3], shot="letters-option")
    ui.note("after_tool", ui.text("game.score.0"))
    yield from option_word(ui, "LOOT", [3, 2, 2, 3])
    ui.tap("game.challenge")  # Ann challenges LOOT: it is a word, so Ann loses 10
    yield
    yield from rule(ui, legal_by_hand=True)
    ui.note("loot_verdict", ui.text("challenge.verdict"))
    ui.note("loot_now", ui.text("challenge.now"))
    ui.tap("challenge.ok")
    yield
    yield from option_word(ui, "TOLQZ", [1, 1, 1, 1, 1])
    ui.tap("game.challenge")
    yield
    yield from rule(ui, legal_by_hand=False)
    ui.note("tolqz_verdict", ui.text("challenge.verdict"))
    ui.tap("challenge.ok")
    yield
    yield from ui.shot("game-option")
    ui.tap("game.turn")
    yield
    ui.tap("entry.end")
    yield
    for _ in range(5):
        ui.tap("tally.0.more")
    ui.tap("tally.1.more")
    ui.tap("tally.done")
    yield
    yield
    assert ui.screen == "end", ui.screen
    ui.note("winner", ui.text("end.winner"))
    yield from ui.shot("end-option")

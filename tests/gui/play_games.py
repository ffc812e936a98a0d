"""Whole short games of each of the five games, tapped through the real app (see driver.py)."""

from __future__ import annotations

from typing import Any

from play_steps import (
    Steps,
    challenge,
    enter_word,
    mover,
    one_round_of_wordspiel,
    option_word,
    passes,
    pick_game,
    place_word,
    rule,
    street_measured,
    street_to_the_end,
    the_end,
    timeout,
    toss,
)
from plays import TOSS_MOVES


def wots(ui: Any) -> Steps:
    """Word on the Street to 8 captured tiles, with all three challenge kinds and undo."""
    yield
    yield from ui.shot("start")
    yield from pick_game(ui, "word-on-the-street", ["Reds", "Blues"])
    yield from ui.press("game.card")
    yield from ui.shot("game-wots")
    ui.note("kerb_labels", ui.app.screens["game"].table.view.painted_text)
    ui.note("category", ui.text("game.category"))
    ui.note("deck_file", (ui.app.screens["game"].app.settings.path.parent / "category-deck.json").read_text())
    # Reds play STRENGTHS; Blues challenge the word selection and the table votes 1-2: tiles back.
    yield from enter_word(ui, "STRENGTHS", done=False)
    yield from ui.shot("entry-wots")
    yield from ui.press("entry.done")
    yield from ui.press("game.challenge")
    yield from ui.shot("challenge-kind")
    yield from ui.press("challenge.kind.selection")
    ui.tap("challenge.vote.accept")
    ui.tap("challenge.vote.reject")
    yield from ui.press("challenge.vote.reject")
    yield from ui.shot("challenge-vote")
    ui.note("vote_card", ui.text("challenge.vote.card"))
    yield from ui.press("challenge.vote.done")
    yield from ui.shot("challenge-verdict-vote")
    ui.note("vote_verdict", ui.text("challenge.verdict"))
    # One tap undoes the ruling: STRENGTHS stands again.
    yield from ui.press("challenge.undo")
    assert ui.screen == "game", ui.screen
    # Now a spelling challenge of the same word: it is spelt right, so the Blues lose a turn.
    yield from challenge(ui, legal_by_hand=True, kind="spelling")
    ui.note("spelling_verdict", ui.text("challenge.verdict"))
    yield from ui.shot("challenge-verdict-legal")
    yield from ui.press("challenge.ok")
    # Reds play on (the Blues lost their turn); a misspelt word gets challenged.
    ui.note("after_spelling_mover", mover(ui))
    yield from enter_word(ui, "STRENGHTS")
    yield from challenge(ui, legal_by_hand=False, kind="spelling")
    yield from ui.shot("challenge-first-error")
    yield from ui.press("challenge.letter.6")  # STRENG|H: the H is the first wrong letter
    ui.note("misspelt_verdict", ui.text("challenge.verdict"))
    yield from ui.shot("challenge-verdict-illegal")
    yield from ui.press("challenge.ok")
    yield from ui.shot("game-wots-midgame")
    ui.note("street_measured", street_measured(ui))
    # The Blues play SANDBOX; the Reds say it is two words: it is one, so the Reds lose a turn.
    ui.note("before_sandbox_mover", mover(ui))
    yield from enter_word(ui, "SANDBOX")
    yield from challenge(ui, legal_by_hand=True, kind="compound")
    ui.note("compound_verdict", ui.text("challenge.verdict"))
    ui.note("compound_now", ui.text("challenge.now"))
    yield from ui.press("challenge.ok")
    ui.note("after_compound_mover", mover(ui))
    # A compound-word challenge of a real word (upheld as one word).
    words = iter(["STRENGTHS", "THRONGS", "DUMMY", "MUMMY", "MY", "STRENGTHS", "THRONGS"])
    yield from street_to_the_end(ui, "Reds", words, turns=30)
    yield from the_end(ui, "end-wots")
    yield from ui.press("end.history")
    yield from ui.shot("history-wots")
    ui.note("history_lines", len(list(ui.app.screens["history"].lines.children)))


def upwords(ui: Any) -> Steps:
    """Upwords on the 8x8 board: the sheet's MOOD, DEAR, NET, WOOD; a challenge each way; the end."""
    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    # MOOD across row 4 (1-based), columns 2-5: the start cell is row 4, col 4 by default.
    yield from ui.press("game.turn")
    ui.tap("entry.col.less")
    ui.tap("entry.col.less")
    ui.type("MOOD")
    yield
    yield from ui.shot("entry-upwords")
    ui.note("mood_preview", ui.text("entry.preview"))
    yield from ui.press("entry.done")
    # DEAR down from the D of MOOD (row 4, col 5).
    yield from place_word(ui, "DEAR", "entry.col.more", "entry.direction")
    # NET across row 5 from col 4: forms ON as well (6 + 4 = 10).
    yield from place_word(ui, "NET", "entry.row.more")
    ui.note("after_net", ui.text("game.news"))
    # NET also formed ON: a challenge asks which word; ON is fine, and the ruling is undone.
    yield from ui.press("game.challenge")
    yield from ui.shot("challenge-which-word")
    yield from ui.press("challenge.word.1")
    yield from rule(ui, legal_by_hand=True)
    ui.note("on_word", ui.text("challenge.word"))
    ui.note("on_verdict", ui.text("challenge.verdict"))
    yield from ui.press("challenge.undo")
    # WOOD: W stacked on the M.
    yield from place_word(ui, "WOOD", "entry.col.less", "entry.col.less")
    yield from ui.shot("game-upwords")
    yield from challenge(ui, legal_by_hand=True)
    ui.note("wood_verdict", ui.text("challenge.verdict"))
    yield from ui.shot("challenge-upwords")
    yield from ui.press("challenge.ok")
    # Ann adds a made-up word off NET: DEARX is not a word; the challenge takes it off.
    yield from place_word(ui, "DEARZ", "entry.col.more", "entry.direction")
    ui.note("scores_before_challenge", ui.text("game.score.0"))
    yield from challenge(ui, legal_by_hand=False)
    ui.note("dearz_verdict", ui.text("challenge.verdict"))
    yield from ui.press("challenge.ok")
    # Ann asks to end the game while tiles are left: the screen says what it would cost and
    # that everyone must agree; Back keeps playing, nothing changed.
    yield from ui.press("game.turn")
    yield from ui.press("entry.end")
    ui.note("early_end", ui.read("tally.note"))
    yield from ui.shot("tally-upwords")
    yield from ui.press("tally.back")
    ui.note("early_end_over", ui.app.session.game.is_over())
    # Everyone passes in turn: the game is over.
    yield from passes(ui, 2)
    yield from the_end(ui, "end-upwords")
    yield from ui.press("end.rematch")  # same players, Ann moves to the next seat
    ui.note("rematch_mover", ui.text("game.mover"))
    ui.note("rematch_players", list(ui.app.session.game.players))
    yield from ui.press("game.menu")
    yield from ui.press("history.leave")
    ui.note("names_remembered", [ui.text("start.name.0"), ui.text("start.name.1")])


def tosswords(ui: Any) -> Steps:
    """Tosswords on the d6: one side retires all 26 tiles; a timeout, a challenge and its undo."""
    yield
    yield from pick_game(ui, "tosswords", ["Kim", "Lee"])
    for n, (tiles, die, word) in enumerate(TOSS_MOVES):
        yield from toss(ui, tiles, die, word, shot="entry-tosswords" if n == 0 else "")
        if n == 0:
            ui.note("after_trance", ui.text("game.news"))
            yield from challenge(ui, legal_by_hand=True)
            ui.note("trance_verdict", ui.text("challenge.verdict"))
            yield from ui.press("challenge.undo")  # one tap takes the ruling back
        if ui.screen == "end":
            break
        yield from timeout(ui)  # Lee runs out of time every turn
        if n == 1:
            yield from ui.shot("game-tosswords")
    yield from the_end(ui, "end-tosswords")


def wordspiel(ui: Any) -> Steps:
    """WordSpiel, one round for three: FUN, NO, an exchange, a challenged word kept as a house word."""
    yield
    yield from one_round_of_wordspiel(ui, ["Ann", "Bob", "Cy"])
    ui.note("after_flip", ui.text("game.timer"))
    yield from enter_word(ui, "FUN")
    yield from enter_word(ui, "NO", done=False)
    yield from ui.shot("entry-wordspiel")
    yield from ui.press("entry.done")
    yield from challenge(ui, legal_by_hand=True)
    ui.note("no_verdict", ui.text("challenge.verdict"))
    yield from ui.press("challenge.ok")
    yield from ui.press("game.turn")  # Bob exchanges a card while it is Cy's turn
    yield from ui.press("entry.exchange.1")
    yield from enter_word(ui, "OXQ")  # Cy
    yield from challenge(ui, legal_by_hand=False)
    ui.note("oxq_verdict", ui.text("challenge.verdict"))
    yield from ui.shot("challenge-wordspiel")
    # The table knows OXQ (a family word): allowed as a house word, ruled again, then undone.
    yield from ui.press("challenge.house")
    ui.note("oxq_house_verdict", ui.text("challenge.verdict"))
    yield from ui.shot("challenge-house-word")
    yield from ui.press("challenge.ok")
    yield from ui.shot("game-wordspiel")
    yield from enter_word(ui, "QUICKSAND")  # Ann goes out on OXQ's Q: the round and the game end
    yield from the_end(ui, "end-wordspiel")


def option(ui: Any) -> Steps:
    """Option: TOOL (3+2+2+3), a wrong challenge (-10), a made-up word challenged off, the end."""
    yield
    yield from pick_game(ui, "option", ["Ann", "Bob"])
    yield from option_word(ui, "TOOL", [3, 2, 2, 3], shot="letters-option")
    ui.note("after_tool", ui.text("game.score.0"))
    yield from option_word(ui, "LOOT", [3, 2, 2, 3])
    yield from challenge(ui, legal_by_hand=True)  # Ann challenges LOOT: a word, so Ann loses 10
    ui.note("loot_verdict", ui.text("challenge.verdict"))
    ui.note("loot_now", ui.text("challenge.now"))
    yield from ui.press("challenge.ok")
    yield from option_word(ui, "TOLQZ", [1, 1, 1, 1, 1])
    yield from challenge(ui, legal_by_hand=False)
    ui.note("tolqz_verdict", ui.text("challenge.verdict"))
    yield from ui.press("challenge.ok")
    yield from ui.shot("game-option")
    yield from ui.press("game.turn")
    yield from ui.press("entry.end")
    for _ in range(5):
        ui.tap("tally.0.more")
    ui.tap("tally.1.more")
    yield from ui.press("tally.done")
    yield from the_end(ui, "end-option")

"""GUI scenarios: whole short games tapped through the real app (run by ``driver.py``).

Each scenario is a generator over a :class:`driver.UI`; every ``yield`` gives the app a
frame. They find widgets by test id and tap them with real touches — never the session.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Steps = Iterator[Any]


def pick_game(ui: Any, name: str, players: list[str] | None = None) -> Steps:
    """On the start screen: choose the game, rename the sides, start."""
    assert ui.screen == "start", ui.screen
    ui.tap(f"start.game.{name}")
    yield
    for i, player in enumerate(players or []):
        if not ui.has(f"start.name.{i}"):
            ui.tap("start.add")
            yield
        ui.tap(f"start.name.{i}")
        yield
        assert ui.screen == "names", ui.screen
        ui.tap("names.kb.clear")
        ui.type(player, keyboard="names.kb")
        yield
        if i == 0:
            yield from ui.shot("names")
        ui.tap("names.ok")
        yield
    yield from ui.shot(f"start-{name}")
    ui.tap("start.go")
    yield
    assert ui.screen == "game", ui.screen


def enter_word(ui: Any, word: str, done: bool = True) -> Steps:
    ui.tap("game.turn")
    yield
    assert ui.screen == "entry", ui.screen
    ui.type(word)
    yield
    if done:
        ui.tap("entry.done")
        yield


def rule(ui: Any, legal_by_hand: bool) -> Steps:
    """After a challenge was started: the authority rules, or (no word list) the table does."""
    if ui.has("challenge.hand.legal"):
        ui.tap("challenge.hand.legal" if legal_by_hand else "challenge.hand.illegal")
        yield


def mover(ui: Any) -> str:
    return ui.text("game.mover").removesuffix(" to play")


# ---------------------------------------------------------------------- the scenarios
def wots(ui: Any) -> Steps:
    """Word on the Street to 8 captured tiles, with all three challenge kinds and undo."""
    yield
    yield from ui.shot("start")
    yield from pick_game(ui, "word-on-the-street", ["Reds", "Blues"])
    ui.tap("game.card")
    yield
    yield from ui.shot("game-wots")
    ui.note("category", ui.text("game.category"))
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

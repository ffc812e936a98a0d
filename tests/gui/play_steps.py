"""Steps the GUI scenarios share: pick a game, play a turn of each kind, challenge, end.

Each is what a person does at the table, by touch, through :class:`driver.UI`; a scenario
says what it plays with these and notes what the screens said.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Steps = Iterator[Any]


def pick_game(ui: Any, name: str, players: list[str] | None = None) -> Steps:
    """On the start screen: choose the game, rename the sides, start."""
    assert ui.screen == "start", ui.screen
    yield from ui.press(f"start.game.{name}")
    for i, player in enumerate(players or []):
        if not ui.has(f"start.name.{i}"):
            yield from ui.press("start.add")
        yield from ui.press(f"start.name.{i}")
        assert ui.screen == "names", ui.screen
        ui.tap("names.kb.clear")
        ui.type(player, keyboard="names.kb")
        yield
        if i == 0:
            yield from ui.shot("names")
        yield from ui.press("names.ok")
    yield from ui.shot(f"start-{name}")
    yield from ui.press("start.go")
    if ui.screen == "start" and ui.has("start.offer.new"):
        yield from ui.press("start.offer.new")  # a game of this kind waits: a new one is wanted
    assert ui.screen == "game", ui.screen


def enter_word(ui: Any, word: str, done: bool = True) -> Steps:
    yield from ui.press("game.turn")
    assert ui.screen == "entry", ui.screen
    ui.type(word)
    yield
    if done:
        yield from ui.press("entry.done")


def place_word(ui: Any, word: str, *taps: str) -> Steps:
    """Upwords turn entry: move the start cell or direction with ``taps``, type the word, Done."""
    yield from ui.press("game.turn")
    for widget in taps:
        ui.tap(widget)
    ui.type(word)
    yield from ui.press("entry.done")


def rule(ui: Any, legal_by_hand: bool) -> Steps:
    """After a challenge was started: the authority rules, or (no word list) the table does."""
    if ui.has("challenge.hand.legal"):
        yield from ui.press("challenge.hand.legal" if legal_by_hand else "challenge.hand.illegal")


def challenge(ui: Any, legal_by_hand: bool, kind: str = "") -> Steps:
    """Challenge the last turn (of ``kind``, where the game asks which) and have it ruled."""
    yield from ui.press("game.challenge")
    if kind:
        yield from ui.press(f"challenge.kind.{kind}")
    yield from rule(ui, legal_by_hand)


def no_word(ui: Any) -> Steps:
    """Word on the Street: the side to play found no word in time."""
    yield from ui.press("game.turn")
    yield from ui.press("entry.no_word")


def street_to_the_end(ui: Any, side: str, words: Iterator[str], turns: int) -> Steps:
    """Word on the Street until it ends: ``side`` plays the next of ``words``, the other side none."""
    for _turn in range(turns):
        if ui.screen == "end":
            break
        if mover(ui) == side:
            yield from enter_word(ui, next(words))
        else:
            yield from no_word(ui)


def passes(ui: Any, turns: int) -> Steps:
    """Upwords: ``turns`` passes in a row (every player passing in turn ends the game)."""
    for _ in range(turns):
        yield from ui.press("game.turn")
        yield from ui.press("entry.pass")




def toss(ui: Any, tiles: str, die: int, word: str, shot: str = "") -> Steps:
    """A Tosswords turn: the tiles and the die, Done, then the word (``shot`` before its Done)."""
    yield from ui.press("game.turn")
    ui.type(tiles)
    ui.tap(f"entry.die.{die}")
    yield from ui.press("entry.done")  # the first Done moves on to the word
    ui.type(word)
    if shot:
        yield from ui.shot(shot)
    yield from ui.press("entry.done")


def timeout(ui: Any) -> Steps:
    """Tosswords: the side to play ran out of time."""
    yield from ui.press("game.turn")
    yield from ui.press("entry.timeout")


def one_round_of_wordspiel(ui: Any, players: list[str]) -> Steps:
    """WordSpiel set to one round (5 -> 3 -> 1), the dealer's flip F (which starts the timer,
    rule D) entered."""
    yield from ui.press("start.game.wordspiel")
    yield from ui.press("start.option.rounds")  # 5 -> 3
    yield from ui.press("start.option.rounds")  # 3 -> 1
    yield from pick_game(ui, "wordspiel", players)
    yield from ui.press("game.turn")
    ui.type("F")
    yield from ui.press("entry.done")


def letters_of(ui: Any, word: str) -> Steps:
    """Option: ``word`` typed in turn entry, on to the screen of its letters' points."""
    yield from ui.press("game.turn")
    ui.type(word)
    yield from ui.press("entry.done")
    assert ui.screen == "letters", ui.screen


def option_word(ui: Any, word: str, points: list[int], shot: str = "") -> Steps:
    """Option: ``word`` played with each letter's ``points`` tapped in (``shot`` of the pad)."""
    yield from letters_of(ui, word)
    ui.note(f"{word}_came_with", [ui.read(f"letters.points.{i}") for i in range(len(word))])
    for value in points:  # one tap a letter on the number pad; the next letter is selected
        ui.tap(f"letters.pad.{value}")
    yield
    if shot:
        yield from ui.shot(shot)
    yield from ui.press("letters.done")


def the_end(ui: Any, shot: str) -> Steps:
    """The game is over: the end screen's winner and summary, and its screenshot."""
    yield
    assert ui.screen == "end", ui.screen
    ui.note("winner", ui.text("end.winner"))
    ui.note("summary", ui.text("end.summary"))
    yield from ui.shot(shot)


def mover(ui: Any) -> str:
    return ui.text("game.mover").removesuffix(" to play")


def street_measured(ui: Any) -> dict[str, Any]:
    """What the game screen's street drew, in pixels: each tile with its letter's rendered size,
    the score digits' rendered height (the score labels' font), the ring's digits and the
    street's share of the window's height."""
    from kivy.core.text import Label as CoreLabel
    from kivy.core.window import Window

    screen = ui.app.screens["game"]
    digits = CoreLabel(text="0123456789", font_size=screen.SCORE_FONT, bold=True)
    digits.refresh()
    street = screen.table.view
    return {
        "tiles": [list(t) for t in street.tiles],
        "score_font": screen.SCORE_FONT,
        "score_digits_px": digits.texture.height,
        "ring_font": ui.widget("ring.digits").font_size,
        "street_share": street.height / Window.height,
    }

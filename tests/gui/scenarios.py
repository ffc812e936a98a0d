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
    ui.tap("game.turn")
    yield
    ui.tap("entry.col.more")
    ui.tap("entry.direction")
    ui.type("DEAR")
    ui.tap("entry.done")
    yield
    # NET across row 5 from col 4: forms ON as well (6 + 4 = 10).
    ui.tap("game.turn")
    yield
    ui.tap("entry.row.more")
    ui.type("NET")
    ui.tap("entry.done")
    yield
    ui.note("after_net", ui.text("game.news"))
    # WOOD: W stacked on the M.
    ui.tap("game.turn")
    yield
    ui.tap("entry.col.less")
    ui.tap("entry.col.less")
    ui.type("WOOD")
    ui.tap("entry.done")
    yield
    yield from ui.shot("game-upwords")
    ui.tap("game.challenge")
    yield
    yield from rule(ui, legal_by_hand=True)
    ui.note("wood_verdict", ui.text("challenge.verdict"))
    yield from ui.shot("challenge-upwords")
    ui.tap("challenge.ok")
    yield
    # Ann adds a made-up word off NET: DEARX is not a word; the challenge takes it off.
    ui.tap("game.turn")
    yield
    ui.tap("entry.col.more")
    ui.tap("entry.direction")
    ui.type("DEARZ")
    ui.tap("entry.done")
    yield
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
    yield from ui.shot("end-upwords")


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
    ui.tap("entry.done")  # the dealer flips F
    yield
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
    for i, value in enumerate(points):
        for _ in range(value - 1):
            ui.tap(f"letters.points.{i}.more")
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


def resume_part1(ui: Any) -> Steps:
    """Start Upwords, play MOOD and DEAR, start the timer — then the app quits mid-game."""
    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    ui.tap("game.turn")
    yield
    ui.tap("entry.col.less")
    ui.tap("entry.col.less")
    ui.type("MOOD")
    ui.tap("entry.done")
    yield
    ui.tap("game.turn")
    yield
    ui.tap("entry.col.more")
    ui.tap("entry.direction")
    ui.type("DEAR")
    ui.tap("entry.done")
    yield
    ui.note("mover", ui.text("game.mover"))
    ui.note("scores", [ui.text("game.score.0"), ui.text("game.score.1")])
    ui.note("board", ui.app.session.game.board.text())
    ui.note("pull_the_plug", True)


def resume_part2(ui: Any) -> Steps:
    """A fresh app on the same data: straight back into the game, then play on."""
    yield
    ui.note("screen_at_start", ui.screen)
    ui.note("mover", ui.text("game.mover"))
    ui.note("scores", [ui.text("game.score.0"), ui.text("game.score.1")])
    ui.note("board", ui.app.session.game.board.text())
    yield from ui.shot("game-resumed")
    ui.tap("game.turn")
    yield
    ui.tap("entry.row.more")
    ui.type("NET")
    ui.tap("entry.done")
    yield
    ui.note("scores_after", [ui.text("game.score.0"), ui.text("game.score.1")])


def settings_and_stats(ui: Any) -> Steps:
    """Settings: lengthen the Word on the Street timer, mute, save; then the games played."""
    yield
    ui.tap("start.settings")
    yield
    yield from ui.shot("settings")
    ui.tap("settings.timer.word-on-the-street.more")
    ui.tap("settings.timer.word-on-the-street.more")
    ui.tap("settings.mute")
    yield
    ui.scroll_to("settings.brightness")
    yield 0.2
    ui.tap("settings.brightness.more")  # 40 % -> 45 %
    ui.note("brightness", ui.widget("settings.brightness").label.text)
    ui.scroll_to("settings.house")
    yield 0.3
    yield from ui.shot("settings-scrolled")
    ui.tap("settings.house")  # a house word for every game, typed on the big keyboard
    yield
    ui.type("ZORBLE", keyboard="names.kb")
    ui.tap("names.ok")
    yield
    ui.note("house_banner", ui.app.banner.showing)
    ui.note("mute_kept", ui.text("settings.mute"))
    ui.tap("settings.save")
    yield
    assert ui.screen == "start", ui.screen
    ui.tap("start.game.word-on-the-street")
    yield
    ui.note("wots_timer", ui.text("start.timer"))
    ui.tap("start.stats")
    yield
    yield from ui.shot("games-played")
    ui.note("stats_lines", [w.text for w in ui.app.screens["history"].lines.children][::-1])
    ui.tap("history.back")
    yield
    assert ui.screen == "start", ui.screen


def no_word_list(ui: Any) -> Steps:
    """The word list is missing: the kiosk says so and the table rules by hand."""
    yield
    ui.note("banner_at_start", [m for m, _ in ui.app.banner.messages])
    yield from pick_game(ui, "wordspiel", ["Ann", "Bob"])
    ui.tap("game.turn")
    yield
    ui.type("F")
    ui.tap("entry.done")
    yield
    yield from enter_word(ui, "FUN")
    ui.tap("game.challenge")
    yield
    yield
    yield from ui.shot("challenge-by-hand")
    ui.tap("challenge.hand.illegal")
    yield
    ui.note("verdict", ui.text("challenge.verdict"))
    ui.note("event", ui.app.session.game.events[-1])


def damaged_settings(ui: Any) -> Steps:
    """A half-written settings file: defaults, a banner, and the kiosk works."""
    yield
    ui.note("banner_at_start", [m for m, _ in ui.app.banner.messages])
    yield from ui.shot("banner-settings-damaged")
    yield from pick_game(ui, "word-on-the-street")
    ui.note("mover", ui.text("game.mover"))


def timer(ui: Any) -> Steps:
    """Word on the Street's 30 s timer: start, watch the ring drain, pause, then the next turn resets it."""
    yield
    yield from pick_game(ui, "word-on-the-street")
    ui.note("before", ui.text("ring.digits"))
    ui.tap("game.timer")
    yield 1.3
    ui.note("running", ui.text("ring.digits"))
    ui.note("frame_running", ui.widget("ring").frame)
    ui.note("button_running", ui.text("game.timer"))
    yield from ui.shot("game-timer-running")
    ui.tap("game.timer")
    yield 0.3
    ui.note("paused", ui.text("ring.digits"))
    ui.note("button_paused", ui.text("game.timer"))
    yield 0.6
    ui.note("paused_later", ui.text("ring.digits"))
    ui.tap("game.turn")
    yield
    ui.tap("entry.no_word")
    yield
    yield 0.1
    ui.note("next_turn", ui.text("ring.digits"))


def demo(ui: Any) -> Steps:
    """Demo mode: step through the scripted Upwords game."""
    yield
    for _ in range(9):
        if ui.screen == "start":
            ui.tap("start.go")  # any game; the demo step starts its own
            yield
        ui.tap("game.demo")
        yield 0.1
    yield 1.0  # the camera renders on its worker thread
    ui.note("scores", [ui.text("game.score.0"), ui.text("game.score.1")])
    ui.note("news", ui.text("game.news"))
    ui.note("frames", ui.app.camera.frames if ui.app.camera is not None else None)
    yield from ui.shot("game-demo")
    if ui.app.camera is not None:
        ui.note("camera_caption", ui.app.screens["game"].table.caption.text)
        ui.tap("game.table")
        yield
        yield from ui.shot("game-demo-photo")
        ui.note("photo_kind", ui.app.screens["game"].table.kind)


def idle(ui: Any) -> Steps:
    """Start, show the start screen for a moment (systemd's heartbeat runs), quit."""
    yield 1.5
    ui.note("screen", ui.screen)


def disk_full(ui: Any) -> Steps:
    """The data disk fills up mid-game: the turn is refused in plain words, nothing typed is lost."""
    import errno
    from pathlib import Path

    yield
    yield from pick_game(ui, "upwords", ["Ann", "Bob"])
    ui.tap("game.turn")
    yield
    ui.tap("entry.col.less")
    ui.tap("entry.col.less")
    ui.type("MOOD")
    ui.tap("entry.done")
    yield
    filler = Path(ui.app.session.log.path).parent / "filler.bin"
    with filler.open("wb", buffering=0) as fh:  # take every free block of the little disk
        try:
            while True:
                fh.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
    ui.tap("game.turn")
    yield
    ui.tap("entry.col.more")
    ui.tap("entry.direction")
    ui.type("DEAR")
    ui.tap("entry.done")
    yield
    ui.note("banner", ui.app.banner.showing)
    ui.note("screen_after_refusal", ui.screen)
    ui.note("typed_after_refusal", ui.text("entry.field"))
    ui.note("events_after_refusal", len(ui.app.session.game.events))
    yield from ui.shot("banner-disk-full")
    filler.unlink()  # the players make room; the same Done now works
    ui.tap("banner")
    yield
    ui.tap("entry.done")
    yield
    ui.note("screen_after_room", ui.screen)
    ui.note("scores_after_room", [ui.text("game.score.0"), ui.text("game.score.1")])

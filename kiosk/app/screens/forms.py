"""Each game's turn-entry form: which controls it needs and the event it builds.

A form never judges a move: it turns what was typed and tapped into the event of
``docs/transcript.md`` and lets the engine accept or refuse it.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Stepper, Text
from kiosk.play.wording import plural, turn_scored


def letters(text: str) -> str:
    return "".join(ch for ch in text.upper() if ch.isalpha())


class Form:
    """The default: type a word, Done plays it."""

    title = "Type the word"
    max_length = 24

    def __init__(self, screen: Any, game: Any) -> None:
        self.screen = screen
        self.game = game

    def build(self, controls: BoxLayout, actions: BoxLayout) -> None:
        """Fill the two rows of game controls and other moves (either may stay empty)."""

    def initial_text(self) -> str:
        return self._initial

    _initial = ""

    def prefill(self, values: dict[str, Any]) -> None:
        """Fill the form from a camera read (the word; where it goes, for Upwords)."""
        self._initial = str(values.get("word", ""))

    def show(self, text: str) -> str:
        return text or "…"

    def preview(self, text: str) -> str:
        return ""

    def event(self, text: str) -> dict[str, Any] | None:
        word = text.strip().upper()
        if not word:
            self.screen.app.warn("Type the word first (or choose another move).")
            return None
        return {"type": "word", "word": word}

    def after_submit(self, event: dict[str, Any]) -> None:
        """Called once the move is in the log (forms with extra state reset it here)."""

    def action(
        self,
        row: BoxLayout,
        label: str,
        tid: str,
        event: dict[str, Any] | Any,
        face: tuple[float, ...] = theme.PANEL,
    ) -> None:
        """A button for another move; ``event`` is a dict or a callable returning one."""

        def tap() -> None:
            ev = event() if callable(event) else event
            if ev is not None:
                self.screen.submit(ev)

        row.add_widget(BigButton(label, tid=tid, on_tap=tap, face=face, size=theme.SMALL))


class WotsForm(Form):
    title = "Word on the Street: the word"

    def build(self, controls: BoxLayout, actions: BoxLayout) -> None:
        self.action(actions, "No word (time ran out)", "entry.no_word", {"type": "no_word"})
        self._camera_offers(controls)

    # -- the camera's part (issue 15): the street read before and after the turn -----------
    def _camera_offers(self, controls: BoxLayout) -> None:
        """One-tap choices: the dictionary words that make exactly the tile moves the camera saw."""
        from kiosk.play.street_moves import street_moves

        authority = self.screen.session.word_authority() if hasattr(self.screen.session, "word_authority") \
            else None
        self.moves = street_moves(self.game, self._camera(), authority)
        self._flagged = ""
        for i, word in enumerate(self.moves.words):
            controls.add_widget(BigButton(word, tid=f"entry.offer.{i}", size=theme.SMALL,
                                          on_tap=lambda w=word: self._play_offer(w)))

    def _camera(self) -> Any:
        """The camera, unless this is a correction of a turn older than the street it sees."""
        from kiosk.play.street_moves import camera_for

        correcting = getattr(self.screen, "correcting", None)
        return camera_for(self.screen.session.game, correcting, self.screen.app.camera)

    def _play_offer(self, word: str) -> None:
        event = super().event(word)
        if event is not None:
            self._with_category(event)
            self.screen.submit(event)

    def preview(self, text: str) -> str:
        category = self.screen.app.current_category()
        card = f"card: {category}" if category else ""
        moves = getattr(self, "moves", None)
        why = moves.hint(self.game, text) if moves is not None else ""
        return f"camera: {why}" if why else card

    def _with_category(self, event: dict[str, Any]) -> dict[str, Any]:
        category = self.screen.app.current_category()
        if category:
            event["category"] = category
        return event

    def event(self, text: str) -> dict[str, Any] | None:
        event = super().event(text)
        moves = getattr(self, "moves", None)
        why = moves.disagreement(self.game, text) if (event is not None and moves is not None) else ""
        if why and self._flagged != event["word"]:
            # The camera is a helper, not a tyrant: said once; Done again plays the word as typed.
            self._flagged = event["word"]
            self._show_on_street(self.moves.disagreeing(self.game, event["word"]))
            self.screen.app.warn(f"The camera saw other moves for {event['word']}: {why} (framed in red on "
                                 "the street). Check the street, or tap Done again to play it as typed.")
            return None
        return self._with_category(event) if event is not None else None

    def _show_on_street(self, letters: frozenset[str]) -> None:
        """Frame ``letters`` on the game screen's street and, when there are any, draw the street
        on this screen too (in the keyboard's place: a tap on it brings the keyboard back)."""
        game_screen = self.screen.app.screens.get("game")
        table = getattr(game_screen, "table", None)
        if table is not None:
            table.flagged = letters
        if letters and hasattr(self.screen, "show_street"):
            from kiosk.play.street_moves import street_picture

            self.screen.show_street(street_picture(self.game, self._camera(), letters),
                                    "Red: check these tiles (tap the street to type)")

    def after_submit(self, event: dict[str, Any]) -> None:
        self._show_on_street(frozenset())
        self.screen.app.turn_over()


class UpwordsForm(Form):
    """The word, where it starts and which way it reads; the tiles are worked out from the board."""

    title = "Upwords: word and where it starts"
    max_length = 12

    def __init__(self, screen: Any, game: Any) -> None:
        super().__init__(screen, game)
        self.row = self.col = game.board.size // 2 - 1
        self.down = False

    def build(self, controls: BoxLayout, actions: BoxLayout) -> None:
        size = self.game.board.size
        controls.add_widget(
            Stepper("entry.row", self.row + 1, 1, size, "row {}", on_change=lambda v: self._set("row", v - 1))
        )
        controls.add_widget(
            Stepper("entry.col", self.col + 1, 1, size, "col {}", on_change=lambda v: self._set("col", v - 1))
        )
        self.direction = BigButton(
            "Down" if self.down else "Across", tid="entry.direction", on_tap=self._turn, size_hint_x=0.5
        )
        controls.add_widget(self.direction)
        controls.add_widget(
            BigButton(
                "Board", tid="entry.board", face=theme.INFO, size_hint_x=0.5, on_tap=self._board
            )
        )
        self.action(actions, "Pass", "entry.pass", {"type": "pass"})
        self.action(actions, "Exchange a tile", "entry.exchange", {"type": "exchange"})
        # Ending the game is kept apart from the everyday moves, at the far end of the row.
        actions.add_widget(Widget(size_hint_x=0.4))
        self.action(actions, "End the game", "entry.end", self._end, face=theme.WARN)

    def prefill(self, values: dict[str, Any]) -> None:
        super().prefill(values)
        self.row = int(values.get("row", self.row))
        self.col = int(values.get("col", self.col))
        self.down = bool(values.get("down", self.down))

    def _set(self, key: str, value: int) -> None:
        setattr(self, key, value)
        self.screen.refresh_preview()

    def _turn(self) -> None:
        self.down = not self.down
        self.direction.text = "Down" if self.down else "Across"
        self.screen.refresh_preview()

    def _board(self) -> None:
        """The large board: tap the first square, choose across or down, see the play."""
        self.screen.app.go("place")

    def place(self, row: int, col: int) -> None:
        """The first square, tapped on the large board."""
        self.row, self.col = row, col
        self.screen.refresh_preview()

    def turn(self) -> None:
        self._turn()

    def planned(self, text: str) -> tuple[Any, frozenset[tuple[int, int]], str]:
        """The board as it would be after the typed play, the squares it covers, and what it
        scores in the engine's words (or why it does not fit): for the large board view."""
        word = letters(text)
        if not word:
            return self.game, frozenset(), "type the word"
        tiles, problem = self._tiles(text)
        if problem:
            return self.game, frozenset(), problem
        after, why = self.screen.session.try_event({"type": "play", "word": word, "tiles": tiles})
        if after is None:
            return self.game, frozenset(), why
        covered = frozenset((t["row"], t["col"]) for t in tiles)
        return after, covered, self._scored(after)

    def _scored(self, after: Any) -> str:
        before = self.game.scores()
        mover = self.game.to_move
        points = after.scores().get(mover, 0) - before.get(mover, 0)
        summary = after.turns[-1].summary if after.turns else ""
        return turn_scored(summary, points)

    def _cells(self, word: str) -> list[tuple[int, int]]:
        return [(self.row + i, self.col) if self.down else (self.row, self.col + i) for i in range(len(word))]

    def _tiles(self, text: str) -> tuple[list[dict[str, Any]], str]:
        from games.upwords_board import QU
        from games.upwords_read import infer_play

        word = letters(text).replace("QU", "Q")
        board = self.game.board
        cells = self._cells(word)
        if any(not board.on_board(r, c) for r, c in cells):
            return [], f"{letters(text)} runs off the board"
        tops = [list(row) for row in board.tops()]
        for (r, c), ch in zip(cells, word, strict=True):
            tops[r][c] = QU if ch == "Q" else ch
        reading = infer_play(board, tops)
        if not reading.ok:
            return [], reading.reason
        return [p.to_dict() for p in reading.tiles], ""

    def preview(self, text: str) -> str:
        where = f"row {self.row + 1}, col {self.col + 1}, {'down' if self.down else 'across'}"
        if not letters(text):
            return where
        tiles, problem = self._tiles(text)
        if problem:
            return f"{where}: {problem}"
        placed = " ".join(t["letter"] for t in tiles)
        after, why = self.screen.session.try_event({"type": "play", "word": letters(text), "tiles": tiles})
        if after is None:  # the engine refuses it: say why before Done is tapped
            return f"{where}: places {placed}; {why}"
        points = after.scores().get(self.game.to_move, 0) - self.game.scores().get(self.game.to_move, 0)
        return f"{where}: places {placed} for {plural(points, 'point')}"

    def event(self, text: str) -> dict[str, Any] | None:
        if not letters(text):
            self.screen.app.warn("Type the word the play makes (or Pass).")
            return None
        tiles, problem = self._tiles(text)
        if problem:
            self.screen.app.warn(f"That play does not fit the board: {problem}.")
            return None
        return {"type": "play", "word": letters(text), "tiles": tiles}

    def _end(self) -> None:
        self.screen.app.go("tally", kind="upwords")


class TosswordsForm(Form):
    """Tiles drawn (the first two are the keys), the die, then the word.

    Every button leads somewhere: No word always ends the move (with the draw when it was
    typed, else without: the sheet sends the tiles back either way), and Steal is offered only
    when the sheet's time-limit variation allows one (straight after the other side's time ran
    out with its draw recorded); otherwise it stays greyed with the reason on it.
    """

    title = "Tosswords: tiles, die, word"
    max_length = 12

    def __init__(self, screen: Any, game: Any) -> None:
        super().__init__(screen, game)
        self.tiles = ""
        self.word = ""
        self.die: int | str | None = None
        self.editing = "tiles"
        if game.can_steal():
            self.title = f"Steal? A word for {game.state.stealable.describe()}, or your own move"

    def build(self, controls: BoxLayout, actions: BoxLayout) -> None:
        self._dice(controls)
        self.which = BigButton(
            "Now: tiles", tid="entry.switch", on_tap=self._switch, face=theme.INFO, size=theme.SMALL
        )
        actions.add_widget(self.which)
        self.action(actions, "No word", "entry.no_word", self._no_word)
        self.action(actions, "Timeout", "entry.timeout", self._timeout)
        if self.game.options.get("steal"):
            why = self._no_steal()
            steal = BigButton(
                f"Steal: {why}" if why else "Steal",
                tid="entry.steal",
                face=theme.WARN,
                size=theme.SMALL,
                on_tap=self._steal,
            )
            steal.disabled = bool(why)
            actions.add_widget(steal)

    def _dice(self, controls: BoxLayout) -> None:
        for face in self.game.die_faces:
            label = "wild" if face is None else str(face)
            controls.add_widget(
                BigButton(
                    label,
                    tid=f"entry.die.{label}",
                    size=theme.BODY,
                    face=theme.PANEL,
                    on_tap=lambda f=face: self._roll(f),
                )
            )

    def _no_steal(self) -> str:
        """Why no steal can be made now, in the players' words ("" when one can)."""
        if not self.game.can_steal():
            return "only right after a time-out"
        victim = self.game.players[1 - self.game.state.to_move]
        if not self.game.retired()[victim]:
            return f"{victim} has no tile to send back"
        return ""

    def _roll(self, face: int | None) -> None:
        self.die = "wild" if face is None else face
        for child in self.screen.controls.children:
            child.set_face(
                theme.ACCENT if child.tid == f"entry.die.{'wild' if face is None else face}" else theme.PANEL,
                dark_text=child.tid.endswith(f".{'wild' if face is None else face}"),
            )
        self.screen.refresh_preview()

    def _switch(self) -> None:
        self._store(self.screen.keyboard.text)
        self.editing = "word" if self.editing == "tiles" else "tiles"
        self.which.text = f"Now: {self.editing}"
        self.screen.keyboard.set(self.word if self.editing == "word" else self.tiles)

    def _store(self, text: str) -> None:
        if self.editing == "tiles":
            self.tiles = letters(text)
        else:
            self.word = letters(text)

    def show(self, text: str) -> str:
        self._store(text)
        return f"tiles {self.tiles or '?'}   word {self.word or '?'}"

    def preview(self, text: str) -> str:
        if self.game.can_steal() and not self.tiles:
            return f"steal: {self.game.state.stealable.describe()}"
        keys = self.tiles[:2]
        die = "?" if self.die is None else self.die
        return f"keys {' '.join(keys) or '?'}, die {die}"

    def _draw(self) -> dict[str, Any] | None:
        """The draw as typed (tiles, keys, die), or None while it is not whole."""
        if len(self.tiles) < 2 or self.die is None:
            return None
        return {"tiles": list(self.tiles), "keys": list(self.tiles[:2]), "die": self.die}

    def _move(self, word: str | None) -> dict[str, Any] | None:
        self._store(self.screen.keyboard.text)
        if len(self.tiles) < 2:
            self.screen.app.warn("Type the tiles drawn first: the first two are the key tiles.")
            return None
        if self.die is None:
            self.screen.app.warn("Tap the number the die shows.")
            return None
        return {"type": "move", **(self._draw() or {}), "word": word}

    def _no_word(self) -> dict[str, Any]:
        """No word found: the move ends, with its draw when the draw was typed (the sheet sends
        the tiles back face down either way)."""
        self._store(self.screen.keyboard.text)
        return {"type": "move", **(self._draw() or {}), "word": None}

    def _timeout(self) -> dict[str, Any]:
        """Time ran out; with the draw typed, the other side may steal (the variation)."""
        self._store(self.screen.keyboard.text)
        return {"type": "timeout", **(self._draw() or {})}

    def event(self, text: str) -> dict[str, Any] | None:
        self._store(text)
        if not self.word:
            if self.editing == "tiles" and len(self.tiles) >= 2:
                self._switch()
                return None
            if not self.tiles:
                self.screen.app.warn(
                    "Type the tiles drawn (the first two are the keys), tap the die, then Done for the "
                    "word. No word ends the move when there is none."
                )
                return None
            self.screen.app.warn("Type the word found, or tap No word: the tiles go back.")
            return None
        return self._move(self.word)

    def _steal(self) -> dict[str, Any] | None:
        """The word found for the timed-out draw; then the tile to send back is chosen, on big
        buttons in the keyboard's place."""
        self._store(self.screen.keyboard.text)
        draw = self.game.state.stealable
        if not (self.word or self.tiles):
            self.screen.app.warn(f"Type the word you found for {draw.describe()}, then tap Steal.")
            return None
        if not self.word:  # typed where the tiles go: a steal has no draw of its own, it is the word
            self.word, self.tiles = self.tiles, ""
            self.editing = "tiles"
            self._switch()
        word = self.word
        victim = self.game.players[1 - self.game.state.to_move]
        from kivy.uix.gridlayout import GridLayout

        grid = GridLayout(cols=min(9, len(self.game.retired()[victim]) + 1), spacing=4)
        for tile in self.game.retired()[victim]:
            grid.add_widget(
                BigButton(
                    tile,
                    tid=f"entry.send_back.{tile}",
                    size=theme.LARGE,
                    on_tap=lambda t=tile: self.screen.submit({"type": "steal", "word": word, "tile": t}),
                )
            )
        grid.add_widget(
            BigButton("Back", tid="entry.send_back.none", face=theme.PANEL, size=theme.SMALL,
                      on_tap=self.screen.hide_choices)
        )
        self.screen.show_choices(grid, f"{word}: send back which of {victim}'s tiles?")
        return None


class SpielForm(Form):
    title = "WordSpiel: the word"

    def build(self, controls: BoxLayout, actions: BoxLayout) -> None:
        if self.game.phase == "deal":
            self.title = "WordSpiel: the flipped card"
            return
        controls.add_widget(Text("Exchange a card:", size=theme.SMALL, color=theme.MUTED))
        for i, name in enumerate(self.game.players):
            self.action(controls, name, f"entry.exchange.{i}", {"type": "exchange", "player": name})
        self.action(actions, "Draw, keep it", "entry.draw_keep", {"type": "draw", "keep": True})
        self.action(actions, "Draw to spiral (type it)", "entry.draw_spiral", self._to_spiral)

    def _to_spiral(self) -> dict[str, Any] | None:
        card = letters(self.screen.keyboard.text)
        if len(card) != 1:
            self.screen.app.warn("Type the one letter drawn, then tap Draw to spiral.")
            return None
        return {"type": "draw", "keep": False, "letter": card}

    def preview(self, text: str) -> str:
        spiral = self.game.spiral
        return f"spiral ...{spiral[-8:]}" if spiral else "the first word starts with this card"

    def event(self, text: str) -> dict[str, Any] | None:
        if self.game.phase == "deal":
            card = letters(text)
            if len(card) != 1:
                self.screen.app.warn("Type the one letter on the flipped card.")
                return None
            return {"type": "start_round", "flipped": card}
        return super().event(text)

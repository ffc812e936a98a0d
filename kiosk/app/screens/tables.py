"""What the middle of the game screen shows for each game, read from its engine.

The engines expose read-only views (``positions()``, ``board``, ``retired()``,
``spiral``, ``hands()``); this module turns them into the plain data the board widgets
draw. When a camera reader is running its latest read replaces the engine's board, with
the uncertain cells framed in red. When the camera has waited a while on a still picture it
takes for a hand over the board, a button in the caption's place asks the players whether
anything is there (a change of light the camera could not tell from an arm would keep it waiting).
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Text
from kiosk.app.widgets.boards import GridView, PhotoView, StreetView, TilesView
from kiosk.play.wording import plural

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: The question's height under the street: a finger's width (9 mm on the 7" screen), one line.
STREET_QUESTION = 44
#: The camera's question when it has waited on a still picture it takes for a hand; on one line
#: under the street, which needs every pixel of height.
CAMERA_ASKS = "The camera waits for a hand to go.\nNothing over the board? Tap here."
CAMERA_ASKS_ONE_LINE = "The camera waits for a hand to go: nothing over the board? Tap here."


class TablePanel(BoxLayout):
    """Holds one view at a time and swaps it when the game changes."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=4, **kwargs)
        self.tid = "game.table"
        self.view: Any = None
        self.kind = ""
        #: Showing the camera's photo instead of the board (tap the board to switch).
        self.photo = False
        #: Street letters the turn entry flagged (the typed word and the camera disagree on them).
        self.flagged: frozenset[str] = frozenset()
        self._last: tuple[Any, Any] = (None, None)
        # Two lines at most: the camera's summary plus what a tap does must show whole.
        self.caption = Text("", size=theme.SMALL, color=theme.MUTED)
        self.caption.tid = "game.table.caption"
        #: In the caption's place while the camera asks whether anything is over the board.
        self.clear_button = BigButton(CAMERA_ASKS, tid="game.table.clear", on_tap=self._say_clear,
                                      size=theme.SMALL, face=theme.INFO, min_height=STREET_QUESTION)
        self.foot = BoxLayout(size_hint_y=None, height=48)
        self.foot.add_widget(self.caption)

    def _use(self, kind: str, factory: Any) -> Any:
        if kind != self.kind:
            self.clear_widgets()
            self.view = factory()
            self.view.tid = f"game.table.{kind}"
            self.kind = kind
            self.add_widget(self.view)
            self.add_widget(self.foot)
        return self.view

    def _say_clear(self) -> None:
        """The players say nothing is over the board: the camera takes the picture as it is."""
        game, camera = self._last
        if camera is None or not hasattr(camera, "say_clear"):
            return
        camera.say_clear()
        if game is not None:
            self.show(game, camera)

    def on_touch_down(self, touch: Any) -> bool:
        game, camera = self._last
        if self.clear_button.parent is not None and self.clear_button.collide_point(*touch.pos):
            return bool(super().on_touch_down(touch))  # the question's button, not the photo
        if self.collide_point(*touch.pos) and camera is not None and hasattr(camera, "latest_image"):
            self.photo = not self.photo
            if game is not None:
                self.show(game, camera)
            return True
        return bool(super().on_touch_down(touch))

    def show(self, game: Any, camera: Any = None) -> None:
        self._last = (game, camera)
        self._show(game, camera)
        # the camera asks (kiosk.camera.live.LiveCamera.waiting_on_hand) about the game it reads
        asking = (camera is not None and game.name in ("upwords", "word-on-the-street")
                  and getattr(camera, "game", game.name) == game.name
                  and bool(getattr(camera, "waiting_on_hand", False)))
        shown = self.clear_button if asking else self.caption
        if shown.parent is None:
            self.foot.clear_widgets()
            self.foot.add_widget(shown)
        # No caption, no room taken; the street's caption (the camera's read) is one line: the
        # street needs every pixel of height. A question for the players is a button's height.
        if asking:
            street = self.kind == "street"
            self.clear_button.text = CAMERA_ASKS_ONE_LINE if street else CAMERA_ASKS
            self.foot.height, self.foot.opacity = (STREET_QUESTION if street else theme.TOUCH), 1
            return
        self.foot.height = (26 if self.kind == "street" else 48) if self.caption.text else 0
        self.foot.opacity = 1 if self.caption.text else 0

    def _show(self, game: Any, camera: Any = None) -> None:
        name = game.name
        if camera is not None:
            camera.sync(game)
        image = camera.latest_image() if self.photo and hasattr(camera, "latest_image") else None
        if image is not None:
            self._use("photo", PhotoView).set(image)
            self.caption.text = "the camera's photo (tap for the board)"
            return
        if name == "word-on-the-street":
            engine = game.positions()
            street = camera.view_of(game) if camera is not None else None
            doubtful: frozenset[str] = frozenset()
            if street is not None:  # the camera's read; a tile it sees gone is the game's capture
                engine = {
                    k: (v if street.positions.get(k) is None else street.positions[k])
                    for k, v in engine.items()
                }
                doubtful = street.uncertain | self.flagged
            self._use("street", StreetView).set((tuple(engine.items()), tuple(game.players), doubtful))
            captured = ""  # the kerbs say it: each labelled with its team and captured count
            self.caption.text = (
                f"camera: {street.summary} (tap: photo)" if street is not None else captured
            )
        elif name == "upwords":
            read = camera.view_of(game) if camera is not None else None
            board = game.board
            tops = [[board.top(r, c) for c in range(board.size)] for r in range(board.size)]
            heights = [[board.height(r, c) for c in range(board.size)] for r in range(board.size)]
            uncertain: frozenset[tuple[int, int]] = frozenset()
            if read is not None:
                tops, heights, uncertain = read.tops, read.heights, frozenset(read.uncertain)
            last = game.last_play
            fresh = frozenset(p.cell for p in last.tiles) if last is not None else frozenset()
            self._use("grid", GridView).set((_freeze(tops), _freeze(heights), uncertain, fresh))
            # Without a camera no caption: the bag is on the info line top right, and the
            # board takes the caption's height (larger letters and stack heights).
            self.caption.text = f"camera: {read.summary} (tap: photo)" if read is not None else ""
        elif name == "tosswords":
            rows = tuple((side, ALPHABET, "".join(tiles)) for side, tiles in game.retired().items())
            self._use("tiles", TilesView).set(rows)
            self.caption.text = "lit tiles are retired"
        elif name == "wordspiel":
            self._use("text", _big_text).text = _spiral_text(game)
            self.caption.text = f"round {max(1, game.round)} of {game.options.get('rounds', 5)}"
        else:
            self._use("text", _big_text).text = _option_text(game)
            self.caption.text = "last play"


def _big_text() -> Text:
    return Text("", size=theme.LARGE, bold=True)


def _freeze(grid: Any) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(row) for row in grid)


def spiral_pieces(game: Any) -> list[str]:
    """The spiral as the words (and lone cards) that made it this round, oldest first —
    ["F", "FUN", "NO"] for the spiral FUNO — so the screen can show where words break.

    Read from the round's events and checked against the engine's own spiral: when the
    pieces do not rebuild it exactly (a word taken off by a challenge, say), the spiral is
    one piece, as the engine has it."""
    spiral = game.spiral or ""
    events = game.events
    starts = [i for i, e in enumerate(events) if e.get("type") == "start_round"]
    if not spiral or not starts:
        return [spiral] if spiral else []
    pieces: list[str] = []
    built = ""
    for event in events[starts[-1] :]:
        kind = event.get("type")
        if kind == "start_round":
            piece = str(event.get("flipped", "")).strip().upper()
        elif kind == "word":
            piece = str(event.get("word", "")).upper()
        elif kind == "draw" and event.get("keep") is False:
            piece = str(event.get("letter", "")).strip().upper()
        else:
            continue
        overlap = next((k for k in range(min(len(piece), len(built)), 0, -1) if built.endswith(piece[:k])), 0)
        if kind == "word" and not overlap:
            continue  # refused by the engine or taken off: not on the spiral
        built += piece[overlap:]
        pieces.append(piece)
    return pieces if built == spiral else [spiral]


def _spiral_text(game: Any) -> str:
    pieces = spiral_pieces(game)
    if not pieces:
        return "Flip the first card to start the round"
    shown = pieces[-3:]  # the last words: the one to build on comes last
    more = "... " if len(pieces) > 3 else ""
    return f"[size=22]spiral ends[/size]\n[size=40]{more}{'  '.join(shown)}[/size]"


def _option_text(game: Any) -> str:
    turns = game.turns
    if not turns:
        return "First word: at least 4 letters, anywhere on the board"
    last = turns[-1]
    return f"{last.player}\n[size=40]{last.summary}[/size]\n{last.points:+d}"


def info_line(game: Any) -> str:
    """The small grey line top right: the round, the bag, the die, the captured count."""
    name = game.name
    if name == "upwords":
        return f"{game.bag} tiles in the bag"
    if name == "wordspiel":
        return f"Round {max(1, game.round)}/{game.options.get('rounds', 5)} - {game.phase}"
    if name == "tosswords":
        die = game.options.get("die", "d6")
        return f"die {die}{' - steals on' if game.options.get('steal') else ''}"
    if name == "word-on-the-street":
        counts = ", ".join(f"{team} {n}" for team, n in game.scores().items())
        return f"captured: {counts} (first to {game.options.get('tiles_to_win', 8)} wins)"
    return plural(len(game.turns), "turn") + " scored"


def score_extras(game: Any) -> dict[str, str]:
    """A second figure per player where the game has one (cards in hand, tiles on the rack)."""
    if game.name == "wordspiel":
        return {n: f"{h} cards" for n, h in game.hands().items()}
    return {}

"""What the game screen shows of a camera's read: the board as read, and the cells to check.

Shared by the demo's camera and the live one. A read is laid over the game's own board
(the history the players entered or confirmed), and every cell the reader doubts or that
disagrees with the game is marked, so the players look before anything is scored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.word_on_the_street import CAPTURED
from games.wots_moves import made_by_a_word, reachable, unlikely_move, ways_words_leave

if TYPE_CHECKING:
    from games.upwords_board import Board
    from vision.reading import BoardReading, StreetColumn, StreetReading


@dataclass(frozen=True)
class CameraRead:
    """The board as the camera read it, for the game screen: tops, heights, doubtful cells."""

    tops: tuple[tuple[str | None, ...], ...]
    heights: tuple[tuple[int, ...], ...]
    uncertain: frozenset[tuple[int, int]]
    summary: str


def compare(board: Board, reading: BoardReading) -> CameraRead:
    """Lay the camera's read over the board it should show and mark every cell to look at.

    A cell is doubtful when the reader says so (a hand, a hidden stack, an unsure letter or
    height) or when the photo disagrees with ``board`` (a tile where there is none, another
    letter, another height). Letters the reader could not name are shown from ``board``.
    """
    tops, heights, doubtful = [], [], set()
    for r in range(board.size):
        row_tops, row_heights = [], []
        for c in range(board.size):
            cell = reading.cell(r, c)
            known = board.top(r, c)
            row_tops.append((cell.letter or known) if cell.height else None)
            row_heights.append(cell.height)
            disagrees = cell.height != board.height(r, c) or (cell.letter and known and cell.letter != known)
            if cell.uncertain or disagrees:
                doubtful.add((r, c))
        tops.append(tuple(row_tops))
        heights.append(tuple(row_heights))
    seen = sum(1 for row in heights for h in row if h)
    summary = f"{seen} stacks seen, {len(doubtful)} to check" if doubtful else f"{seen} stacks seen, all sure"
    return CameraRead(tuple(tops), tuple(heights), frozenset(doubtful), summary)


@dataclass(frozen=True)
class StreetRead:
    """The street as the camera read it: each letter's space (None: off the board), the letters to
    check (doubtful, or not where the game has them), and of those the ones the camera doubts or
    the rules cannot believe (``doubted``: while any is, no word is offered for the turn)."""

    positions: dict[str, int | None]
    uncertain: frozenset[str]
    summary: str
    doubted: frozenset[str] = frozenset()


def street_by_rules(positions: dict[str, int], reading: StreetReading, team: int | None = None,
                    words: Iterable[str] | None = None) -> tuple[dict[str, int | None], frozenset[str]]:
    """Each letter's space as the camera reads it with what the rules settle, and the letters the
    camera doubts or the rules cannot believe.

    Captured tiles never move back onto the street (the rule sheet), so a tile the game has
    captured (``positions`` +-3) is off the street whatever the camera doubts about its column: a
    median of the tiles' colour, say. A camera *sure* it sees one back on the street is asked:
    the rules say it cannot be, the players look. With the ``team`` on the street known, a tile
    the rules make an unlikely move of (:func:`games.wots_moves.unlikely_move`: moved away from
    that team, or pulled off from afar) is asked: the camera may have taken the tile for the bare
    strip; and a column the camera doubts is settled where the rules leave it one place the
    camera surely sees the tile in (:func:`settled_by_rules`). With the dictionary's ``words``, the
    columns the camera doubts only by a space's colour are settled where the one way a word makes
    the turn is the camera's own lean for each (:func:`settled_by_a_word`), and unlikely moves the
    camera is sure of are believed when nothing else is in doubt and a word makes exactly the
    turn's moves as seen (:func:`games.wots_moves.made_by_a_word`): a tile the camera missed
    seldom leaves moves one makes."""
    seen: dict[str, int | None] = dict(reading.positions)
    doubted, unlikely = set(), set()
    open_places: dict[str, list[int | None]] = {}
    for column in reading.columns:
        before, now = positions[column.letter], column.position
        if abs(before) == CAPTURED:  # never back on the street: a sighting is asked, a doubt settled
            if column.uncertain:
                seen[column.letter] = None
            elif now is not None:
                doubted.add(column.letter)
        elif team is not None and reading.chances and column.uncertain:
            places = places_by_rules(column, before, team)
            settled, seen[column.letter] = settled_by_rules(column, places)
            if not settled:
                doubted.add(column.letter)
                if places:
                    open_places[column.letter] = places
        elif column.uncertain:
            doubted.add(column.letter)
        elif team is not None and unlikely_move(before, now, team):
            unlikely.add(column.letter)
    if words is None or team is None:
        return seen, frozenset(doubted | unlikely)
    if doubted and doubted == set(open_places) \
            and settled_by_a_word(positions, seen, open_places, team, words):
        doubted.clear()
        unlikely.clear()
    elif unlikely and not doubted and made_by_a_word(positions, seen, team, words):
        unlikely.clear()
    return seen, frozenset(doubted | unlikely)


def settled_by_a_word(positions: dict[str, int], seen: dict[str, int | None],
                      open_places: dict[str, list[int | None]], team: int, words: Iterable[str]) -> bool:
    """Whether the dictionary settles the columns the camera doubts at the places it leans to.

    A team must say a word. Where the one way the doubted tiles can lie that a word of the
    dictionary makes (:func:`games.wots_moves.ways_words_leave`, every other tile where the camera
    surely sees it) is the camera's own lean for each, the turn is that: the tile on a doubtful
    median the camera takes for a tile is still there when no word pulls it off with the others'
    moves. Where the dictionary and the camera's lean part, or two ways remain, the players look;
    so a word the dictionary lacks can only confirm what the camera already leans to."""
    lean = {letter: seen[letter] for letter in open_places}
    return ways_words_leave(positions, seen, open_places, team, words) == [lean]


def places_by_rules(column: StreetColumn, before: int, team: int) -> list[int | None]:
    """Where a column the camera doubts can be (None: off the street), by the rules and the
    camera's sure evidence; none where the picture itself is in question.

    A turn moves a tile only toward the team on the street (:func:`games.wots_moves.reachable`),
    so of the places it can be, the camera's sure evidence (a space whose chance of the tile is
    beyond the reader's threshold either way) rules some out: a tile surely not in the lane it
    would have moved to did not move there. A hand over the street or a tile read as another
    letter leaves no places: then the picture itself is in question, not one space's colour."""
    from vision.median_strip import DOUBT as MEDIAN_DOUBT

    spaces = range(1 - CAPTURED, CAPTURED)  # -2..+2, as a column's scores give them
    if any(flag != MEDIAN_DOUBT for flag in column.flags) or len(column.scores) != len(spaces):
        return []
    margin = column.threshold / 2.0
    chance = dict(zip(spaces, column.scores, strict=True))

    def fits(place: int | None) -> bool:
        return all(p > 0.5 - margin if space == place else p < 0.5 + margin for space, p in chance.items())

    return [place for place in reachable(before, team) if fits(place)]


def settled_by_rules(column: StreetColumn, places: list[int | None]) -> tuple[bool, int | None]:
    """Whether the rules settle a column the camera doubts, and the space (None: off the street),
    given the ``places`` the rules and the camera's sure evidence leave it
    (:func:`places_by_rules`).

    The column is settled when one place is left and the camera surely sees the tile there: a
    doubtful median space beside the tile surely in the lane it moved to, say. Never off the
    street: a capture is seen only as an absence, and one lane tile the light hides would then be
    taken for a capture. Not when the camera merely leans to the one likely place either: a tile
    on a doubtful median may have been pulled off from afar by a word with its letter thrice (one
    common word in eighteen), and the kiosk must not take that turn for no move; the dictionary
    may settle that (:func:`settled_by_a_word`)."""
    if len(places) == 1 and places[0] is not None \
            and column.scores[places[0] + CAPTURED - 1] >= 0.5 + column.threshold / 2.0:
        return True, places[0]
    return False, column.position


def compare_street(positions: dict[str, int], reading: StreetReading, team: int | None = None,
                   words: Iterable[str] | None = None) -> StreetRead:
    """Doubtful: a column the camera doubts or the rules cannot believe (:func:`street_by_rules`;
    ``team``: the team on the street, ``words``: the dictionary's), or a tile not where the game
    has it (a captured tile is off the board: the camera sees it gone, and that agrees)."""
    seen, doubted = street_by_rules(positions, reading, team, words)
    disagree = {letter for letter, at in seen.items()
                if (at is not None if abs(positions[letter]) == CAPTURED else at != positions[letter])}
    doubtful = doubted | disagree
    summary = f"{len(doubtful)} letters to check" if doubtful else "all 17 letters where the game has them"
    return StreetRead(seen, frozenset(doubtful), summary, doubted)


def history(board: Board) -> BoardReading:
    """The game's own board as a reading: what the reader compares a new photo with."""
    from vision.reading import BoardReading, CellReading

    cells = tuple(
        CellReading(r, c, board.top(r, c), board.height(r, c), 1.0, height_from="history")
        for r in range(board.size)
        for c in range(board.size)
    )
    return BoardReading("upwords", board.size, board.size, cells)

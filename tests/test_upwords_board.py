"""The Upwords board value: its text form round-trips, and the camera-read inference.

The inference is checked against the sheet's figure sequence: for every play, what a
camera sees after it (top letters, heights) is computed from the engine's own board and
fed back with the board before; the tiles inferred must be the tiles played.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_upwords import FIGURES, FIGURES_BOARD, figures_game

from games.upwords import Upwords
from games.upwords_board import LETTERS, Board, BoardTextError, Placement, normalise_letter
from games.upwords_read import beyond_reach, infer_play


# ----------------------------------------------------------------------- text form
def test_text_form_of_the_figures_board() -> None:
    board = figures_game().board
    assert board.text() == FIGURES_BOARD
    assert Board.from_text(FIGURES_BOARD) == board


def test_text_form_of_an_empty_ten_by_ten_board() -> None:
    assert Board.empty(10).text() == "/".join(["10"] * 10)
    assert Board.from_text("/".join(["10"] * 10)) == Board.empty(10)


def test_qu_in_text_form() -> None:
    board = Board.empty(8).place([Placement(3, 3, "Qu"), Placement(3, 4, "I")])
    board = board.place([Placement(3, 3, "A")])
    assert board.text() == "8/8/8/3[QuA]I3/8/8/8/8"
    assert Board.from_text(board.text()) == board


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("8/8/8", "row 1 has 8 cells but the board has 3 rows"),
        ("8/8/8/8/8/8/8/7", "row 8 has 7 cells"),
        ("8/8/8/3a4/8/8/8/8", "'a' is not a letter"),
        ("8/8/8/3[AA]4/8/8/8/8", "A on A"),
        ("8/8/8/3[]4/8/8/8/8", "not a stack"),
        ("8/8/8/03MOOD1/8/8/8/8", "not 03"),
        ("8/8/8/3[A4/8/8/8/8", "not closed"),
        ("8/8/8/3[A2]4/8/8/8/8", r"\[A2\] is not a stack"),
    ],
)
def test_bad_text_forms_say_where(text: str, match: str) -> None:
    with pytest.raises(BoardTextError, match=match):
        Board.from_text(text)


stacks = st.lists(st.sampled_from(sorted(LETTERS)), max_size=5).filter(
    lambda s: all(a != b for a, b in itertools.pairwise(s))
)


# Generating 100 stacks per board is slow on a busy machine; the property is what matters.
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much], deadline=None)
@given(
    st.sampled_from([8, 10]).flatmap(
        lambda n: st.lists(st.lists(stacks, min_size=n, max_size=n), min_size=n, max_size=n)
    )
)
def test_any_board_round_trips_through_text(grid: list[list[list[str]]]) -> None:
    board = Board(len(grid), tuple(tuple(tuple(s) for s in row) for row in grid))
    assert Board.from_text(board.text()) == board


def test_views_for_the_screen() -> None:
    board = Board.from_text(FIGURES_BOARD)
    assert board.tops()[3][:5] == (None, "W", "O", "O", "L")
    assert board.heights()[6][3:] == (1, 3, 1, 1, 1)
    assert [board.spell(w) for w in board.words()] == ["WOOL", "NETS", "SNACK", "PLUS", "ON", "LEAN"]
    assert str(board).splitlines()[3].split() == [".", "W2", "O", "O", "L2", ".", "U", "."]


@pytest.mark.parametrize(
    ("raw", "letter"), [("a", "A"), (" q ", "Qu"), ("QU", "Qu"), ("qu", "Qu"), ("Z", "Z")]
)
def test_letters_are_normalised(raw: str, letter: str) -> None:
    assert normalise_letter(raw) == letter


@pytest.mark.parametrize("raw", ["", "AB", "1", "É", None, 3])
def test_non_letters_are_refused(raw: object) -> None:
    with pytest.raises(ValueError):
        normalise_letter(raw)


# ----------------------------------------------------------------------- camera read inference
@pytest.mark.parametrize("with_heights", [True, False])
def test_inference_recovers_every_play_of_the_figures(with_heights: bool) -> None:
    game = Upwords(["Ann", "Bob"])
    for event, _, _ in FIGURES:
        before = game.board
        game.apply(event)
        after = game.board
        reading = infer_play(before, after.tops(), after.heights() if with_heights else None)
        assert reading.ok, reading.reason
        played = {(t["row"], t["col"], t["letter"]) for t in event["tiles"]}
        assert {(p.row, p.col, p.letter) for p in reading.tiles} == played
        # The event it builds is accepted by the engine and rebuilds the same board.
        twin = Upwords(["Ann", "Bob"])
        for e in game.events[:-1]:
            twin.apply(e)
        twin.apply(reading.event())
        assert twin.board == after


def _read(board: Board) -> tuple[list[list[object]], list[list[int | None]]]:
    return [list(r) for r in board.tops()], [list(r) for r in board.heights()]


def test_no_change_is_not_a_play() -> None:
    board = Board.from_text(FIGURES_BOARD)
    reading = infer_play(board, *_read(board))
    assert not reading.ok and reading.reason == "no tile was placed"
    with pytest.raises(ValueError, match="no tile was placed"):
        reading.event()


def test_a_height_that_grew_by_two_is_a_misread() -> None:
    board = Board.from_text("8/8/8/1MOOD3/8/8/8/8")
    tops, heights = _read(board)
    tops[3][1], heights[3][1] = "W", 3
    reading = infer_play(board, tops, heights)
    assert not reading.ok
    assert reading.problems == (
        "row 4, column 2: W appeared on M (1 tall) but the stack reads 3 tall; "
        "a turn adds exactly one tile to a stack",
    )


def test_the_same_letter_grown_taller_is_impossible() -> None:
    board = Board.from_text("8/8/8/1MOOD3/8/8/8/8")
    tops, heights = _read(board)
    heights[3][2] = 2
    reading = infer_play(board, tops, heights)
    assert "still O on top but 2 tall instead of 1; a letter never goes on the same letter" in reading.reason


def test_a_vanished_tile_and_an_unreadable_letter_are_both_reported() -> None:
    board = Board.from_text("8/8/8/1MOOD3/8/8/8/8")
    tops, _heights = _read(board)
    tops[3][4] = None
    tops[4][4] = "#"
    tops[5][4] = "A"
    reading = infer_play(board, tops, None)
    assert not reading.ok and reading.tiles == (Placement(5, 4, "A"),)
    assert len(reading.problems) == 2
    assert "row 4, column 5: the stack topped by D is gone" in reading.problems[0]
    assert "row 5, column 5: '#' is not an Upwords tile" in reading.problems[1]


def test_an_empty_cell_read_as_tall_is_a_misread() -> None:
    board = Board.empty(8)
    tops, heights = _read(board)
    heights[0][0] = 2
    assert "no letter seen on a stack 2 tall" in infer_play(board, tops, heights).reason


def test_a_read_of_the_wrong_size_is_refused() -> None:
    board = Board.empty(8)
    assert infer_play(board, [[None] * 10] * 10).reason == "the read is not a 8 x 8 grid"
    assert infer_play(board, [[None] * 8] * 8, [[0] * 7] * 8).reason == "the heights are not a 8 x 8 grid"


def test_empty_cells_may_be_read_as_blank_text() -> None:
    board = Board.empty(8)
    tops: list[list[object]] = [["."] * 8 for _ in range(8)]
    tops[3][3], tops[3][4] = "o", ""
    tops[4][3] = "n"
    reading = infer_play(board, tops)
    assert reading.tiles == (Placement(3, 3, "O"), Placement(4, 3, "N"))


def test_a_cell_off_the_line_of_the_tiles_placed_or_past_a_gap_is_beyond_the_play_s_reach() -> None:
    """Rule sheet: all letters played on a turn are in the same row or column, making one word
    that connects: so a play reaches no square off that line, nor one past an empty square."""
    board = Board.from_text("8/8/8/1MOOD3/8/8/8/8")  # MOOD on row 3, columns 1-4
    # S after MOOD: the row and column 5 through it, as far as nothing leaves a gap
    unsure = {(0, 4), (3, 7), (3, 6), (2, 5), (0, 5), (3, 0)}
    assert beyond_reach(board, {(3, 5)}, unsure) == {(0, 4), (0, 5)}
    # (3, 6) unsure may have taken a tile: (3, 7) stays within reach through it; without it, not
    assert beyond_reach(board, {(3, 5)}, {(3, 7)}) == {(3, 7)}
    # two tiles down column 1 through M: the line is the column, a square beside it is off it
    assert beyond_reach(board, {(2, 1), (4, 1)}, {(0, 1), (1, 1), (5, 1), (2, 2)}) == {(2, 2)}
    # nothing placed (the unsure cell may be the whole play), or tiles not in one line: none
    assert beyond_reach(board, set(), {(0, 0)}) == set()
    assert beyond_reach(board, {(2, 1), (4, 2)}, {(0, 0)}) == set()

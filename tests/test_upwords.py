"""Upwords: the sheet's figure sequence, every rule and every refusal, the end of the game.

Board geometry of the figures (rows and columns count from 0 at the top left of the 8x8
board; the four centre squares are rows 3-4 x columns 3-4):

    MOOD   across row 3, columns 1-4 (covers two centre squares)
    DEAR   down column 4 from MOOD's D (rows 3-6)                        fig 1: 8
    NET    across row 4, columns 3-5 through DEAR's E; N under an O      fig 2: NET 6 + ON 4 = 10
    WOOD   W on the M                                                    fig 3: 5
    WOOL   L on the D; LEAP: P on the R (both in column 4)               fig 4: 6 + 6 = 12
    SNACK  across row 6, columns 3-7, N on LEAP's P                      fig 5: 7 + 7 = 14
    PLUS   down column 6, rows 1-4; its S follows NET making NETS        fig 6: 8 + 8 = 16

The sheet gives DEAR = 8, NET + ON = 10 (ON 4, NET 6) and WOOD = 5; the rest are computed
by rule 6 (flat: 2 a tile; stacked: 1 a tile counting those beneath).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.base import GameSetupError
from games.registry import new_game
from games.rulings import IllegalEvent
from games.transcript import dumps, loads
from games.upwords import Upwords
from games.upwords_board import Board
from kiosk.files.transcript_file import load_transcript as load

TRANSCRIPTS = Path(__file__).parent / "transcripts"


def tiles(*spec: tuple[int, int, str]) -> dict[str, Any]:
    return {"type": "play", "tiles": [{"row": r, "col": c, "letter": ch} for r, c, ch in spec]}


def across(row: int, col: int, word: str | list[str]) -> dict[str, Any]:
    return tiles(*[(row, col + i, ch) for i, ch in enumerate(word)])


def down(row: int, col: int, word: str | list[str]) -> dict[str, Any]:
    return tiles(*[(row + i, col, ch) for i, ch in enumerate(word)])


#: (event, points, {word: score}) for each figure of the sheet, in order.
FIGURES: list[tuple[dict[str, Any], int, dict[str, int]]] = [
    (across(3, 1, "MOOD"), 8, {"MOOD": 8}),
    (down(4, 4, "EAR"), 8, {"DEAR": 8}),
    (tiles((4, 3, "N"), (4, 5, "T")), 10, {"NET": 6, "ON": 4}),
    (tiles((3, 1, "W")), 5, {"WOOD": 5}),
    (tiles((3, 4, "L"), (6, 4, "P")), 12, {"WOOL": 6, "LEAP": 6}),
    (across(6, 3, "SNACK"), 14, {"SNACK": 7, "LEAN": 7}),
    (down(1, 6, "PLUS"), 16, {"PLUS": 8, "NETS": 8}),
]
FIGURES_BOARD = "8/6P1/6L1/1[MW]OO[DL]1U1/3NETS1/4A3/3S[RPN]ACK/8"


def figures_game(upto: int = len(FIGURES)) -> Upwords:
    game = Upwords(["Ann", "Bob"])
    for event, _, _ in FIGURES[:upto]:
        game.apply(event)
    return game


def refuse(game: Upwords, event: dict[str, Any], *, match: str, rule: str) -> IllegalEvent:
    """Assert ``event`` is refused citing ``rule`` and that the game is exactly as it was."""
    state, events, turns = game.state, game.events, game.turns
    with pytest.raises(IllegalEvent, match=match) as info:
        game.apply(event)
    assert rule in info.value.rule
    assert game.state is state and game.events == events and game.turns == turns
    return info.value


# ----------------------------------------------------------------------- the sheet's figures
def test_figure_sequence_scores_each_play_as_the_sheet_says() -> None:
    game = Upwords(["Ann", "Bob"])
    for event, points, words in FIGURES:
        step = game.apply(event)
        assert step.turns[0].points == points
        last = game.last_play
        assert last is not None
        assert {w.word: w.score for w in last.words} == words
        assert last.points == points
    assert game.board.text() == FIGURES_BOARD
    assert game.scores() == {"Ann": 8 + 10 + 12 + 16, "Bob": 8 + 5 + 14}


def test_figure_sequence_board_details() -> None:
    game = figures_game()
    board = game.board
    assert board.stack(3, 1) == ("M", "W")  # WOOD: W on M
    assert board.stack(6, 4) == ("R", "P", "N")  # DEAR -> LEAP -> LEAN
    assert board.cell(6, 4).top == "N" and board.cell(6, 4).height == 3
    assert board.tile_count() == 4 + 3 + 2 + 1 + 2 + 5 + 4
    assert board.spell(board.run(4, 3, down=False)) == "NETS"
    assert board.spell(board.run(1, 6, down=True)) == "PLUS"
    # Racks refill after each play, so the bag paid for every tile on the board.
    assert game.racks == {"Ann": 7, "Bob": 7}
    assert game.bag == 64 - 14 - board.tile_count()


def test_figure_transcript_replays_to_the_sheets_scores() -> None:
    game = load(TRANSCRIPTS / "upwords-figures.jsonl")
    assert isinstance(game, Upwords)
    assert [t.points for t in game.turns] == [p for _, p, _ in FIGURES]
    assert game.board.text() == FIGURES_BOARD
    assert game.scores() == {"Ann": 46, "Bob": 27}


def test_sheet_note_net_and_on_share_the_n() -> None:
    game = figures_game(3)
    last = game.last_play
    assert last is not None
    on = next(w for w in last.words if w.word == "ON")
    net = next(w for w in last.words if w.word == "NET")
    assert set(on.cells) & set(net.cells) == {(4, 3)}
    assert game.turns[-1].summary == "NET 6 + ON 4 = 10"


# ----------------------------------------------------------------------- rule 3: the first word
def test_first_word_must_cover_a_centre_square() -> None:
    refuse(Upwords(["Ann", "Bob"]), across(0, 0, "MOOD"), match="centre", rule="rule 3")


def test_first_word_needs_two_letters() -> None:
    refuse(Upwords(["Ann", "Bob"]), tiles((3, 3, "A")), match="two letters", rule="rule 3")


def test_ten_by_ten_board_has_its_own_centre() -> None:
    game = Upwords(["Ann", "Bob"], {"size": 10})
    assert game.board.centre() == {(4, 4), (4, 5), (5, 4), (5, 5)}
    refuse(game, across(3, 1, "MOOD"), match="centre", rule="rule 3")
    game.apply(across(4, 2, "MOOD"))
    assert game.bag == 100 - 2 * 7 - 4  # four tiles drawn to refill the rack


# ----------------------------------------------------------------------- rule 4: the basic turn
def test_letters_must_share_a_row_or_column() -> None:
    game = figures_game(1)
    refuse(game, tiles((4, 1, "A"), (5, 2, "T")), match="one row or one column", rule="rule 4")


def test_a_later_play_must_touch_the_board() -> None:
    game = figures_game(1)
    refuse(game, across(6, 0, "AT"), match="touch", rule="rule 4")


def test_a_gap_in_the_line_is_refused() -> None:
    game = figures_game(1)
    refuse(game, tiles((4, 1, "A"), (6, 1, "E")), match="gap", rule="rule 5")


def test_more_tiles_than_the_rack_holds_is_refused() -> None:
    refuse(Upwords(["Ann", "Bob"]), across(3, 0, "ABSENTEE"), match="holds only 7", rule="rule 4")


def test_whole_words_extended_through_old_tiles_are_contiguous() -> None:
    game = figures_game(1)
    # A, then MOOD's O at (3, 3) already there, then E: one unbroken line A-O-E down column 3.
    step = game.apply(tiles((2, 3, "A"), (4, 3, "E")))
    assert step.turns[0].summary == "AOE 6"


# ----------------------------------------------------------------------- rule 5: stacking
def test_a_letter_never_goes_on_the_same_letter() -> None:
    game = figures_game(1)
    refuse(game, tiles((3, 2, "O")), match="O cannot be stacked on O", rule="rule 5 'Stacking letters'")


def test_one_tile_per_stack_per_turn() -> None:
    game = figures_game(1)
    refuse(game, tiles((3, 1, "W"), (3, 1, "H")), match="one letter a stack", rule="rule 5")


def test_stacks_stop_at_five() -> None:
    game = Upwords(["Ann", "Bob"])
    game.apply(across(3, 3, "AT"))
    for letter in "BCDE":
        game.apply(tiles((3, 3, letter)))
    assert game.board.height(3, 3) == 5
    assert game.last_play is not None and game.last_play.words[0].score == 6  # E4 buried + T: 5 + 1
    refuse(game, tiles((3, 3, "F")), match="already 5 high", rule="rule 5")
    game.undo()
    game.apply(tiles((3, 3, "F")))  # the fifth tile can be any letter but E's own
    assert game.board.stack(3, 3) == ("A", "B", "C", "D", "F")


def test_max_height_option() -> None:
    game = Upwords(["Ann", "Bob"], {"max_height": 2})
    game.apply(across(3, 3, "AT"))
    game.apply(tiles((3, 3, "I")))
    refuse(game, tiles((3, 3, "O")), match="already 2 high", rule="rule 5")


def test_covering_a_whole_word_is_refused() -> None:
    game = Upwords(["Ann", "Bob"])
    game.apply(across(3, 3, "AT"))
    refuse(game, across(3, 3, "IN"), match="covers every letter of AT", rule="rule 5")
    refuse(game, across(3, 3, "INK"), match="covers every letter of AT", rule="rule 5")
    game.apply(tiles((3, 3, "I")))  # changing AT to IT keeps T uncovered
    assert game.board.spell(game.board.run(3, 3, down=False)) == "IT"


def test_covering_every_letter_of_a_stacked_word_is_refused() -> None:
    game = figures_game(4)
    refuse(game, tiles((3, 1, "G"), (3, 2, "A"), (3, 3, "I"), (3, 4, "N")), match="WOOD", rule="rule 5")


# ----------------------------------------------------------------------- rule 5: plurals
def test_a_lone_s_making_a_plural_is_refused_with_the_rule() -> None:
    game = Upwords(["Ann", "Bob"])
    game.apply(across(3, 1, "ZEBRA"))
    err = refuse(game, tiles((3, 6, "S")), match="ZEBRAS adds only an S to ZEBRA", rule="rule 5 'Plurals'")
    assert str(err) == "ZEBRAS adds only an S to ZEBRA (Upwords, rule 5 'Plurals')"


def test_players_can_overrule_the_plural_rule_for_a_word_that_is_not_a_plural() -> None:
    game = Upwords(["Ann", "Bob"])
    game.apply(across(3, 3, "HI"))
    refuse(game, tiles((3, 5, "S")), match="HIS adds only an S to HI", rule="Plurals")
    game.apply({**tiles((3, 5, "S")), "not_plural": True})
    assert game.scores()["Bob"] == 6


def test_an_s_that_also_starts_another_word_is_not_a_bare_plural() -> None:
    game = Upwords(["Ann", "Bob"])
    game.apply(across(4, 1, "CAT"))  # row 4, columns 1-3
    game.apply(across(5, 3, "OH"))  # O under T makes TO; H at (5, 4)
    step = game.apply(tiles((4, 4, "S")))  # CATS across, and SH down
    assert step.turns[0].summary == "CATS 8 + SH 4 = 12"


def test_an_s_after_a_single_letter_makes_a_new_two_letter_word() -> None:
    game = Upwords(["Ann", "Bob"])
    game.apply(across(3, 3, "CAT"))
    step = game.apply(tiles((4, 5, "S")))  # T-S down: its own two-letter word, not CAT made plural
    assert step.turns[0].summary == "TS 4"


def test_an_s_added_with_other_letters_is_allowed() -> None:
    game = figures_game(6)
    step = game.apply(down(1, 6, "PLUS"))
    assert step.turns[0].points == 16


def test_a_lone_s_pluralising_two_words_at_once_is_still_refused() -> None:
    game = Upwords(["Ann", "Bob"])
    game.apply(across(3, 3, "AG"))  # row 3, columns 3-4
    game.apply(down(1, 4, "DO"))  # DOG down column 4, rows 1-3
    game.apply(across(4, 1, "CAT"))  # CAT across row 4, columns 1-3 (A-T down too)
    refuse(
        game,
        tiles((4, 4, "S")),
        match="CATS adds only an S to CAT and DOGS adds only an S to DOG",
        rule="Plurals",
    )


# ----------------------------------------------------------------------- rule 6: scoring
def test_flat_word_scores_two_a_tile_and_qu_adds_two() -> None:
    game = Upwords(["Ann", "Bob"])
    step = game.apply(across(3, 2, ["Qu", "I", "T"]))
    assert step.turns[0].summary == "QUIT 8"  # 3 tiles x 2 + 2 for Qu


def test_qu_in_a_stacked_word_earns_no_bonus() -> None:
    game = Upwords(["Ann", "Bob"])
    game.apply(across(3, 2, ["Qu", "I", "T"]))
    step = game.apply(tiles((3, 4, "P")))  # QUIP: Qu, I, and P on T
    assert step.turns[0].summary == "QUIP 4"


def test_q_typed_alone_is_the_qu_tile() -> None:
    game = Upwords(["Ann", "Bob"])
    game.apply(across(3, 2, "QIT"))
    assert game.board.stack(3, 2) == ("Qu",)


def test_all_seven_tiles_earn_twenty() -> None:
    game = Upwords(["Ann", "Bob"])
    step = game.apply(across(3, 0, "ABSENCE"))
    assert step.turns[0].points == 7 * 2 + 20
    assert step.turns[0].summary == "ABSENCE 14 + all tiles 20 = 34"


def test_a_stacked_word_counts_every_tile_beneath() -> None:
    game = figures_game(6)  # LEAN has L on D (2), E, A, N on P on R (3)
    last = game.last_play
    assert last is not None
    lean = next(w for w in last.words if w.word == "LEAN")
    assert lean.stacked and lean.score == 2 + 1 + 1 + 3


# ----------------------------------------------------------------------- racks and the bag
def test_racks_refill_from_the_bag_until_it_runs_out() -> None:
    game = Upwords(["Ann", "Bob"], {"tiles": 18})  # 14 on racks, 4 in the bag
    game.apply(across(3, 1, "MOOD"))
    assert game.racks == {"Ann": 7, "Bob": 7} and game.bag == 0
    game.apply(down(4, 4, "EAR"))
    assert game.racks == {"Ann": 7, "Bob": 4} and game.bag == 0
    assert game.board.tile_count() + sum(game.racks.values()) + game.bag == game.total_tiles


# ----------------------------------------------------------------------- rules 9 to 11: pass, exchange, end
def test_a_pass_hands_the_turn_on() -> None:
    game = figures_game(1)
    game.apply({"type": "pass"})
    assert game.to_move == "Ann" and not game.is_over()
    game.apply(down(4, 4, "EAR"))  # a play in between starts the count again
    game.apply({"type": "pass"})
    assert not game.is_over()


def test_every_player_passing_in_turn_ends_the_game_with_tiles_left_off() -> None:
    game = figures_game(2)
    game.apply({"type": "pass"})
    step = game.apply({"type": "pass"})
    assert game.is_over() and game.to_move is None
    assert [(t.player, t.points) for t in step.turns[1:]] == [("Ann", -35), ("Bob", -35)]
    assert game.scores() == {"Ann": 8 - 35, "Bob": 8 - 35}
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == ("Ann", "Bob")
    assert outcome.termination == "every player passed in turn"
    refuse(game, {"type": "pass"}, match="over", rule="")


def test_an_exchange_loses_the_turn_and_keeps_counts() -> None:
    game = figures_game(1)
    step = game.apply({"type": "exchange"})
    assert step.turns[0].summary == "exchanged 1 tile (turn lost)"
    assert game.to_move == "Ann" and game.racks == {"Ann": 7, "Bob": 7} and game.bag == 46
    refuse(game, {"type": "exchange", "count": 2}, match="one letter tile", rule="rule 10")
    refuse(game, {"type": "exchange", "count": "x"}, match="whole number", rule="rule 10")


def test_an_exchange_needs_tiles_in_the_bag() -> None:
    game = Upwords(["Ann", "Bob"], {"tiles": 14})
    refuse(game, {"type": "exchange"}, match="no tiles", rule="rule 10")


def test_exchanges_do_not_count_as_passes() -> None:
    game = figures_game(1)
    game.apply({"type": "pass"})
    game.apply({"type": "exchange"})
    game.apply({"type": "pass"})
    assert not game.is_over()


def test_going_out_with_the_bag_empty_ends_the_game_and_costs_the_others() -> None:
    game = Upwords(["Ann", "Bob", "Cy"], {"tiles": 21})
    step = game.apply(across(3, 0, "ABSENCE"))
    assert game.is_over()
    assert [(t.player, t.points) for t in step.turns] == [("Ann", 34), ("Bob", -35), ("Cy", -35)]
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Ann"
    assert "Ann used every tile" in outcome.termination


def test_end_is_refused_while_tiles_remain_to_exchange() -> None:
    refuse(figures_game(1), {"type": "end"}, match="46 tiles are still in the draw pile", rule="rule 11")


def test_end_may_state_the_tiles_left_and_they_must_agree() -> None:
    game = Upwords(["Ann", "Bob"], {"tiles": 14})
    game.apply(across(3, 1, "MOOD"))
    refuse(
        game, {"type": "end", "tiles_left": {"Ann": 0}}, match="Ann should have 3 tiles left", rule="rule 11"
    )
    refuse(game, {"type": "end", "tiles_left": {"Zed": 1}}, match="players' names", rule="rule 11")
    refuse(game, {"type": "end", "tiles_left": [3, 7]}, match="players' names", rule="rule 11")
    game.apply({"type": "end", "tiles_left": {"Ann": 3, "Bob": 7}})
    assert game.scores() == {"Ann": 8 - 15, "Bob": -35}


def test_end_when_no_one_can_play() -> None:
    game = Upwords(["Ann", "Bob"], {"tiles": 14})
    game.apply(across(3, 1, "MOOD"))
    step = game.apply({"type": "end"})
    assert [(t.player, t.points) for t in step.turns] == [("Ann", -15), ("Bob", -35)]
    assert game.scores() == {"Ann": -7, "Bob": -35}
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Ann"
    assert outcome.termination == "no one could make a word"


def test_the_players_may_agree_to_stop_with_tiles_in_the_bag() -> None:
    game = figures_game(1)  # Ann MOOD 8; Ann's rack refilled from the bag: 7 and 7 left, 46 in the bag
    refuse(game, {"type": "end", "agreed": "yes"}, match="true or false", rule="rule 11")
    step = game.apply({"type": "end", "agreed": True})
    assert [(t.player, t.points, t.summary) for t in step.turns] == [
        ("Ann", -35, "7 tiles left: -35 (rule 6F)"),
        ("Bob", -35, "7 tiles left: -35 (rule 6F)"),
    ]
    assert game.scores() == {"Ann": 8 - 35, "Bob": -35}
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Ann"
    assert outcome.termination == "the players agreed to stop"
    assert [(d.player, d.tiles, d.points, d.rule) for d in game.deductions()] == [
        ("Ann", 7, -35, "Upwords, rule 6F 'Scoring'"),
        ("Bob", 7, -35, "Upwords, rule 6F 'Scoring'"),
    ]
    refuse(game, {"type": "pass"}, match="over", rule="")


def test_deductions_name_only_players_with_tiles_left_and_only_once_the_game_is_over() -> None:
    game = Upwords(["Ann", "Bob", "Cy"], {"tiles": 21})
    assert game.deductions() == []
    game.apply(across(3, 0, "ABSENCE"))  # Ann goes out with the bag empty
    assert [(d.player, d.tiles, d.points) for d in game.deductions()] == [("Bob", 7, -35), ("Cy", 7, -35)]


def test_agreeing_to_stop_is_undone_like_any_event() -> None:
    game = figures_game(1)
    game.apply({"type": "end", "agreed": True})
    game.undo()
    assert not game.is_over() and game.scores() == {"Ann": 8, "Bob": 0} and game.deductions() == []


# ----------------------------------------------------------------------- rule 8: challenges
ILLEGAL = {"legal": False, "reason": "XQ is not in the dictionary", "rule": "Upwords, rule 7"}
LEGAL = {"legal": True, "reason": "DEAR is in the dictionary", "rule": "Upwords, rule 8"}


def test_an_illegal_play_comes_off_and_the_player_goes_again() -> None:
    game = figures_game(2)
    step = game.apply({"type": "challenge", "word": "DEAR", "ruling": ILLEGAL, "by": "Ann"})
    assert step.turns[0].player == "Bob" and step.turns[0].points == -8
    assert step.turns[0].ruling is not None and not step.turns[0].ruling.legal
    assert game.board == figures_game(1).board
    assert game.scores() == {"Ann": 8, "Bob": 0} and game.to_move == "Bob"
    assert game.racks == {"Ann": 7, "Bob": 7} and game.bag == 46
    refuse(game, {"type": "challenge", "ruling": ILLEGAL}, match="no play to challenge", rule="rule 8")
    game.apply({"type": "pass"})  # "either plays another word or passes"
    assert game.to_move == "Ann"


def test_a_legal_ruling_leaves_the_play_standing() -> None:
    game = figures_game(2)
    state = game.state
    step = game.apply({"type": "challenge", "ruling": LEGAL})
    assert game.state is state and step.turns[0].points == 0
    assert step.turns[0].summary == "DEAR challenged and stands"


def test_a_challenge_comes_before_the_next_turn() -> None:
    game = figures_game(2)
    game.apply({"type": "pass"})
    refuse(game, {"type": "challenge", "ruling": ILLEGAL}, match="before the next turn", rule="rule 8")


def test_a_challenge_names_a_word_the_play_formed() -> None:
    game = figures_game(3)
    wrong = {"type": "challenge", "ruling": ILLEGAL, "word": "NETS"}
    refuse(game, wrong, match="formed NET, ON", rule="rule 8")
    game.apply({"type": "challenge", "ruling": {**ILLEGAL, "word": "on"}})
    assert game.board.text() == "8/8/8/1MOOD3/4E3/4A3/4R3/8"


def test_the_challenger_is_another_player() -> None:
    game = figures_game(2)  # Bob played DEAR
    refuse(game, {"type": "challenge", "ruling": ILLEGAL, "by": "Bob"}, match="another player", rule="rule 8")
    refuse(game, {"type": "challenge", "ruling": ILLEGAL, "by": "Zed"}, match="another player", rule="rule 8")


def test_a_challenge_needs_its_ruling() -> None:
    refuse(figures_game(1), {"type": "challenge"}, match="ruling", rule="rule 8")
    refuse(figures_game(1), {"type": "challenge", "ruling": {"legal": "no"}}, match="ruling", rule="rule 8")


def test_an_illegal_ruling_after_going_out_reopens_the_game() -> None:
    game = Upwords(["Ann", "Bob"], {"tiles": 14})
    game.apply(across(3, 0, "ABSENCE"))
    assert game.is_over()
    step = game.apply({"type": "challenge", "ruling": ILLEGAL})
    assert not game.is_over() and game.to_move == "Ann"
    assert game.scores() == {"Ann": 0, "Bob": 0} and game.board.is_empty()
    assert [(t.player, t.points) for t in step.turns] == [("Ann", -34), ("Bob", 35)]


# ----------------------------------------------------------------------- solo play
def test_solo_exchanges_five_letters_without_penalty_then_may_end() -> None:
    game = Upwords(["Sam"])
    game.apply(across(3, 1, "MOOD"))
    refuse(game, {"type": "end"}, match="draw pile", rule="rule 11")
    game.apply({"type": "exchange", "count": 3})
    assert game.to_move == "Sam" and game.turns[-1].summary == "exchanged 3 tiles"
    refuse(game, {"type": "exchange", "count": 3}, match="2 remain", rule="Solo play")
    game.apply({"type": "exchange", "count": 2})
    game.apply({"type": "end"})
    assert game.is_over() and game.scores() == {"Sam": 8 - 35}


def test_solo_ends_when_every_tile_is_used() -> None:
    game = Upwords(["Sam"], {"tiles": 7})
    game.apply(across(3, 0, "ABSENCE"))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Sam" and "every tile is used" in outcome.termination


def test_solo_pass_ends_the_game() -> None:
    game = Upwords(["Sam"])
    game.apply(across(3, 1, "MOOD"))
    game.apply({"type": "pass"})
    assert game.is_over() and game.scores() == {"Sam": 8 - 35}


# ----------------------------------------------------------------------- set-up and bad input
@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"size": 9}, "size must be 8 or 10"),
        ({"rack": True}, "rack must be a whole number"),
        ({"max_height": 0}, "max_height"),
        ({"tiles": 10}, "cannot fill 2 racks"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], match: str) -> None:
    with pytest.raises(GameSetupError, match=match):
        Upwords(["Ann", "Bob"], options)


def test_five_players_are_too_many() -> None:
    with pytest.raises(GameSetupError, match="1 to 4"):
        Upwords(["A", "B", "C", "D", "E"])


@pytest.mark.parametrize(
    ("event", "match"),
    [
        ({"type": "play"}, "needs 'tiles'"),
        ({"type": "play", "tiles": []}, "needs 'tiles'"),
        ({"type": "play", "tiles": ["M3"]}, "tile 1 must be an object"),
        ({"type": "play", "tiles": [{"row": 8, "col": 0, "letter": "A"}]}, "row and a col from 0 to 7"),
        ({"type": "play", "tiles": [{"row": True, "col": 0, "letter": "A"}]}, "row and a col"),
        ({"type": "play", "tiles": [{"row": 3, "col": 3, "letter": "7"}]}, "not an Upwords tile"),
        ({"type": "play", "tiles": [{"row": 3, "col": 3}]}, "must be text"),
        ({"type": "shuffle"}, "no 'shuffle' event"),
    ],
)
def test_malformed_events_are_refused_in_plain_words(event: dict[str, Any], match: str) -> None:
    refuse(Upwords(["Ann", "Bob"]), event, match=match, rule="Upwords")


def test_a_named_word_must_be_one_the_tiles_make() -> None:
    game = figures_game(2)
    refuse(game, {**tiles((4, 3, "N"), (4, 5, "T")), "word": "NETS"}, match="make NET, ON", rule="rule 4")
    game.apply({**tiles((4, 3, "N"), (4, 5, "T")), "word": "on"})


# ----------------------------------------------------------------------- undo, views, registry
def test_undo_goes_back_play_by_play() -> None:
    game = figures_game()
    boards = [figures_game(k).board for k in range(len(FIGURES) + 1)]
    for k in range(len(FIGURES), 0, -1):
        assert game.board == boards[k]
        game.undo()
    assert game.board == Board.empty(8) and game.scores() == {"Ann": 0, "Bob": 0}


def test_undo_then_redo_is_the_identity() -> None:
    game = figures_game()
    state = game.state
    game.apply(game.undo())
    assert game.state == state


def test_describe_and_registry() -> None:
    game = new_game("upwords", ["Ann", "Bob"])
    assert isinstance(game, Upwords) and game.timer_seconds is None
    game.apply(across(3, 1, "MOOD"))
    described = "8/8/8/1MOOD3/8/8/8/8 | Ann 8, Bob 0 | racks Ann 7, Bob 7 | bag 46 | Bob to move"
    assert game.describe() == described
    assert game.header()["options"]["tiles"] == 64
    assert Upwords(["Ann", "Bob"], {"timer": 90}).timer_seconds == 90.0


def test_can_challenge_straight_after_a_play_even_one_that_ended_the_game() -> None:
    game = Upwords(["Ann", "Bob"], {"tiles": 14})
    assert not game.can_challenge()
    game.apply(across(3, 1, "MOOD"))
    assert game.can_challenge()
    game.apply({"type": "challenge", "ruling": LEGAL})
    assert game.can_challenge()  # another word of the same play may still be challenged
    game.apply({"type": "pass"})
    assert not game.can_challenge()
    game.apply(down(4, 2, "NLY"))  # Ann's ONLY uses her last three tiles with the bag empty
    assert game.is_over() and game.can_challenge()


def test_a_long_game_compares_and_replays_without_deep_recursion() -> None:
    """States must not chain back through every play (a 200-play game once hit RecursionError)."""
    game = Upwords(["Ann", "Bob"], {"size": 10, "tiles": 400})
    game.apply(across(4, 4, "AB"))
    order = sorted(
        ((r, c) for r in range(10) for c in range(10)), key=lambda rc: abs(rc[0] - 4) + abs(rc[1] - 4)
    )
    for r, c in order:  # fill the board outward, one tile a turn, each touching the last ones
        if not game.board.occupied(r, c):
            game.apply(tiles((r, c, "EO"[(r + c) % 2])))
    for r, c in order:  # then stack one tile on every square
        game.apply(tiles((r, c, "IU"[(r + c) % 2])))
    assert len(game.events) == 1 + 98 + 100
    assert loads(dumps(game)).state == game.state
    assert hash(game.state) == hash(loads(dumps(game)).state)


def test_challenge_and_end_transcript() -> None:
    game = load(TRANSCRIPTS / "upwords-challenge-end.jsonl")
    assert isinstance(game, Upwords)
    assert [(t.player, t.points) for t in game.turns] == [
        ("Ann", 8), ("Bob", 8), ("Ann", 10), ("Ann", -10), ("Ann", 0), ("Bob", 5),
        ("Ann", 0), ("Bob", 0), ("Ann", -35), ("Bob", -15),
    ]  # fmt: skip
    assert game.scores() == {"Ann": -27, "Bob": -2}
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Bob"
    assert game.board.text() == "8/8/8/1[MW]OOD3/4E3/4A3/4R3/8"


def test_module_examples_run() -> None:
    import doctest

    import games.upwords
    import games.upwords_board
    import games.upwords_read

    for module in (games.upwords, games.upwords_board, games.upwords_read):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__


def test_preview_scores_a_play_without_making_it() -> None:
    game = figures_game(2)
    state = game.state
    judged = game.preview(tiles((4, 3, "N"), (4, 5, "T")))
    assert judged.summary() == "NET 6 + ON 4 = 10" and judged.points == 10
    assert game.state is state
    with pytest.raises(IllegalEvent, match="gap"):
        game.preview(tiles((4, 2, "N"), (4, 5, "T")))
    game.apply({"type": "pass"})
    game.apply({"type": "pass"})
    with pytest.raises(IllegalEvent, match="over"):
        game.preview(tiles((4, 3, "N"), (4, 5, "T")))

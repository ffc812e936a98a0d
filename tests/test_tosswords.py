"""Tosswords: retiring tiles, the one-tile rule, the dice, the steal variation, the draw option."""

from __future__ import annotations

import string
from typing import Any

import pytest
from engine_invariants import apply_or_refuse, check_common, json_events, replay_file
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import GameSetupError
from games.rulings import IllegalEvent
from games.tosswords import Tosswords

ANN, BOB = "Ann", "Bob"
NOT_A_WORD = {"legal": False, "reason": "TRANCX is not in the dictionary", "rule": "dictionary"}
A_WORD = {"legal": True, "reason": "TRANCE is a word", "rule": "dictionary"}


def game(**options: Any) -> Tosswords:
    return Tosswords([ANN, BOB], options or None)


def move(tiles: str, keys: str, die: int | str, word: str | None) -> dict[str, Any]:
    return {"type": "move", "tiles": list(tiles), "keys": list(keys), "die": die, "word": word}


def fit(tiles: str, keys: str, die: int | str) -> str:
    """A string (not a dictionary word: the engine never asks) that fits the draw."""
    gap = 1 if die == "wild" else int(die)
    extras = "".join(t for t in tiles if t not in keys)
    return (keys[0] + "E" * gap + keys[1] + extras + "S")[:12]


def nothing(g: Tosswords) -> None:
    """The side to move draws two tiles (all three when three are left) and finds no word."""
    pile = g.unretired()[g.to_move]  # type: ignore[index]
    drawn = "".join(pile) if len(pile) == 3 else pile[0] + pile[1]
    g.apply(move(drawn, pile[0] + pile[1], 0, None))


def down_to_three(**options: Any) -> Tosswords:
    """Ann has retired A–W (23 tiles; X, Y, Z left), Bob nothing, Ann to move."""
    g = game(die="d12", **options)
    g.apply(move("ABCDEFGHIJKL", "AB", "wild", "ABCDEFGHIJKL"))
    nothing(g)
    g.apply(move("MNOPQRSTUVW", "MN", "wild", "MNOPQRSTUVW"))
    nothing(g)
    assert g.unretired()[ANN] == ["X", "Y", "Z"] and g.to_move == ANN
    return g


# ---------------------------------------------------------------- the sheet's examples
def test_trance_retires_c_and_t() -> None:
    g = game()
    step = g.apply(move("CT", "CT", 3, "TRANCE"))
    assert g.retired() == {ANN: ["C", "T"], BOB: []} and g.scores() == {ANN: 2, BOB: 0}
    assert step.turns[0].points == 2 and g.to_move == BOB


def test_trance_does_not_fit_another_toss() -> None:
    g = game()
    with pytest.raises(IllegalEvent, match="does not have 2 letters between"):
        g.apply(move("CT", "CT", 2, "TRANCE"))
    assert g.scores() == {ANN: 0, BOB: 0} and g.events == []


def test_worked_examples_transcript() -> None:
    g = replay_file("tosswords-trance.jsonl")
    assert g.retired() == {ANN: ["C", "T"], BOB: ["I", "K", "P"]}
    assert g.describe() == "Ann 2/26 [CT] | Bob 3/26 [IKP] | Ann to move"
    check_common(g)


def test_the_word_must_contain_every_extra_tile() -> None:
    g = game()
    with pytest.raises(IllegalEvent, match="drawn tile P"):
        g.apply(move("IKP", "IK", 2, "ISSKA"))
    g.apply(move("IKP", "IK", 2, "PIGSKIN"))
    assert g.retired()[ANN] == ["I", "K", "P"]


@pytest.mark.parametrize("word", ["TC", "TRANCEPORTERS", "TRAN-CE", "", 5])
def test_words_are_three_to_twelve_letters(word: Any) -> None:
    assert not apply_or_refuse(game(), move("CT", "CT", 0 if word == "TC" else 3, word))


def test_no_word_returns_the_tiles_and_passes_the_turn() -> None:
    g = game()
    step = g.apply(move("QX", "QX", 4, None))
    assert g.scores() == {ANN: 0, BOB: 0} and g.to_move == BOB and "go back" in step.turns[0].summary


def test_no_word_with_the_draw_not_recorded_still_ends_the_move() -> None:
    g = game()
    step = g.apply({"type": "move", "word": None})
    assert g.scores() == {ANN: 0, BOB: 0} and g.to_move == BOB
    assert step.turns[0].summary == "no word: the tiles go back"
    assert not g.can_steal() and not g.can_challenge()
    with pytest.raises(IllegalEvent):  # a word needs the draw it is checked against
        g.apply({"type": "move", "word": "TRANCE"})


# ---------------------------------------------------------------- drawing
@pytest.mark.parametrize(
    "event",
    [
        move("C", "CC", 0, "ACCT"),  # one tile
        move("CC", "CC", 0, "ACCT"),  # a letter drawn twice
        move("CT", "CA", 3, "TRANCE"),  # a key not drawn
        move("CT", "CC", 3, "TRANCE"),  # the same key twice
        move("C1", "C1", 3, "TRANCE"),  # not a letter
        {"type": "move", "tiles": "CT", "keys": ["C", "T"], "die": 3, "word": "TRANCE"},
        {"type": "move", "keys": ["C", "T"], "die": 3, "word": "TRANCE"},
        {"type": "move", "tiles": ["C", "T"], "die": 3, "word": "TRANCE"},
    ],
)
def test_malformed_draws_are_refused(event: dict[str, Any]) -> None:
    assert not apply_or_refuse(game(), event)


def test_retired_tiles_cannot_be_drawn_again() -> None:
    g = game()
    g.apply(move("CT", "CT", 3, "TRANCE"))
    nothing(g)
    with pytest.raises(IllegalEvent, match="already retired C"):
        g.apply(move("CA", "CA", 0, "CAT"))


def test_a_draw_may_not_leave_a_single_tile() -> None:
    g = down_to_three()
    with pytest.raises(IllegalEvent, match="leave one"):
        g.apply(move("XY", "XY", 0, "XYS"))
    g.apply(move("XYZ", "XY", 0, "XYZ"))
    assert g.is_over() and g.outcome().winner == ANN  # type: ignore[union-attr]
    assert "retired all 26" in g.outcome().termination  # type: ignore[union-attr]
    check_common(g)


# ---------------------------------------------------------------- dice
@pytest.mark.parametrize(("die", "face", "ok"), [
    ("d6", 0, True), ("d6", 5, True), ("d6", 6, False), ("d6", "wild", False), ("d6", True, False),
    ("d12", 10, True), ("d12", 11, False), ("d12", "wild", True), ("d12", -1, False),
])  # fmt: skip
def test_die_faces(die: str, face: Any, ok: bool) -> None:
    g = game(die=die)
    word = fit("CT", "CT", face) if ok else "TRANCE"
    assert apply_or_refuse(g, move("CT", "CT", face, word)) is ok


def test_wild_face_allows_any_spacing() -> None:
    g = game(die="d12")
    g.apply(move("CT", "CT", "wild", "CATERPILLAR"))
    assert g.scores()[ANN] == 2
    assert g.die_faces[-1] is None and len(g.die_faces) == 12


@pytest.mark.parametrize("options", [{"die": "d20"}, {"steal": "yes"}, {"draw_rule": 1}, {"tiles": 20}])
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(GameSetupError):
        Tosswords([ANN, BOB], options)


# ---------------------------------------------------------------- time-outs and steals
def test_timeout_returns_the_tiles_and_passes_the_turn() -> None:
    g = game()
    g.apply({"type": "timeout"})
    assert g.to_move == BOB and g.scores() == {ANN: 0, BOB: 0}


def test_steal_after_a_timeout_sends_one_retired_tile_back() -> None:
    g = game(steal=True)
    g.apply(move("CT", "CT", 3, "TRANCE"))
    nothing(g)
    g.apply({"type": "timeout", "tiles": ["R", "S"], "keys": ["R", "S"], "die": 1})
    step = g.apply({"type": "steal", "by": BOB, "word": "ROSE", "tile": "T"})
    assert g.retired()[ANN] == ["C"] and "T" in g.unretired()[ANN]
    assert step.turns[0].player == ANN and step.turns[0].points == -1
    assert g.to_move == BOB, "the steal does not use up Bob's move"
    check_common(g)
    assert not apply_or_refuse(g, {"type": "steal", "word": "ROSE", "tile": "C"}), "only one steal"


@pytest.mark.parametrize(
    "steal",
    [
        {"type": "steal", "word": "ROAST", "tile": "T"},  # two letters between R and S, the die shows 1
        {"type": "steal", "word": "ROSE", "tile": "Q"},  # Q is not retired
        {"type": "steal", "word": "ROSE"},
        {"type": "steal", "word": "ROSE", "tile": "T", "by": ANN},
    ],
)
def test_bad_steals_are_refused(steal: dict[str, Any]) -> None:
    g = game(steal=True)
    g.apply(move("CT", "CT", 3, "TRANCE"))
    nothing(g)
    g.apply({"type": "timeout", "tiles": ["R", "S"], "keys": ["R", "S"], "die": 1})
    assert not apply_or_refuse(g, steal)
    assert apply_or_refuse(g, {"type": "steal", "word": "ROSE", "tile": "T"}), "the good steal still works"


def test_no_steal_without_the_option_or_without_a_timeout() -> None:
    g = game()
    g.apply(move("CT", "CT", 3, "TRANCE"))
    g.apply({"type": "timeout", "tiles": ["R", "S"], "keys": ["R", "S"], "die": 1})
    assert not apply_or_refuse(g, {"type": "steal", "word": "ROSE", "tile": "T"})
    g2 = game(steal=True)
    g2.apply(move("CT", "CT", 3, "TRANCE"))
    assert not apply_or_refuse(g2, {"type": "steal", "word": "ROSE", "tile": "T"})
    g2.apply({"type": "timeout"})  # the draw was not recorded: nothing to check a word against
    assert not apply_or_refuse(g2, {"type": "steal", "word": "ROSE", "tile": "T"})


# ---------------------------------------------------------------- challenges
def test_an_illegal_word_returns_its_tiles() -> None:
    g = game()
    g.apply(move("CT", "CT", 3, "TRANCX"))
    step = g.apply({"type": "challenge", "by": BOB, "ruling": NOT_A_WORD})
    assert g.scores() == {ANN: 0, BOB: 0} and g.to_move == BOB
    assert step.turns[0].points == -2 and step.turns[0].ruling is not None
    check_common(g)


def test_a_legal_word_stands() -> None:
    g = game()
    g.apply(move("CT", "CT", 3, "TRANCE"))
    g.apply({"type": "challenge", "ruling": A_WORD})
    assert g.scores()[ANN] == 2
    assert not apply_or_refuse(g, {"type": "challenge", "ruling": NOT_A_WORD}), "one challenge per word"


def test_a_challenge_must_follow_the_word() -> None:
    g = game()
    assert not apply_or_refuse(g, {"type": "challenge", "ruling": NOT_A_WORD})
    g.apply(move("CT", "CT", 3, "TRANCE"))
    nothing(g)
    assert not apply_or_refuse(g, {"type": "challenge", "ruling": NOT_A_WORD})
    nothing(g)
    assert not apply_or_refuse(g, {"type": "challenge", "ruling": NOT_A_WORD})
    assert not apply_or_refuse(g, {"type": "challenge"})


def test_an_illegal_stealing_word_undoes_the_steal() -> None:
    g = game(steal=True)
    g.apply(move("CT", "CT", 3, "TRANCE"))
    nothing(g)
    g.apply({"type": "timeout", "tiles": ["R", "S"], "keys": ["R", "S"], "die": 1})
    g.apply({"type": "steal", "word": "RXSE", "tile": "T"})
    g.apply({"type": "challenge", "ruling": {"legal": False, "reason": "not a word", "rule": "d"}})
    assert sorted(g.retired()[ANN]) == ["C", "T"]
    check_common(g)


# ---------------------------------------------------------------- the end
def test_challenge_can_take_back_the_winning_move() -> None:
    g = down_to_three()
    g.apply(move("XYZ", "XY", 0, "XYZ"))
    assert g.is_over()
    g.apply({"type": "challenge", "ruling": NOT_A_WORD})
    assert not g.is_over() and g.unretired()[ANN] == ["X", "Y", "Z"] and g.to_move == BOB


def _both_near_the_end(**options: Any) -> Tosswords:
    """Both sides down to X, Y, Z; Ann to move."""
    g = game(die="d12", **options)
    for _ in range(2):
        g.apply(move("ABCDEFGHIJKL", "AB", "wild", "ABCDEFGHIJKL"))
    for _ in range(2):
        g.apply(move("MNOPQRSTUVW", "MN", "wild", "MNOPQRSTUVW"))
    return g


def test_draw_rule_the_second_side_may_answer_and_draw() -> None:
    g = _both_near_the_end(draw_rule=True)
    g.apply(move("XYZ", "XY", 0, "XYZ"))
    assert not g.is_over() and g.to_move == BOB, "Bob has one move to draw level"
    g.apply(move("XYZ", "XY", 0, "XYZ"))
    assert g.outcome().winners == (ANN, BOB)  # type: ignore[union-attr]
    assert g.outcome().winner == [ANN, BOB] and "draw" in g.outcome().termination  # type: ignore[union-attr]
    check_common(g)


def test_draw_rule_the_first_side_wins_if_the_answer_fails() -> None:
    g = _both_near_the_end(draw_rule=True)
    g.apply(move("XYZ", "XY", 0, "XYZ"))
    g.apply(move("XYZ", "XY", 0, None))
    assert g.outcome().winner == ANN  # type: ignore[union-attr]


def test_without_the_draw_rule_the_first_out_wins_at_once() -> None:
    g = _both_near_the_end()
    g.apply(move("XYZ", "XY", 0, "XYZ"))
    assert g.outcome().winner == ANN  # type: ignore[union-attr]
    with pytest.raises(IllegalEvent, match="over"):
        g.apply(move("XYZ", "XY", 0, "XYZ"))


def test_draw_rule_gives_no_answer_move_to_the_first_side() -> None:
    g = _both_near_the_end(draw_rule=True)
    nothing(g)
    g.apply(move("XYZ", "XY", 0, "XYZ"))
    assert g.outcome().winner == BOB  # type: ignore[union-attr]


# ---------------------------------------------------------------- random games
@st.composite
def _event(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["move", "move", "move", "timeout", "steal", "challenge"]))
    tiles = draw(st.lists(st.sampled_from(string.ascii_uppercase), min_size=2, max_size=6, unique=True))
    keys = tiles[:2]
    die = draw(st.one_of(st.integers(0, 10), st.just("wild")))
    word = draw(st.one_of(st.none(), st.just(fit("".join(tiles), "".join(keys), die)), st.just("JUNK")))
    if kind == "move":
        return {"type": "move", "tiles": tiles, "keys": keys, "die": die, "word": word}
    if kind == "timeout":
        return {"type": "timeout", "tiles": tiles, "keys": keys, "die": die}
    if kind == "steal":
        return {"type": "steal", "word": word, "tile": draw(st.sampled_from(string.ascii_uppercase))}
    return {"type": "challenge", "ruling": {"legal": draw(st.booleans()), "reason": "r", "rule": "x"}}


@settings(max_examples=150, deadline=None)
@given(
    st.lists(_event(), max_size=80),
    st.sampled_from(["d6", "d12"]),
    st.booleans(),
    st.booleans(),
)
def test_random_games_keep_every_invariant(
    events: list[dict[str, Any]], die: str, steal: bool, dr: bool
) -> None:
    g = game(die=die, steal=steal, draw_rule=dr)
    for event in events:
        if not apply_or_refuse(g, event):
            continue
        for side in (ANN, BOB):
            retired, left = g.retired()[side], g.unretired()[side]
            assert len(set(retired)) == len(retired), "a tile is retired once"
            assert sorted(retired + left) == list(string.ascii_uppercase), "26 tiles per side"
            assert len(left) != 1, "one tile alone can never be retired"
    check_common(g)


def test_module_examples_run() -> None:
    import doctest

    import games.tosswords as module

    result = doctest.testmod(module)
    assert result.attempted and not result.failed


def test_draw_sizes_never_strand_one_tile() -> None:
    g = game()
    assert g.draw_sizes() == [n for n in range(2, 27) if n != 25]
    assert down_to_three().draw_sizes() == [3]


def test_can_steal_and_can_challenge_for_the_screen() -> None:
    g = game(steal=True)
    assert not g.can_steal() and not g.can_challenge()
    g.apply(move("CT", "CT", 3, "TRANCE"))
    assert g.can_challenge() and not g.can_steal()
    g.apply({"type": "timeout", "tiles": ["R", "S"], "keys": ["R", "S"], "die": 1})
    assert g.can_steal() and not g.can_challenge()


def test_steal_transcript() -> None:
    g = replay_file("tosswords-steal.jsonl")
    assert g.retired() == {"Parents": ["C"], "Twins": []} and g.to_move == "Parents"
    assert [t.points for t in g.turns] == [2, 3, -3, 0, -1, 0]
    check_common(g)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        json_events(
            ["move", "timeout", "steal", "challenge"],
            ["tiles", "keys", "die", "word", "tile", "by", "ruling", "legal"],
        ),
        max_size=12,
    ),
    st.sampled_from(["d6", "d12"]),
)
def test_any_json_event_is_applied_or_refused(events: list[dict[str, Any]], die: str) -> None:
    g = game(die=die, steal=True)
    g.apply(move("CT", "CT", 3, "TRANCE"))
    for event in events:
        apply_or_refuse(g, event)
    check_common(g)

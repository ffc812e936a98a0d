"""Word on the Street: every rule of the sheet, each challenge kind, and random games.

Positions: −2..+2 on the street (negative toward Team A, the first team), −3 / +3 captured
by Team A / Team B.
"""

from __future__ import annotations

from typing import Any

import pytest
from engine_invariants import apply_or_refuse, check_common, json_events, replay_file
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import GameSetupError, Outcome
from games.registry import new_game
from games.rulings import IllegalEvent
from games.word_on_the_street import LETTERS, WordOnTheStreet

A, B = "Team A", "Team B"
LEGAL = {"legal": True, "reason": "spelt right", "rule": "dictionary"}
ILLEGAL = {"legal": False, "reason": "misspelt", "rule": "dictionary"}


def game(**options: Any) -> WordOnTheStreet:
    return WordOnTheStreet([A, B], options or None)


def words(g: WordOnTheStreet, *played: str | None) -> WordOnTheStreet:
    """Play each word in turn (None: the team on the street finds no word)."""
    for w in played:
        g.apply({"type": "no_word"} if w is None else {"type": "word", "word": w})
    return g


def purple_position() -> WordOnTheStreet:
    """The position the sheet's PURPLE picture implies, Team B on the street.

    L captured by Team A (LULL: three moves toward A), R one space from Team B's edge
    (ERR: two moves toward B), P on the median strip, then Team A finds no word.
    """
    g = words(game(), "LULL", "ERR", None)
    assert g.positions()["L"] == -3 and g.positions()["R"] == 2 and g.positions()["P"] == 0
    assert g.to_move == B
    return g


# ---------------------------------------------------------------- the sheet's example
def test_purple_example_from_the_sheet() -> None:
    g = purple_position()
    step = g.apply({"type": "word", "word": "PURPLE"})
    moves = [(m.index, m.letter, m.before, m.after) for m in step.state.last.moves]
    # 1. P moved one space; 2. U nothing; 3. R moved off: captured by B; 4. P another space;
    # 5. L not moved: Team A captured it.
    assert moves == [(0, "P", 0, 1), (2, "R", 2, 3), (3, "P", 1, 2)]
    assert g.positions()["P"] == 2 and g.positions()["R"] == 3 and g.positions()["L"] == -3
    assert g.captured() == {A: ["L"], B: ["R"]}
    assert step.turns[0].player == B and step.turns[0].points == 1
    assert g.to_move == A


def test_purple_transcript_replays_to_the_same_scores() -> None:
    g = replay_file("wots-purple.jsonl")
    assert g.scores() == {A: 1, B: 1}
    assert g.captured() == {A: ["L"], B: ["R"]}
    assert g.describe() == ("B0 C0 D0 F0 G0 H0 K0 L< M0 N0 P+2 R> S0 T0 V0 W0 Y0 | Team A on the street")
    check_common(g)


# ---------------------------------------------------------------- moving the tiles
def test_initial_board_has_17_tiles_on_the_median_strip() -> None:
    g = game()
    assert LETTERS == "BCDFGHKLMNPRSTVWY"
    assert g.positions() == dict.fromkeys(LETTERS, 0)
    assert g.to_move == A and g.timer_seconds == 30.0 and g.scores() == {A: 0, B: 0}


def test_each_team_pulls_tiles_toward_itself() -> None:
    g = words(game(), "BB", "TT")
    assert g.positions()["B"] == -2 and g.positions()["T"] == 2


def test_vowels_and_jqxz_have_no_tile() -> None:
    g = words(game(), "AEIOU-JQXZ")
    assert g.positions() == dict.fromkeys(LETTERS, 0)
    assert g.turns[-1].summary.endswith("no tile moves")


def test_captured_tiles_never_move_again_and_are_skipped() -> None:
    g = words(game(), "LULL", "LOLL")  # Team B tries to pull L back
    assert g.positions()["L"] == -3 and g.captured()[A] == ["L"]
    assert g.state.last.moves == ()


def test_a_tile_pulled_across_the_street_changes_sides() -> None:
    g = words(game(), "TT", "TOTTY")  # A pulls T to −2, B pulls it three spaces to +1
    assert g.positions()["T"] == 1


def test_no_word_passes_the_turn_and_moves_nothing() -> None:
    g = words(game(), None)
    assert g.to_move == B and g.positions() == dict.fromkeys(LETTERS, 0)


@pytest.mark.parametrize("bad", ["", "   ", "123", "PUR3PLE", None, 7])
def test_a_word_must_be_letters(bad: Any) -> None:
    g = game()
    assert not apply_or_refuse(g, {"type": "word", "word": bad})


def test_unknown_event_is_refused() -> None:
    assert not apply_or_refuse(game(), {"type": "roll"})


# ---------------------------------------------------------------- winning
def test_first_team_to_capture_eight_wins_at_the_end_of_the_word() -> None:
    g = game()
    # Team A captures three tiles a word while Team B finds nothing.
    words(g, "BBBCCCDDD", None, "FFFGGGHHH", None)
    assert g.scores() == {A: 6, B: 0} and not g.is_over()
    step = g.apply({"type": "word", "word": "KKKLLLMMM"})  # the 8th tile falls at the third L
    assert step.turns[0].points == 3 and g.scores()[A] == 9  # the word is completed: M counts
    assert g.outcome() == Outcome((A,), "captured 8 tiles (Word on the Street, 'Winning the Game')")
    assert g.to_move is None
    with pytest.raises(IllegalEvent, match="over"):
        g.apply({"type": "word", "word": "NNN"})
    check_common(g)


def test_tiles_to_win_option() -> None:
    g = words(game(tiles_to_win=1), "LULL")
    assert g.outcome() is not None and g.outcome().winner == A


@pytest.mark.parametrize("bad", [0, 18, "8", True, 2.5])
def test_bad_tiles_to_win_is_refused(bad: Any) -> None:
    with pytest.raises(GameSetupError):
        game(tiles_to_win=bad)


@pytest.mark.parametrize("players", [[A], [A, B, "Team C"]])
def test_exactly_two_teams(players: list[str]) -> None:
    with pytest.raises(GameSetupError):
        WordOnTheStreet(players)


def test_registry_knows_the_game_by_its_short_name() -> None:
    assert isinstance(new_game("WOTS", [A, B]), WordOnTheStreet)


# ---------------------------------------------------------------- spelling, compound challenges
@pytest.mark.parametrize("kind", ["spelling", "compound"])
def test_a_correct_word_costs_the_challengers_their_next_turn(kind: str) -> None:
    g = purple_position()
    g.apply({"type": "word", "word": "PURPLE"})
    step = g.apply({"type": "challenge", "kind": kind, "by": A, "ruling": LEGAL})
    assert g.to_move == B, "the team on the street plays again"
    assert g.positions()["P"] == 2 and g.captured()[B] == ["R"]
    assert step.turns[0].player == A and step.turns[0].points == 0
    assert step.turns[0].ruling is not None and step.turns[0].ruling.legal
    check_common(g)


def test_misspelling_sends_back_the_tile_in_error_and_all_after_it() -> None:
    g = purple_position()
    g.apply({"type": "word", "word": "PURPLE"})
    # The error is the second P (letter index 3): the first P and the R stay.
    step = g.apply({"type": "challenge", "kind": "spelling", "ruling": ILLEGAL, "first_error": 3})
    assert g.positions()["P"] == 1 and g.positions()["R"] == 3 and g.captured()[B] == ["R"]
    assert step.turns[0].points == 0 and g.to_move == A
    check_common(g)


def test_misspelling_before_a_capture_uncaptures_the_tile() -> None:
    g = purple_position()
    g.apply({"type": "word", "word": "PURPLE"})
    step = g.apply({"type": "challenge", "kind": "spelling", "ruling": ILLEGAL, "first_error": 2})
    assert g.positions()["R"] == 2 and g.positions()["P"] == 1 and g.captured()[B] == []
    assert step.turns[0].player == B and step.turns[0].points == -1
    check_common(g)


def test_the_correct_spelling_locates_the_first_error() -> None:
    g = words(game(), "RHYTHM")
    g.apply({"type": "challenge", "kind": "spelling", "ruling": ILLEGAL, "spelling": "RYTHM"})
    # RHYTHM vs RYTHM: the error is at letter 1 (H); R stays moved, H Y T H M go back.
    assert g.positions()["R"] == -1
    assert all(g.positions()[ch] == 0 for ch in "HYTM")


def test_compound_or_hyphen_ruled_out_sends_every_tile_back() -> None:
    g = words(game(), "RR")
    g.apply({"type": "no_word"})
    g.apply({"type": "word", "word": "SAND DOLLAR"})  # Team A pulls R off: captured
    assert g.captured()[A] == ["R"]
    g.apply({"type": "challenge", "kind": "compound", "ruling": {"legal": False, "reason": "two words"}})
    assert g.captured()[A] == [] and g.positions()["R"] == -2
    assert all(g.positions()[ch] == 0 for ch in "SNDL")
    check_common(g)


# ---------------------------------------------------------------- word-selection challenge
def test_selection_majority_accepts_tiles_stay() -> None:
    g = words(game(), "BEST")
    g.apply({"type": "challenge", "kind": "selection", "votes": {"accept": 3, "reject": 1}})
    assert g.positions()["B"] == -1 and g.to_move == B
    assert g.turns[-1].ruling is not None and g.turns[-1].ruling.source == "players"


def test_selection_majority_rejects_tiles_go_back() -> None:
    g = words(game(), "BEST")
    g.apply({"type": "challenge", "kind": "selection", "votes": {"accept": 1, "reject": 3}})
    assert g.positions() == dict.fromkeys(LETTERS, 0) and g.to_move == B


def test_selection_tie_reverts_and_the_team_restarts_its_turn() -> None:
    g = words(game(), "BEST")
    g.apply({"type": "challenge", "kind": "selection", "votes": {"accept": 2, "reject": 2}})
    assert g.positions() == dict.fromkeys(LETTERS, 0) and g.to_move == A
    check_common(g)


def test_a_challenge_can_take_back_the_winning_word() -> None:
    g = words(game(tiles_to_win=1), "LULL")
    assert g.is_over()
    g.apply({"type": "challenge", "kind": "selection", "votes": {"accept": 0, "reject": 4}})
    assert not g.is_over() and g.captured()[A] == [] and g.to_move == B


# ---------------------------------------------------------------- refused challenges
@pytest.mark.parametrize(
    "challenge",
    [
        {"type": "challenge", "kind": "spelling", "ruling": ILLEGAL},  # no first_error
        {"type": "challenge", "kind": "spelling", "ruling": ILLEGAL, "first_error": 6},
        {"type": "challenge", "kind": "spelling", "ruling": ILLEGAL, "first_error": -1},
        {"type": "challenge", "kind": "spelling", "ruling": ILLEGAL, "spelling": "PURPLE"},
        {"type": "challenge", "kind": "spelling"},  # no ruling
        {"type": "challenge", "kind": "spelling", "ruling": {"legal": "no"}},
        {"type": "challenge", "kind": "selection", "votes": {"accept": 0, "reject": 0}},
        {"type": "challenge", "kind": "selection", "votes": {"accept": -1, "reject": 2}},
        {"type": "challenge", "kind": "selection"},
        {"type": "challenge", "kind": "category", "ruling": LEGAL},
        {"type": "challenge", "kind": "spelling", "by": B, "ruling": LEGAL},  # B played it
    ],
)
def test_malformed_challenges_are_refused_and_change_nothing(challenge: dict[str, Any]) -> None:
    g = purple_position()
    g.apply({"type": "word", "word": "PURPLE"})
    assert not apply_or_refuse(g, challenge)


def test_only_the_last_word_can_be_challenged_and_only_once() -> None:
    g = game()
    assert not apply_or_refuse(g, {"type": "challenge", "kind": "spelling", "ruling": LEGAL})
    words(g, "BEST")
    g.apply({"type": "challenge", "kind": "spelling", "ruling": LEGAL})
    assert not apply_or_refuse(g, {"type": "challenge", "kind": "compound", "ruling": ILLEGAL})
    words(g, "TOTS", None)
    assert not apply_or_refuse(g, {"type": "challenge", "kind": "spelling", "ruling": LEGAL})


def test_undo_takes_back_a_challenge_and_a_word() -> None:
    g = purple_position()
    g.apply({"type": "word", "word": "PURPLE"})
    after_word = g.state
    g.apply({"type": "challenge", "kind": "spelling", "ruling": ILLEGAL, "first_error": 0})
    assert g.positions()["P"] == 0
    g.undo()
    assert g.state is after_word
    g.undo()
    assert g.positions()["R"] == 2 and g.to_move == B


# ---------------------------------------------------------------- random games
def _event() -> st.SearchStrategy[dict[str, Any]]:
    word = st.text(alphabet="BCDFGHKLMNPRSTVWYAEIOU", min_size=1, max_size=12)
    ruling = st.fixed_dictionaries({"legal": st.booleans(), "reason": st.just("r"), "rule": st.just("x")})
    return st.one_of(
        st.builds(lambda w: {"type": "word", "word": w}, word),
        st.just({"type": "no_word"}),
        st.builds(
            lambda k, r, i: {"type": "challenge", "kind": k, "ruling": r, "first_error": i},
            st.sampled_from(["spelling", "compound"]),
            ruling,
            st.integers(0, 11),
        ),
        st.builds(
            lambda a, r: {"type": "challenge", "kind": "selection", "votes": {"accept": a, "reject": r}},
            st.integers(0, 4),
            st.integers(0, 4),
        ),
    )


@settings(max_examples=150, deadline=None)
@given(st.lists(_event(), max_size=60), st.integers(1, 17))
def test_random_games_keep_every_invariant(events: list[dict[str, Any]], to_win: int) -> None:
    g = game(tiles_to_win=to_win)
    previous = g.positions()
    for event in events:
        captured_before = {ch for ch, p in previous.items() if abs(p) == 3}
        if not apply_or_refuse(g, event):
            continue
        now = g.positions()
        assert len(now) == 17 and all(-3 <= p <= 3 for p in now.values())
        caps = g.captured()
        assert sorted(caps[A]) == sorted(ch for ch, p in now.items() if p == -3)
        assert sorted(caps[B]) == sorted(ch for ch, p in now.items() if p == 3)
        if event["type"] != "challenge":  # only a ruling can undo a capture
            assert all(now[ch] == previous[ch] for ch in captured_before), "captured tiles never move"
        previous = now
    check_common(g)


def test_module_examples_run() -> None:
    import doctest

    import games.word_on_the_street as module

    result = doctest.testmod(module)
    assert result.attempted and not result.failed


def test_preview_shows_the_moves_without_playing() -> None:
    g = purple_position()
    before = g.state
    assert [(m.letter, m.after) for m in g.preview("PURPLE")] == [("P", 1), ("R", 3), ("P", 2)]
    assert g.state is before and not g.can_challenge()
    g.apply({"type": "word", "word": "PURPLE"})
    assert g.can_challenge()
    g.apply({"type": "challenge", "kind": "spelling", "ruling": LEGAL})
    assert not g.can_challenge()


def test_challenges_transcript() -> None:
    g = replay_file("wots-challenges.jsonl")
    assert g.scores() == {"Reds": 2, "Blues": 0} and g.captured()["Reds"] == ["C", "R"]
    pos = g.positions()
    assert (pos["B"], pos["L"], pos["T"], pos["H"]) == (-1, -1, -1, -1)  # H from CHEER only
    assert all(pos[ch] == 0 for ch in "SNDW")
    assert g.to_move == "Blues"
    check_common(g)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        json_events(
            ["word", "no_word", "challenge"],
            ["word", "kind", "ruling", "first_error", "spelling", "votes", "accept", "reject", "legal", "by"],
        ),
        max_size=12,
    )
)
def test_any_json_event_is_applied_or_refused(events: list[dict[str, Any]]) -> None:
    g = words(game(), "PURPLE")
    for event in events:
        apply_or_refuse(g, event)
    check_common(g)

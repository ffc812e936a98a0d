"""Option: the sheet's worked examples (RACER 45, DEALING 134, PICTURE 46), every rule, every refusal.

The sheet prints no prism values, so these letter values and colours were chosen to make
its sums come out (they are not the real set's; the engine takes whatever the players read
off the prisms):

    R 1 dark   A 2 light  C 8 dark   E 2 light  O 2 light  T 3 dark   D 2 dark   L 3 light
    I 1 dark   N 4 light  G 6 dark   U 4 light  S 3 dark   Y 8 light  M 5 dark

    RACER 1+2+8+2+1 = 14   ROT 1+2+3 = 6          -> 14 + 25 + 6 = 45 (one prism turned, T to R)
    DEALING 2+2+2+3+1+4+6 = 20   DUSTY 2+4+3+3+8 = 20   TIDE 3+1+2+2 = 8   TOLL 3+2+3+3 = 11
                                                    -> 20 + 20 + 8 + 11 + 25 x 3 = 134

PICTURE (one colour) uses its own values: P 4, I 1, C 8, T 3, U 4, R 1, E 2 = 23, x 2 = 46.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import hypothesis
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import GameSetupError
from games.option import Option
from games.registry import new_game
from games.rulings import IllegalEvent
from games.transcript import dumps, loads
from kiosk.files.transcript_file import load_transcript as load

TRANSCRIPTS = Path(__file__).parent / "transcripts"

VALUES: dict[str, tuple[int, str]] = {
    "R": (1, "dark"), "A": (2, "light"), "C": (8, "dark"), "E": (2, "light"), "O": (2, "light"),
    "T": (3, "dark"), "D": (2, "dark"), "L": (3, "light"), "I": (1, "dark"), "N": (4, "light"),
    "G": (6, "dark"), "U": (4, "light"), "S": (3, "dark"), "Y": (8, "light"), "M": (5, "dark"),
}  # fmt: skip


def word(text: str, values: dict[str, tuple[int, str]] | None = None) -> dict[str, Any]:
    table = values or VALUES
    return {
        "word": text,
        "letters": [{"letter": ch, "points": table[ch][0], "color": table[ch][1]} for ch in text],
    }


def play(*words: str, prisms: int, turned: int = 0, **extra: Any) -> dict[str, Any]:
    return {"type": "play", "words": [word(w) for w in words], "prisms": prisms, "turned": turned, **extra}


def one_letter_twice(**fields: Any) -> dict[str, Any]:
    """A play of a two-letter word whose letters both have ``fields`` (to break one at a time)."""
    letter = {"letter": "A", "points": 1, "color": "dark", **fields}
    return {"type": "play", "prisms": 1, "words": [{"letters": [letter, letter]}]}


def racer_game() -> Option:
    game = Option(["Ann", "Bob"])
    game.apply(play("DOTS", prisms=4))
    game.apply(play("TOT", prisms=2))
    return game


def refuse(game: Option, event: dict[str, Any], *, match: str, rule: str) -> None:
    state, events, turns = game.state, game.events, game.turns
    with pytest.raises(IllegalEvent, match=match) as info:
        game.apply(event)
    assert rule in info.value.rule
    assert game.state is state and game.events == events and game.turns == turns


# ----------------------------------------------------------------------- the sheet's examples
def test_racer_scores_14_plus_25_plus_6() -> None:
    game = racer_game()
    step = game.apply(play("RACER", "ROT", prisms=4, turned=1))
    assert step.turns[0].points == 45
    assert step.turns[0].summary == "RACER 14 + ROT 6 + 1 turned 25 = 45"


def test_dealing_scores_134() -> None:
    game = Option(["Ann", "Bob"])
    for w, n in (("MEAL", 4), ("MUSTY", 4), ("RIDE", 3), ("TOOL", 3)):
        game.apply(play(w, prisms=n))
    step = game.apply(play("DEALING", "DUSTY", "TIDE", "TOLL", prisms=3, turned=3))
    assert step.turns[0].points == 20 + 20 + 8 + 11 + 25 * 3 == 134
    last = game.last_play
    assert last is not None and [w.score for w in last.words] == [20, 20, 8, 11]


@pytest.mark.parametrize(
    ("name", "scores", "points"),
    [
        ("option-racer.jsonl", {"Ann": 10 + 45, "Bob": 8}, [10, 8, 45]),
        ("option-dealing.jsonl", {"Ann": 12 + 6 + 134, "Bob": 23 + 10}, [12, 23, 6, 10, 134]),
    ],
)
def test_transcripts_replay_to_the_sheets_scores(
    name: str, scores: dict[str, int], points: list[int]
) -> None:
    game = load(TRANSCRIPTS / name)
    assert isinstance(game, Option)
    assert game.scores() == scores
    assert [t.points for t in game.turns] == points


def test_picture_in_one_colour_scores_double() -> None:
    light = {ch: (p, "light") for ch, p in zip("PICTURE", [4, 1, 8, 3, 4, 1, 2], strict=True)}
    game = Option(["Ann", "Bob"])
    event = {"type": "play", "words": [word("PICTURE", light)], "prisms": 7}
    step = game.apply(event)
    assert step.turns[0].summary == "PICTURE 23 x 2 = 46 + all prisms 15 = 61"
    assert step.turns[0].points == 46 + 15


def test_one_colour_needs_five_letters() -> None:
    game = Option(["Ann", "Bob"])
    dark = {ch: (2, "dark") for ch in "TOSH"}
    step = game.apply({"type": "play", "words": [word("TOSH", dark)], "prisms": 4})
    assert step.turns[0].points == 8


def test_mixed_colours_do_not_double() -> None:
    game = Option(["Ann", "Bob"])
    assert game.apply(play("DOTES", prisms=5)).turns[0].points == 2 + 2 + 3 + 2 + 3


def test_a_letter_used_twice_counts_twice() -> None:
    game = racer_game()
    game.apply(play("RACER", "ROT", prisms=4, turned=1))
    last = game.last_play
    assert last is not None
    # The turned R is the first letter of RACER and of ROT: its point is in both words.
    assert last.words[0].letters[0].letter == last.words[1].letters[0].letter == "R"
    assert sum(w.score for w in last.words) == 14 + 6


def test_all_seven_prisms_earn_fifteen() -> None:
    game = racer_game()
    step = game.apply(play("STRIDES", prisms=7))
    assert step.turns[0].points == (3 + 3 + 1 + 1 + 2 + 2 + 3) + 15


# ----------------------------------------------------------------------- playing rules
def test_first_word_needs_four_letters() -> None:
    refuse(Option(["Ann", "Bob"]), play("DOT", prisms=3), match="at least 4 letters", rule="'Playing' rule 1")
    game = Option(["Ann", "Bob"], {"first_word_min": 3})
    game.apply(play("DOT", prisms=3))


@pytest.mark.parametrize(
    "event",
    [
        play("DOTS", "DO", prisms=4),
        play("DOTS", prisms=4, turned=1),
        play("DOTS", prisms=3),
    ],
)
def test_first_word_comes_whole_from_the_rack(event: dict[str, Any]) -> None:
    refuse(Option(["Ann", "Bob"]), event, match="only one on the board", rule="rule 1")


@pytest.mark.parametrize(
    ("event", "match"),
    [
        (play("RACER", prisms=0), "at least one prism"),
        (play("RACER", prisms=0, turned=1), "turned over only while"),
        (play("RACER", prisms=8), "only 7 prisms"),
        (play("RAT", prisms=4), "cannot all go into RAT"),
        ({"type": "play", "words": [word("RACER")]}, "how many prisms"),
        ({**play("RACER", prisms=2), "turned": -1}, "'turned' must be a whole number"),
        ({**play("RACER", prisms=2), "prisms": True}, "'prisms' must be a whole number"),
        ({"type": "play", "prisms": 1}, "needs 'words'"),
        ({"type": "play", "prisms": 1, "words": []}, "needs 'words'"),
        ({"type": "play", "prisms": 1, "words": [{"word": "AT"}]}, "needs 'letters'"),
        ({"type": "play", "prisms": 1, "words": [{**word("AT"), "word": "TA"}]}, "spell AT"),
        ({"type": "play", "prisms": 1, "words": [word("A")]}, "single letter"),
        ({"type": "play", "prisms": 1, "words": [{"letters": ["A", "T"]}]}, "letter 1 must be an object"),
        (one_letter_twice(letter="AB"), "not a letter"),
        (one_letter_twice(points=-1), "points must be"),
        (one_letter_twice(points=100), "points must be"),
        (one_letter_twice(points=True), "points must be"),
        (one_letter_twice(color="red"), "'dark' or 'light'"),
        (one_letter_twice(blank=True), "blank symbol has no point value"),
        ({"type": "fold"}, "no 'fold' event"),
    ],
)  # fmt: skip
def test_malformed_or_impossible_plays_are_refused(event: dict[str, Any], match: str) -> None:
    refuse(racer_game(), event, match=match, rule="Option")


def test_the_blank_symbol_scores_nothing() -> None:
    game = racer_game()
    blank = {"letter": "X", "points": 0, "color": "light", "blank": True}
    step = game.apply({"type": "play", "prisms": 2, "words": [{"letters": [word("A")["letters"][0], blank]}]})
    assert step.turns[0].summary == "AX 2"


def test_colour_may_be_spelt_colour() -> None:
    game = racer_game()
    letters = [{"letter": ch, "points": 1, "colour": "dark"} for ch in "TOTES"]
    assert game.apply({"type": "play", "prisms": 2, "words": [{"letters": letters}]}).turns[0].points == 10


# ----------------------------------------------------------------------- racks, passes, exchanges
def test_racks_and_bag_are_counted() -> None:
    game = racer_game()
    assert game.racks == {"Ann": 7, "Bob": 7} and game.bag == 96 - 14 - 6
    game.apply({"type": "pass"})
    game.apply({"type": "exchange", "count": 7})
    assert game.racks == {"Ann": 7, "Bob": 7} and game.bag == 76 and game.to_move == "Ann"
    assert [t.summary for t in game.turns[-2:]] == ["passed", "exchanged 7 prisms"]


def test_an_exchange_cannot_take_more_than_there_is() -> None:
    game = racer_game()
    refuse(game, {"type": "exchange", "count": 8}, match="from 1 to 7 prisms", rule="note a")
    refuse(game, {"type": "exchange", "count": 0}, match="from 1 to 7 prisms", rule="note a")
    small = Option(["Ann", "Bob"], {"prisms": 14})
    refuse(small, {"type": "exchange"}, match="from 1 to 0 prisms", rule="note a")


# ----------------------------------------------------------------------- challenges
ILLEGAL = {"legal": False, "reason": "TOT is fine but RACERX is not a word", "rule": "Option, challenge"}
LEGAL = {"legal": True, "reason": "RACER is in the dictionary", "rule": "Option, challenge"}


def test_an_upheld_challenge_removes_the_word_and_forfeits_the_turn() -> None:
    game = racer_game()
    before = game.state
    game.apply(play("RACER", "ROT", prisms=4, turned=1))
    step = game.apply({"type": "challenge", "by": "Bob", "ruling": ILLEGAL})
    assert step.turns[0].player == "Ann" and step.turns[0].points == -45
    assert (
        game.state.scores == before.scores and game.racks == {"Ann": 7, "Bob": 7} and game.bag == before.bag
    )
    assert game.to_move == "Bob"  # Ann's turn is forfeited
    refuse(game, {"type": "challenge", "by": "Bob", "ruling": ILLEGAL}, match="no word", rule="Challenging")


def test_an_upheld_challenge_of_the_first_word_leaves_the_board_empty() -> None:
    game = Option(["Ann", "Bob"])
    game.apply(play("DOTS", prisms=4))
    game.apply({"type": "challenge", "ruling": ILLEGAL})
    refuse(game, play("DOT", prisms=3), match="at least 4", rule="rule 1")
    game.apply(play("DOTS", prisms=4))
    assert game.scores() == {"Ann": 0, "Bob": 10}


def test_a_wrong_challenge_costs_the_challenger_ten() -> None:
    game = racer_game()
    game.apply(play("RACER", "ROT", prisms=4, turned=1))
    step = game.apply({"type": "challenge", "by": "Bob", "ruling": LEGAL})
    assert (step.turns[0].player, step.turns[0].points) == ("Bob", -10)
    assert game.scores() == {"Ann": 55, "Bob": -2} and game.to_move == "Bob"
    refuse(
        game,
        {"type": "challenge", "by": "Bob", "ruling": LEGAL},
        match="already challenged",
        rule="Challenging",
    )


def test_a_wrong_challenge_keeps_its_cost_when_another_is_upheld() -> None:
    game = Option(["Ann", "Bob", "Cy"])
    game.apply(play("DOTS", prisms=4))
    game.apply({"type": "challenge", "by": "Bob", "ruling": LEGAL})
    game.apply({"type": "challenge", "by": "Cy", "ruling": ILLEGAL})
    assert game.scores() == {"Ann": 0, "Bob": -10, "Cy": 0} and game.to_move == "Bob"


@pytest.mark.parametrize(
    ("event", "match"),
    [
        ({"type": "challenge", "ruling": LEGAL}, "say who challenged"),
        ({"type": "challenge", "by": "Ann", "ruling": LEGAL}, "their own word"),
        ({"type": "challenge", "by": "Zed", "ruling": LEGAL}, "'Zed' is not playing"),
        ({"type": "challenge", "by": "Bob"}, "needs the ruling"),
    ],
)
def test_bad_challenges_are_refused(event: dict[str, Any], match: str) -> None:
    game = racer_game()
    game.apply(play("RACER", "ROT", prisms=4, turned=1))
    refuse(game, event, match=match, rule="Challenging")


def test_a_challenge_comes_before_the_next_turn() -> None:
    game = racer_game()
    game.apply({"type": "pass"})
    refuse(game, {"type": "challenge", "by": "Ann", "ruling": ILLEGAL}, match="no word", rule="Challenging")


# ----------------------------------------------------------------------- the end of the game
def small_game() -> Option:
    """Two players, 16 prisms: the bag holds 2 after the racks are filled."""
    game = Option(["Ann", "Bob"], {"prisms": 16})
    game.apply(play("DOTS", prisms=4))  # Ann draws the last 2: rack 5, bag 0
    return game


def test_going_out_waits_for_the_racks_then_settles_the_score() -> None:
    game = small_game()
    assert game.racks == {"Ann": 5, "Bob": 7} and game.bag == 0
    game.apply(play("TOTES", prisms=5))  # Bob: T, O, E, S + ... five prisms from his rack
    assert game.racks == {"Ann": 5, "Bob": 2}
    game.apply(play("STRIDE", prisms=5))  # Ann goes out
    assert game.needs_end and not game.is_over() and game.to_move == "Bob"
    refuse(game, play("SO", prisms=1), match="Ann has played every prism", rule="Ending the game")
    refuse(game, {"type": "pass"}, match="count the prisms", rule="Ending the game")
    ann, bob = game.scores()["Ann"], game.scores()["Bob"]
    step = game.apply({"type": "end", "racks": {"Ann": [], "Bob": [[3, 5], [1, 2]]}})
    assert [(t.player, t.points) for t in step.turns] == [("Bob", -11), ("Ann", 11)]
    assert game.scores() == {"Ann": ann + 11, "Bob": bob - 11}
    outcome = game.outcome()
    assert outcome is not None and outcome.termination == "Ann went out" and game.to_move is None
    refuse(game, {"type": "challenge", "by": "Bob", "ruling": ILLEGAL}, match="over", rule="")


def test_a_challenge_after_going_out_puts_the_game_back_in_play() -> None:
    game = small_game()
    game.apply(play("TOTES", prisms=5))
    game.apply(play("STRIDE", prisms=5))
    game.apply({"type": "challenge", "by": "Bob", "ruling": ILLEGAL})
    assert not game.needs_end and game.racks["Ann"] == 5 and game.to_move == "Bob"


def test_a_rack_total_may_be_entered_on_one_prism() -> None:
    game = racer_game()
    game.apply({"type": "end", "racks": {"Ann": [[150, 0]] + [[0, 0]] * 6, "Bob": [[0, 0]] * 7}})
    assert game.scores() == {"Ann": 10 - 150, "Bob": 8}


def test_ending_when_no_one_can_play_takes_both_sides_off_everyone() -> None:
    game = racer_game()
    racks = {"Ann": [[1, 2]] * 7, "Bob": [[4, 4]] * 7}
    step = game.apply({"type": "end", "racks": racks})
    assert [(t.player, t.points) for t in step.turns] == [("Ann", -21), ("Bob", -56)]
    assert game.scores() == {"Ann": 10 - 21, "Bob": 8 - 56}
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Ann"
    assert outcome.termination == "no one could form another word"


@pytest.mark.parametrize(
    ("racks", "match"),
    [
        (None, "needs 'racks'"),
        ({"Ann": []}, "needs 'racks'"),
        ({"Ann": [[1, 2]] * 7, "Bob": [[1, 2]] * 6}, "Bob should have 7 prisms left, not 6"),
        ({"Ann": [[1, 2]] * 7, "Bob": [[1]] * 7}, "Bob's rack must be a list of prisms"),
        ({"Ann": [[1, 2]] * 7, "Bob": "none"}, "Bob's rack must be a list of prisms"),
        ({"Ann": [[1, True]] * 7, "Bob": [[1, 2]] * 7}, "Ann's rack must be a list of prisms"),
        ({"Ann": [[1, -2]] * 7, "Bob": [[1, 2]] * 7}, "Ann's rack must be a list of prisms"),
    ],
)
def test_bad_end_events_are_refused(racks: Any, match: str) -> None:
    refuse(racer_game(), {"type": "end", "racks": racks}, match=match, rule="Option")


# ----------------------------------------------------------------------- set-up, views, undo
@pytest.mark.parametrize(
    ("players", "options", "match"),
    [
        (["Ann"], {}, "2 to 4"),
        (["Ann", "Bob"], {"rack": 0}, "rack must be"),
        (["Ann", "Bob"], {"prisms": 10}, "cannot fill"),
        (["Ann", "Bob"], {"first_word_min": "4"}, "first_word_min"),
    ],
)
def test_bad_setups_are_refused(players: list[str], options: dict[str, Any], match: str) -> None:
    with pytest.raises(GameSetupError, match=match):
        Option(players, options)


def test_describe_registry_and_undo() -> None:
    game = new_game("option", ["Ann", "Bob"])
    assert isinstance(game, Option) and game.timer_seconds is None
    game.apply(play("DOTS", prisms=4))
    assert game.describe() == "Ann 10, Bob 0 | racks Ann 7, Bob 7 | bag 78 | Bob to move"
    state = game.state
    game.apply(game.undo())
    assert game.state == state
    game.undo()
    assert game.scores() == {"Ann": 0, "Bob": 0} and game.bag == 82


# ----------------------------------------------------------------------- property: random games
letter = st.tuples(
    st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), st.integers(0, 12), st.sampled_from(["dark", "light"])
)
words = st.lists(st.lists(letter, min_size=2, max_size=8), min_size=1, max_size=4)


def naive_score(ws: list[list[tuple[str, int, str]]], prisms: int, turned: int) -> int:
    total = 0
    for w in ws:
        base = sum(p for _, p, _ in w)
        total += base * 2 if len(w) >= 5 and len({c for _, _, c in w}) == 1 else base
    return total + 25 * turned + (15 if prisms == 7 else 0)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), players=st.integers(2, 4), prisms=st.sampled_from([30, 96]))
def test_random_games_keep_scores_and_prisms_straight(data: st.DataObject, players: int, prisms: int) -> None:
    game = Option([f"P{i}" for i in range(players)], {"prisms": prisms})
    placed: list[int] = []  # prisms put down by each play still on the board
    for _ in range(30):
        kind = data.draw(st.sampled_from(["play"] * 5 + ["pass", "exchange", "challenge"]))
        event: dict[str, Any] = {"type": kind}
        expected = None
        if kind == "play":
            if not game.state.started and data.draw(st.integers(0, 4)):  # mostly a fitting first word
                ws = [data.draw(st.lists(letter, min_size=4, max_size=7))]
                n, turned = len(ws[0]), 0
            else:
                ws = data.draw(words)
                n, turned = data.draw(st.integers(0, 8)), data.draw(st.integers(0, 3))
            event = {
                "type": "play",
                "prisms": n,
                "turned": turned,
                "words": [{"letters": [{"letter": a, "points": p, "color": c} for a, p, c in w]} for w in ws],
            }
            expected = naive_score(ws, n, turned)
        elif kind == "challenge":
            by = data.draw(st.sampled_from(game.players))
            event = {
                "type": "challenge",
                "by": by,
                "ruling": {"legal": data.draw(st.booleans()), "reason": "", "rule": ""},
            }
        state = game.state
        try:
            step = game.apply(event)
        except IllegalEvent as exc:
            assert exc.reason and game.state is state
            continue
        if expected is not None:
            assert step.turns[0].points == expected
            placed.append(event["prisms"])
        elif kind == "challenge" and not event["ruling"]["legal"]:
            placed.pop()
        sheet: Counter[str] = Counter({p: 0 for p in game.players})
        for t in game.turns:
            sheet[t.player] += t.points
        assert dict(sheet) == game.scores()
        assert sum(placed) + sum(game.racks.values()) + game.bag == prisms
        assert loads(dumps(game)).state == game.state
        if game.needs_end:
            hypothesis.event("someone went out")
            break
    hypothesis.event(f"plays standing: {min(len(placed), 6) // 3 * 3}+")


def test_can_challenge_until_the_next_turn() -> None:
    game = Option(["Ann", "Bob"])
    assert not game.can_challenge()
    game.apply(play("DOTS", prisms=4))
    assert game.can_challenge()
    game.apply({"type": "pass"})
    assert not game.can_challenge()


def test_module_example_runs() -> None:
    import doctest

    import games.option

    result = doctest.testmod(games.option)
    assert result.attempted and not result.failed

"""WordSpiel: the spiral, hands, drawing, exchanges, challenges, rounds and solitaire."""

from __future__ import annotations

from typing import Any

import pytest
from engine_invariants import apply_or_refuse, check_common, json_events, replay_file
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import GameSetupError
from games.rulings import IllegalEvent
from games.wordspiel import WordSpiel

ANN, BOB, CY = "Ann", "Bob", "Cy"
NOT_A_WORD = {"legal": False, "reason": "not in the dictionary", "rule": "dictionary"}
A_WORD = {"legal": True, "reason": "in the dictionary", "rule": "dictionary"}


def game(players: tuple[str, ...] = (ANN, BOB), **options: Any) -> WordSpiel:
    return WordSpiel(list(players), options or None)


def word(w: str, overlap: int | None = None, **extra: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "word", "word": w, **extra}
    if overlap is not None:
        event["overlap"] = overlap
    return event


def after_fun(**options: Any) -> WordSpiel:
    g = game(**options)
    g.apply({"type": "start_round", "flipped": "F"})
    g.apply(word("FUN"))
    return g


# ---------------------------------------------------------------- the sheet's example
@pytest.mark.parametrize(
    ("next_word", "overlap", "cards", "spiral"),
    [("NO", 1, 1, "FUNO"), ("UNITE", 2, 3, "FUNITE"), ("FUNNY", 3, 2, "FUNNY")],
)
def test_fun_then_no_unite_or_funny(next_word: str, overlap: int, cards: int, spiral: str) -> None:
    g = after_fun()
    assert g.spiral == "FUN" and g.hands() == {ANN: 8, BOB: 10} and g.to_move == BOB
    step = g.apply(word(next_word))  # the overlap the word allows is found without being told
    assert g.spiral == spiral and g.hands()[BOB] == 10 - cards
    assert step.turns[0].player == BOB and step.turns[0].summary.startswith(next_word)
    g.undo()
    g.apply(word(next_word, overlap))
    assert g.spiral == spiral and g.hands()[BOB] == 10 - cards


def test_fun_transcript() -> None:
    g = replay_file("wordspiel-fun.jsonl")
    assert g.spiral == "FUNNY" and g.hands() == {ANN: 8, BOB: 8} and g.scores() == {ANN: 0, BOB: 0}
    assert g.describe() == "round 1/5 | spiral FUNNY | Ann 8, Bob 8 cards | totals Ann 0, Bob 0 | Ann to play"
    check_common(g)


def test_a_word_may_build_on_any_matching_overlap_it_names() -> None:
    g = game()
    g.apply({"type": "start_round", "flipped": "S"})
    g.apply(word("SEES"))
    g.apply(word("SEESAW", 4))  # on all of SEES: 2 cards
    assert g.hands()[BOB] == 8
    g.undo()
    g.apply(word("SEESAW", 1))  # on the last S only: 5 cards
    assert g.hands()[BOB] == 5 and g.spiral == "SEESEESAW"


# ---------------------------------------------------------------- refused words
@pytest.mark.parametrize(
    "event",
    [
        word("UNITE", 1),  # UNITE does not start with N
        word("FUN"),  # adds no card
        word("NUN", 3),
        word("TONE"),  # does not start with the spiral's end
        word("N-O"),
        word("NO", player=ANN),  # it is Bob's turn
        {"type": "word"},
        word("NÖ"),
        word("NO", 1.0),
        word("NO", True),
        word("NO", "1"),
    ],
)
def test_words_that_do_not_fit_are_refused(event: dict[str, Any]) -> None:
    assert not apply_or_refuse(after_fun(), event)


def test_the_first_word_starts_with_the_flipped_card() -> None:
    g = game()
    g.apply({"type": "start_round", "flipped": "f"})
    with pytest.raises(IllegalEvent, match="rule E"):
        g.apply(word("GUN"))


def test_a_word_cannot_use_more_cards_than_the_hand_holds() -> None:
    g = game(hand=3)
    g.apply({"type": "start_round", "flipped": "S"})
    with pytest.raises(IllegalEvent, match="holds 3"):
        g.apply(word("STONE"))


def test_nothing_happens_before_the_deal() -> None:
    g = game()
    for event in (word("FUN"), {"type": "draw", "keep": True}, {"type": "exchange", "player": ANN}):
        assert not apply_or_refuse(g, event)
    assert g.phase == "deal"
    for bad in ("", "FU", "1", None):
        assert not apply_or_refuse(g, {"type": "start_round", "flipped": bad})


# ---------------------------------------------------------------- no word: draw
def test_draw_and_keep_adds_a_card_to_the_hand() -> None:
    g = after_fun()
    g.apply({"type": "draw", "keep": True})
    assert g.hands() == {ANN: 8, BOB: 11} and g.spiral == "FUN" and g.to_move == ANN


def test_draw_onto_the_spiral_must_be_used_by_the_next_player() -> None:
    g = after_fun()
    g.apply({"type": "draw", "keep": False, "letter": "e"})
    assert g.spiral == "FUNE" and g.hands()[BOB] == 10 and g.to_move == ANN
    assert not apply_or_refuse(g, word("NO")), "the E on the spiral must be used"
    g.apply(word("EGG"))
    assert g.spiral == "FUNEGG"


@pytest.mark.parametrize(
    "event", [{"type": "draw"}, {"type": "draw", "keep": False}, {"type": "draw", "keep": "y"}]
)
def test_malformed_draws_are_refused(event: dict[str, Any]) -> None:
    assert not apply_or_refuse(after_fun(), event)


# ---------------------------------------------------------------- exchanges
def test_exchanges_out_of_turn_up_to_three_a_round() -> None:
    g = after_fun()  # Bob to move
    assert not apply_or_refuse(g, {"type": "exchange", "player": BOB}), "not on your own turn"
    for _ in range(3):
        g.apply({"type": "exchange", "player": ANN})
    assert g.hands()[ANN] == 8 and g.exchanges_left() == {ANN: 0, BOB: 3}
    assert not apply_or_refuse(g, {"type": "exchange", "player": ANN})
    assert not apply_or_refuse(g, {"type": "exchange", "player": "Zed"})


def test_exchange_before_the_first_word_even_by_the_first_player() -> None:
    g = game()
    g.apply({"type": "start_round", "flipped": "F"})
    g.apply({"type": "exchange", "player": ANN})
    assert g.exchanges_left()[ANN] == 2 and g.to_move == ANN


def test_exchanges_reset_each_round() -> None:
    g = game(hand=2)
    g.apply({"type": "start_round", "flipped": "F"})
    g.apply({"type": "exchange", "player": BOB})
    g.apply(word("FUN"))  # Ann is out: the round ends
    g.apply({"type": "start_round", "flipped": "T"})
    assert g.exchanges_left() == {ANN: 3, BOB: 3}


# ---------------------------------------------------------------- challenges
def test_upheld_challenge_takes_back_the_cards_plus_a_penalty_card() -> None:
    g = after_fun()
    g.apply(word("UNITX", 2))
    step = g.apply({"type": "challenge", "by": ANN, "ruling": NOT_A_WORD})
    assert g.spiral == "FUN" and g.hands() == {ANN: 8, BOB: 11} and g.to_move == ANN
    assert step.turns[0].player == BOB and step.turns[0].ruling is not None
    check_common(g)


def test_failed_challenge_leaves_the_word() -> None:
    g = after_fun()
    g.apply(word("UNITE", 2))
    g.apply({"type": "challenge", "ruling": A_WORD})
    assert g.spiral == "FUNITE" and g.hands()[BOB] == 7
    assert not apply_or_refuse(g, {"type": "challenge", "ruling": NOT_A_WORD}), "once per word"


def test_a_challenge_must_follow_the_word() -> None:
    g = after_fun()
    g.apply({"type": "draw", "keep": True})
    assert not apply_or_refuse(g, {"type": "challenge", "ruling": NOT_A_WORD})
    assert not apply_or_refuse(g, {"type": "challenge"})


# ---------------------------------------------------------------- rounds and the end
def _play_round(g: WordSpiel, flipped: str, *events: dict[str, Any]) -> None:
    g.apply({"type": "start_round", "flipped": flipped})
    for e in events:
        g.apply(e)


def test_the_round_ends_when_a_hand_is_empty_and_scores_one_per_card() -> None:
    g = game((ANN, BOB, CY), hand=3)
    _play_round(g, "S", word("SEA"), word("AT"), {"type": "draw", "keep": True})
    assert g.hands() == {ANN: 1, BOB: 2, CY: 4}
    step = g.apply(word("TO"))  # Ann's last card
    assert g.phase == "deal" and g.scores() == {ANN: 0, BOB: 2, CY: 4}
    assert [(t.player, t.points) for t in step.turns[1:]] == [(ANN, 0), (BOB, 2), (CY, 4)]
    assert g.to_move == BOB, "the next round starts one seat on"
    g.apply({"type": "start_round", "flipped": "M"})
    assert g.round == 2 and g.hands() == {ANN: 3, BOB: 3, CY: 3} and g.to_move == BOB
    check_common(g)


def test_challenging_the_last_word_reopens_the_round() -> None:
    g = game(hand=2)
    _play_round(g, "F", word("FUN"))
    assert g.phase == "deal" and g.scores() == {ANN: 0, BOB: 2}
    g.apply({"type": "challenge", "ruling": NOT_A_WORD})
    assert g.phase == "play" and g.scores() == {ANN: 0, BOB: 0}
    assert g.hands() == {ANN: 3, BOB: 2} and g.spiral == "F" and g.to_move == BOB
    check_common(g)


def test_lowest_total_after_the_last_round_wins() -> None:
    g = game(rounds=2, hand=2)
    _play_round(g, "F", word("FUN"))  # Ann out, Bob 2
    _play_round(g, "S", word("SOD"))  # Bob starts round 2 and goes out, Ann 2
    assert g.is_over() and g.outcome().winners == (ANN, BOB)  # type: ignore[union-attr]
    assert not apply_or_refuse(g, {"type": "start_round", "flipped": "A"})
    assert g.to_move is None and g.phase == "over"
    check_common(g)


def test_a_single_winner() -> None:
    g = game(rounds=1, hand=2)
    _play_round(g, "F", word("FUN"))
    assert g.outcome().winner == ANN  # type: ignore[union-attr]
    assert "lowest total after 1 round" in g.outcome().termination  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("players", "options"),
    [([], None), ([str(i) for i in range(9)], None), ([ANN], {"rounds": 0}), ([ANN], {"hand": "10"})],
)
def test_bad_setups_are_refused(players: list[str], options: dict[str, Any] | None) -> None:
    with pytest.raises(GameSetupError):
        WordSpiel(players, options)


def test_timer_and_warning_from_the_sheet() -> None:
    g = game()
    assert g.timer_seconds == 60.0 and g.warning_seconds == 10.0


# ---------------------------------------------------------------- solitaire
def solo(**options: Any) -> WordSpiel:
    g = WordSpiel([ANN], options or None)
    g.apply({"type": "start_round", "flipped": "F"})
    return g


def test_solitaire_deal_and_a_card_after_every_word() -> None:
    g = solo()
    assert g.hands() == {ANN: 10} and g.draw_pile == 10 and g.scores() == {ANN: 10}
    g.apply(word("FUN"))  # 2 cards out, 1 in
    assert g.hands() == {ANN: 9} and g.draw_pile == 9 and g.to_move == ANN
    check_common(g)


def test_solitaire_win_by_emptying_the_hand() -> None:
    g = solo(hand=2)
    g.apply(word("FUN"))
    assert g.outcome().winner == ANN and g.hands() == {ANN: 0}  # type: ignore[union-attr]
    check_common(g)


def test_solitaire_the_last_card_gives_one_last_chance() -> None:
    g = solo(hand=3)
    g.apply(word("FUN"))  # 3 - 2 + 1 = 2 in hand, pile 2
    g.apply({"type": "draw", "keep": True})  # 3 in hand, pile 1
    g.apply(word("NO"))  # 3 - 1 + 1 = 3 in hand, the pile is empty: one last chance
    assert g.draw_pile == 0 and not g.is_over()
    g.apply(word("ON"))  # 2 left: the chance is gone
    assert g.outcome() is not None and g.outcome().winners == ()  # type: ignore[union-attr]
    check_common(g)


def test_solitaire_no_word_with_an_empty_pile_loses() -> None:
    g = solo(hand=1)
    g.apply({"type": "draw", "keep": True})  # the only card of the pile
    g.apply({"type": "draw", "keep": True})
    assert g.outcome().winners == ()  # type: ignore[union-attr]


def test_solitaire_rules_differ() -> None:
    g = solo()
    assert not apply_or_refuse(g, {"type": "draw", "keep": False, "letter": "E"})
    for _ in range(3):
        g.apply({"type": "exchange"})
    assert not apply_or_refuse(g, {"type": "exchange"}), "three exchanges a game"
    g.apply(word("FUN"))
    g.apply({"type": "challenge", "ruling": NOT_A_WORD})  # the cards and the drawn card go back
    assert g.hands() == {ANN: 10} and g.draw_pile == 10 and g.spiral == "F"
    check_common(g)
    assert not apply_or_refuse(g, {"type": "start_round", "flipped": "T"})


# ---------------------------------------------------------------- random games
@st.composite
def _event(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["word", "word", "word", "draw", "exchange", "challenge", "start_round"]))
    letters = st.sampled_from("AEIOUNSTRLF")
    if kind == "word":
        return {"type": "word", "word": draw(st.text(letters, min_size=1, max_size=7)), "suffix": True}
    if kind == "draw":
        return {"type": "draw", "keep": draw(st.booleans()), "letter": draw(letters)}
    if kind == "exchange":
        return {"type": "exchange", "player": draw(st.sampled_from([ANN, BOB, CY]))}
    if kind == "challenge":
        return {"type": "challenge", "ruling": {"legal": draw(st.booleans()), "reason": "r", "rule": "x"}}
    return {"type": "start_round", "flipped": draw(letters)}


@settings(max_examples=120, deadline=None)
@given(st.lists(_event(), max_size=80), st.integers(1, 3), st.integers(1, 3), st.integers(1, 5))
def test_random_games_keep_every_invariant(
    events: list[dict[str, Any]], n: int, rounds: int, hand: int
) -> None:
    g = game((ANN, BOB, CY)[:n], rounds=rounds, hand=hand)
    for generated in events:
        event = dict(generated)
        if event.pop("suffix", False) and g.spiral:  # build on the spiral's end, so words often fit
            event["word"] = g.spiral[-1] + event["word"]
        if not apply_or_refuse(g, event):
            continue
        assert all(h >= 0 for h in g.hands().values()), "hand sizes are never negative"
        assert all(0 <= e <= 3 for e in g.exchanges_left().values())
        if n > 1 and g.phase != "deal" and g.round:
            assert g.spiral and all(h >= 0 for h in g.scores().values())
    check_common(g)


def test_module_examples_run() -> None:
    import doctest

    import games.wordspiel as module

    result = doctest.testmod(module)
    assert result.attempted and not result.failed


def test_overlaps_and_can_challenge_for_the_screen() -> None:
    g = after_fun()
    assert g.overlaps("FUNNY") == [3] and g.overlaps("NO") == [1] and g.overlaps("TONE") == []
    assert g.can_challenge()
    g.apply({"type": "draw", "keep": True})
    assert not g.can_challenge()
    assert game().overlaps("FUN") == [], "nothing to build on before the deal"


@pytest.mark.parametrize(
    ("name", "spiral", "bob"),
    [("wordspiel-fun-no.jsonl", "FUNO", 9), ("wordspiel-fun-unite.jsonl", "FUNITE", 7)],
)
def test_fun_variants_transcripts(name: str, spiral: str, bob: int) -> None:
    g = replay_file(name)
    assert g.spiral == spiral and g.hands() == {ANN: 8, BOB: bob}
    check_common(g)


def test_solitaire_transcript() -> None:
    g = replay_file("wordspiel-solitaire.jsonl")
    assert g.outcome().winner == "Sol" and g.scores() == {"Sol": 0}  # type: ignore[union-attr]
    assert g.spiral == "SONETAN" and g.draw_pile == 0 and g.exchanges_left() == {"Sol": 2}
    check_common(g)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        json_events(
            ["start_round", "word", "draw", "exchange", "challenge"],
            ["flipped", "word", "overlap", "keep", "letter", "player", "ruling", "legal"],
        ),
        max_size=12,
    ),
    st.integers(1, 2),
)
def test_any_json_event_is_applied_or_refused(events: list[dict[str, Any]], n: int) -> None:
    g = game((ANN, BOB)[:n])
    g.apply({"type": "start_round", "flipped": "F"})
    for event in events:
        apply_or_refuse(g, event)
    check_common(g)

"""The Word on the Street category decks: the written categories and the pure shuffling."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.category_deck import CategoryDeck, DeckError
from kiosk.play import categories
from kiosk.play.categories import LEVELS, CategoryFileError, load_categories, new_deck, restore_deck


def draw_many(deck: CategoryDeck, n: int) -> tuple[list[str], CategoryDeck]:
    cards = []
    for _ in range(n):
        card, deck = deck.draw()
        cards.append(card)
    return cards, deck


def test_two_levels_of_at_least_160_and_over_300_distinct_categories() -> None:
    green, blue = load_categories("green"), load_categories("blue")
    assert len(green) >= 160 and len(blue) >= 160
    everything = {c.casefold() for c in green + blue}
    assert len(everything) == len(green) + len(blue) >= 300  # no category on both sides either


@pytest.mark.parametrize("level", LEVELS)
def test_categories_are_phrased_like_the_cards(level: str) -> None:
    rule_sheet_examples = {
        "a pizza topping",
        "something a player did today",
        "something you can do with an onion",
        "a color",
    }
    for card in load_categories(level):
        assert card[0].isupper() and card[-1] not in ".?!,;:", card
        assert 2 <= len(card.split()) <= 12, card
        assert card.casefold() not in rule_sheet_examples, f"{card!r} is printed on the rule sheet"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [0, 1, 2026, 4_294_967_295])
def test_no_category_repeats_until_the_whole_deck_is_used(level: str, seed: int) -> None:
    deck = new_deck(level, seed)
    size = len(deck.cards)
    first_pass, deck = draw_many(deck, size)
    assert sorted(first_pass) == sorted(deck.cards)  # every card exactly once
    assert deck.remaining == 0
    second_pass, deck = draw_many(deck, size)  # the divider card: everything reshuffled
    assert sorted(second_pass) == sorted(first_pass) and second_pass != first_pass
    assert second_pass[0] != first_pass[-1]  # never twice in a row across the shuffle
    assert deck.cycle == 1 and deck.remaining == 0


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), size=st.integers(min_value=2, max_value=6))
def test_a_reshuffle_never_repeats_the_card_just_played(seed: int, size: int) -> None:
    deck = CategoryDeck.new([f"Category {i}" for i in range(size)], seed)
    cards, _ = draw_many(deck, size * 6)
    assert all(a != b for a, b in pairwise(cards))
    for k in range(6):
        assert len(set(cards[k * size : (k + 1) * size])) == size


def test_the_same_seed_gives_the_same_deck_and_another_seed_another() -> None:
    a, _ = draw_many(new_deck("blue", 42), 50)
    b, _ = draw_many(new_deck("blue", 42), 50)
    c, _ = draw_many(new_deck("blue", 43), 50)
    assert a == b and a != c


@pytest.mark.parametrize("drawn", [0, 1, 99, 175, 176, 200])
def test_the_state_round_trips_through_json_and_the_deck_carries_on(drawn: int) -> None:
    deck = new_deck("green", 7)
    _, deck = draw_many(deck, drawn)
    saved = json.loads(json.dumps(deck.state()))
    restored = CategoryDeck.from_state(load_categories("green"), saved)
    assert restored == deck
    assert draw_many(restored, 30)[0] == draw_many(deck, 30)[0]
    assert restore_deck("green", saved) == deck


@pytest.mark.parametrize(
    ("state", "words"),
    [
        ({"version": 2}, "version 2"),
        ({"version": 1, "cards": "0000", "size": 3}, "different list"),
        ("shuffled", "must be an object"),
    ],
)
def test_a_damaged_saved_deck_is_refused_in_plain_words_and_the_kiosk_starts_afresh(
    state: object, words: str
) -> None:
    with pytest.raises(DeckError, match=words):
        CategoryDeck.from_state(load_categories("blue"), state)  # type: ignore[arg-type]
    fresh = restore_deck("blue", state if isinstance(state, dict) else None, seed=5)
    assert fresh == new_deck("blue", 5)


def test_a_saved_deck_with_a_bad_position_is_refused() -> None:
    state = new_deck("blue", 3).state() | {"position": 9999}
    with pytest.raises(DeckError, match="past its"):
        CategoryDeck.from_state(load_categories("blue"), state)
    with pytest.raises(DeckError, match="no 'seed'"):
        CategoryDeck.from_state(load_categories("blue"), {k: v for k, v in state.items() if k != "seed"})


def test_a_deck_refuses_no_cards_blank_cards_and_repeats() -> None:
    with pytest.raises(DeckError, match="at least one"):
        CategoryDeck.new([], 1)
    with pytest.raises(DeckError, match="empty"):
        CategoryDeck.new(["A fruit", "  "], 1)
    with pytest.raises(DeckError, match="repeats category 1"):
        CategoryDeck.new(["A fruit", "a  FRUIT"], 1)


def test_the_loader_names_the_file_and_line_of_a_repeat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "categories-green.txt").write_text("# my cards\nA fruit\n\nA tool\na fruit\n")
    monkeypatch.setattr(categories, "DATA_DIR", tmp_path)
    load_categories.cache_clear()
    try:
        with pytest.raises(CategoryFileError, match=r"line 5: 'a fruit' repeats line 2"):
            load_categories("green")
        with pytest.raises(CategoryFileError, match="there is no 'red' deck"):
            load_categories("red")
        (tmp_path / "categories-green.txt").write_text("A fruit\nA tool\n")
        load_categories.cache_clear()
        assert load_categories("green") == ("A fruit", "A tool")
    finally:
        load_categories.cache_clear()

"""Words from the moves the camera saw, by the engine's own rule (the sheet's PURPLE)."""

from games.word_on_the_street import WordOnTheStreet
from games.wots_moves import mismatch, seen_moves, words_for_moves


def test_purple_is_offered_from_its_moves_and_a_typo_is_flagged() -> None:
    game = WordOnTheStreet(["A", "B"])
    before = game.positions()
    after = dict(before, P=-2, R=-1, L=-1)  # PURPLE: P twice, R once, L once toward team A
    seen = seen_moves(before, after)
    assert seen == {"P": -2, "R": -1, "L": -1}
    words = ["purple", "people", "pulp", "ripple", "purely", "lupper"]
    # RIPPLE moves the same tiles (vowels have none): the players pick among the offers.
    assert words_for_moves(game.state, 0, seen, words) == ["LUPPER", "PURPLE", "RIPPLE"]
    assert mismatch(game.state, 0, "PURPLE", seen) == {}
    assert mismatch(game.state, 0, "PURLE", seen) == {"P": (-1, -2)}


def test_a_tile_gone_from_the_street_counts_as_captured() -> None:
    assert seen_moves({"B": 2, "C": 0}, {"B": None, "C": 0}) == {"B": 1}

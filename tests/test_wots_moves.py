"""Words from the moves the camera saw, by the engine's own rule (the sheet's PURPLE)."""

from games.word_on_the_street import LETTERS, WordOnTheStreet, move_tiles
from games.wots_moves import mismatch, seen_moves, unlikely_move, ways_words_leave, words_for_moves


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


def test_a_tile_gone_in_a_turn_was_captured_by_the_team_on_the_street() -> None:
    """Every tile a turn moves goes toward the team on the street: a median tile pulled off by a
    word with its letter three times is theirs, not the nearer side's."""
    game = WordOnTheStreet(["A", "B"])
    before = game.positions()  # every tile on the median
    state, _ = move_tiles(game.state, 0, "BOBBY")  # team A: B three times, Y once
    after = {letter: (None if abs(at) == 3 else at)
             for letter, at in zip(LETTERS, state.positions, strict=True)}
    assert after["B"] is None  # off the street: captured
    assert seen_moves(before, after, team=0) == {"B": -3, "Y": -1}
    assert words_for_moves(game.state, 0, seen_moves(before, after, team=0), ["bobby", "baby"]) == ["BOBBY"]
    assert seen_moves(before, after) == {"B": 3, "Y": -1}  # without the team: the nearer side, a guess


def test_a_tile_captured_before_the_turn_stays_where_it_is() -> None:
    assert seen_moves({"B": -3, "C": 3, "D": 0}, {"B": None, "C": None, "D": None}, team=1) == {"D": 3}


def test_moves_the_rules_make_unlikely_are_away_from_the_team_or_captures_from_afar() -> None:
    # the second team (+1) on the street
    assert not unlikely_move(2, None, 1) and not unlikely_move(0, 1, 1) and not unlikely_move(-1, 2, 1)
    assert unlikely_move(1, None, 1) and unlikely_move(0, None, 1) and unlikely_move(-2, None, 1)
    assert unlikely_move(1, 0, 1) and unlikely_move(0, -1, 1)
    # the first team (-1)
    assert not unlikely_move(-2, None, 0) and not unlikely_move(0, -2, 0)
    assert unlikely_move(2, None, 0) and unlikely_move(-1, 0, 0)


def test_the_ways_words_leave_the_tiles_the_camera_cannot_place() -> None:
    """BOBBY (B thrice, Y once) pulls B off the median toward team A; BY moves B and Y a space.
    With Y seen a space over and B open between staying, a space over and gone, each word that
    makes the turn leaves B one way; words that move a tile the camera saw still (BOOT) are not
    the turn."""
    game = WordOnTheStreet(["A", "B"])
    before = game.positions()
    seen = dict(before, Y=-1)
    open_b = {"B": [0, -1, None]}
    assert ways_words_leave(before, seen, open_b, 0, ["bobby", "by", "boot", "yo"]) == [
        {"B": None}, {"B": -1}]
    assert ways_words_leave(before, seen, open_b, 0, ["bobby", "by", "yo"], enough=1) == [{"B": None}]
    assert ways_words_leave(before, seen, {"B": [0, -1]}, 0, ["bobby", "boot"]) == []
    assert ways_words_leave(before, seen, open_b, 0, ["yo", "boot"]) == [{"B": 0}]
    # a tile captured before the turn stays off whatever a word has of it
    captured = dict(before, B=-3)
    assert ways_words_leave(captured, dict(seen, B=None), {}, 0, ["bobby"]) == [{}]

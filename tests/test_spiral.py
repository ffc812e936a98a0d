"""The WordSpiel spiral as a chain of pieces (issue 12): a turn reads O(word) letters and a
kept state shares the spiral before it, so a long game's memory grows with its length,
not with its square."""

from __future__ import annotations

import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from games.wordfit import Spiral, spiral_overlaps
from games.wordspiel import WordSpiel


def test_a_spiral_reads_like_its_letters() -> None:
    s = Spiral("F").extend("UN").extend("").extend("NY")
    assert str(s) == "FUNNY" and len(s) == 5 and s == "FUNNY" and s == Spiral("FUNNY")
    assert s.tail(2) == "NY" and s.tail(3) == "NNY" and s.tail(99) == "FUNNY" and s.tail(0) == ""
    assert bool(Spiral()) is False and str(Spiral()) == ""
    assert spiral_overlaps(s, "YES") == spiral_overlaps("FUNNY", "YES") == [1]


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@given(st.lists(st.text(alphabet=LETTERS, max_size=5), max_size=30), st.text("ABCNUY", max_size=8))
def test_a_spiral_answers_as_its_string_would(pieces: list[str], word: str) -> None:
    s = Spiral()
    for piece in pieces:
        s = s.extend(piece)
    text = "".join(pieces)
    assert str(s) == text and len(s) == len(text)
    assert spiral_overlaps(s, word) == spiral_overlaps(text, word)
    for n in range(len(text) + 2):
        assert s.tail(n) == text[-n:] if n else s.tail(n) == ""


def test_a_long_game_keeps_every_state_without_copying_the_spiral() -> None:
    g = WordSpiel(["Ann", "Bob"], {"rounds": 1})
    g.apply({"type": "start_round", "flipped": "F"})
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i in range(4000):  # no word: each card drawn goes onto the spiral (rule H)
        g.apply({"type": "draw", "keep": False, "letter": "AEIOURST"[i % 8]})
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert len(g.spiral) == 4001 and len(g.events) == 4001
    # 4,000 kept states each holding a copy of the spiral would be ~8 MB of letters alone;
    # shared, the whole game (events, states, turns) stays a few MB.
    assert grown < 6_000_000, grown
    g.undo()  # the state before is kept whole, not rebuilt
    assert len(g.spiral) == 4000 and g.spiral.startswith("FAEIOURST")

"""Plays the tests share: the Upwords sheet's worked example (MOOD, then DEAR through its D)
and a Tosswords game in which one side retires every letter once."""

from __future__ import annotations

MOOD = {
    "type": "play",
    "word": "MOOD",
    "tiles": [{"row": 3, "col": c, "letter": ch} for c, ch in zip(range(1, 5), "MOOD", strict=True)],
}
DEAR = {
    "type": "play",
    "word": "DEAR",
    "tiles": [{"row": r, "col": 4, "letter": ch} for r, ch in zip(range(4, 7), "EAR", strict=True)],
}

#: Tosswords moves: the tiles drawn (the first two are the keys), the die, the word; one side
#: playing all ten retires every letter once.
TOSS_MOVES = [
    ("CT", 3, "TRANCE"),
    ("QU", 0, "QUIT"),
    ("ZA", 1, "ZEAL"),
    ("JO", 0, "JOB"),
    ("XE", 0, "EXIT"),
    ("KING", 0, "KING"),
    ("WHY", 0, "WHY"),
    ("FLP", 0, "FLOP"),
    ("BRD", 0, "BRED"),
    ("MSV", 3, "MOVES"),
]

"""Word on the Street: which words make exactly the tile moves the camera saw.

Why here: how a word moves tiles is a rule of the game (``word_on_the_street.move_tiles``),
so the search asks the engine's own rule for each candidate word and never re-implements
it. The kiosk reads the street before and after a turn; the net change per tile is what a
word must produce. Pure stdlib; the word list is passed in (the word authority's list).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping

from games.word_on_the_street import CAPTURED, LETTERS, WotsState, direction, move_tiles


def seen_moves(before: Mapping[str, int | None], after: Mapping[str, int | None], team: int | None = None
               ) -> dict[str, int]:
    """Each tile's change of space between two street reads (letters that did not move are left out).

    A tile gone from the street after the turn (None) was captured. Every tile a turn moves goes
    toward the team on the street, so with ``team`` given it is that team's (a tile on the median
    pulled three spaces by a word with its letter thrice goes their way too); without, it counts
    as captured toward the side it was nearer: -3 or +3.
    """
    out: dict[str, int] = {}
    for letter in LETTERS:
        b, a = before.get(letter), after.get(letter)
        if b is None:
            continue
        if a is None and abs(b) == CAPTURED:  # captured before the turn: it stays
            a = b
        elif a is None:  # captured in this turn
            a = CAPTURED * (direction(team) if team is not None else (-1 if b < 0 else 1))
        if a != b:
            out[letter] = a - b
    return out


def unlikely_move(before: int, after: int | None, team: int) -> bool:
    """Whether a tile on the street seen going from ``before`` to ``after`` (None: off the street)
    in ``team``'s turn is a move to ask the players about rather than take on a camera's word.

    Every tile a turn moves goes one space toward the team on the street per time its letter is
    in the word, so a move the other way cannot happen, and a capture from anywhere but the
    team's last space needs the letter twice or more in one word: rarer than a misread tile."""
    toward = direction(team)
    if after is None:
        return CAPTURED - before * toward >= 2
    return (after - before) * toward < 0


def reachable(before: int, team: int) -> list[int | None]:
    """Where a tile on space ``before`` (-2..+2) can be after ``team``'s turn: where it was, each
    space further toward the team, or off the street (None)."""
    toward, out, space = direction(team), [], before
    while abs(space) < CAPTURED:
        out.append(space)
        space += toward
    return [*out, None]


def word_moves(state: WotsState, team: int, word: str) -> dict[str, int]:
    """The net change of space per tile that ``word`` makes for ``team`` (the engine's rule)."""
    new, _moves = move_tiles(state, team, word)
    return {ch: n - o for ch, o, n in zip(LETTERS, state.positions, new.positions, strict=True) if n != o}


def mismatch(state: WotsState, team: int, word: str, seen: Mapping[str, int]) -> dict[str, tuple[int, int]]:
    """Tiles where the typed word and the camera disagree: letter -> (word's move, seen move)."""
    wanted = word_moves(state, team, word)
    return {ch: (wanted.get(ch, 0), seen.get(ch, 0)) for ch in sorted(set(wanted) | set(seen))
            if wanted.get(ch, 0) != seen.get(ch, 0)}


def words_making(state: WotsState, team: int, seen: Mapping[str, int], words: Iterable[str]
                 ) -> Iterator[str]:
    """The ``words`` (upper case, in their order) that make exactly the moves seen."""
    target = dict(seen)
    need = set(target)
    for word in words:
        upper = word.upper()
        if need <= set(upper) and word_moves(state, team, upper) == target:
            yield upper


def made_by_a_word(before: Mapping[str, int], after: Mapping[str, int | None], team: int,
                   words: Iterable[str]) -> bool:
    """Whether one of ``words`` makes exactly the moves from the street ``before`` to ``after`` in
    ``team``'s turn: a team must say a word, so moves no word makes were misread."""
    state = WotsState(tuple(before[letter] for letter in LETTERS), ((), ()), team)
    return next(words_making(state, team, seen_moves(before, after, team), words), None) is not None


def ways_words_leave(before: Mapping[str, int], seen: Mapping[str, int | None],
                     open_places: Mapping[str, Collection[int | None]], team: int, words: Iterable[str],
                     enough: int = 2) -> list[dict[str, int | None]]:
    """The distinct ways the tiles in ``open_places`` can lie after ``team``'s turn, each on one
    of its places (None: off the street), such that one of ``words`` makes exactly the turn from
    the street ``before``, the other tiles where ``seen`` has them. Stops at ``enough`` ways.

    Why: a team must say a word, so of the ways the camera cannot choose between, those no word
    makes are not the turn. One way left is the turn, if the word said is one of ``words``."""
    state = WotsState(tuple(before[letter] for letter in LETTERS), ((), ()), team)

    def off(space: int) -> int | None:
        return None if abs(space) == CAPTURED else space

    known = {letter: seen[letter] for letter in LETTERS if letter not in open_places}
    on_street = {letter for letter in LETTERS if abs(before[letter]) != CAPTURED}
    moved = {letter for letter, at in known.items() if letter in on_street and at != before[letter]}
    still = {letter for letter, at in known.items() if letter in on_street and at == before[letter]}
    found: list[dict[str, int | None]] = []
    for word in words:
        upper = word.upper()
        letters = set(upper)
        if not moved <= letters or still & letters:
            continue
        after = dict(zip(LETTERS, move_tiles(state, team, upper)[0].positions, strict=True))
        if any(off(after[letter]) != at for letter, at in known.items() if letter in on_street):
            continue
        way = {letter: off(after[letter]) for letter in open_places}
        if all(at in open_places[letter] for letter, at in way.items()) and way not in found:
            found.append(way)
            if len(found) >= enough:
                break
    return found


def words_for_moves(state: WotsState, team: int, seen: Mapping[str, int], words: Iterable[str],
                    limit: int = 12) -> list[str]:
    """Dictionary words that make exactly the moves seen, shortest first (at most ``limit``)."""
    found = sorted(words_making(state, team, seen, words), key=lambda w: (len(w), w))
    return found[:limit]


def dictionary_words(lexicon: object) -> Iterator[str]:
    """The word list's ordinary words, commonest first (``games.lexicon.Lexicon.by_level``):
    the order in which the kiosk offers them. Possessives and the like are skipped."""
    for level in getattr(lexicon, "by_level", ()):
        for word in level:
            if word.isalpha() and word.islower():
                yield word


def offers(authority: object, state: WotsState, team: int, seen: Mapping[str, int], limit: int = 3
           ) -> list[str]:
    """Up to ``limit`` dictionary words (the word authority's list) that make exactly ``seen``,
    the commonest first; none when nothing moved or there is no word list."""
    if not seen:
        return []
    lexicon = getattr(authority, "lexicon", None)
    if lexicon is None:
        return []
    found: list[str] = []
    for upper in words_making(state, team, seen, dictionary_words(lexicon)):
        if upper not in found:
            found.append(upper)
            if len(found) >= limit:
                break
    return found

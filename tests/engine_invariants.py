"""Checks every rule engine must pass after any sequence of events (used by the property tests).

Kept apart from the game-specific tests so the three engines are held to exactly the same
promises: a refused event changes nothing, the score sheet adds up to the scores, undo then
redo is the identity, and the transcript replays to the same state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from games.base import Game
from games.rulings import IllegalEvent
from games.transcript import dumps, loads

TRANSCRIPTS = Path(__file__).parent / "transcripts"


def apply_or_refuse(game: Game[Any], event: Mapping[str, Any]) -> bool:
    """Apply ``event``; if the rules refuse it, assert the game is exactly as it was."""
    before_state, before_events, before_turns = game.state, game.events, game.turns
    try:
        game.apply(event)
    except IllegalEvent as exc:
        assert exc.reason, "a refusal must say why"
        assert game.state is before_state
        assert game.events == before_events and game.turns == before_turns
        return False
    return True


def play(game: Game[Any], events: Iterable[Mapping[str, Any]]) -> int:
    """Apply each event that the rules accept; return how many were accepted."""
    return sum(apply_or_refuse(game, e) for e in events)


def recount(game: Game[Any]) -> dict[str, int]:
    """Each player's score re-added from the score sheet's lines."""
    totals: Counter[str] = Counter({p: 0 for p in game.players})
    for turn in game.turns:
        totals[turn.player] += turn.points
    return dict(totals)


def check_common(game: Game[Any]) -> None:
    """The promises every engine keeps, whatever happened."""
    assert recount(game) == game.scores(), "scores must equal the sum of the score sheet's lines"
    twin = loads(dumps(game))
    assert twin.state == game.state, "replaying the transcript must give the same state"
    assert twin.scores() == game.scores() and twin.outcome() == game.outcome()
    if game.events:
        again = game.copy()
        last = again.undo()
        again.apply(last)
        assert again.state == game.state, "undo then redo must be the identity"
    outcome = game.outcome()
    assert (game.to_move is None) == (outcome is not None)


def replay_file(name: str) -> Game[Any]:
    return loads((TRANSCRIPTS / name).read_text(encoding="utf-8"))


def json_events(types: list[str], keys: list[str]) -> Any:
    """Hypothesis strategy: events of the given types whose fields hold arbitrary JSON values.

    An engine must either apply such an event or refuse it with IllegalEvent; any other
    exception would be a traceback in front of a player.
    """
    from hypothesis import strategies as st

    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(-3, 30), st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=8),
    )
    values = st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(keys), inner, max_size=4)
        ),
        max_leaves=10,
    )
    return st.builds(
        lambda t, fields: {"type": t, **fields},
        st.sampled_from(types),
        st.dictionaries(st.sampled_from(keys), values, max_size=6),
    )

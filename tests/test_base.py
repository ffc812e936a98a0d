"""The engine base: undo, refusal leaves state untouched, transcripts round-trip."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import pytest

from games.base import Game, GameSetupError, Outcome, Step, Turn
from games.rulings import IllegalEvent
from games.wordfit import key_spacing_fits, spiral_overlaps, tosswords_misfit


class Counting(Game[tuple[int, int]]):
    """A toy two-player race to 3 used only to test the base class."""

    name = "counting"
    title = "Counting"
    default_options: ClassVar[Mapping[str, Any]] = {"target": 3}

    def _initial_state(self) -> tuple[int, int]:
        return (0, 0)

    def _apply(self, state: tuple[int, int], event: Mapping[str, Any]) -> Step:
        if event["type"] != "add":
            raise IllegalEvent(f"unknown event {event['type']!r}", "Counting")
        mover = (state[0] + state[1]) % 2
        new = list(state)
        new[mover] += 1
        return Step(tuple(new), (Turn(self.players[mover], 1, "added one"),))

    def _to_move(self, state: tuple[int, int]) -> str | None:
        return None if self._outcome(state) else self.players[sum(state) % 2]

    def _scores(self, state: tuple[int, int]) -> dict[str, int]:
        return dict(zip(self.players, state, strict=True))

    def _outcome(self, state: tuple[int, int]) -> Outcome | None:
        for name, score in zip(self.players, state, strict=True):
            if score >= self._options["target"]:
                return Outcome((name,), "reached the target")
        return None


def test_apply_undo_and_refusal_leave_state_consistent() -> None:
    g = Counting(["Ann", "Bob"])
    g.apply({"type": "add"})
    assert g.scores() == {"Ann": 1, "Bob": 0} and g.to_move == "Bob"
    with pytest.raises(IllegalEvent):
        g.apply({"type": "nonsense"})
    assert len(g.events) == 1 and g.scores() == {"Ann": 1, "Bob": 0}
    assert g.undo() == {"type": "add"}
    assert g.scores() == {"Ann": 0, "Bob": 0}
    with pytest.raises(IndexError):
        g.undo()


def test_game_over_refuses_more_play() -> None:
    g = Counting(["Ann", "Bob"], {"target": 1})
    g.apply({"type": "add"})
    assert g.outcome() == Outcome(("Ann",), "reached the target") and g.is_over()
    with pytest.raises(IllegalEvent, match="over"):
        g.apply({"type": "add"})


@pytest.mark.parametrize(
    ("players", "options"),
    [(["Ann"], None), (["Ann", "Ann"], None), (["Ann", ""], None), (["A", "B"], {"colour": 1})],
)
def test_bad_setup_is_refused(players: list[str], options: dict[str, Any] | None) -> None:
    with pytest.raises(GameSetupError):
        Counting(players, options)


def test_events_must_be_plain_json() -> None:
    g = Counting(["Ann", "Bob"])
    with pytest.raises(IllegalEvent):
        g.apply({"type": "add", "when": object()})
    with pytest.raises(IllegalEvent):
        g.apply({"no_type": 1})


def test_tosswords_fit_trance() -> None:
    assert tosswords_misfit("TRANCE", ("C", "T"), 3) is None
    assert tosswords_misfit("TRANCE", ("C", "T"), 2) is not None
    assert key_spacing_fits("trance", "t", "c", None)
    assert "drawn tile" in (tosswords_misfit("TRANCE", ("C", "T"), 3, ["P"]) or "")


def test_spiral_overlaps_fun() -> None:
    assert spiral_overlaps("FUN", "NO") == [1]
    assert spiral_overlaps("FUN", "UNITE") == [2]
    assert spiral_overlaps("FUN", "FUNNY") == [3]
    assert spiral_overlaps("FUN", "FUN") == []

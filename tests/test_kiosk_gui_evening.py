"""A scripted family evening under Xvfb: five games played by touch to their ends, the power
cut (SIGKILL) in the middle of each and the game resumed exactly — turn, scores, entries and
the running timer (paused with the time it had) — a correction of an earlier turn and a
rematch. See tests/gui/play_evening.py."""

from __future__ import annotations

from pathlib import Path

from gui import harness
from gui.harness import GUI, game_log, needs_words, run

data, display = harness.data, harness.display  # a data folder per test, one screen per module

pytestmark = [*GUI, needs_words]


def _half(game: str, data: Path) -> dict:
    """Play the first half, cut the power, boot again: what came back, and how the game ended."""
    before = run(f"evening_{game}_a", data, killed=True)
    after = run(f"evening_{game}_b", data)
    cut, back = before["at_cut"], after["back"]
    assert after["screen"] == "game"
    assert (back["game"], back["mover"], back["scores"], back["events"]) == (
        cut["game"],
        cut["mover"],
        cut["scores"],
        cut["events"],
    )
    # The timer: paused, with the time it had when the power went (to the whole second shown).
    assert back["digits"] == cut["digits"], (cut, back)
    assert after["timer_state"].startswith("PAUSED")
    assert "timer was running" in after["news"]
    return after


def test_a_family_evening_five_games_each_cut_and_resumed(data: Path) -> None:
    wots = _half("wots", data)
    assert wots["winner"] == "Parents win!"
    mute = wots["mute"]  # muted mid-turn: the timer ran on with its time left, then sound again
    assert mute["before"]["phase"] == mute["muted"]["phase"] == "running", mute
    assert mute["muted"]["sound"].startswith("Muted") and mute["muted"]["button"] == "Pause"
    assert 0 <= mute["before"]["remaining"] - mute["muted"]["remaining"] < 1.0, mute
    assert mute["unmuted"]["phase"] == "running" and mute["unmuted"]["sound"] == "Sound on"
    assert mute["muted"]["remaining"] - mute["unmuted"]["remaining"] < 1.0, mute
    assert mute["speaker_muted"] is False
    upwords = _half("upwords", data)
    assert "Corrected entry 2" in upwords["corrected"]
    assert upwords["after_correction"] == {"Mum": 8, "Dad": 8}  # DEAN scores as DEAR did
    assert upwords["agree_rows"] == ["7 tiles left: -35 (8 → -27)", "7 tiles left: -35 (8 → -27)"]
    assert upwords["ended_early"] == [
        "the players agreed to stop: 5 points off each tile left",
        "Mum: 7 tiles left, -35 (rule 6F)\nDad: 7 tiles left, -35 (rule 6F)",
    ]
    assert upwords["rematch_players"] == ["Dad", "Mum"] and upwords["rematch_mover"] == "Dad to play"
    assert "Wins in 2 games together" in upwords["rematch_summary"]
    toss = _half("tosswords", data)
    assert toss["winner"] == "Mum wins!"
    spiel = _half("wordspiel", data)
    assert spiel["winner"] == "Mum wins!"
    option = _half("option", data)
    assert option["winner"].endswith("wins!")
    listed = option["games_list"]
    for title in ("Word on the Street", "Upwords", "Tosswords", "WordSpiel", "Option"):
        assert any(line.startswith(f"[b]{title}[/b], today") for line in listed), (title, listed)
    with game_log(data) as log:
        games = log.games(10)
        assert [g.status for g in games] == ["finished"] * 6  # five games and the rematch
        upwords_game = next(g for g in games if g.game == "upwords" and g.players == ("Mum", "Dad"))
        words = [e.get("word") for e in log.events(upwords_game.id) if e.get("word")]
    assert words == ["MOOD", "DEAN"]
    demo = run("evening_demo", data)
    assert "tap Demo step again" in demo["demo_asked"]
    assert demo["guests_go_on"] == [True, False]
    assert demo["demo_open"] == [True, True]
    assert demo["names_after_demo"] == ["Ann", "Bob"]  # the guests' names: their game, not the demo's
    assert demo["offer"] == "Resume Upwords with Ann and Bob from turn 3?"
    assert demo["guests_back"] == [True, False, ["8", "8"]]
    with game_log(data) as log:
        guests = [e.get("word") for e in log.events(demo["guests_id"])]
        demo_games = [g for g in log.games(12) if g.demo]
    assert guests == ["MOOD", "DEAR"]  # the demo never wrote into the guests' game
    assert len(demo_games) == 1 and demo_games[0].status == "playing"

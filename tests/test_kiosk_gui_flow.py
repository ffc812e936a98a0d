"""A new family's stumbles, played again under Xvfb (see tests/gui/play_flow.py): each now
leads somewhere a family can follow."""

from __future__ import annotations

from pathlib import Path

from gui import harness
from gui.harness import GUI, game_log, needs_words, run

data, display = harness.data, harness.display  # a data folder per test, one screen per module

pytestmark = GUI


@needs_words
def test_stacked_letters_and_their_heights_both_show_at_every_height(data: Path) -> None:
    found = run("stacked_letters", data)
    assert found["single"] == []  # one tile high: the letter alone, no digit
    for height in (2, 3, 4, 5):
        for where in ("place", "game"):
            stack = found[f"{where}_{height}"]
            assert stack["inside"] and stack["apart"], (where, height, stack)
            assert stack["letter_h"] > stack["digit_h"], (where, height, stack)  # the letter is large
        painted = found[f"painted_{height}"]
        assert "WFGH"[height - 2] in painted and str(height) in painted


def test_a_demo_step_never_writes_into_a_familys_game(data: Path) -> None:
    found = run("demo_own_game", data)
    assert found["demo_game"] == ["upwords", True]
    assert found["offered_names"] == ["Mum", "Dad"]  # the family's last players, not the demo's
    assert "tap Demo step again" in found["asked"]
    assert found["family_after_ask"] == [True, 1]
    assert found["then"][:2] == [True, True] and "back to the demo's" in found["then"][2]
    with game_log(data) as log:
        words = [e.get("word") for e in log.events(found["family_id"])]
        demo_games = [g for g in log.games(6) if g.demo]
    assert words == ["MOOD"]  # the family's game: its own play only
    assert len(demo_games) == 1


@needs_words
def test_upwords_ends_when_the_players_agree_and_says_what_was_taken_off(data: Path) -> None:
    found = run("upwords_agree", data)
    assert found["tally_title"] == "End the game now?"
    assert found["tally_rows"] == ["7 tiles left: -35 (8 → -27)", "7 tiles left: -35 (0 → -35)"]
    assert "still in the bag" in found["tally_note"] and "rule 6F" in found["tally_note"]
    assert found["tally_done"] == "We agree: end"
    assert found["screen"] == "end" and found["winner"] == "Ann wins!"
    assert found["how"] == "the players agreed to stop: 5 points off each tile left"
    assert found["deducted"] == "Ann: 7 tiles left, -35 (rule 6F)\nBob: 7 tiles left, -35 (rule 6F)"


def test_tosswords_entry_never_loops_and_offers_steal_only_when_one_can_be_made(data: Path) -> None:
    found = run("toss_entry", data)
    assert found["steal_before"] == ["Steal: only right after a time-out", True]
    assert "Type the tiles drawn" in found["done_empty"][0] and "No word" in found["done_empty"][0]
    assert found["no_word_empty"] == ["game", "Mum to play", "no word: the tiles go back"]
    assert found["steal_title"].startswith("Steal? A word for keys A–B, die 1")
    assert found["steal_offer"] == ["Steal", False]
    assert "Type the word you found for keys A–B, die 1" in found["steal_empty"][0]
    assert found["send_back_title"] == "AMBER: send back which of Mum's tiles?"
    assert found["after_steal"] == ["game", {"Mum": 1, "Kim": 0}]


def test_time_up_passes_the_turn_and_the_next_timer_runs(data: Path) -> None:
    found = run("timer_runs_out", data)
    assert found["start_timer"] == "Timer 15 s"
    assert found["entry_clock"] in {f"{n} s" for n in range(10, 16)}
    before, after, phase = found["settings_kept"]
    assert phase == "running" and after <= before and after < 15  # not back to a full turn
    assert found["expired_hint"] == "Time is up! tap here: next turn"
    assert found["mover_before"] == "Mum to play" and found["mover_after"] == "Kim to play"
    assert found["phase_after"] in ("running", "warning")
    assert found["news_after"] == "Time ran out for Mum. Now Kim to play: the timer is running."
    assert found["last_turn"].startswith("time ran out")


def test_messages_never_cover_a_button_and_start_offers_the_waiting_game(data: Path) -> None:
    found = run("banner_strip", data)
    assert "is kept" in found["kept"] and found["kept_covers"] == []
    assert found["tap_reached"] == ["word-on-the-street", True]  # the tap chose the game
    assert found["offer"] == ["start", "Resume Word on the Street with Reds and Blues from turn 1?"]
    assert found["offer_covers"] == []
    assert found["resumed"] == ["game", True]
    assert found["entry_problem"] and found["entry_covers"] == []
    assert found["problem_after_leaving"] == []
    assert found["new"] == ["game", True, 2]

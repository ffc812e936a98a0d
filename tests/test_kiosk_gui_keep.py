"""No game is lost to one tap (the real app under Xvfb, see tests/gui/harness.py)."""

from __future__ import annotations

import json
from pathlib import Path

from gui import harness
from gui.harness import GUI, game_log, needs_words, newest_events, run

data, display = harness.data, harness.display  # a data folder per test, one screen per module

pytestmark = GUI


def test_leaving_keeps_a_game_and_the_start_screen_lists_every_unfinished_one(data: Path) -> None:
    found = run("keep_games", data)
    assert found["screen_after_leave"] == "start"
    assert "kept" in found["leave_banner"]
    assert found["resume_one"].startswith("Resume Upwords") and "Ann 8, Bob 0" in found["resume_one"]
    assert found["fresh_news"] == ""  # the Upwords game's news is not shown in the new game
    assert "2 unfinished" in found["resume_two"]
    newest, older = found["listed"]
    assert newest.startswith("[b]Word on the Street[/b]: Reds") and "started today" in newest
    assert older.startswith("[b]Upwords[/b]: Ann 8, Bob 0") and "1 entry" in older
    assert found["armed"] == "Tap again to give up"
    assert found["resumed_scores"] == ["8", "0"] and found["resumed_mover"] == "Bob to play"
    assert found["give_up_armed"] == "Tap again to give up"
    assert found["after_one_give_up_tap"] == "game"
    assert found["unfinished"] == 2
    with game_log(data) as log:
        assert sorted(g.status for g in log.games(5)) == ["playing", "playing"]


def test_demo_mode_asks_before_it_puts_the_tables_game_aside(data: Path) -> None:
    found = run("demo_asks", data)
    assert "tap Demo step again" in found["asked"] and "kept" in found["asked"]
    assert found["still"] == "word-on-the-street"
    assert found["then"] == "upwords"
    assert found["unfinished"] == ["upwords", "word-on-the-street"]


def test_a_running_timer_comes_back_paused_with_its_time_after_a_power_cut(data: Path) -> None:
    before = run("timer_cut_part1", data, killed=True)
    assert before["button"] == "Pause"  # the new card started it
    after = run("timer_cut_part2", data)
    assert after["screen"] == "game"
    assert after["digits"] == before["digits"] != "30"
    assert after["state"].startswith("PAUSED") and after["button"] == "Resume"
    assert "timer was running" in after["news"] and f"{before['digits']} s left" in after["news"]
    assert after["digits_later"] == after["digits"]
    assert int(after["running_again"]) == int(after["digits"]) - 1


@needs_words
def test_upwords_is_placed_on_a_large_board_and_scored_before_done(data: Path) -> None:
    found = run("upwords_board", data)
    assert found["mood_score"] == "MOOD 8 points"  # the figure said once
    assert found["mood_hint"].startswith("Starts at row 4, column 2")
    drawn = found["mood_drawn"]
    assert drawn[:16] == [str(n) for i in range(1, 9) for n in (i, i)]  # row and column numbers
    assert [ch for ch in drawn[16:] if ch.isalpha()] == ["M", "O", "O", "D"]  # the play, on the board
    assert found["after_mood"] == ["8", "0"]
    # Typed on the large board: a play the engine refuses still shows its letters where they
    # would go, framed red, with the engine's reason (DEA across from row 8, column 7).
    assert found["off_board"] == ["M", "O", "O", "D", "D", "E"]
    assert "runs off the board" in found["off_board_score"]
    assert found["off_board_framed"] == [[7, 6], [7, 7]]
    # DEAR down from MOOD's D: each letter shows as it is typed, with the points so far.
    assert found["typed_D_word"] == "D" and found["typed_A_word"] == "DEA"
    assert found["typed_E"] == ["M", "O", "O", "D", "E"]
    assert found["typed_A"] == ["M", "O", "O", "D", "E", "A"]
    assert found["typed_A_score"].endswith(" 6 points"), found["typed_A_score"]
    assert found["dear_score"] == "DEAR 8 points", found["dear_score"]
    assert found["entry_preview"] == "row 4, col 5, down: places E A R for 8 points"
    assert found["after_dear"] == ["8", "8"]


@needs_words
def test_history_corrects_an_earlier_turn_and_the_engine_replays_from_there(data: Path) -> None:
    found = run("correct_turn", data)
    assert found["before"] == ["16", "0"]
    assert found["title"] == "Correct entry 2 (Bob)"
    assert found["screen_after"] == "history"
    assert found["after"][0] == "16" and int(found["after"][1]) > 0  # Bob's MA scored, DEAR still Ann's
    assert "Corrected entry 2" in found["news"]
    events = newest_events(data)
    assert [e.get("word") for e in events] == ["MOOD", "MA", "DEAR"]


def test_option_letter_points_taught_once_are_kept_across_a_restart(data: Path) -> None:
    first = run("option_teach", data)
    assert first["score"] == "17"  # Z 10 + A 2 + P 4 + S 1
    kept = json.loads((data / "option-letters.json").read_text())
    assert kept["letters"] == {"A": 2, "P": 4, "S": 1, "Z": 10}
    again = run("option_taught", data)  # a new process: the kiosk started again
    assert again["screen"] == "game"
    assert again["came_with"] == ["4 points", "10 points", "2 points", "10 points"]
    assert again["banners"] == []


def test_a_damaged_letter_points_file_is_said_kept_aside_and_the_letters_start_at_1(data: Path) -> None:
    run("option_teach", data)
    (data / "option-letters.json").write_text('{"version": 1, "letters": {"Z": 10, "A"')  # cut short
    found = run("option_taught", data)
    assert found["came_with"] == ["1 point"] * 4
    assert any("damaged" in m and "option-letters.json.bad" in m for m in found["banners"]), found["banners"]
    assert (data / "option-letters.json.bad").read_text().endswith('"A"')  # nothing lost

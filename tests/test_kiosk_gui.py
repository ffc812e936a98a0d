"""The real kiosk app under Xvfb: whole games tapped through, challenges, undo, resume, errors.

Each scenario of ``tests/gui/scenarios.py`` runs in its own process (``tests/gui/harness.py``,
one Kivy app per process) and taps widgets with real touch events; these tests then check
what the screens said and what the real SQLite game log holds. Screenshots of every screen
go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from gui import harness
from gui.faults import tmpfs
from gui.harness import GUI, assert_street_readable, game_log, needs_words, newest_events, newest_game, run

from games.transcript import replay_lines
from kiosk.play.categories import load_categories

data, display = harness.data, harness.display  # a data folder per test, one screen per module

pytestmark = GUI


@needs_words
def test_word_on_the_street_all_three_challenges_undo_and_a_win(data: Path) -> None:
    found = run("wots", data)
    assert found["category"] in load_categories("green")  # drawn from the kiosk's own deck
    assert f"fit the card [b]{found['category']}[/b]?" in found["vote_card"]  # the vote shows the card
    assert "Reds' kerb: 0 captured" in found["kerb_labels"]
    assert "Blues' kerb: 0 captured" in found["kerb_labels"]
    deck = json.loads(found["deck_file"])
    assert deck["current"] == found["category"] and deck["green"]["position"] == 1
    after = json.loads((data / "category-deck.json").read_text())
    assert (
        after["current"] == "" and after["green"]["position"] == 1
    )  # the card went back to the tray
    assert found["vote_verdict"] == "REJECTED"
    assert found["spelling_verdict"] == "LEGAL"
    assert found["after_spelling_mover"] == "Reds"  # the Blues lost their turn
    assert found["misspelt_verdict"] == "ILLEGAL"
    assert found["before_sandbox_mover"] == "Blues"
    assert found["compound_verdict"] == "LEGAL"
    assert found["after_compound_mover"] == "Blues"  # the Reds challenged wrongly: they lose their turn
    assert found["winner"] == "Reds win!"  # a team takes the plural
    assert found["history_lines"] > 10
    assert_street_readable(found["street_measured"])
    with game_log(data) as log:
        game_id = log.games(1)[0].id
        events = log.events(game_id)
        kinds = [e.get("kind") for e in events if e["type"] == "challenge"]
        assert kinds == ["spelling", "spelling", "compound"]  # the vote was undone with one tap
        misspelt = next(e for e in events if e.get("word") == "STRENGHTS")
        assert misspelt["type"] == "word"
        spelling = events[events.index(misspelt) + 1]
        assert spelling["first_error"] == 6 and spelling["ruling"]["legal"] is False
        replayed = replay_lines(log.export(game_id).splitlines())
    assert replayed.outcome().winners == ("Reds",)


@needs_words
def test_upwords_by_word_and_start_cell_with_challenges_to_the_end(data: Path) -> None:
    found = run("upwords", data)
    assert found["mood_preview"] == "row 4, col 2, across: places M O O D for 8 points"
    assert found["after_net"] == "NET 6 + ON 4 = 10"  # the sheet's figure 2
    assert (found["on_word"], found["on_verdict"]) == ("ON", "LEGAL")  # NET formed two words
    assert found["wood_verdict"] == "LEGAL"
    assert found["dearz_verdict"] == "ILLEGAL"
    assert "still in the bag" in found["early_end"] and "agrees to stop" in found["early_end"]
    assert found["early_end_over"] is False  # Back: nothing changed
    assert found["winner"] == "Ann wins!"
    assert "turns" in found["summary"] and "Best turn: " in found["summary"]
    assert "points (" not in found["summary"] and " points" in found["summary"]  # said once
    assert found["rematch_players"] == ["Bob", "Ann"] and found["rematch_mover"] == "Bob to play"
    assert found["names_remembered"] == ["Bob", "Ann"]  # the start screen offers the last players
    with game_log(data) as log:
        game = log.rebuild(log.games(2)[1].id)
    assert game.board.text() == "8/8/8/1[MW]OOD3/3NET2/4A3/4R3/8"


@needs_words
def test_tosswords_every_tile_retired_with_a_challenge_undone(data: Path) -> None:
    found = run("tosswords", data)
    assert found["after_trance"].startswith("TRANCE")
    assert found["trance_verdict"] == "LEGAL"
    assert found["winner"] == "Kim wins!"
    best = next(line for line in found["summary"].splitlines() if line.startswith("Best turn: "))
    assert best.endswith(" tiles)") or best.endswith(" tile)"), best  # Tosswords scores tiles
    events = newest_events(data)
    assert not any(e["type"] == "challenge" for e in events)  # the ruling was undone
    assert sum(e["type"] == "timeout" for e in events) == 9


@needs_words
def test_wordspiel_a_round_with_an_exchange_and_a_house_word(data: Path) -> None:
    found = run("wordspiel", data)
    assert found["after_flip"] == "Pause"  # the flip started the timer
    assert found["no_verdict"] == "LEGAL"
    assert found["oxq_verdict"] == "ILLEGAL"
    assert found["oxq_house_verdict"] == "LEGAL"  # allowed as a house word, ruled again
    assert found["winner"] == "Ann wins!"
    house = json.loads((data / "house-words.json").read_text())
    assert house["entries"] == [{"word": "OXQ", "action": "allow", "game": "wordspiel"}]
    game = newest_game(data)
    assert game.scores() == {"Ann": 0, "Bob": 9, "Cy": 8}
    rulings = [e["ruling"]["legal"] for e in game.events if e["type"] == "challenge"]
    assert rulings == [True, True]  # NO, then OXQ once the house word was in (the ILLEGAL was undone)
    assert any(e["type"] == "exchange" and e["player"] == "Bob" for e in game.events)


@needs_words
def test_option_letter_points_a_wrong_challenge_and_the_rack_count(data: Path) -> None:
    found = run("option", data)
    assert found["after_tool"] == "10"
    assert found["TOOL_came_with"] == ["1 point"] * 4
    assert found["LOOT_came_with"] == ["3 points", "2 points", "2 points", "3 points"]  # taught once by TOOL
    assert found["loot_verdict"] == "LEGAL"
    assert found["loot_now"] == "Now: LOOT stands; Ann loses 10 points"  # the sheet's -10, said
    assert found["tolqz_verdict"] == "ILLEGAL"
    assert found["winner"] == "Bob wins!"
    game = newest_game(data)
    # Ann: TOOL 10, wrong challenge -10, rack 5 -> -5. Bob: LOOT 10, TOLQZ taken off, rack 1 -> 9.
    assert game.scores() == {"Ann": -5, "Bob": 9}


def test_a_power_cut_mid_game_and_the_kiosk_comes_back_where_it_was(data: Path) -> None:
    before = run("resume_part1", data, killed=True)
    after = run("resume_part2", data)
    assert after["screen_at_start"] == "game"
    assert after["ring"] == "--"  # Upwords has no timer: the resumed game's own setting, not a default
    assert (after["mover"], after["scores"], after["board"]) == (
        before["mover"],
        before["scores"],
        before["board"],
    )
    assert after["scores_after"] == ["18", "8"]  # NET + ON scored on the restored board


def test_settings_are_saved_and_used_by_the_next_game(data: Path) -> None:
    found = run("settings_and_stats", data)
    assert found["house_banner"] == "ZORBLE is now a house word in all games."
    assert found["mute_kept"] == "On"  # typing the house word kept the unsaved changes
    assert found["house_listed"] == ["[b]QI[/b]: struck in all games", "[b]ZORBLE[/b]: allowed in all games"]
    assert found["house_after_remove"] is False
    house = json.loads((data / "house-words.json").read_text())
    assert house["entries"] == [{"word": "ZORBLE", "action": "allow", "game": None}]
    assert found["wots_timer"] == "Timer 40 s"
    saved = tomllib.loads((data / "tablekeeper.toml").read_text())
    assert saved["timer"]["durations"]["word-on-the-street"] == 40
    assert saved["timer"]["mute"] is True
    assert found["brightness"] == "45 %"
    assert saved["hardware"]["brightness"] == 0.45  # the hardware section's 0-1 scale
    from hardware.config import HardwareConfig

    assert HardwareConfig.from_section(saved["hardware"]).brightness == 0.45
    assert found["stats_lines"] == ["No game played yet."]


def test_a_damaged_settings_file_is_a_banner_not_a_crash(data: Path) -> None:
    (data / "tablekeeper.toml").write_text("[timer\nwarning = ")
    found = run("damaged_settings", data)
    assert any("damaged" in m for m in found["banner_at_start"])
    assert (data / "tablekeeper.toml.bad").exists()
    assert found["mover"] == "Team A to play"


def test_without_the_word_list_the_table_rules_by_hand(data: Path) -> None:
    (data / "tablekeeper.toml").write_text('[words]\ndict_dir = "/nonexistent/scowl"\n')
    found = run("no_word_list", data)
    assert found["verdict"] == "ILLEGAL"
    assert found["event"]["ruling"]["source"] == "players"
    assert found["event"]["ruling"]["legal"] is False


def test_the_timer_runs_pauses_resets_and_warns_with_the_ring_lit(data: Path) -> None:
    found = run("timer", data)
    assert found["before"] == "15"
    assert found["running"] in ("14", "13")
    assert found["button_running"] == "Pause" and found["button_paused"] == "Resume"
    assert found["paused"] == found["paused_later"]
    assert found["after_ring_tap"] == "15"
    assert found["next_turn"] == "15"
    lit = [rgb for rgb in found["frame_running"] if any(rgb)]
    assert 10 <= len(lit) <= 12 and all(rgb == [0, 255, 40] for rgb in lit[:-1])  # green, draining
    assert found["warning"] in ("10", "9")  # New card started it; the last 10 s are amber
    # Redrawn when a pixel changes: once a second while it runs (each second's digits were
    # shown), not every frame; the ring is drawn over the still layer, not inside it.
    seconds = found["running_seconds"]
    assert len(found["running_digits_seen"]) >= int(seconds)
    assert seconds - 1.5 <= found["running_flips"] <= seconds * 1.5 + 1, found["running_flips"]
    assert found["ring_outside_still"] is True
    # What the X server shows is what the widget tree draws (under 1 % of pixels apart: text
    # anti-aliasing, a digit that changed between the two), on the game screen and after it.
    assert found["window_vs_tree_game"] < 3840, found["window_vs_tree_game"]
    assert found["window_vs_tree_history"] < 3840, found["window_vs_tree_history"]
    amber = [rgb for rgb in found["frame_warning"] if any(rgb)]
    assert amber and all(rgb == [255, 140, 0] for rgb in amber[:-1])  # the last one may be part-lit
    assert found["paused_state"].startswith("PAUSED")
    assert found["time_up"] == "TIME!" and found["time_up_state"].startswith("Time is up!")
    flashes = found["expired_frames"]
    assert any(all(rgb == [255, 0, 0] for rgb in f) for f in flashes)  # the whole ring red ...
    assert any(not any(any(rgb) for rgb in f) for f in flashes)  # ... flashing off and on
    assert found["sound_before"] == "Sound on" and found["sound_after"].startswith("Muted")
    assert found["speaker_muted"] is True
    assert tomllib.loads((data / "tablekeeper.toml").read_text())["timer"]["mute"] is True


@pytest.fixture
def small_disk(tmp_path: Path) -> Any:
    """A real 3 MB disk (tmpfs) for the data folder, so that it can really fill up."""
    with tmpfs(tmp_path / "data", "3m") as where:
        yield where


def test_a_full_disk_refuses_the_turn_in_plain_words_and_loses_nothing(small_disk: Path) -> None:
    found = run("disk_full", small_disk)
    assert "full" in found["banner"] and "not saved" in found["banner"], found["banner"]
    assert found["screen_after_refusal"] == "entry"
    assert found["typed_after_refusal"] == "DEAR"
    assert found["events_after_refusal"] == 1  # MOOD only: the screen shows what is on disk
    assert found["screen_after_room"] == "game"
    assert found["scores_after_room"] == ["8", "8"]
    assert [e["word"] for e in newest_events(small_disk)] == ["MOOD", "DEAR"]


def test_every_screen_has_large_text_and_finger_sized_buttons(data: Path) -> None:
    """Readable across a table: no text under 18 px, no button under 60 px (10 mm on the 7" panel)."""
    found = run("audit", data)
    assert len(found["audited"]) >= 25
    assert found["small_text"] == []
    assert found["small_buttons"] == []
    assert found["clipped"] == []


def test_muting_mid_turn_keeps_the_timer_running_or_paused_with_its_time_left(data: Path) -> None:
    found = run("mute_keeps_timer", data)
    assert found["running_before_phase"] == "running", found
    assert found["running_after_phase"] == "running" and found["running_after_button"] == "Pause"
    assert 0 <= found["running_before_remaining"] - found["running_after_remaining"] < 1.0
    before = int(found["running_before_digits"])
    assert int(found["running_after_digits"]) in (before, before - 1)  # a second may tick over
    assert found["running_sound"].startswith("Muted")
    assert found["paused_before_phase"] == "paused"
    assert found["paused_after_phase"] == "paused" and found["paused_after_button"] == "Resume"
    assert found["paused_after_remaining"] == found["paused_before_remaining"]
    assert found["paused_after_digits"] == found["paused_before_digits"]
    assert found["paused_sound"] == "Sound on"
    assert tomllib.loads((data / "tablekeeper.toml").read_text())["timer"]["mute"] is False


def test_a_suggested_name_is_a_hint_the_first_letter_typed_replaces(data: Path) -> None:
    found = run("name_hint", data)
    assert found["field_hint"] == found["suggested"]  # shown, as a hint
    assert found["field_typed"] == "Pa"
    assert found["renamed"] == "Parents"
    assert found["field_after_del"] == found["other"]
    assert found["kept"] == found["other"]  # OK on the untouched hint keeps the suggestion

"""The real kiosk app under Xvfb: whole games tapped through, challenges, undo, resume, errors.

Each scenario of ``tests/gui/scenarios.py`` runs in its own process (one Kivy app per
process) through ``tests/gui/driver.py``, on a virtual 800x480 screen when there is no
display. The scenarios tap widgets with real touch events; these tests then check what
the screens said and what the real SQLite game log holds. Screenshots of every screen go
to ``artifacts/screenshots/`` (CI keeps the folder).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from games.transcript import replay_lines
from kiosk.categories import load_categories
from kiosk.store import GameLog

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "artifacts" / "screenshots"
HAS_WORDS = Path("/usr/share/dict/scowl").is_dir()
#: The display the scenarios run on (set by the ``display`` fixture).
SCREEN = ""

pytestmark = [pytest.mark.gui, pytest.mark.slow]


def run(
    scenario: str, data: Path, *, killed: bool = False, env: dict[str, str] | None = None, display: str = ""
) -> dict[str, Any]:
    """Run one scenario in a fresh process; return what it found."""
    result = data.parent / f"{scenario}.json"
    command = [
        sys.executable,
        str(ROOT / "tests" / "gui" / "driver.py"),
        scenario,
        str(data),
        str(SHOTS),
        str(result),
    ]
    env = {**(env or {}), "DISPLAY": display or SCREEN}
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("KIVY", "KCFG", "TABLEKEEPER", "NOTIFY"))
    }
    proc = subprocess.run(
        command, cwd=ROOT, env={**clean, **(env or {})}, capture_output=True, text=True, timeout=150
    )
    if killed:
        assert proc.returncode in (-signal.SIGKILL, 128 + signal.SIGKILL, 137), proc.stderr[-3000:]
    else:
        assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(result.read_text())


def game_log(data: Path) -> GameLog:
    return GameLog(data / "games.sqlite3")


@pytest.fixture(scope="module")
def display() -> Any:
    """One virtual 800x480 screen for all the scenarios (each runs its own app in turn).

    Started here rather than by xvfb-run: once for the module instead of once a test, and
    without NOTIFY_SOCKET in its environment (an Xorg server answers READY=1 itself)."""
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    if shutil.which("Xvfb") is None:
        pytest.skip("no display and no Xvfb (apt package xvfb) for a virtual one")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "800x480x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(autouse=True)
def _screen(display: str) -> None:
    global SCREEN
    SCREEN = display


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    return folder


@pytest.mark.skipif(not HAS_WORDS, reason="the SCOWL word list (apt package scowl) is not installed")
def test_word_on_the_street_all_three_challenges_undo_and_a_win(data: Path) -> None:
    found = run("wots", data)
    assert found["category"] in load_categories("green")  # drawn from the kiosk's own deck
    deck = json.loads(found["deck_file"])
    assert deck["current"] == found["category"] and deck["green"]["position"] == 1
    after = json.loads((data / "category-deck.json").read_text())
    assert (
        after["current"] == "" and after["green"]["position"] == 1
    )  # the card went back to the tray    assert found["vote_verdict"] == "REJECTED"
    assert found["spelling_verdict"] == "LEGAL"
    assert found["after_spelling_mover"] == "Reds"  # the Blues lost their turn
    assert found["misspelt_verdict"] == "ILLEGAL"
    assert found["before_sandbox_mover"] == "Blues"
    assert found["compound_verdict"] == "LEGAL"
    assert found["after_compound_mover"] == "Blues"  # the Reds challenged wrongly: they lose their turn
    assert found["winner"] == "Reds wins!"
    assert found["history_lines"] > 10
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


@pytest.mark.skipif(not HAS_WORDS, reason="the SCOWL word list (apt package scowl) is not installed")
def test_upwords_by_word_and_start_cell_with_challenges_to_the_end(data: Path) -> None:
    found = run("upwords", data)
    assert found["mood_preview"] == "row 4, col 2, across: places M O O D"
    assert found["after_net"] == "NET 6 + ON 4 = 10"  # the sheet's figure 2
    assert (found["on_word"], found["on_verdict"]) == ("ON", "LEGAL")  # NET formed two words
    assert found["wood_verdict"] == "LEGAL"
    assert found["dearz_verdict"] == "ILLEGAL"
    assert "draw pile" in found["early_end"]  # refused in plain words, nothing lost
    assert found["winner"] == "Ann wins!"
    with game_log(data) as log:
        game = log.rebuild(log.games(1)[0].id)
    assert game.board.text() == "8/8/8/1[MW]OOD3/3NET2/4A3/4R3/8"


@pytest.mark.skipif(not HAS_WORDS, reason="the SCOWL word list (apt package scowl) is not installed")
def test_tosswords_every_tile_retired_with_a_challenge_undone(data: Path) -> None:
    found = run("tosswords", data)
    assert found["after_trance"].startswith("TRANCE")
    assert found["trance_verdict"] == "LEGAL"
    assert found["winner"] == "Kim wins!"
    with game_log(data) as log:
        events = log.events(log.games(1)[0].id)
    assert not any(e["type"] == "challenge" for e in events)  # the ruling was undone
    assert sum(e["type"] == "timeout" for e in events) == 9


@pytest.mark.skipif(not HAS_WORDS, reason="the SCOWL word list (apt package scowl) is not installed")
def test_wordspiel_a_round_with_an_exchange_and_a_house_word(data: Path) -> None:
    found = run("wordspiel", data)
    assert found["no_verdict"] == "LEGAL"
    assert found["oxq_verdict"] == "ILLEGAL"
    assert found["oxq_house_verdict"] == "LEGAL"  # allowed as a house word, ruled again
    assert found["winner"] == "Ann wins!"
    house = json.loads((data / "house-words.json").read_text())
    assert house["entries"] == [{"word": "OXQ", "action": "allow", "game": "wordspiel"}]
    with game_log(data) as log:
        game = log.rebuild(log.games(1)[0].id)
    assert game.scores() == {"Ann": 0, "Bob": 9, "Cy": 8}
    rulings = [e["ruling"]["legal"] for e in game.events if e["type"] == "challenge"]
    assert rulings == [True, True]  # NO, then OXQ once the house word was in (the ILLEGAL was undone)
    assert any(e["type"] == "exchange" and e["player"] == "Bob" for e in game.events)


@pytest.mark.skipif(not HAS_WORDS, reason="the SCOWL word list (apt package scowl) is not installed")
def test_option_letter_points_a_wrong_challenge_and_the_rack_count(data: Path) -> None:
    found = run("option", data)
    assert found["after_tool"] == "10"
    assert found["loot_verdict"] == "LEGAL"
    assert found["tolqz_verdict"] == "ILLEGAL"
    assert found["winner"] == "Bob wins!"
    with game_log(data) as log:
        game = log.rebuild(log.games(1)[0].id)
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
    amber = [rgb for rgb in found["frame_warning"] if any(rgb)]
    assert amber and all(rgb == [255, 140, 0] for rgb in amber[:-1])  # the last one may be part-lit


def test_demo_mode_plays_the_sheets_upwords_game_through_the_camera(data: Path) -> None:
    found = run("demo", data)
    assert found["scores"] == ["46", "27"]  # the sheet: Ann 8+10+12+16, Bob 8+5+14
    if found["frames"] is None:
        pytest.skip("no renderer: the demo ran without a camera")
    assert found["frames"] >= 8  # the empty board, then one photo per play
    assert found["read_by_camera"] + found["confirmed_by_players"] == 7
    assert found["confirmed_by_players"] >= 1  # SNACK is filmed under an arm: the players confirm it
    if importlib.util.find_spec("vision.letters") is not None:
        assert found["read_by_camera"] >= 3  # with taught letters, sure reads are scored
    assert found["confirm_shot"].startswith("row 7, col 4, across: places S N A C K")
    assert found["photo_kind"] == "photo"


def test_systemd_hears_ready_and_the_watchdog_from_the_ui_loop(
    data: Path, tmp_path: Path, display: str
) -> None:
    sock_path = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(sock_path))
        server.settimeout(0)
        found = run(
            "idle", data, env={"NOTIFY_SOCKET": str(sock_path), "WATCHDOG_USEC": "1000000"}, display=display
        )
        messages = []
        while True:
            try:
                messages.append(server.recv(4096).decode())
            except BlockingIOError:
                break
    assert found["screen"] == "start"
    assert messages[0] == "READY=1", messages  # once, from the kiosk (our Xvfb does not hear the socket)
    assert messages.count("READY=1") == 1, messages
    assert sum("WATCHDOG=1" in m for m in messages) >= 2, messages  # every 0.5 s for 1.5 s


@pytest.fixture
def small_disk(tmp_path: Path) -> Any:
    """A real 3 MB disk (tmpfs) for the data folder, so that it can really fill up."""
    where = tmp_path / "data"
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({done.stderr.strip()})")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_full_disk_refuses_the_turn_in_plain_words_and_loses_nothing(small_disk: Path) -> None:
    found = run("disk_full", small_disk)
    assert "full" in found["banner"] and "not saved" in found["banner"], found["banner"]
    assert found["screen_after_refusal"] == "entry"
    assert found["typed_after_refusal"] == "DEAR"
    assert found["events_after_refusal"] == 1  # MOOD only: the screen shows what is on disk
    assert found["screen_after_room"] == "game"
    assert found["scores_after_room"] == ["8", "8"]
    with game_log(small_disk) as log:
        assert [e["word"] for e in log.events(log.games(1)[0].id)] == ["MOOD", "DEAR"]


def test_sigterm_stops_the_kiosk_cleanly(data: Path, tmp_path: Path, display: str) -> None:
    """What systemd does: READY once the start screen is up, then SIGTERM -> STOPPING and exit 0."""
    sock_path = tmp_path / "notify.sock"
    command = [
        sys.executable,
        "-c",
        "import sys; from kiosk.cli import main; sys.exit(main())",
        "kiosk",
        "--data",
        str(data),
    ]
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("KIVY", "KCFG", "TABLEKEEPER", "NOTIFY"))
    }
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(sock_path))
        server.settimeout(30)
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**clean, "DISPLAY": display, "NOTIFY_SOCKET": str(sock_path)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.recv(4096).decode() == "READY=1"
            proc.send_signal(signal.SIGTERM)
            assert server.recv(4096).decode() == "STOPPING=1"
            _out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 0, err[-2000:]
    assert "Traceback" not in err


def test_every_screen_has_large_text_and_finger_sized_buttons(data: Path) -> None:
    """Readable across a table: no text under 18 px, no button under 60 px (10 mm on the 7" panel)."""
    found = run("audit", data)
    assert len(found["audited"]) >= 25
    assert found["small_text"] == []
    assert found["small_buttons"] == []


def test_demo_camera_reads_the_street_after_each_word(data: Path) -> None:
    found = run("demo_street", data)
    if found["read_positions"] is None:
        pytest.skip("no renderer: the demo ran without a camera")
    # STRENGTHS moved S, T twice and R, N, G, H once toward the Reds (the bottom, negative side).
    moved = {k: v for k, v in found["read_positions"].items() if v != 0}
    assert moved == {"S": -2, "T": -2, "R": -1, "N": -1, "G": -1, "H": -1}
    assert found["caption"] == "camera: all 17 letters where the game has them - tap for the photo"
    assert found["photo_kind"] == "photo"


def test_a_play_the_camera_sees_is_offered_and_confirmed_then_the_camera_is_lost(data: Path) -> None:
    """The live camera path end to end: a recording as the camera, a real calibration file and
    taught letters, the steadiness gate, the proposal, and the players' confirmation."""
    cv2 = pytest.importorskip("cv2")
    if importlib.util.find_spec("vision.letters") is None:
        pytest.skip("the letter reader (vision/letters.py) is not installed")
    from calibration.file import Calibration, save_calibration
    from vision.letters import LetterClassifier
    from vision.render import render_upwords
    from vision.render_teach import teaching_samples

    empty = render_upwords({}, seed=1)
    mood = render_upwords({(3, c): (ch, 1) for c, ch in zip(range(1, 5), "MOOD", strict=True)}, seed=2)
    frames = data / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "board.png"), empty.image)
    cv2.imwrite(str(data / "mood.png"), mood.image)
    images, labels = teaching_samples()
    LetterClassifier().fit(images, labels).save(data / "letters.npz")
    corners = tuple(tuple(float(v) for v in point) for point in empty.corners)
    save_calibration(
        Calibration("upwords", 8, 8, corners, empty.image_size, letters_file="letters.npz"),
        data / "calibration.json",
    )
    (data / "tablekeeper.toml").write_text(f'[camera]\nsource = "{frames}"\n')
    found = run("live_camera", data)
    assert "camera" not in found["before"]  # the empty board: nothing to offer
    assert found["news"] == "The camera sees MOOD: tap Turn to check it, Done to score it."
    assert found["entry_title"] == "Check the camera's read, then Done"
    assert found["entry_preview"] == "row 4, col 2, across: places M O O D"
    assert found["scores"] == ["8", "0"]
    assert found["lost_banner"].startswith("The camera is lost (")

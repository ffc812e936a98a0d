"""The kiosk as a system: systemd's handshake, SIGTERM, demo mode, the demo and live cameras.

Same harness as ``test_kiosk_gui.py``: each scenario is the real app in its own process.
"""

from __future__ import annotations

import importlib.util
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from gui import harness
from gui.harness import GUI, ROOT, assert_street_readable, clean_env, run

data, display = harness.data, harness.display  # a data folder per test, one screen per module

pytestmark = GUI


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
    # the camera's reason is on screen, and not over the Done it asks for, nor the title
    assert found["camera_banner"].startswith("The camera is not sure of")
    assert found["banner_covers"] == []
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


def test_sigterm_stops_the_kiosk_cleanly(data: Path, tmp_path: Path, display: str) -> None:
    """What systemd does: READY once the start screen is up, then SIGTERM -> STOPPING and exit 0."""
    sock_path = tmp_path / "notify.sock"
    command = [
        sys.executable,
        "-c",
        "import sys; from kiosk.cli.main import main; sys.exit(main())",
        "kiosk",
        "--data",
        str(data),
    ]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(sock_path))
        server.settimeout(30)
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            env=clean_env(DISPLAY=display, NOTIFY_SOCKET=str(sock_path)),
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


def test_demo_camera_reads_the_street_after_each_word(data: Path) -> None:
    found = run("demo_street", data)
    if found["read_positions"] is None:
        pytest.skip("no renderer: the demo ran without a camera")
    # STRENGTHS moved S, T twice and R, N, G, H once toward the Reds (the bottom, negative side).
    moved = {k: v for k, v in found["read_positions"].items() if v != 0}
    assert moved == {"S": -2, "T": -2, "R": -1, "N": -1, "G": -1, "H": -1}
    assert found["caption"] == "camera: all 17 letters where the game has them (tap: photo)"
    assert found["photo_kind"] == "photo"


def _recorded_table(data: Path) -> None:
    """A recording as the camera (the empty board; MOOD to put down, in the room's light and under
    a warm lamp), a real calibration file and taught letters."""
    cv2 = pytest.importorskip("cv2")
    if importlib.util.find_spec("vision.letters") is None:
        pytest.skip("the letter reader (vision/letters.py) is not installed")
    from calibration.file import Calibration, save_calibration
    from vision.letters import LetterClassifier
    from vision.synthetic.render import Effects, render_upwords
    from vision.synthetic.teach import teaching_samples

    empty = render_upwords({}, seed=1)
    cells = {(3, c): (ch, 1) for c, ch in zip(range(1, 5), "MOOD", strict=True)}
    frames = data / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "board.png"), empty.image)
    cv2.imwrite(str(data / "mood.png"), render_upwords(cells, seed=2).image)
    warm = Effects(white_balance=(0.8, 0.95, 1.2))  # more red, less blue
    cv2.imwrite(str(data / "mood-warm.png"), render_upwords(cells, seed=2, effects=warm).image)
    images, labels = teaching_samples()
    LetterClassifier().fit(images, labels).save(data / "letters.npz")
    corners = tuple(tuple(float(v) for v in point) for point in empty.corners)
    save_calibration(
        Calibration("upwords", 8, 8, corners, empty.image_size, letters_file="letters.npz"),
        data / "calibration.json",
    )
    (data / "tablekeeper.toml").write_text(f'[camera]\nsource = "{frames}"\n')


def test_a_play_the_camera_sees_is_offered_and_confirmed_then_the_camera_is_lost(data: Path) -> None:
    """The live camera path end to end: a recording as the camera, a real calibration file and
    taught letters, the steadiness gate, the proposal, and the players' confirmation."""
    _recorded_table(data)
    found = run("live_camera", data)
    assert "camera" not in found["before"]  # the empty board: nothing to offer
    assert found["news"] == "The camera sees MOOD: tap Turn to check it, Done to score it."
    assert found["entry_title"] == "Check the camera's read, then Done"
    assert found["entry_preview"] == "row 4, col 2, across: places M O O D for 8 points"
    assert found["scores"] == ["8", "0"]
    assert found["lost_banner"].startswith("The camera is lost (")


def test_a_camera_that_waits_on_a_still_board_it_takes_for_a_hand_asks_and_the_players_answer(
        data: Path) -> None:
    """A warm lamp comes on as MOOD goes down; without the calibration's picture of the board the
    hand check is a colour rule, and it takes the warm board for a hand. The game screen asks in
    the caption's place after a still wait; the players' tap has the play offered."""
    from kiosk.app.screens.tables import CAMERA_ASKS

    _recorded_table(data)
    found = run("live_camera_asks", data)
    assert found["asked"] and found["question"] == CAMERA_ASKS
    assert "camera sees" not in found["news_while_asked"]  # nothing offered while it waits
    assert not found["asked_after_tap"] and not found["photo_after_tap"]  # the tap went to the question
    assert found["news"] == "The camera sees MOOD: tap Turn to check it, Done to score it."


def test_the_camera_asks_under_the_street_on_one_line_and_the_street_stays_readable(data: Path) -> None:
    cv2 = pytest.importorskip("cv2")
    from calibration.file import Calibration, save_calibration
    from kiosk.app.screens.tables import CAMERA_ASKS_ONE_LINE
    from vision.synthetic.render import Effects, render_street

    start = render_street({}, seed=5)
    frames = data / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "board.png"), start.image)
    warm = Effects(white_balance=(0.8, 0.95, 1.2))
    cv2.imwrite(str(data / "street-warm.png"), render_street({}, seed=5, effects=warm).image)
    corners = tuple(tuple(float(v) for v in point) for point in start.corners)
    save_calibration(Calibration("wots", 5, 17, corners, start.image_size), data / "calibration.json")
    (data / "tablekeeper.toml").write_text(f'[camera]\nsource = "{frames}"\n')
    found = run("live_street_asks", data)
    assert found["caption_before"].startswith("camera: ")
    assert found["asked"] and found["question"] == CAMERA_ASKS_ONE_LINE
    # While the question is up the street gives it a finger's height: its letters stay as large
    # as ever against the scores, the street a little shorter than its usual 44 % of the screen.
    measured = found["street_measured"]
    assert_street_readable({**measured, "street_share": 0.44})
    assert measured["street_share"] >= 0.40, measured["street_share"]
    assert not found["asked_after_tap"] and found["caption_after"].startswith("camera: ")


def test_a_camera_whose_import_never_returns_does_not_hold_up_the_kiosk(data: Path, tmp_path: Path) -> None:
    """A real hung import: a planted ``picamera2`` that sleeps for an hour when imported."""
    from calibration.file import Calibration, save_calibration
    from kiosk.camera.lane import OPEN_DEADLINE

    site = tmp_path / "site"
    (site / "picamera2").mkdir(parents=True)
    (site / "picamera2" / "__init__.py").write_text("import time\ntime.sleep(3600)\n")
    corners = ((100.0, 80.0), (540.0, 80.0), (540.0, 420.0), (100.0, 420.0))
    save_calibration(Calibration("upwords", 8, 8, corners, (640, 480)), data / "calibration.json")
    (data / "tablekeeper.toml").write_text('[camera]\nsource = "picamera2"\n')
    found = run("hung_camera", data, env={"PYTHONPATH": str(site)})
    assert found["start_seconds"] < OPEN_DEADLINE + 12  # the app's own start is a few seconds here
    assert any(b.startswith("Camera unavailable: did not answer (opening the camera took over")
               for b in found["banners"]), found["banners"]
    assert found["screen"] == "start"
    assert found["threads"].count("camera-open") == 1
    assert found["screen_after_go"] == "game"

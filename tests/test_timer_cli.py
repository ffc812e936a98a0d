"""``tablekeeper timer`` for real: as a subprocess on a pseudo-terminal, and in-process on mock pins."""

from __future__ import annotations

import _thread
import contextlib
import io
import os
import pty
import select
import signal
import subprocess
import sys
import termios
import threading
import time
import tomllib
from pathlib import Path

import pytest
from waiting import wait_for

from hardware import pins as hardware_pins
from kiosk.cli import main as cli

REPO = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).with_name("tablekeeper")  # the installed console script
COMMAND = (
    [str(SCRIPT)]
    if SCRIPT.exists()
    else [sys.executable, "-c", "import sys; from kiosk.cli.main import main; sys.exit(main())"]
)
LED_PINS = [5, 6, 13, 19]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "tablekeeper.toml"
    config.write_text(f'[hardware]\nring = "leds"\nled_pins = {LED_PINS}\npin_factory = "mock"\n')
    return {
        **os.environ,
        "TABLEKEEPER_CONFIG": str(config),
        "TABLEKEEPER_DATA": str(tmp_path / "data"),
        "PYTHONPATH": str(REPO),
        "TERM": "xterm-256color",
    }


def tablekeeper(*args: str, env: dict[str, str], timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, "timer", *args],
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_without_a_terminal_it_counts_down_once_and_remembers_the_length(env: dict[str, str]) -> None:
    done = tablekeeper("1.5", "--mute", env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].endswith("1.5 s  hurry!") and lines[-1] == "Time's up."
    assert any("0.0 s  TIME'S UP" in line for line in lines)
    assert "Traceback" not in done.stderr and "mock pins" in done.stderr
    saved = tomllib.loads(Path(env["TABLEKEEPER_CONFIG"]).read_text())
    assert saved["timer"]["seconds"] == 1.5 and saved["hardware"]["ring"] == "leds"


def test_a_game_length_is_remembered_per_game(env: dict[str, str]) -> None:
    assert tablekeeper("1", "--game", "wots", "--mute", env=env).returncode == 0
    saved = tomllib.loads(Path(env["TABLEKEEPER_CONFIG"]).read_text())
    assert saved["timer"]["durations"] == {"word-on-the-street": 1, "wordspiel": 60, "tosswords": 60}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["abc"], "not a length of time"),
        (["0"], "from 1 second to 99:59"),
        (["100:00"], "from 1 second to 99:59"),
        (["--", "-5"], "not a length of time"),
        (["--game", "chess"], "unknown game 'chess'"),
        (["5", "--warning", "-3"], "0 or more seconds"),
        (["5", "--warning", "soon"], "invalid float value"),
    ],
)
def test_usage_errors_exit_2_in_plain_words(env: dict[str, str], args: list[str], words: str) -> None:
    done = tablekeeper(*args, env=env)
    assert done.returncode == 2 and words in done.stderr
    assert "Traceback" not in done.stderr
    assert "timer" not in tomllib.loads(Path(env["TABLEKEEPER_CONFIG"]).read_text())


def test_a_bad_hardware_section_is_a_usage_error_naming_the_file(env: dict[str, str], tmp_path: Path) -> None:
    Path(env["TABLEKEEPER_CONFIG"]).write_text('[hardware]\nbuzzer_pin = 40\nring = "disco"\n')
    done = tablekeeper("5", env=env)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "buzzer_pin = 40: the Pi's header has GPIO0 to GPIO27" in done.stderr
    assert "ring = 'disco'" in done.stderr
    assert env["TABLEKEEPER_CONFIG"] in done.stderr


class Terminal:
    """The timer as a child process on a pseudo-terminal (its controlling terminal)."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child
            os.chdir(REPO)
            # A player's terminal delivers Ctrl-C; a test run started in the background (`cmd &`)
            # would hand down SIGINT ignored, so give the timer what a terminal gives it.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.execve(COMMAND[0], [*COMMAND, "timer", *args], env)
        self.output = ""

    def expect(self, text: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output:
            left = deadline - time.monotonic()
            assert left > 0, f"never saw {text!r}; got {self.output[-300:]!r}"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    self.output += os.read(self.fd, 4096).decode(errors="replace")
                except OSError:  # the child closed the terminal
                    break
        assert text in self.output, f"never saw {text!r}; got {self.output[-300:]!r}"

    def send(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def lflags(self) -> int:
        return termios.tcgetattr(self.fd)[3]

    def wait(self, timeout: float = 10.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:  # drain output so the child never blocks on a full terminal
                if select.select([self.fd], [], [], 0.05)[0]:
                    self.output += os.read(self.fd, 4096).decode(errors="replace")
            except OSError:
                pass
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        raise AssertionError("the timer did not exit")


def test_the_keyboard_is_the_button_and_the_terminal_is_restored(env: dict[str, str]) -> None:
    term = Terminal(["30", "--mute"], env)
    term.expect("ready")
    assert not term.lflags() & termios.ICANON and not term.lflags() & termios.ECHO  # cbreak while running
    term.send(b" ")
    term.expect("running")
    term.send(b" ")
    term.expect("paused")
    term.send(b"-")
    term.expect("paused")
    term.send(b"r")
    before = term.output
    term.expect("ready")
    term.send(b"+")
    term.expect("(the timer has not started")
    assert "paused" in before
    term.send(b"q")
    assert term.wait() == 0
    assert "Traceback" not in term.output


def test_ctrl_c_exits_130_without_a_traceback_and_restores_the_terminal(env: dict[str, str]) -> None:
    term = Terminal(["30", "--mute"], env)
    term.expect("ready")
    term.send(b" ")
    term.expect("running")
    flags = termios.tcgetattr(term.fd)
    term.send(b"\x03")  # Ctrl-C: the terminal sends SIGINT to the timer
    assert term.wait() == 130
    assert "Traceback" not in term.output
    assert flags[3] & termios.ISIG  # cbreak keeps Ctrl-C working


def test_sigterm_stops_it_cleanly(env: dict[str, str]) -> None:
    term = Terminal(["30", "--mute"], env)
    term.expect("ready")
    term.send(b" ")
    term.expect("running")
    os.kill(term.pid, signal.SIGTERM)
    assert term.wait() == 128 + signal.SIGTERM
    assert "Traceback" not in term.output


def test_ctrl_c_leaves_the_ring_and_buzzer_off(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process, so the mock pins can be read after the interrupt."""
    factory = hardware_pins.mock_factory()
    monkeypatch.setattr(hardware_pins, "mock_factory", lambda: factory)
    for key in ("TABLEKEEPER_CONFIG", "TABLEKEEPER_DATA"):
        monkeypatch.setenv(key, env[key])
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    lit = threading.Event()

    def ring_and_chirp() -> bool:
        try:
            chirped = any(entry.state > 0 for entry in factory.pin(17).states)
            return factory.pin(LED_PINS[0]).state > 0 and chirped
        except Exception:  # the pins are not set up yet
            return False

    def interrupt_once_lit() -> None:
        with contextlib.suppress(AssertionError):  # never lit: the assertion below says so
            wait_for(ring_and_chirp, "the ring and the start chirp", timeout=10, every=0.005)
            lit.set()
        _thread.interrupt_main()

    # interrupt_main() does nothing where SIGINT is ignored (a test run started in the background)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Thread(target=interrupt_once_lit, daemon=True).start()
        code = cli.main(["timer", "30"])
    finally:
        signal.signal(signal.SIGINT, previous)
    assert code == 130
    assert lit.is_set(), "the ring and start chirp never came on"
    for pin in [17, *LED_PINS]:
        history = [s.state for s in factory.pin(pin).states]
        assert max(history) > 0 and history[-1] == 0, (pin, history)

"""No input file or argument makes a command print a traceback or eat the machine.

Each case is a real file on disk (or /dev/zero) given to the real ``tablekeeper`` console
script: a JSON value nested 100000 deep, a 5000-digit number, an endless transcript, a NaN
in ``--corners``, an oversized calibration file, a 20000x20000 PNG. Each must end in one
plain line on stderr and a nonzero exit, quickly and within a bounded amount of memory.
A command under test runs with its address space capped (``RLIMIT_AS``), so the old
behaviour (reading /dev/zero until 13 GB) fails the test instead of the machine.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).with_name("tablekeeper")
#: The most memory a refused input may cost the command (the interpreter, numpy and OpenCV
#: alone take about 150 MB of address space; more than this and the limit stops it).
ADDRESS_SPACE = 1536 * 1024 * 1024
HEADER = {"tablekeeper": "transcript", "version": 1, "game": "wordspiel", "players": ["Ann", "Bob"],
          "options": {}}


def tablekeeper(tmp: Path, *args: str, stdin: int | None = None) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip("the tablekeeper console script is not installed (pip install -e .)")

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    env = {**os.environ, "TABLEKEEPER_DATA": str(tmp / "data"), "TABLEKEEPER_CONFIG": str(tmp / "tk.toml")}
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, env=env, timeout=120,
                          check=False, preexec_fn=cap, stdin=stdin)


def one_plain_line(done: subprocess.CompletedProcess[str]) -> str:
    """The command failed with one line on stderr and no traceback; that line."""
    assert done.returncode not in (0, None), done.stdout[-500:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    lines = [x for x in done.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, done.stderr[-3000:]
    return lines[0]


def deeply_nested(depth: int = 100_000) -> str:
    return "[" * depth + "]" * depth


# ------------------------------------------------------------------ transcripts
def test_replay_of_json_nested_100000_deep_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text(json.dumps(HEADER) + "\n" + deeply_nested() + "\n")
    line = one_plain_line(tablekeeper(tmp_path, "replay", str(path)))
    assert "line 2" in line and "nested too deeply" in line, line


def test_replay_of_a_5000_digit_number_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "digits.jsonl"
    event = '{"type": "start_round", "flipped": "F", "n": ' + "9" * 5000 + "}"
    path.write_text(json.dumps(HEADER) + "\n" + event + "\n")
    line = one_plain_line(tablekeeper(tmp_path, "replay", str(path)))
    assert "line 2" in line and "number" in line, line


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_replay_refuses_numbers_that_are_not_finite(tmp_path: Path, number: str) -> None:
    path = tmp_path / "nan.jsonl"
    path.write_text(json.dumps(HEADER) + '\n{"type": "start_round", "flipped": "F", "n": ' + number + "}\n")
    line = one_plain_line(tablekeeper(tmp_path, "replay", str(path)))
    assert "line 2" in line and "number" in line, line


def test_replay_of_dev_zero_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    line = one_plain_line(tablekeeper(tmp_path, "replay", "/dev/zero"))
    assert "larger than" in line and "MB" in line, line


def test_replay_of_an_endless_standard_input_is_refused(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        line = one_plain_line(tablekeeper(tmp_path, "replay", "-", stdin=zero.fileno()))
    assert "larger than" in line, line


# ------------------------------------------------------------------ calibration files
def _calibration(tmp: Path, text: str) -> None:
    (tmp / "data").mkdir(exist_ok=True)
    (tmp / "data" / "calibration.json").write_text(text)


def _photo(tmp: Path) -> Path:
    import cv2
    import numpy as np

    path = tmp / "photo.png"
    cv2.imwrite(str(path), np.full((480, 640, 3), 120, np.uint8))
    return path


def test_a_calibration_nested_100000_deep_is_one_line(tmp_path: Path) -> None:
    _calibration(tmp_path, '{"version": 1, "corners": ' + deeply_nested() + "}")
    line = one_plain_line(tablekeeper(tmp_path, "read", "upwords", str(_photo(tmp_path))))
    assert "calibration" in line and "nested too deeply" in line, line


def test_a_calibration_with_a_5000_digit_number_is_one_line(tmp_path: Path) -> None:
    _calibration(tmp_path, '{"version": 1, "kind": "upwords", "rows": ' + "8" * 5000 + "}")
    line = one_plain_line(tablekeeper(tmp_path, "read", "upwords", str(_photo(tmp_path))))
    assert "calibration" in line and "number" in line, line


def test_an_oversized_calibration_file_is_refused_unread(tmp_path: Path) -> None:
    _calibration(tmp_path, '{"version": 1, "pad": "' + "x" * (20 * 1024 * 1024) + '"}')
    line = one_plain_line(tablekeeper(tmp_path, "read", "upwords", str(_photo(tmp_path))))
    assert "calibration" in line and "larger than" in line, line


# ------------------------------------------------------------------ arguments and pictures
@pytest.mark.parametrize("bad", ["nan", "inf", "-inf", "1e400"])
def test_a_corner_that_is_not_a_finite_number_is_one_line(tmp_path: Path, bad: str) -> None:
    corners = f"{bad},0,639,0,639,479,0,479"
    photo = str(_photo(tmp_path))
    line = one_plain_line(tablekeeper(tmp_path, "read", "upwords", photo, "--corners", corners))
    assert "--corners" in line and "finite" in line, line


def _huge_png(path: Path, width: int, height: int) -> None:
    """A grey PNG of ``width`` x ``height`` written row by row (a few MB on disk)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")

    packer = zlib.compressobj(9)
    row = b"\x00" + b"\x78" * width  # filter "none", mid grey
    with path.open("wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n")
        size = width.to_bytes(4, "big") + height.to_bytes(4, "big")
        out.write(chunk(b"IHDR", size + bytes([8, 0, 0, 0, 0])))  # 8-bit grey
        data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
        out.write(chunk(b"IDAT", data))
        out.write(chunk(b"IEND", b""))


def test_a_20000_pixel_png_is_refused_from_its_header_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "huge.png"
    _huge_png(path, 20000, 20000)
    probe = (
        "import resource, subprocess, sys\n"
        f"done = subprocess.run([{str(SCRIPT)!r}, 'read', 'upwords', {str(path)!r}, '--corners', "
        "'0,0,19999,0,19999,19999,0,19999'], capture_output=True, text=True)\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "print(done.stderr, file=sys.stderr)\n"
    )
    env = {**os.environ, "TABLEKEEPER_DATA": str(tmp_path / "data"),
           "TABLEKEEPER_CONFIG": str(tmp_path / "t.toml")}
    measured = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=600,
                              env=env, check=False)
    code, peak_kb = (int(v) for v in measured.stdout.split())
    lines = [x for x in measured.stderr.splitlines() if x.strip()]
    assert code == 2 and len(lines) == 1 and "Traceback" not in measured.stderr, measured.stderr[-2000:]
    assert "20000x20000" in lines[0] and "MB" in lines[0], lines[0]
    assert peak_kb < 250 * 1024, f"peak RSS {peak_kb / 1024:.0f} MB"

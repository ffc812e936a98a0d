"""``tablekeeper kiosk`` usage errors: a plain message and exit status 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: What the ``tablekeeper`` console script runs.
MAIN = "import sys; from kiosk.cli.main import main; sys.exit(main())"


def kiosk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", MAIN, "kiosk", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_data_folder_that_is_a_file_is_a_usage_error(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "games.txt"
    not_a_folder.write_text("x")
    proc = kiosk("--data", str(not_a_folder))
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"tablekeeper kiosk: error: --data {not_a_folder} is a file, not a folder"


def test_an_unknown_option_is_a_usage_error() -> None:
    proc = kiosk("--fulscreen")
    assert proc.returncode == 2
    assert "unrecognized arguments: --fulscreen" in proc.stderr and "Traceback" not in proc.stderr


def test_the_help_lists_the_kiosk_options() -> None:
    proc = kiosk("--help")
    assert proc.returncode == 0
    for option in ("--demo", "--data", "--fullscreen", "--screenshots"):
        assert option in proc.stdout

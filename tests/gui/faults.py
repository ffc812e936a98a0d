"""Real faults for the kiosk's tests: a small disk that fills up or turns read-only, and a
writer killed mid-write. Each is done for real (a tmpfs, ``mount -o remount,ro``, SIGKILL),
never mocked, so the code under test meets the errors the kernel really gives.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from zygote import Zygote

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def tmpfs(where: Path, size: str, skip_note: str = "") -> Iterator[Path]:
    """A real disk of ``size`` mounted at ``where`` (made here) for the ``with`` block.

    Skipped where mounting is not allowed; ``skip_note`` says what covers the case then."""
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()}){skip_note}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def remount_read_only(where: Path) -> None:
    """What the kernel does to a failing SD card; skipped where remounting is not allowed."""
    if subprocess.run(["mount", "-o", "remount,ro", str(where)], check=False).returncode != 0:
        pytest.skip("cannot remount read-only here")


def warm_children(preload: list[str], errors: Path) -> Zygote:
    """A zygote with ``preload`` imported, its children run from the project root."""
    return Zygote(preload, ROOT, {**os.environ, "PYTHONPATH": str(ROOT)}, errors)


def run_and_kill(zygote: Zygote, code: str, argv: list[str], ready: bytes, rng: random.Random, *,
                 early: float, wait: float, window: float) -> list[str]:
    """Fork a child running ``code`` with ``argv``, SIGKILL it at a random moment, return the
    lines it printed whole.

    The moment: a random part of ``window`` seconds once it has printed ``ready`` (or after
    ``wait`` s); one time in ten already within a random part of ``early`` seconds, while it
    is still opening. A line cut off by the kill was never "shown", so it is not returned.
    """
    child = zygote.spawn(code, argv)
    buffer = b""
    opening = rng.random() < 0.1
    deadline = time.monotonic() + (rng.uniform(0.0, early) if opening else wait)
    stop_after: float | None = None
    while True:
        now = time.monotonic()
        if stop_after is None and (ready in buffer or now >= deadline):
            stop_after = now + rng.uniform(0.0, window)
        if stop_after is not None and now >= stop_after:
            break
        buffer += child.read(0.005)
    code_, rest, errors = child.kill()
    buffer += rest
    assert code_ == -signal.SIGKILL, f"the child failed on its own ({code_}): {errors[-2000:]}"
    return buffer.decode().split("\n")[:-1]

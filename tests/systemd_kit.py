"""A real systemd for the tests, where the machine has none running: PID 1 of a new PID and
mount namespace, sharing the machine's network (so a unit it runs meets a broker on
127.0.0.1) and its cgroups (where the IP filter's BPF programs are attached).

Only the units a test writes exist for it: ``/lib/systemd/system``, ``/etc/systemd/system``
and ``/run`` are fresh tmpfs in its namespace, so nothing of the host's is started. It
needs root, ``unshare`` and ``/lib/systemd/systemd``; a test skips itself (with the reason)
where those are missing or systemd does not come up. Where systemd is already PID 1 (a
developer's machine) a second one would fight it over the cgroups, so :class:`HostSystemd`
runs the same service text there as a transient unit (``systemd-run -p KEY=VALUE`` for each
line, the drop-ins' lines after the unit's, as systemd reads them).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
import tempfile
import textwrap
import time
from pathlib import Path
from typing import IO

import pytest

SYSTEMD = Path("/lib/systemd/systemd")
#: One namespace systemd at a time on this machine: they share the cgroup tree's top.
LOCK = Path(tempfile.gettempdir()) / "tablekeeper-tests-namespace-systemd.lock"
EMPTY_TARGETS = ("minimal", "sysinit", "basic", "shutdown")
SLICES = ("-.slice", "system.slice")

BOOT = r"""
set -e
mount --make-rprivate /
mount -t tmpfs tmpfs /run
mkdir -p /run/systemd/system
mount -t tmpfs tmpfs /etc/systemd/system
mount -t tmpfs tmpfs /lib/systemd/system
cp "$1"/* /lib/systemd/system/
export container=tablekeeper-test
exec /lib/systemd/systemd --system --unit=minimal.target --log-target=console --log-level=warning
"""


class NamespaceSystemd:
    """systemd as PID 1 of its own namespaces; :meth:`run` starts a unit there and waits for it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.pid = 0
        self._outer: subprocess.Popen[bytes] | None = None
        self._lock: IO[bytes] | None = None

    def boot(self, timeout: float = 20.0) -> NamespaceSystemd:
        if os.geteuid() != 0:
            pytest.skip("a namespace systemd needs root")
        if shutil.which("unshare") is None or not SYSTEMD.exists():
            pytest.skip("needs unshare (util-linux) and /lib/systemd/systemd")
        self._take_lock(timeout=600)
        units = self.folder / "units"
        units.mkdir(parents=True, exist_ok=True)
        for name in EMPTY_TARGETS:
            (units / f"{name}.target").write_text(
                f"[Unit]\nDescription={name} (empty: the test's own systemd)\nDefaultDependencies=no\n")
        for name in SLICES:
            (units / name).write_text(f"[Unit]\nDescription={name}\nDefaultDependencies=no\n")
        log = (self.folder / "systemd.log").open("wb")
        self._outer = subprocess.Popen(
            ["unshare", "--pid", "--fork", "--mount", "--mount-proc", "bash", "-c", BOOT, "boot", str(units)],
            stdout=log, stderr=log, start_new_session=True)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            child = self._child()
            if child and self._ready(child):
                self.pid = child
                return self
            if self._outer.poll() is not None:
                break
            time.sleep(0.1)
        why = (self.folder / "systemd.log").read_text(errors="replace")[-600:]
        self.kill()
        pytest.skip(f"systemd did not come up in a namespace here: {why or 'no output'}")

    def _take_lock(self, timeout: float) -> None:
        """Wait for another test process's systemd (pytest-xdist workers) to be gone."""
        self._lock = LOCK.open("ab")
        end = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() > end:
                    self._lock.close()
                    self._lock = None
                    pytest.skip(f"another test's namespace systemd held {LOCK} for {timeout:g} s")
                time.sleep(0.2)

    def _child(self) -> int:
        assert self._outer is not None
        try:
            text = Path(f"/proc/{self._outer.pid}/task/{self._outer.pid}/children").read_text().split()
        except OSError:
            return 0
        return int(text[0]) if text else 0

    def _ready(self, pid: int) -> bool:
        if not Path(f"/proc/{pid}/root/run/systemd/private").exists():
            return False
        done = self.ctl("is-system-running", pid=pid)
        return done.stdout.strip() in ("running", "degraded")

    def ctl(self, *args: str, pid: int = 0) -> subprocess.CompletedProcess[str]:
        """``systemctl ARGS`` inside the namespace (it talks to systemd's private socket)."""
        return subprocess.run(["nsenter", "-t", str(pid or self.pid), "-m", "-p", "systemctl", *args],
                              capture_output=True, text=True, timeout=30, check=False)

    def run(self, name: str, service: str, dropins: dict[str, str] | None = None,
            timeout: float = 60.0) -> dict[str, str]:
        """Install ``name``.service (and its drop-ins), start it, wait until its command has ended.

        ``service`` should say ``RemainAfterExit=yes``: else systemd forgets a unit that ended
        well at once, and its state with it.
        """
        unit_dir = f"/proc/{self.pid}/root/run/systemd/system"
        Path(unit_dir, f"{name}.service").write_text(textwrap.dedent(service))
        if dropins:
            Path(unit_dir, f"{name}.service.d").mkdir(exist_ok=True)
            for file, text in dropins.items():
                Path(unit_dir, f"{name}.service.d", file).write_text(text)
        self.ctl("daemon-reload")
        started = self.ctl("start", "--no-block", f"{name}.service")
        assert started.returncode == 0, started.stderr
        end = time.monotonic() + timeout
        while True:
            state = self.show(name)
            if state["ExecMainExitTimestampMonotonic"] not in ("", "0"):
                return state
            if time.monotonic() > end:
                raise AssertionError(f"{name}.service did not end: {state}")
            time.sleep(0.2)

    def show(self, name: str) -> dict[str, str]:
        keys = ("ActiveState", "Result", "ExecMainStatus", "ExecMainExitTimestampMonotonic",
                "RestrictAddressFamilies", "IPAddressAllow", "IPAddressDeny", "BindReadOnlyPaths")
        done = self.ctl("show", f"{name}.service", *(f"--property={k}" for k in keys))
        return dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)

    def kill(self) -> None:
        """SIGKILL to the namespace's PID 1 ends every process in it."""
        child = self._child() if self._outer is not None else 0
        if child:
            os.kill(child, signal.SIGKILL)
        if self._outer is not None:
            try:
                self._outer.wait(10)
            except subprocess.TimeoutExpired:
                self._outer.kill()
                self._outer.wait(10)
        if self._lock is not None:
            self._lock.close()  # closing the file lets the lock go
            self._lock = None


class HostSystemd:
    """The machine's own systemd (PID 1): the unit's lines as ``systemd-run`` properties."""

    @staticmethod
    def available() -> bool:
        return Path("/run/systemd/system").is_dir() and shutil.which("systemd-run") is not None

    def run(self, name: str, service: str, dropins: dict[str, str] | None = None,
            timeout: float = 60.0) -> dict[str, str]:
        lines = [*service_lines(service)]
        for text in (dropins or {}).values():
            lines += service_lines(text)
        command = next(v for k, v in lines if k == "ExecStart")
        props = [f"--property={k}={v}" for k, v in lines if k not in ("ExecStart", "Type")]
        done = subprocess.run(["systemd-run", f"--unit={name}", "--wait", "--collect", "--quiet",
                               "--property=Type=oneshot", *props, "--", *command.split()],
                              capture_output=True, text=True, timeout=timeout, check=False)
        return {"ActiveState": "inactive", "Result": "success" if done.returncode == 0 else "failed",
                "ExecMainStatus": str(done.returncode)}

    def kill(self) -> None:
        """Nothing to stop: the transient units are collected when they end."""


def service_lines(text: str) -> list[tuple[str, str]]:
    """The ``[Service]`` section's KEY=VALUE lines, in order (comments and other sections left out)."""
    out, inside = [], False
    for raw in textwrap.dedent(text).splitlines():
        line = raw.strip()
        if line.startswith("["):
            inside = line == "[Service]"
        elif inside and "=" in line and not line.startswith(("#", ";")):
            key, value = line.split("=", 1)
            out.append((key.strip(), value.strip()))
    return out

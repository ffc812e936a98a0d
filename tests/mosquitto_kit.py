"""A real Mosquitto for the club tests: started on 127.0.0.1 on a free port, killed at will.

The broker is Debian's ``mosquitto`` (``./dev test`` installs it); a test that needs it
skips itself where it is missing. Accounts and the ACL come from the documented files in
``docs/club/`` with only the paths and the port changed, so what the tests prove is what
a club installs.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
from pathlib import Path

import pytest
from waiting import wait_for

DOCS = Path(__file__).resolve().parent.parent / "docs" / "club"
MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None
)


def need_mosquitto() -> str:
    if MOSQUITTO is None:
        pytest.skip("Debian's mosquitto is not installed (./dev test installs it)")
    return MOSQUITTO


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broker:
    """One mosquitto process. ``accounts`` (name -> password) switches on the documented ACL."""

    def __init__(
        self, folder: Path, accounts: dict[str, str] | None = None, tls: tuple[Path, Path, Path] | None = None
    ) -> None:
        self.binary = need_mosquitto()
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.accounts = accounts
        self.tls = tls  # (CA certificate, broker certificate, broker key): a TLS listener
        self.process: subprocess.Popen[bytes] | None = None
        self.conf = self._write_conf()

    def _write_conf(self) -> Path:
        """The documented configuration, on a free port of 127.0.0.1, with the files in ``folder``.

        Without ``accounts`` the password file, the ACL and the refusal of anonymous clients
        are left out (every other documented line stays).
        """
        lines = [f"listener {self.port} 127.0.0.1"]
        if self.tls is not None:
            ca, cert, key = self.tls
            lines += [f"cafile {ca}", f"certfile {cert}", f"keyfile {key}"]
        lines += ["log_type error", "log_type warning", "log_type notice", "log_type information"]
        if os.geteuid() == 0:
            lines.append(f"user {getpass.getuser()}")  # else mosquitto drops to a user who cannot read tmp
        passwd = self.folder / "tablekeeper.passwd"
        acl = self.folder / "tablekeeper.acl"
        if self.accounts is None:
            lines.append("allow_anonymous true")
        else:
            passwd.write_text("")
            for name, password in self.accounts.items():
                subprocess.run(["mosquitto_passwd", "-b", str(passwd), name, password], check=True)
            shutil.copy(DOCS / "tablekeeper.acl", acl)
        for line in (DOCS / "mosquitto.conf").read_text().splitlines():
            line = line.strip()
            if not line or line.startswith(("#", "listener")):
                continue
            if self.accounts is None and line.startswith(("allow_anonymous", "password_file", "acl_file")):
                continue
            line = line.replace("/etc/mosquitto/tablekeeper.passwd", str(passwd))
            lines.append(line.replace("/etc/mosquitto/tablekeeper.acl", str(acl)))
        conf = self.folder / "mosquitto.conf"
        conf.write_text("\n".join(dict.fromkeys(lines)) + "\n")
        return conf

    def start(self, timeout: float = 10.0) -> Broker:
        log = (self.folder / "mosquitto.log").open("ab")
        process = self.process = subprocess.Popen([self.binary, "-c", str(self.conf)], stdout=log, stderr=log)

        def listening() -> bool:
            if process.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {(self.folder / 'mosquitto.log').read_text()[-800:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return True
            except OSError:
                return False

        wait_for(listening, f"mosquitto to listen on port {self.port}", timeout=timeout, every=0.05)
        return self

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(10)
        self.process = None

    def pause(self) -> None:
        """Freeze the broker (SIGSTOP): connections stay open, nothing is acknowledged."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        self.kill(signal.SIGTERM)

    def restart(self) -> None:
        self.kill()
        self.start()

    def __enter__(self) -> Broker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

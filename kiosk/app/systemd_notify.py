"""Tell systemd the kiosk is up and alive (``Type=notify``, ``WatchdogSec=``).

The protocol is one datagram on the AF_UNIX socket named in ``NOTIFY_SOCKET`` (a path, or
an abstract name written with a leading ``@``); see ``sd_notify(3)``. It is a few lines of
standard library, so no dependency. Every function is a no-op when ``NOTIFY_SOCKET`` is
unset (a developer's laptop, the tests) and never raises: a failed notification must not
take the kiosk down; systemd's own timeout and watchdog catch a kiosk that truly hangs.

The kiosk calls :func:`notify_ready` once the start screen is drawn and
:func:`watchdog_ping` from the UI loop every :func:`watchdog_interval` seconds, so a
frozen UI stops pinging and systemd restarts it.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)


def _address() -> str | None:
    addr = os.environ.get("NOTIFY_SOCKET")
    if not addr:
        return None
    if addr.startswith("@"):
        return "\0" + addr[1:]  # the abstract namespace
    return addr


def notify(state: str) -> bool:
    """Send ``state`` (e.g. ``"READY=1\\nSTATUS=..."``); True if systemd was told."""
    addr = _address()
    if addr is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(addr)
            sock.sendall(state.encode("utf-8"))
        return True
    except OSError as exc:
        log.warning("cannot notify systemd (%s): %s", os.environ.get("NOTIFY_SOCKET"), exc)
        return False


def notify_ready(status: str = "") -> bool:
    """The start screen is on: systemd marks the unit started."""
    return notify("READY=1" + (f"\nSTATUS={_one_line(status)}" if status else ""))


def notify_status(text: str) -> bool:
    """A one-line status shown by ``systemctl status tablekeeper``."""
    return notify(f"STATUS={_one_line(text)}")


def notify_stopping() -> bool:
    return notify("STOPPING=1")


def watchdog_ping() -> bool:
    """The UI loop is alive."""
    return notify("WATCHDOG=1")


def watchdog_interval() -> float | None:
    """How often to call :func:`watchdog_ping`, in seconds: half of ``WatchdogSec=``.

    None when no watchdog is asked for (``WATCHDOG_USEC`` unset or bad, or meant for
    another process according to ``WATCHDOG_PID``), as ``sd_watchdog_enabled(3)`` does,
    with one difference: on the Pi the unit's main process is cage, the compositor, and
    the kiosk is its child, so a ``WATCHDOG_PID`` naming our parent also means us (the
    unit sets ``NotifyAccess=all`` so systemd accepts our pings).
    """
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if pid and pid not in (str(os.getpid()), str(os.getppid())):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    if value <= 0:
        return None
    return value / 1_000_000 / 2


def _one_line(text: str) -> str:
    return " ".join(str(text).split())

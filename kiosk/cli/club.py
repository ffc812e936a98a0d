"""``tablekeeper club``: the club night's server — every table's game and the live standings.

Subscribes to the club's broker, rebuilds every table's game through the same engines as
the kiosks (a table's game is its transcript), keeps every message in its own SQLite file
and serves a read-only standings page. Runs until stopped (Ctrl-C or SIGTERM).

    tablekeeper club --club riverside --broker 192.168.1.20 --username club-server \\
        --password-file ~/.config/tablekeeper/club-server.secret --listen 0.0.0.0:8080

The page listens on 127.0.0.1 unless ``--listen`` says otherwise: nothing is on the LAN
until the user puts it there.
"""

from __future__ import annotations

import argparse
import signal
import stat
import threading
from pathlib import Path

from kiosk.cli.usage import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--club", required=True, help="the club's name (the kiosks' [club] club)")
    parser.add_argument(
        "--broker", default="127.0.0.1", metavar="HOST", help="the MQTT broker (default 127.0.0.1)"
    )
    parser.add_argument("--port", type=int, help="the broker's port (default 1883, 8883 with --ca)")
    parser.add_argument("--username", default="", help="the club server's broker account")
    parser.add_argument(
        "--password-file", type=Path, metavar="FILE", help="a file holding the account's password (mode 0600)"
    )
    parser.add_argument("--ca", default="", metavar="FILE", help="the CA certificate: connect with TLS")
    parser.add_argument(
        "--listen",
        default="127.0.0.1:8080",
        metavar="ADDR:PORT",
        help="where the standings page listens (default 127.0.0.1:8080; 0.0.0.0:8080 for the whole LAN)",
    )
    parser.add_argument(
        "--db", type=Path, metavar="FILE", help="the club's archive (default: the data directory)"
    )


def parse_listen(text: str) -> tuple[str, int]:

    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) < 65536:
        raise UsageError(f"--listen {text}: give an address and a port, e.g. 0.0.0.0:8080")
    return host.strip("[]") or "127.0.0.1", int(port)


def read_password(path: Path | None) -> str:
    """The password from a file only its owner may read (never from the command line)."""

    if path is None:
        return ""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        text = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise UsageError(f"cannot read the password file {path}: {exc.strerror or exc}") from None
    if mode & 0o077:
        raise UsageError(f"the password file {path} may be read by others: run chmod 600 {path}")
    return text


def run(args: argparse.Namespace) -> int:
    from kiosk.club.server.archive import ArchiveError
    from kiosk.club.server.service import ClubServer, ServerConfig
    from kiosk.club.wire import WireError, check_name
    from kiosk.files import paths

    try:
        club = check_name("club", args.club)
    except WireError as exc:
        raise UsageError(str(exc)) from None
    tls = bool(args.ca)
    config = ServerConfig(
        club=club,
        db=args.db or paths.data_dir() / f"club-{club}.sqlite3",
        broker=args.broker,
        port=args.port or (8883 if tls else 1883),
        username=args.username,
        password=read_password(args.password_file),
        ca=args.ca,
        tls=tls,
        listen=parse_listen(args.listen),
    )
    try:
        server = ClubServer(config).start()
    except ArchiveError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.listen}: {exc.strerror or exc}") from None
    print(
        f"tablekeeper club {club}: standings at {server.url}/ (broker {config.broker}:{config.port})",
        flush=True,
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(1.0):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0

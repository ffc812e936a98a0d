"""``tablekeeper club-night on|off``: turn this kiosk's club night on or off, network included.

``on`` writes the options given into the settings file's ``[club]`` section, checks the
section, resolves the broker and writes the kiosk unit's drop-in that lets the kiosk reach
that broker and nothing else (:mod:`kiosk.club.publish.sandbox`); ``off`` removes the
section and the drop-in. Both reload systemd when it runs; the kiosk needs a restart
(``sudo systemctl restart tablekeeper``) to pick either up.

    sudo tablekeeper club-night on --host 192.168.1.20 --club riverside --table table-3 \\
        --username table-3 --password-file /root/table-3.secret --page http://192.168.1.20:8080
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.cli.usage import UsageError

if TYPE_CHECKING:
    from kiosk.files.settings import Settings

#: Option -> the ``[club]`` key it writes (the password comes from a file, never argv).
KEYS = ("host", "port", "club", "table", "username", "ca", "page")
#: The installed kiosk's settings (the unit's TABLEKEEPER_CONFIG), the default under sudo.
INSTALLED_SETTINGS = Path("/etc/tablekeeper/tablekeeper.toml")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("state", choices=("on", "off"),
                        help="on: publish to the club's broker; off: no network")
    parser.add_argument("--host", help="the club's broker (an address or a name)")
    parser.add_argument("--port", type=int, help="the broker's port (default 1883, 8883 with --ca)")
    parser.add_argument("--club", help="the club's name")
    parser.add_argument("--table", help="this table's name (one MQTT topic level)")
    parser.add_argument("--username", help="this table's broker account")
    parser.add_argument("--password-file", type=Path, metavar="FILE",
                        help="a file (mode 0600) holding the table's broker password")
    parser.add_argument("--ca", metavar="FILE", help="the club's CA certificate: publish with TLS")
    parser.add_argument("--page", metavar="URL", help="the club server's page, for the table's QR code")
    parser.add_argument("--settings", type=Path, metavar="FILE",
                        help="the settings file (default: the kiosk's, /etc/tablekeeper/tablekeeper.toml)")
    parser.add_argument("--unit-dir", type=Path, metavar="DIR",
                        help="the kiosk unit's drop-ins (default /etc/systemd/system/tablekeeper.service.d)")


def run(args: argparse.Namespace) -> int:
    from kiosk.club.publish.sandbox import UNIT_DIR
    from kiosk.files import settings as settings_file

    settings = settings_file.load(args.settings or _settings_path(), keep_aside=False)
    damaged = [p for p in settings.problems if p not in settings.fallbacks]
    if damaged:
        raise UsageError(f"the settings file cannot be changed safely: {damaged[0]}")
    unit_dir = (args.unit_dir or UNIT_DIR).absolute()  # systemd takes only absolute paths in a drop-in
    if args.state == "off":
        return _off(settings, unit_dir)
    return _on(args, settings, unit_dir)


def _on(args: argparse.Namespace, settings: Settings, unit_dir: Path) -> int:
    from kiosk.cli.club import read_password
    from kiosk.club.publish.config import ClubConfigError, from_section
    from kiosk.club.publish.sandbox import DROPIN, HOSTS, BrokerAddressError, dropin_text, hosts_text, resolve

    for key in KEYS:
        value = getattr(args, key)
        if value is not None:
            settings.set("club", key, value)
    if args.password_file is not None:
        settings.set("club", "password", read_password(args.password_file))
    section = settings.section("club")
    try:
        config = from_section(section)
    except ClubConfigError as exc:
        raise UsageError(str(exc)) from None
    if config is None:
        raise UsageError("club night needs the broker: --host ADDRESS (and --club, --table)")
    try:
        opening = resolve(config.host, config.port)
    except BrokerAddressError as exc:
        raise UsageError(f"{exc}; give its address, or fix the name, and try again") from None
    hosts = unit_dir / HOSTS
    try:
        _save(settings)
        if settings.path is not None:
            settings.path.chmod(0o600)  # it holds the broker password
        unit_dir.mkdir(parents=True, exist_ok=True)
        if opening.is_name:
            etc_hosts = Path("/etc/hosts")
            system_hosts = etc_hosts.read_text(encoding="utf-8") if etc_hosts.exists() else ""
            hosts.write_text(hosts_text(opening, system_hosts), encoding="utf-8")
            hosts.chmod(0o644)
        else:
            hosts.unlink(missing_ok=True)
        (unit_dir / DROPIN).write_text(dropin_text(opening, hosts), encoding="utf-8")
    except OSError as exc:
        raise UsageError(_cannot("write", exc)) from None
    print(f"club night on: {config.describe()} (settings: {settings.path})")
    print(f"the kiosk may reach {', '.join(opening.addresses)} and no other address ({unit_dir / DROPIN})")
    if opening.is_name:
        print(f"{opening.host} was resolved now: if the broker's address changes, run this again")
    _reload()
    return 0


def _off(settings: Settings, unit_dir: Path) -> int:
    from kiosk.club.publish.sandbox import DROPIN, HOSTS

    try:
        if "club" in settings.values:
            del settings.values["club"]
            _save(settings)
        for name in (DROPIN, HOSTS):
            (unit_dir / name).unlink(missing_ok=True)
        if unit_dir.is_dir() and not any(unit_dir.iterdir()):
            unit_dir.rmdir()
    except OSError as exc:
        raise UsageError(_cannot("change", exc)) from None
    print("club night off: the kiosk has no network again")
    _reload()
    return 0


def _settings_path() -> Path:
    """$TABLEKEEPER_CONFIG; else the installed kiosk's file where there is one (not root's own)."""
    import os

    from kiosk.files import paths

    if os.environ.get("TABLEKEEPER_CONFIG"):
        return paths.config_file()
    return INSTALLED_SETTINGS if INSTALLED_SETTINGS.parent.is_dir() else paths.config_file()


def _save(settings: Settings) -> None:
    """Save, keeping the file's owner: under sudo the kiosk's own account must still read it."""
    import os

    from kiosk.files import settings as settings_file

    path = settings.path
    assert path is not None
    try:
        owner = path.stat() if path.exists() else path.parent.stat()
    except OSError:
        owner = None
    settings_file.save(settings)
    if owner is not None and os.geteuid() == 0:
        os.chown(path, owner.st_uid, owner.st_gid)


def _reload() -> None:
    """Tell systemd about the drop-in when it runs here; the kiosk itself is not restarted mid-game."""
    if not Path("/run/systemd/system").is_dir() or shutil.which("systemctl") is None:
        print("systemd is not running here: the drop-in takes effect when the kiosk next starts")
        return
    done = subprocess.run(["systemctl", "daemon-reload"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(f"systemctl daemon-reload failed ({done.stderr.strip()}): run it, then restart the kiosk")
        return
    print("restart the kiosk to apply it: sudo systemctl restart tablekeeper")


def _cannot(doing: str, exc: OSError) -> str:
    return f"cannot {doing} {exc.filename or 'the files'}: {exc.strerror or exc} (run it with sudo)"

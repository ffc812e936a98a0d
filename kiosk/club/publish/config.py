"""The kiosk's ``[club]`` settings: where the club's broker is and who this table is.

Club night is opt-in. Without a ``host`` the kiosk builds nothing here, imports no MQTT
client and opens no socket. The password never goes on screen (:meth:`ClubConfig.__repr__`
hides it too) and the settings file that holds it is kept readable by its owner only.

```toml
[club]
host = "192.168.1.20"     # the club's machine running Mosquitto
port = 8883               # default 1883, or 8883 with TLS
club = "riverside"        # one MQTT topic level each: letters, digits, - _ .
table = "table-3"
username = "table-3"      # this table's broker account (see docs/club.md)
password = "..."          # stored 0600
ca = "/etc/tablekeeper/club-ca.crt"   # TLS is on when a CA is given (tls = false to refuse)
page = "http://192.168.1.20:8080"     # the club server's page, for the table's QR code
```
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.club.wire import WireError, check_name


class ClubConfigError(ValueError):
    """A ``[club]`` section that cannot work; the message says which setting and why."""


@dataclass(frozen=True)
class ClubConfig:
    host: str
    club: str
    table: str
    port: int = 1883
    username: str = ""
    password: str = field(default="", repr=False)
    ca: str = ""
    tls: bool = False
    page: str = ""

    def __repr__(self) -> str:  # the dataclass repr would be fine; say so explicitly anyway
        shown = "***" if self.password else ""
        return (
            f"ClubConfig(host={self.host!r}, port={self.port}, club={self.club!r}, table={self.table!r}, "
            f"username={self.username!r}, password={shown!r}, tls={self.tls})"
        )

    @property
    def client_id(self) -> str:
        return f"tablekeeper-{self.club}-{self.table}"

    @property
    def table_url(self) -> str:
        """This table's page on the club server ("" when ``page`` is not set)."""
        return f"{self.page.rstrip('/')}/table/{self.table}" if self.page else ""

    def describe(self) -> str:
        """Where the kiosk publishes, for the screen: never the password."""
        lock = " (TLS)" if self.tls else ""
        return f"{self.table} at {self.club}, broker {self.host}:{self.port}{lock}"


def from_section(section: dict[str, Any]) -> ClubConfig | None:
    """The club settings, or None when club night is off (no ``host``)."""
    host = str(section.get("host") or "").strip()
    if not host:
        return None
    try:
        club = check_name("club", str(section.get("club") or ""))
        table = check_name("table", str(section.get("table") or ""))
    except WireError as exc:
        raise ClubConfigError(f"[club] {exc}") from None
    ca = str(section.get("ca") or "").strip()
    tls_value = section.get("tls")
    tls = bool(ca) if tls_value is None else bool(tls_value)
    if tls and ca and not Path(ca).is_file():
        raise ClubConfigError(f"[club] ca: there is no certificate file {ca}")
    port_value = section.get("port")
    try:
        port = int(port_value) if port_value is not None else (8883 if tls else 1883)
    except (TypeError, ValueError):
        raise ClubConfigError(f"[club] port should be a number, not {port_value!r}") from None
    if not 0 < port < 65536:
        raise ClubConfigError(f"[club] port {port} is not a port number")
    return ClubConfig(
        host=host,
        club=club,
        table=table,
        port=port,
        username=str(section.get("username") or ""),
        password=str(section.get("password") or ""),
        ca=ca,
        tls=tls,
        page=str(section.get("page") or "").strip(),
    )


def keep_private(path: Path | None) -> str:
    """Make a settings file that holds a broker password readable by its owner only (0600).

    Returns a sentence for the banner when it had to change (or could not change) the
    file's permissions, "" otherwise. The password itself is never part of the sentence.
    """
    if path is None:
        return ""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return ""
    if not mode & 0o077:
        return ""
    try:
        os.chmod(path, 0o600)
    except OSError as exc:
        return (
            f"The settings file {path} holds the club password but others may read it, and its "
            f"permissions could not be changed ({exc.strerror or exc}): run chmod 600 on it."
        )
    return f"The settings file {path} holds the club password: it is now readable by its owner only."

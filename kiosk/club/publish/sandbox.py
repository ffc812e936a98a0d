"""The kiosk unit's opening for club night: reach the broker in ``[club]`` and nothing else.

``systemd/tablekeeper.service`` gives the kiosk no network (``RestrictAddressFamilies=
AF_UNIX AF_NETLINK``, ``IPAddressDeny=any``). Club night adds a drop-in,
``/etc/systemd/system/tablekeeper.service.d/club.conf``:

- ``RestrictAddressFamilies=AF_INET`` and/or ``AF_INET6`` (only the families of the broker's
  addresses). A second allow-list line is added to the first (systemd ORs them; only an
  empty assignment resets the list), so AF_UNIX and AF_NETLINK stay allowed.
- ``IPAddressAllow=`` the broker's addresses, each as a single host (/32 or /128). systemd
  prefers the more specific allow over ``IPAddressDeny=any``; every other address stays
  denied. It filters addresses, not ports: the port in ``[club]`` is not enforced here.
- For a host *name*, the addresses it has when the drop-in is written, and a copy of
  ``/etc/hosts`` with that name pinned to them, mounted over ``/etc/hosts`` for the kiosk
  only (``BindReadOnlyPaths=``): the kiosk may not ask a DNS server (that is another
  address), and the name must lead to the addresses allowed. A broker whose address changes
  needs ``tablekeeper club-night on`` again.

Nothing here runs systemd; :mod:`kiosk.cli.club_night` writes the files and reloads it.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from pathlib import Path

#: Where the kiosk unit's drop-ins live on an installed kiosk.
UNIT_DIR = Path("/etc/systemd/system/tablekeeper.service.d")
DROPIN = "club.conf"
HOSTS = "club-hosts"  # not a .conf: systemd ignores it; the drop-in mounts it over /etc/hosts


class BrokerAddressError(ValueError):
    """The broker's host does not resolve; the message says so in plain words."""


@dataclass(frozen=True)
class Opening:
    """What the drop-in allows: the broker ``host`` (as in ``[club]``) at ``addresses``."""

    host: str
    port: int
    addresses: tuple[str, ...]

    @property
    def is_name(self) -> bool:
        return not _is_address(self.host)

    @property
    def families(self) -> tuple[str, ...]:
        versions = {ipaddress.ip_address(a).version for a in self.addresses}
        return tuple(f for v, f in ((4, "AF_INET"), (6, "AF_INET6")) if v in versions)


def resolve(host: str, port: int) -> Opening:
    """The broker's addresses now: an address stays itself; a name is asked of the resolver once."""
    host = host.strip().strip("[]")
    if _is_address(host):
        return Opening(host, port, (str(ipaddress.ip_address(host)),))
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise BrokerAddressError(f"the broker's name {host!r} does not resolve here ({exc})") from None
    addresses: list[str] = []
    for family, *_rest, sockaddr in found:
        if family in (socket.AF_INET, socket.AF_INET6):
            text = str(ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0]))
            if text not in addresses:
                addresses.append(text)
    if not addresses:
        raise BrokerAddressError(f"the broker's name {host!r} has no IPv4 or IPv6 address")
    addresses.sort(key=lambda a: (ipaddress.ip_address(a).version, a))
    return Opening(host, port, tuple(addresses))


def dropin_text(opening: Opening, hosts_path: Path | None = None) -> str:
    """The drop-in's text; ``hosts_path`` is where the pinned hosts file is (a host name only)."""
    lines = [
        "# Written by `tablekeeper club-night on`: club night's broker, and nothing else.",
        f"# Broker {opening.host} port {opening.port}"
        + (f" = {', '.join(opening.addresses)} when this was written." if opening.is_name else "."),
        "# If the broker's address changes, run `tablekeeper club-night on` again.",
        "# `tablekeeper club-night off` removes this file (the kiosk has no network again).",
        "[Service]",
        f"RestrictAddressFamilies={' '.join(opening.families)}",
    ]
    lines += [f"IPAddressAllow={_host_prefix(a)}" for a in opening.addresses]
    if opening.is_name:
        if hosts_path is None:
            raise ValueError("a broker host name needs the pinned hosts file's path")
        lines.append(f"BindReadOnlyPaths={hosts_path}:/etc/hosts")
    return "\n".join(lines) + "\n"


def hosts_text(opening: Opening, system_hosts: str) -> str:
    """``/etc/hosts`` as the kiosk sees it: the system's, with the broker's name pinned."""
    pinned = [f"{a}\t{opening.host}" for a in opening.addresses]
    head = "# The system's /etc/hosts, then club night's broker (tablekeeper club-night on).\n"
    return head + system_hosts.rstrip("\n") + "\n" + "\n".join(pinned) + "\n"


def _host_prefix(address: str) -> str:
    ip = ipaddress.ip_address(address)
    return f"{ip}/{ip.max_prefixlen}"


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True

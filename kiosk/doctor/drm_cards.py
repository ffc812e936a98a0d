"""Which DRM card drives the screen: read from sysfs, for ``tablekeeper doctor`` and the docs.

A Raspberry Pi 5 has more than one DRM card: ``card0`` is usually the V3D GPU, which
renders but has no display outputs, and the HDMI and DSI outputs belong to other cards
(numbered in probe order, which can change between kernels). A compositor or SDL that
opened "the first card" would find no screen. cage (wlroots) probes every card and keeps
only those with display outputs, and SDL's KMS/DRM backend picks the first card with a
connected output, so no setting is needed; doctor shows which card that is, and says when
no card has a connected display.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Card:
    name: str                                   #: "card1"
    driver: str = ""                            #: "vc4", "v3d", "drm-rp1-dsi", ...
    connectors: dict[str, str] = field(default_factory=dict)  #: "DSI-1" -> "connected"

    @property
    def kms(self) -> bool:
        """Has display outputs at all (a render-only GPU has none)."""
        return bool(self.connectors)

    @property
    def connected(self) -> list[str]:
        return [c for c, status in self.connectors.items() if status == "connected"]


def cards(sys_root: Path = Path("/sys")) -> list[Card]:
    """Every DRM card with its driver and its connectors' status, in card-number order."""
    drm = sys_root / "class" / "drm"
    found: dict[str, dict[str, str]] = {}
    try:
        entries = sorted(drm.iterdir(), key=lambda p: p.name)
    except OSError:
        return []
    for entry in entries:
        name = entry.name
        if not name.startswith("card"):
            continue
        card, _, connector = name.partition("-")
        if not card[4:].isdigit():
            continue
        found.setdefault(card, {})
        if connector:
            try:
                found[card][connector] = (entry / "status").read_text().strip()
            except OSError:
                found[card][connector] = "unknown"
    out = []
    for card in sorted(found, key=lambda c: int(c[4:])):
        driver = ""
        link = drm / card / "device" / "driver"
        try:
            driver = Path(link.resolve()).name if link.exists() else ""
        except OSError:
            driver = ""
        out.append(Card(card, driver, found[card]))
    return out


def describe(found: list[Card]) -> str:
    """One line for doctor: which card shows the screen, and what the others are."""
    parts = []
    for card in found:
        what = card.driver or card.name
        if card.connected:
            parts.append(f"{card.name} ({what}): {', '.join(card.connected)} connected")
        elif card.kms:
            parts.append(f"{card.name} ({what}): no display connected")
        else:
            parts.append(f"{card.name} ({what}): renders only, no outputs")
    return "; ".join(parts)

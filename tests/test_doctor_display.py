"""doctor's display check on a Pi 5's DRM layout: a sysfs tree laid out as the kernel does.

A Pi 5 has the V3D GPU as card0 (it renders, it has no outputs) and the display outputs on
other cards; the check must name the card that actually shows the screen, and fail in plain
words when no card has a display connected.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.doctor.checks import FAIL, OK, Context, check_display
from kiosk.doctor.drm_cards import cards, describe
from kiosk.files import settings as settings_file


def _pi5_tree(tmp_path: Path, dsi: str = "connected") -> tuple[Path, Path]:
    sys_root, dev = tmp_path / "sys", tmp_path / "dev"
    drm = sys_root / "class/drm"
    drivers = sys_root / "bus/platform/drivers"
    hdmi = {"HDMI-A-1": "disconnected", "HDMI-A-2": "disconnected"}
    layout = {"card0": ("v3d", {}), "card1": ("vc4-drm", hdmi), "card2": ("drm-rp1-dsi", {"DSI-1": dsi})}
    for card, (driver, connectors) in layout.items():
        (drivers / driver).mkdir(parents=True)
        device = sys_root / "devices" / card
        device.mkdir(parents=True)
        (device / "driver").symlink_to(drivers / driver)
        (drm / card).mkdir(parents=True)
        (drm / card / "device").symlink_to(device)
        for connector, status in connectors.items():
            (drm / f"{card}-{connector}").mkdir()
            (drm / f"{card}-{connector}" / "status").write_text(status + "\n")
        (dev / "dri").mkdir(parents=True, exist_ok=True)
        (dev / "dri" / card).write_text("")
    (drm / "renderD128").mkdir()
    (drm / "version").write_text("drm 1.1.0\n")
    return sys_root, dev


def _context(tmp_path: Path, sys_root: Path, dev: Path, on_pi: bool = True) -> Context:
    settings = settings_file.load(tmp_path / "none.toml")
    return Context(settings=settings, on_pi=on_pi, dev=dev, sys=sys_root)


def test_the_card_that_shows_the_screen_is_found_past_the_render_only_gpu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    sys_root, dev = _pi5_tree(tmp_path)
    found = cards(sys_root)
    assert [c.name for c in found] == ["card0", "card1", "card2"]
    assert [c.driver for c in found] == ["v3d", "vc4-drm", "drm-rp1-dsi"]
    assert not found[0].kms and found[1].kms and found[2].connected == ["DSI-1"]
    assert describe(found) == (
        "card0 (v3d): renders only, no outputs; card1 (vc4-drm): no display connected; "
        "card2 (drm-rp1-dsi): DSI-1 connected"
    )
    result = check_display(_context(tmp_path, sys_root, dev))
    assert result.status == OK and "card2 (drm-rp1-dsi): DSI-1 connected" in result.detail


def test_no_connected_display_on_a_pi_is_a_failure_with_the_fix(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    sys_root, dev = _pi5_tree(tmp_path, dsi="disconnected")
    result = check_display(_context(tmp_path, sys_root, dev))
    assert result.status == FAIL and result.detail.startswith("no DRM card has a display connected")
    assert "sudo reboot" in result.fix

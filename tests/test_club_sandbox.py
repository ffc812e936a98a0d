"""Club night on an installed kiosk: the unit's drop-in lets the publisher reach the broker
in ``[club]`` and nothing else (``tablekeeper club-night on|off``, ``kiosk.club.publish.sandbox``).

The end-to-end proof runs the kiosk's real publisher (``tests/club_probe.py``) under a real
systemd with the shipped unit's sandbox lines and the drop-in the command wrote, against a
real Mosquitto on 127.0.0.1 that also listens on 127.0.0.2. Where no systemd runs (this
project's CI machine), the tests boot one as PID 1 of its own namespaces (``systemd_kit``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mosquitto_kit import Broker, need_mosquitto
from systemd_kit import HostSystemd, NamespaceSystemd, service_lines

from kiosk.club.publish.sandbox import Opening, dropin_text, hosts_text, resolve

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "tablekeeper.service"
PROBE = ROOT / "tests" / "club_probe.py"

#: The shipped unit's lines a test unit cannot carry: the kiosk's account, its tty, session
#: and display, the folders of an installed kiosk (they would be made on this machine), and
#: PrivateTmp (the test's files live in /tmp). Every network and hardening line is carried.
NOT_CARRIED = {
    "Type", "NotifyAccess", "TimeoutStartSec", "WatchdogSec", "Restart", "RestartSec", "TimeoutStopSec",
    "User", "Group", "SupplementaryGroups", "RuntimeDirectory", "RuntimeDirectoryMode", "ExecStart",
    "PAMName", "TTYPath", "TTYReset", "TTYVHangup", "TTYVTDisallocate", "StandardInput",
    "StandardOutput", "StandardError", "UtmpIdentifier", "UtmpMode", "StateDirectory",
    "StateDirectoryMode", "ConfigurationDirectory", "ConfigurationDirectoryMode", "ReadWritePaths",
    "WorkingDirectory", "Environment", "PrivateTmp",
}


def _cli(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk.cli.main", "club-night", *args], cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                          capture_output=True, text=True, timeout=60, check=False)


# ------------------------------------------------------------------ the drop-in's text
def test_an_ipv4_broker_is_one_address_of_one_family() -> None:
    text = dropin_text(resolve("192.168.1.20", 1883))
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    assert lines == ["[Service]", "RestrictAddressFamilies=AF_INET", "IPAddressAllow=192.168.1.20/32"]


def test_an_ipv6_broker_is_its_own_family_and_a_128_bit_prefix() -> None:
    opening = resolve("[fd00::20]", 8883)
    assert opening.addresses == ("fd00::20",) and not opening.is_name
    lines = [line for line in dropin_text(opening).splitlines() if not line.startswith("#")]
    assert lines == ["[Service]", "RestrictAddressFamilies=AF_INET6", "IPAddressAllow=fd00::20/128"]


def test_a_host_name_is_pinned_to_its_addresses_of_both_families(tmp_path: Path) -> None:
    opening = Opening("clubpi.local", 1883, ("192.168.1.20", "fd00::20"))
    hosts = tmp_path / "club-hosts"
    text = dropin_text(opening, hosts)
    assert "RestrictAddressFamilies=AF_INET AF_INET6" in text.splitlines()
    assert [x for x in text.splitlines() if x.startswith("IPAddressAllow=")] == [
        "IPAddressAllow=192.168.1.20/32", "IPAddressAllow=fd00::20/128"]
    assert f"BindReadOnlyPaths={hosts}:/etc/hosts" in text.splitlines()
    assert "# Broker clubpi.local port 1883 = 192.168.1.20, fd00::20 when this was written." in text
    pinned = hosts_text(opening, "127.0.0.1\tlocalhost\n")
    assert pinned.splitlines()[1:] == ["127.0.0.1\tlocalhost", "192.168.1.20\tclubpi.local",
                                       "fd00::20\tclubpi.local"]
    with pytest.raises(ValueError, match="hosts file"):
        dropin_text(opening)


def test_the_port_is_named_but_not_filtered() -> None:
    """systemd's IP filter knows addresses, not ports: the port is only in the comment."""
    text = dropin_text(resolve("10.0.0.5", 8883))
    assert "# Broker 10.0.0.5 port 8883." in text
    assert "8883" not in "\n".join(line for line in text.splitlines() if not line.startswith("#"))


def test_the_unit_and_its_dropin_pass_systemd_analyze(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (apt install systemd)")
    cage = tmp_path / "cage"
    cage.write_text("#!/bin/sh\nexit 0\n")
    cage.chmod(0o755)
    (tmp_path / "tablekeeper.service").write_text(UNIT.read_text().replace("/usr/bin/cage ", f"{cage} ", 1))
    dropins = tmp_path / "tablekeeper.service.d"
    dropins.mkdir()
    hosts = dropins / "club-hosts"
    hosts.write_text("127.0.0.1 localhost\n")
    for host in ("192.168.1.20", "fd00::20"):
        (dropins / "club.conf").write_text(dropin_text(resolve(host, 1883), hosts))
        done = subprocess.run(["systemd-analyze", "verify", "--man=no", "tablekeeper.service"],
                              capture_output=True, text=True, check=False, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "club.conf" not in done.stderr and "tablekeeper.service" not in done.stderr, done.stderr
    named = Opening("clubpi", 1883, ("192.168.1.20", "fd00::20"))
    (dropins / "club.conf").write_text(dropin_text(named, hosts))
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", "tablekeeper.service"],
                          capture_output=True, text=True, check=False, cwd=tmp_path)
    assert "club.conf" not in done.stderr, done.stderr
    # the check can fail: a drop-in line systemd cannot read is reported against the file
    (dropins / "club.conf").write_text("[Service]\nIPAddressAllow=clubpi\n")
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", "tablekeeper.service"],
                          capture_output=True, text=True, check=False, cwd=tmp_path)
    assert "club.conf" in done.stderr


# ------------------------------------------------------------------ the command
def test_club_night_on_writes_the_settings_and_the_dropin_and_off_takes_both_away(tmp_path: Path) -> None:
    secret = tmp_path / "table-3.secret"
    secret.write_text("pw-3\n")
    secret.chmod(0o600)
    cfg, unit_dir = tmp_path / "tablekeeper.toml", tmp_path / "tablekeeper.service.d"
    cfg.write_text('[camera]\nsource = "none"\n')
    if os.geteuid() == 0:
        os.chown(cfg, 4321, 4321)  # the kiosk's account owns its settings; sudo must not take them
    done = _cli("on", "--host", "192.168.1.20", "--club", "riverside", "--table", "table-3",
                "--username", "table-3", "--password-file", str(secret), "--settings", str(cfg),
                "--unit-dir", str(unit_dir))
    assert done.returncode == 0, done.stderr
    assert "the kiosk may reach 192.168.1.20 and no other address" in done.stdout
    assert "pw-3" not in done.stdout + done.stderr
    from kiosk.files import settings

    loaded = settings.load(cfg)
    assert loaded.section("club") == {"host": "192.168.1.20", "club": "riverside", "table": "table-3",
                                      "username": "table-3", "password": "pw-3"}
    assert loaded.section("camera")["source"] == "none"  # the rest of the file is kept
    assert cfg.stat().st_mode & 0o077 == 0
    if os.geteuid() == 0:
        assert (cfg.stat().st_uid, cfg.stat().st_gid) == (4321, 4321)
    assert (unit_dir / "club.conf").read_text() == dropin_text(resolve("192.168.1.20", 1883))
    assert not (unit_dir / "club-hosts").exists()
    # Run again with no options (the broker's address changed): it re-reads [club].
    (unit_dir / "club.conf").unlink()
    again = _cli("on", "--settings", str(cfg), "--unit-dir", str(unit_dir))
    assert again.returncode == 0, again.stderr
    assert (unit_dir / "club.conf").read_text() == dropin_text(resolve("192.168.1.20", 1883))
    assert settings.load(cfg).section("club") == loaded.section("club")

    done = _cli("off", "--settings", str(cfg), "--unit-dir", str(unit_dir))
    assert done.returncode == 0, done.stderr
    assert "club night off" in done.stdout
    assert not unit_dir.exists()  # the unit is as closed as shipped
    after = settings.load(cfg)
    assert "club" not in after.values and after.section("camera")["source"] == "none"


def test_a_broker_name_that_does_not_resolve_changes_nothing(tmp_path: Path) -> None:
    cfg, unit_dir = tmp_path / "tablekeeper.toml", tmp_path / "d"
    done = _cli("on", "--host", "no-such-broker.invalid", "--club", "riverside", "--table", "t1",
                "--settings", str(cfg), "--unit-dir", str(unit_dir))
    assert done.returncode == 2
    assert "the broker's name 'no-such-broker.invalid' does not resolve here" in done.stderr
    assert not cfg.exists() and not unit_dir.exists()


def test_a_relative_unit_dir_gives_a_dropin_with_absolute_paths(tmp_path: Path) -> None:
    """systemd refuses a relative path in ``BindReadOnlyPaths=``: the hosts file is named in full."""
    done = _cli("on", "--host", "localhost", "--club", "riverside", "--table", "t1",
                "--settings", "s.toml", "--unit-dir", "d", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    bind = [line for line in (tmp_path / "d" / "club.conf").read_text().splitlines()
            if line.startswith("BindReadOnlyPaths=")]
    assert bind == [f"BindReadOnlyPaths={tmp_path / 'd' / 'club-hosts'}:/etc/hosts"], bind


def test_a_bad_club_section_is_refused_in_plain_words(tmp_path: Path) -> None:
    done = _cli("on", "--host", "10.0.0.5", "--club", "river side", "--table", "t1",
                "--settings", str(tmp_path / "s.toml"), "--unit-dir", str(tmp_path / "d"))
    assert done.returncode == 2 and "[club] the club name 'river side' must be" in done.stderr, done.stderr
    assert not (tmp_path / "d").exists()


# ------------------------------------------------------------------ the publisher under the sandbox
@pytest.fixture(scope="module")
def systemd(tmp_path_factory: pytest.TempPathFactory):
    if HostSystemd.available():
        yield HostSystemd()
        return
    manager = NamespaceSystemd(tmp_path_factory.mktemp("systemd")).boot()
    try:
        yield manager
    finally:
        manager.kill()


@pytest.fixture
def broker(tmp_path: Path):
    need_mosquitto()
    broker = Broker(tmp_path / "broker")
    # a second address on the same broker: reachable from outside the sandbox, refused inside
    broker.conf.write_text(broker.conf.read_text() + f"listener {broker.port} 127.0.0.2\n")
    broker.start()
    yield broker
    broker.stop()


def _sandboxed_service(folder: Path, cfg: Path) -> str:
    carried = [(k, v) for k, v in service_lines(UNIT.read_text()) if k not in NOT_CARRIED]
    assert ("RestrictAddressFamilies", "AF_UNIX AF_NETLINK") in carried
    assert ("IPAddressDeny", "any") in carried
    prefix = Path(sys.base_prefix).resolve()
    if prefix.is_relative_to("/root") or prefix.is_relative_to("/home"):
        # This machine's Python lives in a home folder, which ProtectHome=yes hides; the Pi's
        # is /usr. Homes stay hidden (an empty tmpfs) but for Python's own folder, read-only.
        carried = [("ProtectHome", "tmpfs") if k == "ProtectHome" else (k, v) for k, v in carried]
        carried.append(("BindReadOnlyPaths", str(prefix)))
    lines = "\n".join(f"{k}={v}" for k, v in carried)
    return (f"[Unit]\nDescription=the kiosk's club publisher in the kiosk's sandbox\n"
            f"[Service]\n{lines}\nReadWritePaths={folder}\nRemainAfterExit=yes\n"
            f"StandardOutput=append:{folder}/probe.log\nStandardError=append:{folder}/probe.log\n"
            f"ExecStart={sys.executable} {PROBE} {cfg} {folder} {folder}/result.json 8\n")


def _publish_in_sandbox(systemd, name: str, folder: Path, cfg: Path, unit_dir: Path | None):
    dropins = None
    if unit_dir is not None and (unit_dir / "club.conf").exists():
        dropins = {"club.conf": (unit_dir / "club.conf").read_text()}
    state = systemd.run(name, _sandboxed_service(folder, cfg), dropins)
    log = (folder / "probe.log").read_text() if (folder / "probe.log").exists() else ""
    assert state["Result"] == "success", (state, log[-2000:])
    return json.loads((folder / "result.json").read_text()), state


def _club(cfg: Path, host: str, port: int) -> None:
    cfg.write_text(f'[club]\nhost = "{host}"\nport = {port}\nclub = "riverside"\ntable = "t1"\n')


def test_the_shipped_unit_alone_lets_the_publisher_reach_no_broker(
    systemd, broker: Broker, tmp_path: Path
) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    cfg = folder / "tablekeeper.toml"
    _club(cfg, "127.0.0.1", broker.port)
    found, _state = _publish_in_sandbox(systemd, "tk-club-closed", folder, cfg, None)
    assert not found["started"], found
    assert found["problems"] == [
        "Club night is off: the kiosk's service may not use the network. "
        "Fix: sudo /opt/tablekeeper/bin/tablekeeper club-night on, then restart the kiosk."]


def test_the_dropin_lets_the_publisher_reach_its_broker_and_no_other_address(
    systemd, broker: Broker, tmp_path: Path
) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    cfg, unit_dir = folder / "tablekeeper.toml", tmp_path / "tablekeeper.service.d"
    done = _cli("on", "--host", "127.0.0.1", "--port", str(broker.port), "--club", "riverside",
                "--table", "t1", "--settings", str(cfg), "--unit-dir", str(unit_dir))
    assert done.returncode == 0, done.stderr
    found, state = _publish_in_sandbox(systemd, "tk-club-open", folder, cfg, unit_dir)
    assert found["connected"] and found["acknowledged"] >= 1, found  # the game's header reached Mosquitto
    assert found["status"] == "connected: every event is at the club"
    if "IPAddressAllow" in state:  # systemd's own account of the merged unit + drop-in
        assert state["IPAddressAllow"] == "127.0.0.1/32"
        assert set(state["RestrictAddressFamilies"].split()) == {"AF_UNIX", "AF_NETLINK", "AF_INET"}

    # The broker moves to another address without the command being run again: refused.
    _club(cfg, "127.0.0.2", broker.port)
    (folder / "result.json").unlink()
    found, _state = _publish_in_sandbox(systemd, "tk-club-other", folder, cfg, unit_dir)
    assert found["started"] and not found["connected"] and found["acknowledged"] == 0, found
    # ... while outside the sandbox that address answers: the refusal is the sandbox's
    outside = subprocess.run(
        [sys.executable, str(PROBE), str(cfg), str(folder), str(folder / "out.json"), "8"],
        capture_output=True, text=True, timeout=60, check=False)
    assert outside.returncode == 0, outside.stderr
    assert json.loads((folder / "out.json").read_text())["connected"]


def test_a_broker_name_reaches_its_pinned_address_inside_the_sandbox(
    systemd, broker: Broker, tmp_path: Path
) -> None:
    """A name only this test's resolver knows: inside, only the pinned hosts file can answer it."""
    if not isinstance(systemd, NamespaceSystemd) or shutil.which("unshare") is None:
        pytest.skip("needs the namespace systemd (the command's resolver learns the name by a bind mount)")
    folder = tmp_path / "run"
    folder.mkdir()
    cfg, unit_dir = folder / "tablekeeper.toml", tmp_path / "tablekeeper.service.d"
    hosts = tmp_path / "hosts"
    hosts.write_text(Path("/etc/hosts").read_text() + "127.0.0.1\tclub-broker.test\n")
    command = (f"mount --bind {hosts} /etc/hosts && exec {sys.executable} -m kiosk.cli.main club-night on "
               f"--host club-broker.test --port {broker.port} --club riverside --table t1 "
               f"--settings {cfg} --unit-dir {unit_dir}")
    done = subprocess.run(["unshare", "--mount", "bash", "-c", command], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "club-broker.test was resolved now" in done.stdout
    assert "BindReadOnlyPaths=" in (unit_dir / "club.conf").read_text()
    found, _state = _publish_in_sandbox(systemd, "tk-club-name", folder, cfg, unit_dir)
    assert found["connected"] and found["acknowledged"] >= 1, found

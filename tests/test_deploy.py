"""Deployment: the unit passes systemd-analyze, the installer is shellcheck-clean and
idempotent in a scratch root, sd_notify reaches a real socket, and the package builds no
shell commands and opens no network port."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.app import systemd_notify

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "tablekeeper.service"
INSTALLER = ROOT / "systemd" / "install-pi.sh"


def _unit_values(key: str) -> list[str]:
    return [line.split("=", 1)[1] for line in UNIT.read_text().splitlines() if line.startswith(f"{key}=")]


# ------------------------------------------------------------------ the unit
def test_systemd_analyze_verify_passes(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (apt install systemd)")
    # cage is not installed on CI machines: point ExecStart's binary at a stand-in that
    # exists, and verify everything else exactly as shipped.
    fake_cage = tmp_path / "cage"
    fake_cage.write_text("#!/bin/sh\nexit 0\n")
    fake_cage.chmod(0o755)
    text = UNIT.read_text()
    assert " /usr/bin/cage " in next(x for x in text.splitlines() if x.startswith("ExecStart="))
    (tmp_path / "tablekeeper.service").write_text(text.replace("/usr/bin/cage ", f"{fake_cage} ", 1))
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(tmp_path / "tablekeeper.service")],
        capture_output=True, text=True, check=False, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "tablekeeper.service" not in done.stderr, done.stderr  # no warnings about our unit


def test_unit_has_the_promised_settings() -> None:
    assert _unit_values("Type") == ["notify"] and _unit_values("Restart") == ["always"]
    assert int(_unit_values("WatchdogSec")[0]) >= 10
    assert _unit_values("User") == ["tablekeeper"]
    assert set(_unit_values("SupplementaryGroups")[0].split()) >= {"gpio", "video", "render", "input"}
    assert _unit_values("StateDirectory") == ["tablekeeper"]
    assert _unit_values("ConfigurationDirectory") == ["tablekeeper"]
    env = dict(v.split("=", 1) for v in _unit_values("Environment"))
    assert env["TABLEKEEPER_DATA"] == "/var/lib/tablekeeper"
    assert env["TABLEKEEPER_CONFIG"].startswith("/etc/tablekeeper/")
    assert env["KIVY_HOME"].startswith("/var/lib/tablekeeper")
    assert any(k.startswith("KCFG_") for k in env)
    # The pip Kivy's SDL2 has no Wayland backend: X11 through Xwayland; cage must start without
    # any input device rather than fail.
    assert env["SDL_VIDEODRIVER"] == "x11" and env["WLR_LIBINPUT_NO_DEVICES"] == "1"
    for key, value in {"ProtectSystem": "strict", "ProtectHome": "yes", "NoNewPrivileges": "yes",
                       "PrivateTmp": "yes", "DevicePolicy": "closed"}.items():
        assert _unit_values(key) == [value], key
    assert _unit_values("RestrictAddressFamilies") == ["AF_UNIX AF_NETLINK"]  # no AF_INET: no network
    allowed = " ".join(_unit_values("DeviceAllow"))
    for device in ("char-drm", "char-input", "char-gpiochip", "char-video4linux", "char-dma_heap",
                   "char-spi", "/dev/pio0"):
        assert device in allowed, device
    # The writable places the hardening leaves are exactly the data and settings folders.
    assert _unit_values("ReadWritePaths") == ["-/etc/tablekeeper"]
    assert _unit_values("RuntimeDirectory") == ["tablekeeper"]
    assert "XDG_RUNTIME_DIR=/run/tablekeeper" in _unit_values("ExecStart")[0]
    assert int(_unit_values("StartLimitBurst")[0]) > 1 and _unit_values("OnFailure")


# ------------------------------------------------------------------ the installer
PACKAGES = ("games", "kiosk", "vision", "hardware", "calibration")

def test_installer_is_shellcheck_clean() -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt install shellcheck)")
    done = subprocess.run(["shellcheck", "-x", str(INSTALLER)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout


def _snapshot(root: Path) -> dict[str, tuple]:
    """Every path under root with its type, mode, owner, size, mtime and content hash."""
    out: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        digest = ""
        if stat.S_ISREG(st.st_mode):
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        elif stat.S_ISLNK(st.st_mode):
            digest = os.readlink(path)
        key = str(path.relative_to(root))
        out[key] = (st.st_mode, st.st_uid, st.st_gid, st.st_size, st.st_mtime_ns, digest)
    return out


def _seed_root(root: Path, *, python: bool = True, screen: bool = True) -> None:
    """A scratch root with the account files; ``python``: Debian's Python 3 in it (this
    machine's, by the same paths), ``screen``: cage and Xwayland (stand-ins: the installer
    only looks for them, as this machine cannot run a root that has no libraries)."""
    etc = root / "etc"
    etc.mkdir(parents=True)
    (etc / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (etc / "group").write_text("root:x:0:\nvideo:x:44:\n")
    (etc / "shadow").write_text("root:*:19000:0:99999:7:::\n")
    (etc / "gshadow").write_text("root:*::\nvideo:*::\n")
    for name in ("shadow", "gshadow"):
        (etc / name).chmod(0o640)
    bin_dir = root / "usr/bin"
    bin_dir.mkdir(parents=True)
    if python:
        real = Path("/usr/bin/python3").resolve()
        shutil.copy2(real, bin_dir / real.name)
        (bin_dir / "python3").symlink_to(real.name)
    if screen:
        for name in ("cage", "Xwayland"):
            (bin_dir / name).write_text("#!/bin/sh\nexit 0\n")
            (bin_dir / name).chmod(0o755)


def _source_copy(tmp_path: Path) -> Path:
    """The installer and the package, copied: other work in the checkout is not a change."""
    source = tmp_path / "source"
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    for part in ("systemd", "docs", *PACKAGES):
        if (ROOT / part).is_dir():
            shutil.copytree(ROOT / part, source / part, ignore=junk)
    shutil.copy2(ROOT / "pyproject.toml", source / "pyproject.toml")
    return source


def _need_root_and_tools() -> None:
    if os.geteuid() != 0:
        pytest.skip("the installer creates a user and chowns folders: run as root (CI does)")
    if not Path("/usr/bin/python3").exists() or shutil.which("useradd") is None:
        pytest.skip("needs Debian's /usr/bin/python3 and useradd")


@pytest.mark.slow
def test_installer_runs_in_a_scratch_root_and_a_second_run_changes_nothing(tmp_path: Path) -> None:
    _need_root_and_tools()
    root = tmp_path / "root"
    _seed_root(root)
    source = _source_copy(tmp_path)
    # --no-apt: the root has what apt would bring (this machine cannot run the root's apt);
    # --python: the root's python3 cannot run here (no libraries), so this machine's builds the venv.
    cmd = ["bash", str(source / "systemd" / "install-pi.sh"), "--root", str(root), "--no-deps", "--no-apt",
           "--python", "/usr/bin/python3"]
    first = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=300)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "skipping" in first.stdout  # off a Pi: the Pi-only parts are skipped, and it says so
    assert (f"==> {root} can start the kiosk: Python 3, cage, Xwayland, the venv and the unit; its files "
            "are there (checked by file only: this machine cannot run the root's programs)") in first.stdout
    assert "==> done: " in first.stdout
    # What the first run made.
    passwd = (root / "etc/passwd").read_text()
    assert re.search(r"^tablekeeper:x:\d+:\d+:tablekeeper kiosk:/var/lib/tablekeeper:/usr/sbin/nologin$",
                     passwd, re.M)
    groups = (root / "etc/group").read_text()
    for g in ("gpio", "video", "render", "input", "spi"):
        assert re.search(rf"^{g}:x:\d+:(.*,)?tablekeeper(,|$)", groups, re.M), g
    assert (root / "etc/systemd/system/tablekeeper.service").read_bytes() == UNIT.read_bytes()
    assert (root / "etc/systemd/system/multi-user.target.wants/tablekeeper.service").is_symlink()
    assert 'SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"' in (
        root / "etc/udev/rules.d/99-tablekeeper-pio.rules").read_text()
    data = (root / "var/lib/tablekeeper").stat()
    assert stat.S_IMODE(data.st_mode) == 0o750 and data.st_uid != 0
    venv = root / "opt/tablekeeper"
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    # Built with this machine's Python (the root's cannot run here): its scripts are relocated
    # to name the interpreter where the Pi will have it, not the build folder.
    script = (venv / "bin/tablekeeper").read_text().splitlines()[0]
    assert script == "#!/opt/tablekeeper/bin/python", script
    help_text = subprocess.run([str(venv / "bin/python"), "-m", "kiosk.cli.main", "--help"],
                               capture_output=True, text=True, check=False, env={"PATH": "/usr/bin:/bin"})
    assert help_text.returncode == 0 and "doctor" in help_text.stdout
    before = _snapshot(root)
    second = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=300)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "nothing to change" in second.stdout and "changed:" not in second.stdout
    assert _snapshot(root) == before


def test_installer_refuses_an_empty_root_in_plain_words(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("the installer runs as root")
    done = subprocess.run(["bash", str(INSTALLER), "--root", str(tmp_path), "--no-deps"],
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "has no etc/passwd or etc/group: --root needs a Debian root" in done.stderr
    assert "groupadd" not in done.stderr and list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_installer_enables_spi_for_a_pi_4_ring_once(tmp_path: Path) -> None:
    if os.geteuid() != 0 or shutil.which("useradd") is None:
        pytest.skip("the installer creates a user: run as root (CI does)")
    root = tmp_path / "root"
    _seed_root(root)
    config = root / "boot/firmware/config.txt"
    config.parent.mkdir(parents=True)
    config.write_text("[all]\ndtoverlay=vc4-kms-v3d\n")
    source = _source_copy(tmp_path)
    cmd = ["bash", str(source / "systemd/install-pi.sh"), "--root", str(root), "--no-deps", "--no-apt",
           "--pi", "Raspberry Pi 4 Model B Rev 1.5", "--python", "/usr/bin/python3", "--no-enable"]
    first = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=300)
    assert first.returncode == 0, first.stdout + first.stderr
    text = config.read_text()
    assert text.startswith("[all]\ndtoverlay=vc4-kms-v3d\n")
    for line in ("dtparam=spi=on", "core_freq=500", "core_freq_min=500"):
        assert text.count(f"\n{line}\n") == 1, text
    second = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=300)
    assert second.returncode == 0 and config.read_text() == text and "changed:" not in second.stdout


def test_installer_refuses_a_root_with_no_python_and_says_no_done(tmp_path: Path) -> None:
    _need_root_and_tools()
    root = tmp_path / "root"
    _seed_root(root, python=False)
    before = _snapshot(root)
    done = subprocess.run(["bash", str(INSTALLER), "--root", str(root), "--no-deps", "--no-apt"],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.splitlines() == [
        f"install-pi.sh: refusing: {root} cannot start the kiosk; it has no:",
        "  - Python 3 (/usr/bin/python3, apt package python3)",
        "Install these into the root (or run without --no-apt, where this machine can run the root's"
        " programs).",
    ]
    assert "done" not in done.stdout and "Reboot" not in done.stdout
    assert _snapshot(root) == before  # refused before anything was written


def test_installer_refuses_apt_into_a_root_this_machine_cannot_run(tmp_path: Path) -> None:
    """No --no-apt: the root lacks cage, scowl, tesseract ..., and chroot cannot run its programs."""
    _need_root_and_tools()
    root = tmp_path / "root"
    _seed_root(root)
    chrooted = subprocess.run(["chroot", str(root), "/bin/true"], capture_output=True, check=False)
    assert chrooted.returncode != 0
    before = _snapshot(root)
    done = subprocess.run(["bash", str(INSTALLER), "--root", str(root), "--no-deps"],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"install-pi.sh: refusing: {root} lacks system packages the kiosk needs (" in done.stderr
    for package in ("python3", "cage", "xwayland", "scowl", "tesseract-ocr"):
        assert f" {package} " in done.stderr.replace("(", "( ").replace(")", " )"), package
    assert f"this machine cannot run the root's programs to install them (chroot {root} /bin/true fails" \
        in done.stderr
    assert "done" not in done.stdout and "Reboot" not in done.stdout
    assert _snapshot(root) == before


@pytest.mark.slow
def test_installer_refuses_a_venv_whose_interpreter_the_root_lacks(tmp_path: Path) -> None:
    """The final check: the venv links to the interpreter that built it, by its path on the Pi."""
    _need_root_and_tools()
    root = tmp_path / "root"
    _seed_root(root)
    elsewhere = tmp_path / "elsewhere" / "python3"  # a path this machine has and the Pi will not
    elsewhere.parent.mkdir()
    elsewhere.symlink_to(Path("/usr/bin/python3").resolve())
    done = subprocess.run(["bash", str(_source_copy(tmp_path) / "systemd/install-pi.sh"), "--root", str(root),
                           "--no-deps", "--no-apt", "--python", str(elsewhere), "--no-enable"],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.splitlines() == [
        f"install-pi.sh: refusing: {root} cannot start the kiosk; it has no:",
        f"  - the kiosk's Python environment (/opt/tablekeeper/bin/python, which leads to {elsewhere})",
    ]
    assert "changed: tablekeeper in" in done.stdout  # it did install, and then found the fault
    assert "done" not in done.stdout and "Reboot" not in done.stdout


def test_installer_refuses_unknown_options() -> None:
    done = subprocess.run(["bash", str(INSTALLER), "--frobnicate"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2 and "unknown option: --frobnicate" in done.stderr


# ------------------------------------------------------------------ sd_notify
def _listen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, abstract: bool) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    if abstract:
        name = f"tablekeeper-test-{os.getpid()}-{id(sock)}"
        sock.bind("\0" + name)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
    else:
        path = tmp_path / "notify.sock"
        sock.bind(str(path))
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    sock.settimeout(2)
    return sock


@pytest.mark.parametrize("abstract", [False, True])
def test_notify_messages_reach_the_socket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, abstract: bool
) -> None:
    with _listen(tmp_path, monkeypatch, abstract) as sock:
        assert systemd_notify.notify_ready("start screen\nshown")
        assert sock.recv(4096) == b"READY=1\nSTATUS=start screen shown"
        assert systemd_notify.watchdog_ping()
        assert sock.recv(4096) == b"WATCHDOG=1"
        assert systemd_notify.notify_status("Upwords: Ann to play")
        assert sock.recv(4096) == b"STATUS=Upwords: Ann to play"


def test_notify_is_a_no_op_without_systemd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert systemd_notify.notify_ready() is False and systemd_notify.watchdog_ping() is False


def test_notify_never_raises_when_systemd_is_gone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "nobody-listens.sock"))
    assert systemd_notify.watchdog_ping() is False


def test_watchdog_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert systemd_notify.watchdog_interval() is None
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    assert systemd_notify.watchdog_interval() == 15.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getppid()))  # cage is our parent on the Pi
    assert systemd_notify.watchdog_interval() == 15.0
    monkeypatch.setenv("WATCHDOG_PID", "1")
    assert systemd_notify.watchdog_interval() is None
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    for bad in ("", "soon", "0", "-5"):
        monkeypatch.setenv("WATCHDOG_USEC", bad)
        assert systemd_notify.watchdog_interval() is None


# ------------------------------------------------------------------ security

def test_no_shell_command_is_built_anywhere_in_the_package() -> None:
    offenders = []
    pattern = re.compile(
        r"shell\s*=\s*True|os\.system\(|os\.popen\(|subprocess\.getoutput|commands\.getoutput"
    )
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if pattern.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def _sockets_of(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def _listening_inet_inodes() -> set[str]:
    listening = set()
    for table in ("tcp", "tcp6", "udp", "udp6"):
        path = Path("/proc/net") / table
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            state, inode = fields[3], fields[9]
            if table.startswith("udp") or state == "0A":  # 0A = LISTEN; any bound UDP socket counts
                listening.add(inode)
    return listening


@pytest.mark.slow
def test_the_command_line_opens_no_network_port(tmp_path: Path) -> None:
    """The whole CLI, under doctor (which touches every part), holds no inet socket."""
    env = {**os.environ, "TABLEKEEPER_DATA": str(tmp_path / "data"),
           "TABLEKEEPER_CONFIG": str(tmp_path / "tk.toml"), "PYTHONPATH": str(ROOT)}
    code = (
        "import os, sys\n"
        "from kiosk.cli.main import main\n"
        "main(['doctor'])\n"
        "sys.stdout.flush(); print('PID', os.getpid(), flush=True); sys.stdin.readline()\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, env=env, cwd=ROOT)
    try:
        assert proc.stdout is not None
        pid = None
        for line in proc.stdout:
            if line.startswith("PID "):
                pid = int(line.split()[1])
                break
        assert pid == proc.pid
        assert _sockets_of(pid) & _listening_inet_inodes() == set()
    finally:
        proc.kill()
        proc.wait()


KIOSK_ARGV = [b"-m", b"kiosk.cli.main", b"kiosk"]


def _ready_sender(sock: socket.socket, deadline: float) -> tuple[int, bytes]:
    """Wait for READY=1 on the notify socket; return the sender's pid (SCM_CREDENTIALS) and message."""
    import struct
    import time

    creds_size = struct.calcsize("3i")
    while time.monotonic() < deadline:
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            msg, ancdata, _flags, _addr = sock.recvmsg(4096, socket.CMSG_SPACE(creds_size))
        except TimeoutError:
            break
        if b"READY=1" not in msg:
            continue
        for level, kind, data in ancdata:
            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                pid, _uid, _gid = struct.unpack("3i", data[:creds_size])
                # Xvfb (like any X server) announces itself on NOTIFY_SOCKET too: skip it.
                if Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[1:4] == KIOSK_ARGV:
                    return pid, msg
    raise AssertionError("the kiosk never said READY=1")


@pytest.mark.slow
@pytest.mark.gui
def test_the_running_kiosk_says_ready_and_opens_no_network_port(tmp_path: Path) -> None:
    """Start the real kiosk (demo mode, under Xvfb) as systemd would, with a notify socket."""
    import signal
    import time

    if shutil.which("xvfb-run") is None:
        pytest.skip("xvfb-run is not installed (apt install xvfb)")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify.sock"))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    env = {**os.environ, "NOTIFY_SOCKET": str(tmp_path / "notify.sock"), "WATCHDOG_USEC": "4000000",
           "TABLEKEEPER_DATA": str(tmp_path / "data"), "TABLEKEEPER_CONFIG": str(tmp_path / "tk.toml"),
           "PYTHONPATH": str(ROOT)}
    env.pop("WATCHDOG_PID", None)
    proc = subprocess.Popen(
        ["xvfb-run", "-a", "-s", "-screen 0 800x480x24", sys.executable, *map(bytes.decode, KIOSK_ARGV),
         "--demo"],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        pid, message = _ready_sender(sock, time.monotonic() + 90)
        assert message.startswith(b"READY=1")
        # The watchdog keeps being fed by the UI loop (WATCHDOG_USEC=4 s: a ping every second or two).
        sock.settimeout(5)
        pings = 0
        end = time.monotonic() + 5
        while time.monotonic() < end and pings < 2:
            if sock.recv(4096) == b"WATCHDOG=1":
                pings += 1
        assert pings >= 2, "the UI loop does not ping the watchdog"
        inet = _listening_inet_inodes()
        assert _sockets_of(pid) & inet == set(), "the kiosk holds a listening network socket"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        sock.close()

"""The checks behind ``tablekeeper doctor``: each one small, each answering in plain words.

A check is a function ``(Context) -> Result``. It never raises: a part of tablekeeper
that is missing or broken is itself a finding (``Result.fail``), and :func:`run_checks`
turns any unexpected exception into one too, so ``doctor`` always prints a full report.
Modules owned by other parts (hardware, vision, calibration, the word list) are imported
inside the check that needs them.

Each finding that is not OK carries ``fix``: the one command (or edit) that repairs it.
"Warn" is for what the kiosk copes with (no camera: it referees by touch); "fail" is for
what a person must fix, and makes ``doctor`` exit non-zero.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.files import paths
from kiosk.files import settings as settings_file

OK, WARN, FAIL = "ok", "warn", "fail"

#: Below this much free space in the data directory, warn; below the second, fail.
LOW_SPACE = 200 * 1024 * 1024
VERY_LOW_SPACE = 20 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Result:
    """One line of the report."""

    name: str
    status: str
    detail: str
    fix: str = ""

    @classmethod
    def ok(cls, name: str, detail: str) -> Result:
        return cls(name, OK, detail)

    @classmethod
    def warn(cls, name: str, detail: str, fix: str = "") -> Result:
        return cls(name, WARN, detail, fix)

    @classmethod
    def fail(cls, name: str, detail: str, fix: str = "") -> Result:
        return cls(name, FAIL, detail, fix)


@dataclass
class Context:
    """What every check may look at; built once by the command."""

    settings: settings_file.Settings
    on_pi: bool
    test_devices: bool = False
    #: Where /dev, /proc and /sys are (tests point these at a prepared tree).
    dev: Path = Path("/dev")
    proc: Path = Path("/proc")
    sys: Path = Path("/sys")
    service_user: str = "tablekeeper"
    notes: list[str] = field(default_factory=list)

    def config_path(self) -> Path:
        return self.settings.path or paths.config_file()


Check = Callable[[Context], Result]


def _missing_module(name: str, exc: ImportError) -> Result:
    return Result.fail(
        name,
        f"this part of tablekeeper is missing ({exc})",
        "reinstall tablekeeper: sudo systemd/install-pi.sh",
    )


# ------------------------------------------------------------------ who is asking
#: The groups the kiosk user needs on a Pi: GPIO, display (video, render), touch (input).
KIOSK_GROUPS = ("gpio", "video", "render", "input")


def check_user(ctx: Context) -> Result:
    """Permission checks only mean something when run as the kiosk's own user."""
    import grp
    import pwd

    name = "user"
    me = pwd.getpwuid(os.geteuid()).pw_name
    if os.geteuid() == 0:
        return Result.warn(
            name,
            "running as root: the permission checks below cannot fail for root",
            f"sudo -u {ctx.service_user} TABLEKEEPER_DATA=/var/lib/tablekeeper "
            f"TABLEKEEPER_CONFIG=/etc/tablekeeper/tablekeeper.toml "
            f"/opt/tablekeeper/bin/tablekeeper doctor",
        )
    mine = {grp.getgrgid(g).gr_name for g in os.getgroups()}
    missing = [g for g in KIOSK_GROUPS if g not in mine] if ctx.on_pi else []
    if missing:
        return Result.fail(
            name,
            f"{me} is not in the group(s) {', '.join(missing)}",
            f"sudo usermod -aG {','.join(missing)} {me}  (then log in again)",
        )
    return Result.ok(name, f"{me}, in {', '.join(sorted(mine)) or 'no extra groups'}")


# ------------------------------------------------------------------ files and data
def check_data_dir(ctx: Context) -> Result:
    name = "data directory"
    folder = paths.data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-"):
            pass
    except FileExistsError:
        return Result.fail(
            name, f"{folder} is a file, not a folder", f"move the file away: sudo mv {folder} {folder}.old"
        )
    except OSError as exc:
        if exc.errno == errno.EROFS:  # the kernel turns a failing card read-only
            return Result.fail(
                name,
                f"{folder} is on a read-only file system: the kiosk shows its games from a copy "
                f"and keeps new entries only until it stops",
                "copy the data off first (sudo cp -a /var/lib/tablekeeper ~/), then look for card "
                "errors: sudo dmesg | grep -i -e mmc -e ext4; a card that turned read-only is failing",
            )
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return Result.fail(
                name,
                f"{folder}: the disk is full",
                f"free space: sudo du -xh {folder.anchor} --max-depth=2 | sort -h | tail",
            )
        return Result.fail(
            name,
            f"cannot write to {folder}: {exc.strerror or exc}",
            f"sudo install -d -o {ctx.service_user} -g {ctx.service_user} -m 750 {folder}",
        )
    free = shutil.disk_usage(folder).free
    mib = free // (1024 * 1024)
    if free < VERY_LOW_SPACE:
        return Result.fail(
            name,
            f"{folder}: only {mib} MiB free — the game log cannot grow",
            f"free space: sudo du -xh {folder.anchor} --max-depth=2 | sort -h | tail",
        )
    if free < LOW_SPACE:
        return Result.warn(
            name,
            f"{folder}: writable, but only {mib} MiB free",
            "sudo apt-get clean && sudo journalctl --vacuum-size=50M",
        )
    return Result.ok(name, f"{folder}: writable, {mib} MiB free")


def check_game_log(ctx: Context) -> Result:
    """Read-only: doctor never creates, changes, moves or even opens the log (only a copy)."""
    name = "game log"
    path = paths.game_log_file()
    aside = sorted(path.parent.glob(f"{path.name}.damaged-*[0-9]"))
    if not path.exists():
        if aside:
            return _kept_aside(name, f"{path}: none yet", aside)
        return Result.ok(name, f"{path}: none yet (created at the first game)")
    restart = (
        "sudo systemctl restart tablekeeper  (it keeps the damaged log aside, "
        "recovers what it can and starts a new one)"
    )
    wal = path.with_name(path.name + "-wal")
    wal_size = wal.stat().st_size if wal.exists() else 0
    if path.stat().st_size == 0:
        if wal_size:
            return Result.fail(
                name,
                f"{path} is damaged: it is empty (0 bytes), but its journal {wal.name} holds "
                f"{wal_size} bytes of entries (the kiosk keeps both aside and recovers them)",
                restart,
            )
        return Result.fail(name, f"{path} is damaged: it is empty (0 bytes), its games are gone", restart)
    from kiosk.gamelog.ack import JOURNAL_LOST, loss_sentence, read_ack

    ack = read_ack(path)
    verdict, games, held, earlier = _read_log_copy(path, ack.game if ack else 0)
    if verdict is None:
        return Result.fail(name, f"cannot read {path}", f"sudo chown -R {ctx.service_user}: {path.parent}")
    if verdict != "ok":
        return Result.fail(name, f"{path} is damaged ({verdict})", restart)
    lost = loss_sentence(ack, held, JOURNAL_LOST, earlier) if ack else None
    if lost:
        return Result.warn(name, f"{path}: readable, {games} game(s), but what it had saved is gone: {lost}",
                           "nothing brings it back; the kiosk says so once at its next start")
    if aside:
        return _kept_aside(name, f"{path}: healthy, {games} game(s)", aside)
    return Result.ok(name, f"{path}: healthy, {games} game(s)")


def _read_log_copy(path: Path, game: int = 0) -> tuple[str | None, int, int | None, int]:
    """SQLite's verdict on a *copy* of the log with its side files, its count of games, the
    entries it holds of game ``game`` (None: no such game) and its games numbered below it.

    The kiosk's own file is only copied, never opened: a connection to it, even read-only,
    could take part in the WAL's life (a checkpoint, the WAL reset at close), and a log being
    rescued must be found exactly as it was. None when the files cannot be read at all.
    """
    from kiosk.gamelog.errors import is_corruption

    with tempfile.TemporaryDirectory(prefix="tablekeeper-doctor-") as tmp:
        copy = Path(tmp) / path.name
        try:
            shutil.copyfile(path, copy)
            for suffix in ("-wal", "-shm"):
                side = path.with_name(path.name + suffix)
                if side.exists():
                    shutil.copyfile(side, copy.with_name(copy.name + suffix))
        except OSError:
            return None, 0, None, 0
        held, earlier = None, 0
        try:
            conn = sqlite3.connect(copy)
            conn.text_factory = lambda raw: raw.decode("utf-8", "replace")
            try:
                verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
                tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                if verdict == "ok" and "games" not in tables:
                    verdict = "it holds no game tables"
                games = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] if verdict == "ok" else 0
                if verdict == "ok" and game:
                    row = conn.execute("SELECT (SELECT COUNT(*) FROM events WHERE game_id = ?) FROM games "
                                       "WHERE id = ?", (game, game)).fetchone()
                    held = None if row is None else int(row[0])
                    earlier = conn.execute("SELECT COUNT(*) FROM games WHERE id < ?", (game,)).fetchone()[0]
            finally:
                conn.close()
        except sqlite3.Error as exc:
            if not is_corruption(exc):
                return f"it cannot be read as a database ({exc})", 0, None, 0
            return str(exc), 0, None, 0
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}", 0, None, 0
    return str(verdict), int(games), held, int(earlier)


def _kept_aside(name: str, now: str, aside: list[Path]) -> Result:
    """A damaged log was kept aside at some start: say so until a person has looked at it."""
    return Result.warn(
        name,
        f"{now}; {len(aside)} damaged log(s) kept aside, newest {aside[-1]} "
        f"(what was recovered from it is in the new log; the kiosk's journal says what was not)",
        f"journalctl -u tablekeeper | grep 'game log was damaged'; then, once nothing more is wanted "
        f"from it: sudo rm {aside[-1]}*",
    )


def check_settings(ctx: Context) -> Result:
    name = "settings"
    path = ctx.config_path()
    damage = [p for p in ctx.settings.problems if p not in ctx.settings.fallbacks]
    if damage:
        return Result.fail(name, "; ".join(ctx.settings.problems), f"edit {path} (or delete it for defaults)")
    try:
        from hardware.config import HardwareConfig, HardwareConfigError
    except ImportError as exc:
        return _missing_module(name, exc)
    try:
        HardwareConfig.from_section(ctx.settings.section("hardware"))
    except HardwareConfigError as exc:
        return Result.fail(name, "; ".join(exc.problems), f"edit the [hardware] table in {path}")
    if ctx.settings.fallbacks:  # the kiosk runs on the defaults of these: a warning, not a failure
        return Result.warn(name, "; ".join(ctx.settings.fallbacks), f"edit {path}: the settings screen sets "
                           "only values within the limits")
    where = str(path) if path.exists() else f"{path} (not there: defaults)"
    return Result.ok(name, where)


def check_calibration(ctx: Context) -> Result:
    name = "calibration"
    path = paths.calibration_file()
    if not path.exists():
        return Result.warn(
            name,
            f"the camera is not calibrated yet ({path}); the kiosk works by touch",
            "tablekeeper calibrate",
        )
    try:
        from calibration.file import CalibrationError, load_calibration
    except ImportError as exc:
        return _missing_module(name, exc)
    try:
        cal = load_calibration(path)
    except CalibrationError as exc:
        return Result.fail(name, str(exc), "tablekeeper calibrate  (until then the kiosk works by touch)")
    kind = getattr(cal, "kind", None) or getattr(cal, "board", "")
    return Result.ok(name, f"{path}: {kind} {getattr(cal, 'rows', '?')}x{getattr(cal, 'cols', '?')}")


# ------------------------------------------------------------------ words and OCR
def check_tesseract(ctx: Context) -> Result:
    name = "Tesseract"
    exe = shutil.which("tesseract")
    if exe is None:
        return Result.fail(
            name,
            "tesseract is not installed (the letter reader needs it)",
            "sudo apt install tesseract-ocr tesseract-ocr-eng",
        )
    try:
        done = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Result.fail(name, f"{exe} does not run: {exc}", "sudo apt install --reinstall tesseract-ocr")
    langs = set((done.stdout + done.stderr).split())
    if "eng" not in langs:
        return Result.fail(name, "the English language data is missing", "sudo apt install tesseract-ocr-eng")
    version = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=20, check=False)
    first = (version.stdout or version.stderr).splitlines()[:1]
    return Result.ok(name, f"{first[0] if first else exe} with English")


def check_word_list(ctx: Context) -> Result:
    name = "word list"
    words = ctx.settings.section("words")
    try:
        from games.lexicon import Lexicon, LexiconError, LexiconMissing
        from games.word_lists import DEFAULT_SIZE
    except ImportError as exc:
        return _missing_module(name, exc)
    try:
        size = words.get("size", DEFAULT_SIZE)
        lex = Lexicon.load(size, words.get("variant", "both"), words.get("dict_dir"))
    except LexiconMissing as exc:
        return Result.fail(name, str(exc), "sudo apt install scowl")
    except LexiconError as exc:
        return Result.fail(name, str(exc), f"edit the [words] table in {ctx.config_path()}")
    return Result.ok(name, lex.describe() if hasattr(lex, "describe") else f"{len(lex)} words")


# ------------------------------------------------------------------ screen and touch
def _touchscreens(proc: Path) -> list[tuple[str, str]]:
    """(name, eventN) of input devices reporting multi-touch positions (ABS_MT_POSITION_X)."""
    try:
        text = (proc / "bus/input/devices").read_text(errors="replace")
    except OSError:
        return []
    found = []
    for block in text.split("\n\n"):
        info: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith("N: Name="):
                info["name"] = line.split("=", 1)[1].strip('"')
            elif line.startswith("H: Handlers="):
                events = [h for h in line.split("=", 1)[1].split() if h.startswith("event")]
                info["event"] = events[0] if events else ""
            elif line.startswith("B: ABS="):
                words = line.split("=", 1)[1].split()
                bits = int("".join(w.rjust(16, "0") for w in words), 16) if words else 0
                info["mt"] = "1" if bits >> 0x35 & 1 else ""
        if info.get("mt") and info.get("event"):
            found.append((info.get("name", "?"), info["event"]))
    return found


def check_display(ctx: Context) -> Result:
    name = "display"
    where = os.environ.get("WAYLAND_DISPLAY") or os.environ.get("DISPLAY") or ""
    session = "Wayland" if os.environ.get("WAYLAND_DISPLAY") else "X11" if where else ""
    cards = sorted(p.name for p in (ctx.dev / "dri").glob("card*"))
    if cards:
        from kiosk.doctor.drm_cards import cards as drm_cards
        from kiosk.doctor.drm_cards import describe

        found = drm_cards(ctx.sys)
        showing = [c for c in found if c.connected]
        card = ctx.dev / "dri" / (showing[0].name if showing else cards[0])
        if not os.access(card, os.R_OK | os.W_OK):
            return Result.fail(
                name,
                f"{card} exists but this user may not use it",
                f"sudo usermod -aG video,render {ctx.service_user}",
            )
        how = f"{session} session" if session else "no session here; the service starts cage on tty1"
        if found and not showing and ctx.on_pi:
            return Result.fail(
                name,
                f"no DRM card has a display connected ({describe(found)})",
                "check the display's cable and power (power off first), then sudo reboot; "
                "sudo dmesg | grep -i -e dsi -e hdmi -e drm  shows whether the kernel found it",
            )
        cards_text = describe(found) if found else ", ".join(cards)
        return Result.ok(name, f"KMS/DRM {cards_text} ({how})")
    if session:
        return Result.ok(name, f"a {session} display ({where})")
    if ctx.on_pi:
        return Result.fail(
            name,
            "no KMS display driver (/dev/dri/card* missing)",
            "add dtoverlay=vc4-kms-v3d to /boot/firmware/config.txt, then sudo reboot",
        )
    return Result.warn(
        name,
        "no screen here (no DISPLAY, WAYLAND_DISPLAY or /dev/dri)",
        "xvfb-run -a -s '-screen 0 800x480x24' tablekeeper kiosk",
    )


def check_touch(ctx: Context) -> Result:
    name = "touch input"
    screens = _touchscreens(ctx.proc)
    if not screens:
        detail = "no touchscreen found"
        if ctx.on_pi:
            return Result.warn(
                name,
                f"{detail}: check the display's ribbon cable and power",
                "sudo dmesg | grep -i -e touch -e ft5x06 -e goodix",
            )
        return Result.warn(name, f"{detail} (the mouse stands in for a finger)")
    dev_name, event = screens[0]
    node = ctx.dev / "input" / event
    if node.exists() and not os.access(node, os.R_OK):
        return Result.fail(
            name,
            f"{dev_name} ({node}) is not readable by this user",
            f"sudo usermod -aG input {ctx.service_user}",
        )
    return Result.ok(name, f"{dev_name} ({node})")

"""The copies a damaged game log is read from, made in a scratch folder; the file kept aside
is only ever read.

1. **merged**: the main file with its WAL's committed pages laid over it by hand
   (:mod:`kiosk.gamelog.walfile`), padded to whole pages (a file that lost its last page
   is otherwise refused whole), marked as a file without WAL.
2. **schema repaired**: the same with the schema's statements for our own tables written
   again from :mod:`kiosk.gamelog.schema`: one damaged byte in a ``CREATE`` statement
   otherwise makes SQLite refuse every table of the file.
3. **recovered**: SQLite's own page-by-page recovery of (2) (``sqlite3 FILE .recover``,
   Debian's ``sqlite3`` tool), piped into a fresh database: rows on intact pages come back
   even when the b-tree above them is gone. Without the tool this copy is skipped, and the
   journal says so.

Salvage reads each copy and keeps, for each game, what the checksums say is true.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

from kiosk.gamelog.schema import SCHEMA_VERSION, create_schema
from kiosk.gamelog.walfile import merge

log = logging.getLogger(__name__)

#: SQLite's recovery of a log of a few MB takes well under a second; on a corrupt b-tree it
#: can walk in circles, so it gets at most this share of what is left of the salvage's time.
_TOOL_SHARE = 0.4
#: The copy made by ``sqlite3 .recover``: that it holds none of our tables proves nothing
#: (the tool gives up whole when the schema page is damaged).
RECOVERED = "recovered.sqlite3"


def bounded(conn: sqlite3.Connection, deadline: float) -> None:
    """Abort any statement of ``conn`` still running at ``deadline`` (``time.monotonic()``):
    on a damaged file SQLite can follow a b-tree's pointers in a circle and never return."""
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 1000)


def copies_to_read(
    damaged: Path, folder: Path, deadline: float = float("inf")
) -> tuple[list[Path], list[str]]:
    """The copies to read, best first, and notes for the journal on how they were made.

    Nothing here runs past ``deadline`` (``time.monotonic()``).
    """
    notes: list[str] = []
    main = _read_bytes(damaged, notes, "the file")
    wal = _read_bytes(damaged.with_name(damaged.name + "-wal"), notes, "its journal (-wal)")
    image, pages = merge(main, wal)
    if pages.committed:
        notes.append(
            f"its journal (-wal) held {pages.commits} committed write(s) over {len(pages.pages or {})} "
            f"page(s); they were laid over the main file"
        )
    if not image:
        return [], notes
    merged = folder / "merged.sqlite3"
    merged.write_bytes(image)
    repaired = folder / "repaired.sqlite3"
    repaired.write_bytes(image)
    try:
        version = _repair_schema(repaired, deadline)
    except Exception as exc:  # a file too damaged to repair: the other copies are still read
        log.warning("the schema of %s could not be written again: %s", damaged, exc)
        version = 0
    copies = [merged, repaired] if version else [merged]
    recovered = folder / RECOVERED
    left = deadline - time.monotonic()
    seconds = min(120.0, max(1.0, left * _TOOL_SHARE))
    why = sqlite_recover(repaired if version else merged, recovered, seconds)
    if why:
        notes.append(why)
    else:
        copies.insert(0, recovered)
    return copies, notes


def _read_bytes(path: Path, notes: list[str], what: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b""
    except OSError as exc:
        notes.append(f"{what} could not be read ({exc.strerror or exc})")
        return b""


def has_checksums(path: Path, deadline: float = float("inf")) -> bool:
    """Whether the log in ``path`` was written with checksums (schema 2 on): read from its
    schema_version row or the text of its schema, whichever still reads."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error:
        return False
    conn.text_factory = bytes
    bounded(conn, deadline)
    try:
        conn.execute("PRAGMA writable_schema = ON")  # read sqlite_master even when it does not parse
        texts = conn.execute("SELECT sql FROM sqlite_master").fetchall()
        if any(isinstance(t, bytes) and b" crc " in t for (t,) in texts):
            return True
        with contextlib.suppress(sqlite3.Error):
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
            return isinstance(row[0], int) and row[0] >= 2
        return False
    except sqlite3.Error:
        return False
    finally:
        conn.close()


def _repair_schema(path: Path, deadline: float) -> int:
    """Write our tables' and indexes' statements again, as the log's version has them;
    return that version (0 when the file holds none of our tables)."""
    version = SCHEMA_VERSION if has_checksums(path, deadline) else 1
    fresh = sqlite3.connect(":memory:")
    try:
        create_schema(fresh, 0, version)
        canon = {str(n): str(s) for n, s in fresh.execute("SELECT name, sql FROM sqlite_master") if s}
    finally:
        fresh.close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.text_factory = bytes
    bounded(conn, deadline)
    try:
        conn.execute("PRAGMA writable_schema = ON")
        rows = conn.execute("SELECT rowid, name, sql FROM sqlite_master").fetchall()
        ours = 0
        for rowid, name, sql in rows:
            text = name.decode("utf-8", "replace") if isinstance(name, bytes) else ""
            if text in canon:
                ours += 1
                if sql != canon[text].encode():
                    conn.execute("UPDATE sqlite_master SET sql = ? WHERE rowid = ?", (canon[text], rowid))
        conn.execute("PRAGMA writable_schema = OFF")
    finally:
        conn.close()
    return version if ours else 0


def sqlite_tool() -> str | None:
    return shutil.which("sqlite3")


def sqlite_recover(source: Path, target: Path, seconds: float = 120.0) -> str:
    """Run SQLite's ``.recover`` on ``source`` into a new database ``target``, in at most
    about ``seconds``; "" when done, else a sentence saying why not (the tool missing,
    failing, or out of time)."""
    tool = sqlite_tool()
    if tool is None:
        return (
            "the sqlite3 tool is missing (apt install sqlite3): salvaged row by row only, "
            "without SQLite's page-by-page recovery"
        )
    try:
        started = time.monotonic()
        dump = subprocess.run(
            [tool, "-batch", str(source), ".recover"], capture_output=True, timeout=seconds, check=False
        )
        if not dump.stdout:
            return f"sqlite3 .recover gave nothing ({dump.stderr.decode('utf-8', 'replace').strip()[:200]})"
        load = subprocess.run(
            [tool, "-batch", str(target)], input=dump.stdout, capture_output=True,
            timeout=max(1.0, seconds - (time.monotonic() - started)), check=False,
        )
    except subprocess.TimeoutExpired:
        target.unlink(missing_ok=True)
        return f"sqlite3 .recover did not finish in {seconds:.0f} s and was stopped"
    except (OSError, subprocess.SubprocessError) as exc:
        return f"sqlite3 .recover failed ({exc})"
    if not target.exists():
        return f"sqlite3 .recover failed ({load.stderr.decode('utf-8', 'replace').strip()[:200]})"
    return ""

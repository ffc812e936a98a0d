"""Where Kivy may keep its files: the data folder's ``kivy/``, or a scratch folder if it cannot.

Kivy creates its home folder (and writes ``config.ini`` and its icons into it) when it is
first imported, and an error there is uncaught: on a read-only or full SD card the kiosk
would crash at every start, a restart loop under systemd. So the folder is checked first —
the one ``KIVY_HOME`` names (the unit sets it), else ``<data>/kivy`` — and when it cannot be
created or written, Kivy gets a fresh scratch folder instead. Nothing of value lives there:
Kivy's settings are rebuilt from ``KCFG_*`` at every start.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

MIN_FREE = 1024 * 1024


def usable(folder: Path) -> str | None:
    """None when ``folder`` exists (or can be made) and takes a file; else why not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-"):
            pass
        free = shutil.disk_usage(folder).free
    except OSError as exc:
        return exc.strerror or str(exc)
    if free < MIN_FREE:  # Kivy copies its icons (~200 KiB) into a new home: they would not fit
        return f"only {free // 1024} KiB free"
    return None


def choose(data: Path) -> Path:
    """The folder to give Kivy as ``KIVY_HOME``; sets the variable when it must move."""
    wanted = Path(os.environ.get("KIVY_HOME") or data / "kivy")
    why = usable(wanted)
    if why is None:
        return wanted
    for base in (tempfile.gettempdir(), "/dev/shm"):
        try:
            scratch = Path(tempfile.mkdtemp(prefix="tablekeeper-kivy-", dir=base))
        except OSError:
            continue
        log.warning("Kivy's folder %s cannot be used (%s): using %s for this run", wanted, why, scratch)
        os.environ["KIVY_HOME"] = str(scratch)
        return scratch
    log.error("Kivy's folder %s cannot be used (%s) and no scratch folder can be made", wanted, why)
    return wanted

"""Why the game log failed, in words a player can act on.

SQLite reports a full disk, a read-only directory and a damaged file as numeric codes
buried in ``sqlite3`` exceptions; the kiosk needs one exception, :class:`StoreError`,
whose message can go straight onto the screen and into the journal, and whose ``kind``
lets the kiosk decide what to do (keep playing from memory, show a banner, ...).
"""

from __future__ import annotations

import errno
from pathlib import Path

# SQLite primary result codes (https://sqlite.org/rescode.html); Python 3.11 exposes the
# extended code as ``exc.sqlite_errorcode``: the primary code is its low byte.
SQLITE_PERM = 3
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_NOTADB = 26

DISK_FULL = "disk-full"
UNWRITABLE = "unwritable"
CORRUPT = "corrupt"
NEWER = "newer"
BAD_INPUT = "bad-input"
NO_SUCH_GAME = "no-such-game"
REPLAY = "replay"
IO = "io"


class StoreError(Exception):
    """The game log could not do what was asked; ``str(exc)`` is a plain sentence.

    ``kind`` is one of ``"disk-full"``, ``"unwritable"``, ``"corrupt"``, ``"newer"``,
    ``"bad-input"``, ``"no-such-game"``, ``"replay"`` or ``"io"``. Whatever the kind,
    everything committed before the failing call is still in the log.
    """

    def __init__(self, message: str, kind: str = IO, detail: str = "", plain: bool = False) -> None:
        super().__init__(message)
        self.kind = kind
        #: the bare cause ("database disk image is malformed"), for a message that adds its own advice
        self.detail = detail
        #: whether ``detail`` is our own plain words, fit for the players (else SQLite's or
        #: Python's, for the journal only)
        self.plain = plain


def primary_code(exc: BaseException) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


def is_corruption(exc: BaseException) -> bool:
    """True when SQLite says the file is not a (healthy) database."""
    if primary_code(exc) in (SQLITE_CORRUPT, SQLITE_NOTADB):
        return True
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def translate(exc: BaseException, path: Path, writing: str = "") -> StoreError:
    """Turn an ``sqlite3`` or ``OSError`` failure into a :class:`StoreError`.

    ``writing`` names what was being saved ("the last entry") so the message says what was
    lost; it is empty for reads and for opening the log.
    """
    lost = f"{writing} was not saved; everything before it is safe" if writing else (
        "nothing already saved was lost"
    )
    code = primary_code(exc)
    err = exc.errno if isinstance(exc, OSError) else None
    text = str(exc).lower()
    if code == SQLITE_FULL or err in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT) or "disk is full" in text:
        return StoreError(
            f"the disk is full: {lost}. Free some space on the SD card (or delete old photos "
            f"in {path.parent}) and try again.",
            DISK_FULL,
        )
    if is_corruption(exc):
        return StoreError(
            f"the game log {path} is damaged ({exc}): {lost}. Restart tablekeeper: it keeps "
            f"the damaged file aside and starts a new log.",
            CORRUPT,
            detail=str(exc),
        )
    if (
        code in (SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM)
        or err in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOTDIR)
        or "readonly" in text
        or "unable to open" in text
    ):
        return StoreError(
            f"cannot write the game log in {path.parent}: {_reason(exc)}; {lost}. Check that "
            f"the folder exists and the tablekeeper user may write to it "
            f"(sudo systemctl restart tablekeeper recreates it on the Pi).",
            UNWRITABLE,
        )
    if code == SQLITE_IOERR and "disk i/o" in text:
        # SQLite reports a write cut short by a file-size limit (EFBIG) as a plain I/O error.
        return StoreError(
            f"the game log {path} could not be written (a disk error, or the disk is full): "
            f"{lost}. Check the SD card.",
            DISK_FULL,
        )
    return StoreError(f"the game log {path} failed: {_reason(exc)}; {lost}.", IO)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc) or type(exc).__name__

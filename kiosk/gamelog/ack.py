"""What the log last promised: the game and its count of entries at the last acknowledged write.

SQLite cannot notice that its ``-wal`` was deleted under it (a clean-up script, a person
"tidying" the data folder): the connection writes on into the deleted file, and at the next
start the log silently holds an older state, perhaps without the game being played. So the
log keeps, beside itself in ``games.sqlite3-ack``, the id, label and entry count of the game
last written, rewritten (write-to-temporary, rename) after each write is committed, and
(fsynced) before a write that lowers the count (an undo), so it never claims more than the
log held. At open, a log holding fewer entries than that record is a loss, and it is said.
"""

from __future__ import annotations

import contextlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path

from calibration import durable

log = logging.getLogger(__name__)

SUFFIX = "-ack"


@dataclass(frozen=True)
class Ack:
    game: int
    entries: int
    label: str = ""


def ack_path(log_path: Path) -> Path:
    return log_path.with_name(log_path.name + SUFFIX)


def read_ack(log_path: Path) -> Ack | None:
    """The record, or None when there is none or it does not read (it is only a check)."""
    try:
        raw = json.loads(ack_path(log_path).read_bytes().decode("utf-8"))
        ack = Ack(int(raw["game"]), int(raw["entries"]), str(raw.get("label", "")))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        log.warning("the game log's record of its last write does not read: %s", exc)
        return None
    return ack if ack.game > 0 and ack.entries >= 0 else None


def write_ack(log_path: Path, ack: Ack, *, lowering: bool = False) -> None:
    """Record ``ack``; a failure is logged, never raised (the entry itself is saved).

    A record that raises the count is replaced atomically but not fsynced (two more fsyncs a
    turn on an SD card): a power cut may leave it a write or two behind, which can only hide
    a loss of those last writes, never invent one. A record that lowers the count (an undo)
    is fsynced before the log's own write, so it is never left claiming more than the log holds.
    """
    body = {"game": ack.game, "entries": ack.entries, "label": ack.label}
    try:
        durable.write_atomically(ack_path(log_path), json.dumps(body).encode("utf-8"), sync=lowering)
    except OSError as exc:
        log.warning("could not record the game log's last write: %s", exc)


def forget_ack(log_path: Path) -> None:
    with contextlib.suppress(OSError):
        ack_path(log_path).unlink()


JOURNAL_LOST = "the log's journal file was removed, or the card lost its last writes"
DAMAGED = "the damaged log no longer held them"


def loss_sentence(ack: Ack, held: int | None, why: str = JOURNAL_LOST, earlier: int | None = None
                  ) -> str | None:
    """Plain words for a log holding ``held`` entries of the acknowledged game (None: not there)
    and ``earlier`` of the games started before it (None: not known). Games are numbered from 1
    and never deleted, so a log that acknowledged game N held games 1 to N."""
    name = f"game {ack.game}" + (f" ({ack.label})" if ack.label else "")
    cause = f"({why})"
    missing = ack.game - 1 - earlier if earlier is not None and earlier < ack.game - 1 else 0
    before = (f" {missing} game(s) started before it are missing too." if missing else "")
    said = _said(ack, held, name, cause)
    if said is None and not missing:
        return None
    if said is None:
        return f"The game log no longer holds {missing} game(s) started before game {ack.game} {cause}."
    return said + before


def _said(ack: Ack, held: int | None, name: str, cause: str) -> str | None:
    if held is None:
        if ack.entries == 0:
            return f"The game log no longer holds {name}, which was started: it was lost {cause}."
        return (
            f"The game log no longer holds {name} and its {ack.entries} saved turn(s): "
            f"they were lost {cause}."
        )
    if held < ack.entries:
        lost = ack.entries - held
        return (
            f"The last {lost} turn(s) of {name} were lost {cause}: the log holds {held} "
            f"of the {ack.entries} that were saved."
        )
    return None

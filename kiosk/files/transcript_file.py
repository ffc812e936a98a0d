"""Transcript files: reading one from disk for ``tablekeeper replay`` and the tests.

``games.transcript`` parses and plays transcript *text*; ``games/`` never opens a file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, BinaryIO

from games.base import Game
from games.transcript import TranscriptUnreadable, loads

#: The largest transcript read (a long evening's game is under 100 kB): larger is refused unread.
MAX_TRANSCRIPT_BYTES = 4 * 1024 * 1024


def read_transcript_text(path: str | os.PathLike[str]) -> str:
    """The transcript file's text, or TranscriptUnreadable saying plainly why not.

    At most :data:`MAX_TRANSCRIPT_BYTES` are read: a larger file (or ``/dev/zero``) is refused.
    """
    try:
        with Path(path).open("rb") as stream:
            return read_transcript_stream(stream, str(path))
    except FileNotFoundError:
        raise TranscriptUnreadable(0, f"there is no file {path}") from None
    except IsADirectoryError:
        raise TranscriptUnreadable(0, f"{path} is a directory, not a transcript file") from None
    except OSError as exc:
        raise TranscriptUnreadable(0, f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise TranscriptUnreadable(0, f"{path} is not a UTF-8 text file") from None


def read_transcript_stream(stream: BinaryIO, where: str = "standard input") -> str:
    """A transcript from an open stream (standard input), read to at most the same limit."""
    raw = stream.read(MAX_TRANSCRIPT_BYTES + 1)
    if len(raw) > MAX_TRANSCRIPT_BYTES:
        raise TranscriptUnreadable(
            0, f"{where} is larger than {MAX_TRANSCRIPT_BYTES // (1024 * 1024)} MB: not a transcript"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise TranscriptUnreadable(0, f"{where} is not a UTF-8 text file") from None


def load_transcript(path: str | os.PathLike[str]) -> Game[Any]:
    """Play the transcript in ``path`` through its engine (TranscriptError at the first bad line)."""
    return loads(read_transcript_text(path))

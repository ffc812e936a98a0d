"""Transcript files: reading one from disk for ``tablekeeper replay`` and the tests.

``games.transcript`` parses and plays transcript *text*; ``games/`` never opens a file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from games.base import Game
from games.transcript import TranscriptUnreadable, loads


def read_transcript_text(path: str | os.PathLike[str]) -> str:
    """The transcript file's text, or TranscriptUnreadable saying plainly why not."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TranscriptUnreadable(0, f"there is no file {path}") from None
    except IsADirectoryError:
        raise TranscriptUnreadable(0, f"{path} is a directory, not a transcript file") from None
    except OSError as exc:
        raise TranscriptUnreadable(0, f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise TranscriptUnreadable(0, f"{path} is not a UTF-8 text file") from None


def load_transcript(path: str | os.PathLike[str]) -> Game[Any]:
    """Play the transcript in ``path`` through its engine (TranscriptError at the first bad line)."""
    return loads(read_transcript_text(path))

"""Option's letter points as the players taught them, kept in the data folder across restarts.

The Option rule sheet prints no table of letter values (each prism carries its own), so the
kiosk learns the family's set from the points tapped in on the letters screen. Keeping what
was taught in ``option-letters.json`` means a restart, a power cut or the next game night
starts with every letter already filled in; a player still overrides any value with one tap.

The file is rewritten whole and atomically at each change (a few hundred bytes), so a power
cut leaves the old table or the new one. A damaged file is never a crash and never silently
thrown away: it is moved aside as ``option-letters.json.bad`` for a person to look at, the
letters start again from 1, and :attr:`LetterValues.problem` says so in plain words. A file
that cannot be written (full or read-only card) costs only this convenience: the values are
kept for this session and the problem is said once.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from calibration.durable import keep_aside, write_atomically

log = logging.getLogger(__name__)

#: The number pad offers 0-11: the highest printed value of an Option prism is 11.
LOWEST, HIGHEST = 0, 11
FILE_NAME = "option-letters.json"


class LetterValues:
    """Each letter's points as last entered (``value``/``teach``), read from and written to one file."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        #: A plain sentence for a banner when the file was damaged or could not be written.
        self.problem = ""
        self._values: dict[str, int] = {}
        self._write_failed = False
        self._load()

    # ------------------------------------------------------------------ reading
    def _load(self) -> None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return  # nothing taught yet
        except OSError as exc:
            self.problem = (
                f"Cannot read Option's letter points ({self.path}: {(exc.strerror or str(exc)).lower()}); "
                "each letter starts at 1 this time."
            )
            return
        try:
            data = json.loads(raw.decode("utf-8"))
            letters = data["letters"]
            if not isinstance(letters, dict):
                raise TypeError("'letters' is not a table")
        except (UnicodeDecodeError, ValueError, KeyError, TypeError, RecursionError) as exc:
            log.warning("Option's letter points file %s is damaged: %s", self.path, exc)
            kept: Path | None = None
            try:
                kept = keep_aside(self.path, "bad")
            except OSError as err:
                log.warning("could not move the damaged letter points file aside: %s", err)
            where = f" (the damaged file is kept as {kept.name} in the data folder)" if kept else ""
            self.problem = f"Option's letter points file was damaged: each letter starts at 1 again{where}."
            return
        skipped = []
        for letter, points in letters.items():
            if _valid(letter, points):
                self._values[letter] = points
            else:
                skipped.append(f"{letter}={points!r}")
        if skipped:
            self.problem = (
                f"Option's letter points: ignored {', '.join(skipped)} in {self.path} "
                f"(a letter's points are a whole number {LOWEST}-{HIGHEST})."
            )

    # ------------------------------------------------------------------ use
    def value(self, letter: str, default: int = 1) -> int:
        return self._values.get(letter.upper(), default)

    def known(self) -> dict[str, int]:
        """Every letter taught so far, for a person to look at."""
        return dict(sorted(self._values.items()))

    def teach(self, letter: str, points: int) -> None:
        """Remember a letter's points (at once on disk, atomically). Anything but a letter A-Z
        worth 1-11 is not remembered (the screen still uses it for this word): 0 is the blank
        symbol's value, tapped for a letter the blank stands for, not that letter's own."""
        letter = letter.upper()
        if not _valid(letter, points) or points == 0 or self._values.get(letter) == points:
            return
        self._values[letter] = points
        data = {"version": 1, "letters": dict(sorted(self._values.items()))}
        try:
            write_atomically(self.path, (json.dumps(data, indent=1) + "\n").encode("utf-8"))
        except OSError as exc:
            log.warning("could not keep Option's letter points in %s: %s", self.path, exc)
            if not self._write_failed:  # said once, not at every tap
                self._write_failed = True
                self.problem = (
                    f"Option's letter points could not be saved ({(exc.strerror or str(exc)).lower()}); "
                    "they are kept until the kiosk restarts."
                )

    def take_problem(self) -> str:
        """The problem to show, once."""
        problem, self.problem = self.problem, ""
        return problem


def _valid(letter: object, points: object) -> bool:
    return (
        isinstance(letter, str)
        and len(letter) == 1
        and letter.isalpha()
        and letter.isupper()
        and isinstance(points, int)
        and not isinstance(points, bool)
        and LOWEST <= points <= HIGHEST
    )

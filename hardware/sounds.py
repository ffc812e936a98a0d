"""The timer's sounds as plain data: which beeps each cue plays, and whether it plays at all.

Kept free of gpiozero so the kiosk can play the same patterns through the speaker or draw
them, and so a sound is just a schedule of beeps a driver switches on and off at the right
clock times (no background blink threads: the timing stays testable with a fake clock).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.countdown import Cue, CueKind


@dataclass(frozen=True, slots=True)
class Beep:
    """One beep: ``offset`` seconds after the sound starts, ``length`` seconds long, at ``tone`` Hz.

    The tone matters only to a passive piezo; an active buzzer has one pitch of its own.
    """

    offset: float
    length: float
    tone: float

    @property
    def end(self) -> float:
        return self.offset + self.length


#: A sound: its beeps in order. Piezo discs are loudest near 2-4 kHz, so tones stay there.
Sound = tuple[Beep, ...]


@dataclass(frozen=True, slots=True)
class SoundSettings:
    """The player's choices: silence everything, or just the last-seconds ticks."""

    mute: bool = False
    ticks: bool = True

    PATTERNS: ClassVar[dict[CueKind, Sound]] = {
        CueKind.START: (Beep(0.0, 0.08, 2700.0),),  # a short chirp
        CueKind.RESUME: (Beep(0.0, 0.08, 2700.0),),
        CueKind.PAUSE: (Beep(0.0, 0.05, 1800.0),),  # a lower blip
        CueKind.RESET: (Beep(0.0, 0.05, 1800.0), Beep(0.1, 0.05, 1800.0)),
        CueKind.ADJUST: (Beep(0.0, 0.04, 3200.0),),
        CueKind.WARNING: (Beep(0.0, 0.15, 2200.0), Beep(0.25, 0.15, 2200.0)),  # two beeps at 10 s
        CueKind.TICK: (Beep(0.0, 0.05, 3200.0),),  # each of the last seconds
        CueKind.FINAL: (Beep(0.0, 1.5, 2000.0),),  # a long beep at 0
    }

    def sound_for(self, cue: Cue) -> Sound:
        """The beeps to play for ``cue`` under these settings (empty: stay silent)."""
        if self.mute or (cue.kind is CueKind.TICK and not self.ticks):
            return ()
        return self.PATTERNS.get(cue.kind, ())


@dataclass(frozen=True, slots=True)
class Playing:
    """A sound that began at clock time ``started``: what it wants at any later moment."""

    sound: Sound
    started: float

    @property
    def ends_at(self) -> float:
        return self.started + max((b.end for b in self.sound), default=0.0)

    def tone_at(self, now: float) -> float | None:
        """The tone sounding at ``now`` (None: silent). A beep sounds on [start, end)."""
        for beep in self.sound:
            if self.started + beep.offset <= now < self.started + beep.end:
                return beep.tone
        return None

    def next_change_at(self, now: float) -> float | None:
        edges = [self.started + t for b in self.sound for t in (b.offset, b.end)]
        return min((t for t in edges if t > now), default=None)

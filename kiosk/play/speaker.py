"""Sound through the audio output (ALSA) when no buzzer is wired: the timer's cues as WAVs.

The cue set is generated at start from the buzzer's own patterns
(``hardware.sounds.SoundSettings.PATTERNS``: the same beeps, the same tones) into small
WAV files with the standard library, and played with ``aplay`` (alsa-utils) — the Pi's
headphone or HDMI output, or any computer's default sound output off the Pi. The optional
voice speaks with ``espeak-ng`` (offline, Debian's package). Nothing here may stop the game:
a missing player or device is one plain sentence in :attr:`Speaker.problem`, then silence.
"""

from __future__ import annotations

import logging
import math
import shutil
import struct
import subprocess
import wave
from collections.abc import Sequence
from pathlib import Path

log = logging.getLogger(__name__)

RATE = 22050


def write_tones(path: Path, beeps: Sequence[tuple[float, float, float]], volume: float = 0.5) -> Path:
    """A mono 16-bit WAV of ``beeps`` — (offset s, length s, tone Hz) — with 5 ms fades (no clicks)."""
    end = max((offset + length for offset, length, _ in beeps), default=0.0)
    samples = [0.0] * int(end * RATE + 1)
    fade = int(0.005 * RATE)
    for offset, length, tone in beeps:
        start, count = int(offset * RATE), int(length * RATE)
        for i in range(count):
            ramp = min(1.0, i / fade if fade else 1.0, (count - i) / fade if fade else 1.0)
            samples[start + i] += volume * ramp * math.sin(2 * math.pi * tone * i / RATE)
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(struct.pack("<h", int(max(-1.0, min(1.0, s)) * 32767)) for s in samples))
    return path


def cue_set(folder: Path) -> dict[str, Path]:
    """One WAV per timer cue (``start.wav``, ``warning.wav``, ``final.wav`` ...), made now."""
    from hardware.sounds import SoundSettings

    return {
        kind.value: write_tones(folder / f"{kind.value}.wav", [(b.offset, b.length, b.tone) for b in sound])
        for kind, sound in SoundSettings.PATTERNS.items()
    }


class Speaker:
    """Plays cue WAVs and, when asked, speaks; ``muted`` silences both at once."""

    def __init__(self, folder: Path, *, voice: bool = False, muted: bool = False) -> None:
        self.folder = folder
        self.voice = voice
        self.muted = muted
        self.problem = ""
        self.player = shutil.which("aplay")
        self.speech = shutil.which("espeak-ng")
        self.cues: dict[str, Path] = {}
        try:
            self.cues = cue_set(folder)
        except OSError as exc:
            self.problem = f"The timer's sounds could not be made ({exc.strerror or exc}): no sound."
        if self.player is None:
            self.problem = "No sound player (apt package alsa-utils): the timer is silent without a buzzer."

    def cue(self, kind: str) -> bool:
        """Play a timer cue (by its CueKind value); False when nothing was played."""
        path = self.cues.get(kind)
        if self.muted or path is None or self.player is None:
            return False
        return self._spawn([self.player, "-q", str(path)])

    def say(self, text: str) -> bool:
        """Speak ``text`` when the voice is on (off by default)."""
        if self.muted or not self.voice or self.speech is None or not text:
            return False
        return self._spawn([self.speech, "-s", "150", text])

    def _spawn(self, command: list[str]) -> bool:
        try:
            subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError as exc:  # the player vanished, a device error: the game goes on
            log.warning("could not play %s: %s", command[0], exc)
            return False
        return True


def synthesise(text: str, path: Path) -> Path:
    """Speak ``text`` into a WAV file with espeak-ng (what the voice would say, for checking)."""
    speech = shutil.which("espeak-ng")
    if speech is None:
        raise FileNotFoundError("espeak-ng is not installed (apt package espeak-ng)")
    subprocess.run([speech, "-w", str(path), text], check=True, capture_output=True, timeout=30)
    return path

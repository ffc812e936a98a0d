"""Sound through the audio output (ALSA) when no buzzer is wired: the timer's cues as WAVs.

The cue set is generated at start from the buzzer's own patterns
(``hardware.sounds.SoundSettings.PATTERNS``: the same beeps, the same tones) into small
WAV files with the standard library, and played with ``aplay`` (alsa-utils) — the Pi's
headphone or HDMI output, or any computer's default sound output off the Pi (``device``
picks another ALSA device, ``aplay -D``). The optional voice speaks with ``espeak-ng``
(offline, Debian's package). Nothing here may stop the game: a missing player, a device
that cannot be opened or a player that exits with an error is one plain sentence in
:attr:`Speaker.problem` and one warning in the log — the first time only, not once a cue
(a turn has a cue every few seconds) — and the cues are still tried, so sound comes back
when the device does.
"""

from __future__ import annotations

import logging
import math
import shutil
import struct
import subprocess
import threading
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

    def __init__(
        self, folder: Path, *, voice: bool = False, muted: bool = False, device: str = ""
    ) -> None:
        self.folder = folder
        self.voice = voice
        self.muted = muted
        self.device = device
        self.problem = ""
        self.player = shutil.which("aplay")
        self.speech = shutil.which("espeak-ng")
        self.cues: dict[str, Path] = {}
        #: Cues the player played to the end without an error (by CueKind value), in order.
        self.played: list[str] = []
        self._lock = threading.Lock()
        self._told = False
        try:
            self.cues = cue_set(folder)
        except OSError as exc:
            self.problem = f"The timer's sounds could not be made ({exc.strerror or exc}): no sound."
        if self.player is None:
            self.problem = "No sound player (apt package alsa-utils): the timer is silent without a buzzer."

    def cue(self, kind: str) -> bool:
        """Play a timer cue (by its CueKind value); False when nothing was started."""
        path = self.cues.get(kind)
        if self.muted or path is None:
            return False
        if self.player is None:
            self._failed(self.problem or "no sound player (apt package alsa-utils)")
            return False
        device = ["-D", self.device] if self.device else []
        return self._spawn([self.player, "-q", *device, str(path)], kind)

    def say(self, text: str) -> bool:
        """Speak ``text`` when the voice is on (off by default)."""
        if self.muted or not self.voice or self.speech is None or not text:
            return False
        return self._spawn([self.speech, "-s", "150", text], "")

    def _spawn(self, command: list[str], kind: str) -> bool:
        """Start the player and watch it on a thread of its own: the caller (the timer's loop)
        never waits for a sound, and a player that fails is heard of all the same."""
        try:
            proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except OSError as exc:  # the player vanished, cannot run: the game goes on
            self._failed(f"{Path(command[0]).name} could not start: {exc.strerror or exc}")
            return False
        name = Path(command[0]).name
        threading.Thread(target=self._watch, args=(proc, name, kind), daemon=True, name="sound").start()
        return True

    def _watch(self, proc: subprocess.Popen[bytes], name: str, kind: str) -> None:
        _, err = proc.communicate()
        if proc.returncode == 0:
            if kind:
                with self._lock:
                    self.played.append(kind)
            return
        # ALSA names the device it could not open a line or two before aplay's own last line.
        lines = [line.strip() for line in (err or b"").decode(errors="replace").splitlines() if line.strip()]
        why = " / ".join(lines[-2:])[:400] or "no reason given"
        self._failed(f"{name} failed (exit status {proc.returncode}): {why}")

    def _failed(self, reason: str) -> None:
        """Say why there is no sound, once: in the log and in :attr:`problem`."""
        with self._lock:
            if self._told:
                return
            self._told = True
            self.problem = f"No sound from the audio output: {reason}"
        log.warning("no sound from the audio output (said once; later cues are tried quietly): %s", reason)


def synthesise(text: str, path: Path) -> Path:
    """Speak ``text`` into a WAV file with espeak-ng (what the voice would say, for checking)."""
    speech = shutil.which("espeak-ng")
    if speech is None:
        raise FileNotFoundError("espeak-ng is not installed (apt package espeak-ng)")
    subprocess.run([speech, "-w", str(path), text], check=True, capture_output=True, timeout=30)
    return path

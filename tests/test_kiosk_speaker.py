"""Sound without a buzzer: the cue WAVs made at start, and the optional voice (real espeak-ng)."""

from __future__ import annotations

import array
import shutil
import wave
from pathlib import Path

import pytest

from kiosk.play.speaker import RATE, Speaker, cue_set, synthesise


def _samples(path: Path) -> tuple[float, array.array]:
    with wave.open(str(path)) as wav:
        frames = wav.readframes(wav.getnframes())
        seconds = wav.getnframes() / wav.getframerate()
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1
    return seconds, array.array("h", frames)


def test_every_timer_cue_has_a_wav_of_the_buzzers_own_length(tmp_path: Path) -> None:
    cues = cue_set(tmp_path)
    assert {"start", "pause", "warning", "tick", "final", "reset"} <= set(cues)
    seconds, samples = _samples(cues["final"])
    assert seconds == pytest.approx(1.5, abs=0.01)  # the long beep at 0, as on the buzzer
    assert max(abs(s) for s in samples) > 10000  # loud, not silence
    seconds, samples = _samples(cues["warning"])
    assert seconds == pytest.approx(0.4, abs=0.01)
    gap = samples[int(0.18 * RATE) : int(0.23 * RATE)]  # between the two warning beeps
    assert max(abs(s) for s in gap) == 0


def test_mute_silences_everything_and_the_voice_is_off_by_default(tmp_path: Path) -> None:
    speaker = Speaker(tmp_path)
    assert speaker.voice is False and speaker.say("LEGAL") is False
    speaker.muted = True
    assert speaker.cue("final") is False


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng (apt package) is not installed")
def test_the_voice_says_a_ruling_into_a_wav_that_is_not_silence(tmp_path: Path) -> None:
    path = synthesise("ILLEGAL. ZEBRAS adds only an S to ZEBRA. Ten seconds.", tmp_path / "ruling.wav")
    with wave.open(str(path)) as wav:
        seconds = wav.getnframes() / wav.getframerate()
        samples = array.array("h", wav.readframes(wav.getnframes()))
    assert 2.0 < seconds < 12.0
    loud = sum(1 for s in samples if abs(s) > 1000)
    assert loud > len(samples) * 0.2  # speech, not a silent file
    rms = (sum(s * s for s in samples) / len(samples)) ** 0.5
    assert rms > 500


@pytest.mark.skipif(shutil.which("aplay") is None, reason="aplay (apt package alsa-utils) is not installed")
def test_alsa_plays_the_cue_files(tmp_path: Path) -> None:
    """ALSA's own player takes every cue WAV (on its null device: no sound card in CI)."""
    import subprocess

    for path in cue_set(tmp_path).values():
        done = subprocess.run(["aplay", "-q", "-D", "null", str(path)], capture_output=True, timeout=30)
        assert done.returncode == 0, done.stderr

"""Sound without a buzzer: the cue WAVs made at start, and the optional voice (real espeak-ng)."""

from __future__ import annotations

import array
import logging
import shutil
import time
import wave
from pathlib import Path
from typing import Any

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


def _alsa_home(tmp_path: Path, pcm: str) -> Path:
    """A home folder whose ~/.asoundrc makes ALSA's default device ``pcm`` (read by aplay)."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".asoundrc").write_text(f"pcm.!default {{ {pcm} }}\n")
    return home


def _until(done: Any, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        time.sleep(0.05)


needs_aplay = pytest.mark.skipif(
    shutil.which("aplay") is None, reason="aplay (apt package alsa-utils) is not installed"
)


@needs_aplay
def test_in_demo_mode_the_timers_cues_go_through_the_sound_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Demo mode puts the buzzer on gpiozero's mock pins: nobody hears it, so the real timer's
    warning and final beep are played by aplay (on ALSA's null device, via ~/.asoundrc)."""
    from kiosk.app.wiring import open_speaker, open_timer
    from kiosk.files.settings import Settings

    monkeypatch.setenv("HOME", str(_alsa_home(tmp_path, "type null")))
    monkeypatch.setenv("TABLEKEEPER_DATA", str(tmp_path / "data"))
    settings = Settings(values={"timer": {"warning": 1, "ticks": False}})
    timer = open_timer(settings, demo=True)
    try:
        assert timer.table.sounder.device is not None and not timer.table.sounder.heard
        speaker = open_speaker(settings, timer)
        timer.reset(2.0)
        timer.toggle()
        _until(lambda: "final" in speaker.played, 8.0)
    finally:
        timer.close()
    assert [kind for kind in speaker.played if kind in ("warning", "final")] == ["warning", "final"]
    assert speaker.problem == ""


def test_a_buzzer_on_real_pins_is_heard_and_none_fitted_is_not() -> None:
    from gpiozero import Buzzer
    from gpiozero.pins.mock import MockFactory

    from hardware.buzzer import Sounder

    assert Sounder(None).heard is False
    with Buzzer(17, pin_factory=MockFactory()) as mocked:
        assert Sounder(mocked).heard is False


@needs_aplay
def test_a_device_that_does_not_exist_is_logged_once_not_once_a_cue(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    speaker = Speaker(tmp_path, device="tablekeeper_no_such_device")
    with caplog.at_level(logging.WARNING, logger="kiosk.play.speaker"):
        for _ in range(3):
            assert speaker.cue("tick") is True  # started: aplay then fails on its own
        _until(lambda: bool(caplog.records), 5.0)
        time.sleep(1.0)  # the other two players fail too, quietly
    records = [r for r in caplog.records if r.name == "kiosk.play.speaker"]
    assert len(records) == 1, [r.getMessage() for r in records]
    assert "tablekeeper_no_such_device" in records[0].getMessage()  # aplay's own reason
    assert "exit status 1" in records[0].getMessage()
    assert speaker.played == [] and speaker.problem.startswith("No sound from the audio output")


@needs_aplay
def test_an_alsa_default_that_cannot_open_is_logged_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("HOME", str(_alsa_home(tmp_path, "type hw card 97")))  # no such sound card
    speaker = Speaker(tmp_path / "sounds")
    with caplog.at_level(logging.WARNING, logger="kiosk.play.speaker"):
        speaker.cue("warning")
        speaker.cue("final")
        _until(lambda: bool(caplog.records), 5.0)
        time.sleep(1.0)
    assert len([r for r in caplog.records if r.name == "kiosk.play.speaker"]) == 1


def test_without_aplay_the_reason_is_logged_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))  # no aplay on the path
    speaker = Speaker(tmp_path)
    with caplog.at_level(logging.WARNING, logger="kiosk.play.speaker"):
        assert [speaker.cue("warning"), speaker.cue("final")] == [False, False]
    records = [r for r in caplog.records if r.name == "kiosk.play.speaker"]
    assert len(records) == 1 and "alsa-utils" in records[0].getMessage()

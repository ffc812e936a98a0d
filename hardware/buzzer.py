"""The buzzer: plays the timer's sounds on an active buzzer or a passive piezo.

The sound is switched on and off by the timer's own loop at the clock times the pattern
gives (:meth:`Sounder.update`), never by gpiozero's background blink thread, so a fake
clock in a test decides exactly when each beep starts and stops.

>>> from gpiozero import Buzzer
>>> from hardware.pins import mock_factory
>>> from games.countdown import Cue, CueKind
>>> with Sounder(Buzzer(17, pin_factory=mock_factory())) as s:
...     s.cue(Cue(CueKind.TICK, 4.0, 1.0), now=4.0)
...     (s.sounding, s.next_change_at(4.0))
(True, 4.05)
"""

from __future__ import annotations

from typing import Protocol

from gpiozero import Buzzer, TonalBuzzer
from gpiozero.tones import Tone

from games.countdown import Cue
from hardware.sounds import Playing, SoundSettings

#: A passive piezo is driven around this tone, one octave either way (1-4 kHz).
PIEZO_MID_TONE = 2000.0


class CueSounder(Protocol):
    """The table timer's sound: it starts a cue's sound, then the timer's loop switches it.

    :class:`Sounder` plays it on a buzzer, or tracks it silently when none is fitted.
    """

    #: Mute and ticks; the timer swaps them when the settings change.
    settings: SoundSettings

    @property
    def sounding(self) -> bool:
        """Whether a sound is on now (the terminal timer waits for the last beep to end)."""
        ...

    def cue(self, cue: Cue, now: float) -> None: ...

    def update(self, now: float) -> None: ...

    def next_change_at(self, now: float) -> float | None: ...

    def silence(self) -> None: ...

    def close(self) -> None: ...


def open_buzzer(kind: str, pin: int, pin_factory: object = None) -> Buzzer | TonalBuzzer | None:
    """The gpiozero device for ``kind`` ("active", "passive" or "none")."""
    if kind == "active":
        return Buzzer(pin, pin_factory=pin_factory)
    if kind == "passive":
        return TonalBuzzer(pin, mid_tone=Tone(PIEZO_MID_TONE), octaves=1, pin_factory=pin_factory)
    return None


class Sounder:
    """Plays cue sounds on ``device`` (None: no buzzer fitted — sounds are tracked, not heard).

    ``settings`` (mute, ticks) can be swapped at any time through the attribute.
    """

    def __init__(self, device: Buzzer | TonalBuzzer | None, settings: SoundSettings | None = None) -> None:
        self.device = device
        self.settings = settings or SoundSettings()
        self._playing: Playing | None = None
        self._tone: float | None = None
        self._closed = False

    @property
    def sounding(self) -> bool:
        return self._tone is not None

    @property
    def heard(self) -> bool:
        """Whether a person hears this buzzer: one is fitted and on real pins (gpiozero's mock
        pins, off the Pi and in demo mode, only record what the buzzer would do)."""
        if self.device is None:
            return False
        from gpiozero.pins.mock import MockFactory

        return not isinstance(getattr(self.device, "pin_factory", None), MockFactory)

    def cue(self, cue: Cue, now: float) -> None:
        """Start the cue's sound now (a newer cue cuts off the one still playing)."""
        sound = self.settings.sound_for(cue)
        if sound:
            self._playing = Playing(sound, now)
            self.update(now)

    def update(self, now: float) -> None:
        """Switch the buzzer to what the current sound wants at ``now``."""
        tone = self._playing.tone_at(now) if self._playing else None
        if self._playing and now >= self._playing.ends_at:
            self._playing = None
        self._drive(tone)

    def next_change_at(self, now: float) -> float | None:
        return self._playing.next_change_at(now) if self._playing else None

    def silence(self) -> None:
        self._playing = None
        self._drive(None)

    def _drive(self, tone: float | None) -> None:
        if tone == self._tone or self._closed:
            return
        self._tone = tone
        if self.device is None:
            return
        if isinstance(self.device, TonalBuzzer):
            if tone is None:
                self.device.stop()
            else:
                self.device.play(Tone(tone))
        elif tone is None:
            self.device.off()
        else:
            self.device.on()

    def close(self) -> None:
        """Silence and release the pin; safe to call twice."""
        if self._closed:
            return
        self.silence()
        self._closed = True
        if self.device is not None:
            self.device.close()

    def __enter__(self) -> Sounder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""LED ring drivers: one small interface, three ways to show a :class:`RingFrame`.

* :class:`LedBarRing` — single-colour LEDs, one GPIO each, through gpiozero's
  ``LEDBarGraph(pwm=True)`` (PWM gives the partly lit LED and the dim pause). They cannot
  change colour, so the frames for them are drawn with ``RingStyle(mono=True)``: the
  leading LED blinks in the warning, everything flashes at 0, everything dims when paused.
* :class:`NeoPixelRing` — a WS2812 ring on one data pin through Adafruit Blinka's
  ``neopixel`` (on a Pi 5 via the Adafruit-Blinka-Raspberry-Pi5-Neopixel package),
  imported only when such a ring is opened.
* :class:`ScreenOnlyRing` — no ring fitted (or it could not be opened): remembers the last
  frame so the screen or terminal can draw it.

LED light is perceived roughly as the square of the PWM duty, so levels pass through a
gamma curve (:func:`duty`) on the way to the hardware; the frames themselves stay linear.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from gpiozero import LEDBarGraph

from games.ring_frames import RingFrame

GAMMA = 2.2


class RingUnavailable(RuntimeError):
    """The configured ring cannot be driven here; the message says why and what to install."""


def duty(level: float, brightness: float) -> float:
    """The PWM duty (0-1) that makes an LED look ``level`` bright at the ``brightness`` setting."""
    return brightness * (max(0.0, min(1.0, level)) ** GAMMA)


@runtime_checkable
class Ring(Protocol):
    """Anything that can show a ring frame."""

    leds: int

    def show(self, frame: RingFrame) -> None: ...

    def off(self) -> None: ...

    def close(self) -> None: ...


class ScreenOnlyRing:
    """No ring hardware: keeps the last frame for whoever draws the ring on a screen."""

    def __init__(self, leds: int, reason: str = "no ring fitted") -> None:
        self.leds = leds
        self.reason = reason
        self.frame = RingFrame.dark(leds)

    def show(self, frame: RingFrame) -> None:
        self.frame = frame

    def off(self) -> None:
        self.frame = RingFrame.dark(self.leds)

    def close(self) -> None:
        self.off()

    def __enter__(self) -> ScreenOnlyRing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LedBarRing:
    """Discrete LEDs (first pin = LED 0) driven by PWM; ``brightness`` 0-1 scales them all.

    >>> from hardware.pins import mock_factory
    >>> from games.ring_frames import RingFrame, GREEN
    >>> from games.countdown import Phase
    >>> with LedBarRing([5, 6, 13], pin_factory=mock_factory()) as ring:
    ...     ring.show(RingFrame(Phase.RUNNING, GREEN, (1.0, 0.5, 0.0)))
    ...     [round(v, 3) for v in ring.values]
    [1.0, 0.218, 0.0]
    """

    def __init__(
        self, pins: list[int] | tuple[int, ...], *, brightness: float = 1.0, pin_factory: Any = None
    ) -> None:
        self.bar = LEDBarGraph(*pins, pwm=True, pin_factory=pin_factory)
        self.leds = len(pins)
        self.brightness = brightness
        self._closed = False

    @property
    def values(self) -> list[float]:
        return [led.value for led in self.bar.leds]

    def show(self, frame: RingFrame) -> None:
        if self._closed:
            return
        for led, level in zip(self.bar.leds, frame.levels, strict=False):
            value = duty(level, self.brightness)
            if led.value != value:
                led.value = value

    def off(self) -> None:
        if not self._closed:
            self.bar.off()

    def close(self) -> None:
        """Turn every LED off and release the pins; safe to call twice."""
        if self._closed:
            return
        self.off()
        self._closed = True
        self.bar.close()

    def __enter__(self) -> LedBarRing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class NeoPixelRing:
    """A WS2812 (NeoPixel) ring of ``leds`` pixels on data pin ``pin`` (BCM number)."""

    def __init__(self, pin: int, leds: int, *, brightness: float = 1.0, pixel_order: str = "GRB") -> None:
        try:
            import board  # type: ignore[import-not-found]  # Adafruit Blinka, Pi only
            import neopixel  # type: ignore[import-not-found]
        except (ImportError, NotImplementedError, RuntimeError) as exc:
            raise RingUnavailable(
                f"the NeoPixel ring needs Adafruit Blinka's neopixel ({exc}); on the Pi run "
                '\'pip install -e .[pi]\' (systemd/install-pi.sh does), or set ring = "leds" or "none"'
            ) from exc
        try:
            data_pin = getattr(board, f"D{pin}")
            self.pixels = neopixel.NeoPixel(
                data_pin, leds, brightness=1.0, auto_write=False, pixel_order=getattr(neopixel, pixel_order)
            )
        except (AttributeError, OSError, RuntimeError, ValueError) as exc:
            raise RingUnavailable(f"could not open the NeoPixel ring on GPIO{pin}: {exc}") from exc
        self.leds = leds
        self.brightness = brightness
        self._shown: tuple[tuple[int, int, int], ...] | None = None
        self._closed = False

    def show(self, frame: RingFrame) -> None:
        if self._closed:
            return
        pixels = tuple(
            tuple(round(c * duty(level, self.brightness)) for c in frame.colour) for level in frame.levels
        )
        if pixels != self._shown:
            for i, rgb in enumerate(pixels[: self.leds]):
                self.pixels[i] = rgb
            self.pixels.show()
            self._shown = pixels  # type: ignore[assignment]

    def off(self) -> None:
        if not self._closed:
            self.pixels.fill((0, 0, 0))
            self.pixels.show()
            self._shown = None

    def close(self) -> None:
        if self._closed:
            return
        self.off()
        self._closed = True
        self.pixels.deinit()

    def __enter__(self) -> NeoPixelRing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

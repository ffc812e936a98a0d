"""The camera's exposure, gain, white balance and focus, held at the values of calibration.

Why hold them: left automatic, the camera re-exposes as light tiles cover a dark board, shifts
its white balance with what it sees, and a continuous autofocus hunts. Each makes the board
look different from its learnt look although the room's light did not change, and the reader
then doubts cells or takes the change for a hand. At calibration the automatic controls have
settled on the room as it is; holding those values keeps every later picture comparable with
the references. The reader still copes with the room's own changes of light; after a lasting
one (evening falls, a lamp is switched on) calibrating again settles and holds new values.

The values are the driver's own, kept as the driver reported them: picamera2's metadata
names (``ExposureTime`` in microseconds, ``AnalogueGain``, ``ColourGains`` red and blue,
``LensPosition`` in dioptres) or V4L2's through OpenCV (``exposure``, ``gain``,
``wb_temperature``, ``focus``, in the camera's own units).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: What each driver's hold may name, and the bounds of a sane value (anything else is damage).
CONTROLS: dict[str, dict[str, tuple[float, float, int]]] = {
    # name: (low, high, how many numbers)
    "picamera2": {"ExposureTime": (1, 10_000_000, 1), "AnalogueGain": (0.5, 64.0, 1),
                  "ColourGains": (0.1, 32.0, 2), "LensPosition": (0.0, 32.0, 1)},
    "v4l2": {"exposure": (-20, 100_000, 1), "gain": (0, 10_000, 1), "wb_temperature": (1000, 12_000, 1),
             "focus": (0, 10_000, 1)},
}


class HoldError(ValueError):
    """A held-settings entry that is not one this tablekeeper wrote."""


@dataclass(frozen=True)
class CameraHold:
    """The driver and the values its automatic controls had settled on."""

    driver: str
    values: Mapping[str, float | tuple[float, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.driver not in CONTROLS:
            raise HoldError(f"the camera hold names driver {self.driver!r}, not one of {', '.join(CONTROLS)}")
        allowed = CONTROLS[self.driver]
        checked: dict[str, float | tuple[float, ...]] = {}
        for name, value in dict(self.values).items():
            if name not in allowed:
                raise HoldError(f"the camera hold names {name!r}, which {self.driver} has no control for")
            low, high, count = allowed[name]
            numbers = tuple(value) if isinstance(value, list | tuple) else (value,)
            if len(numbers) != count or not all(_number(v) and low <= v <= high for v in numbers):
                raise HoldError(f"the camera hold's {name} must be {count} number(s) from {low:g} to "
                                f"{high:g}, not {value!r}")
            checked[name] = tuple(float(v) for v in numbers) if count > 1 else float(numbers[0])
        object.__setattr__(self, "values", checked)

    def to_dict(self) -> dict[str, Any]:
        return {"driver": self.driver,
                "values": {k: list(v) if isinstance(v, tuple) else v for k, v in self.values.items()}}

    @classmethod
    def from_dict(cls, data: Any) -> CameraHold:
        if not isinstance(data, Mapping) or not isinstance(data.get("values", {}), Mapping):
            raise HoldError("the camera hold is not an object with a driver and its values")
        return cls(str(data.get("driver")), data.get("values", {}))


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)

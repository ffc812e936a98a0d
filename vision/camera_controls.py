"""Holding a camera's automatic controls still, per driver (:mod:`calibration.camera_hold`).

Two drivers: picamera2 (the Pi camera; its metadata reports what auto-exposure, auto white
balance and autofocus settled on, and its controls take the same names back) and V4L2 through
OpenCV (a USB camera; its controls are read and written as capture properties). The mapping is
kept apart from the devices so it can be checked off a Pi.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import cv2

from calibration.camera_hold import CONTROLS, CameraHold

#: libcamera's AfModeEnum: Manual (the lens stays where it is put) and Continuous.
AF_MANUAL, AF_CONTINUOUS = 0, 2


def picamera2_hold(metadata: Mapping[str, Any]) -> CameraHold:
    """The values picamera2's metadata reports, as a hold (what the camera lacks is left out)."""
    wanted = CONTROLS["picamera2"]
    return CameraHold("picamera2", {k: metadata[k] for k in wanted if metadata.get(k) is not None})


def picamera2_controls(hold: CameraHold, available: Mapping[str, Any]) -> dict[str, Any]:
    """The controls that put a Pi camera back on ``hold``'s values, for those it has
    (``Picamera2.camera_controls``); automatic exposure, white balance and focus switched off
    where their values are held."""
    if hold.driver != "picamera2":
        return {}
    v, out = hold.values, dict[str, Any]()
    exposure, gains = v.get("ExposureTime"), v.get("ColourGains")
    if isinstance(exposure, float) and "ExposureTime" in available:
        out.update(AeEnable=False, ExposureTime=round(exposure))
        if "AnalogueGain" in v and "AnalogueGain" in available:
            out["AnalogueGain"] = v["AnalogueGain"]
    if isinstance(gains, tuple) and "ColourGains" in available:
        out.update(AwbEnable=False, ColourGains=gains)
    if "LensPosition" in v and "AfMode" in available and "LensPosition" in available:
        out.update(AfMode=AF_MANUAL, LensPosition=v["LensPosition"])
    return out


def picamera2_automatic(available: Mapping[str, Any]) -> dict[str, Any]:
    """The controls that hand exposure, white balance and focus back to the camera."""
    out: dict[str, Any] = {k: True for k in ("AeEnable", "AwbEnable") if k in available}
    if "AfMode" in available:
        out["AfMode"] = AF_CONTINUOUS
    return out


#: V4L2 controls as OpenCV capture properties: (held value, the automatic switch, its "manual"
#: value). V4L2's exposure menu takes 1 for manual; OpenCV passes it through on the V4L2 backend.
V4L2_PROPERTIES = {
    "exposure": (cv2.CAP_PROP_EXPOSURE, cv2.CAP_PROP_AUTO_EXPOSURE, 1),
    "gain": (cv2.CAP_PROP_GAIN, None, None),
    "wb_temperature": (cv2.CAP_PROP_WB_TEMPERATURE, cv2.CAP_PROP_AUTO_WB, 0),
    "focus": (cv2.CAP_PROP_FOCUS, cv2.CAP_PROP_AUTOFOCUS, 0),
}


def v4l2_hold(cap: cv2.VideoCapture) -> CameraHold | None:
    """The values a V4L2 camera reports now, or None when it is no V4L2 device (a file)."""
    if cap.getBackendName() != "V4L2":
        return None
    values = {}
    for name, (prop, _auto, _manual) in V4L2_PROPERTIES.items():
        low, high, _count = CONTROLS["v4l2"][name]
        value = cap.get(prop)
        if low <= value <= high and value != -1:  # -1 or out of range: the camera lacks it
            values[name] = value
    return CameraHold("v4l2", values)


def v4l2_apply(cap: cv2.VideoCapture, hold: CameraHold) -> list[str]:
    """Put a V4L2 camera on ``hold``'s values; the names the camera took."""
    took = []
    for name, value in hold.values.items():
        prop, auto, manual = V4L2_PROPERTIES[name]
        if auto is not None and manual is not None:
            cap.set(auto, manual)
        if isinstance(value, float) and cap.set(prop, value):
            took.append(name)
    return took


#: The longest exposure steering chooses (microseconds) unless calibration's was longer: a
#: thirtieth of a second keeps a moving hand sharp enough to be seen as one.
MAX_EXPOSURE_US = 33_000.0


def steer_hold(hold: CameraHold, change: Sequence[float], response: float,
               available: Mapping[str, Any] | None = None) -> CameraHold:
    """The held values that take ``change`` back out of the pictures.

    ``change``: the light's log gain per colour channel (B, G, R) from the calibration picture to
    today's, measured where the picture should not have changed (the board's surround);
    ``response``: how far a picture's log value moves per log of exposure (under 1: the camera's
    tone curve compresses it). Exposure carries the overall change (longer up to
    :data:`MAX_EXPOSURE_US`, then analogue gain), the colour gains the red and blue against
    green; the focus stays. A V4L2 camera's exposure is steered alone (its white balance is a
    colour temperature, not per-channel gains). ``available``: picamera2's ``camera_controls``
    (min, max, default), whose limits are kept."""
    if response <= 0:
        raise ValueError("the camera's response must be positive")
    b, g, r = (float(v) for v in change)
    overall = math.exp(-(b + g + r) / 3.0 / response)
    bounds = dict(CONTROLS[hold.driver])
    for name, (low, high, _count) in bounds.items():
        if available and name in available:
            lo, hi = available[name][0], available[name][1]
            bounds[name] = (max(low, float(lo)) if isinstance(lo, int | float) else low,
                            min(high, float(hi)) if isinstance(hi, int | float) else high, _count)
    values = dict(hold.values)

    def clamp(name: str, value: float) -> float:
        low, high, _ = bounds[name]
        return min(max(value, low), high)

    if hold.driver == "picamera2":
        exposure, gain = values.get("ExposureTime"), values.get("AnalogueGain", 1.0)
        if isinstance(exposure, float) and isinstance(gain, float):
            wanted = exposure * gain * overall
            longest = clamp("ExposureTime", max(MAX_EXPOSURE_US, exposure))
            exposure = min(clamp("ExposureTime", wanted / gain), longest)
            values["ExposureTime"] = exposure
            if "AnalogueGain" in values:
                values["AnalogueGain"] = clamp("AnalogueGain", wanted / exposure)
        gains = values.get("ColourGains")
        if isinstance(gains, tuple):
            red, blue = gains
            values["ColourGains"] = (clamp("ColourGains", red * math.exp(-(r - g) / response)),
                                     clamp("ColourGains", blue * math.exp(-(b - g) / response)))
    else:
        exposure = values.get("exposure")
        if isinstance(exposure, float) and exposure > 0:  # > 0: a time, not a menu's log step
            values["exposure"] = clamp("exposure", exposure * overall)
    return CameraHold(hold.driver, values)


#: Pictures the automatic controls get to settle on the room before they are held.
SETTLE_FRAMES = 8


def settled_photo(source: Any) -> tuple[Any, CameraHold | None]:
    """A calibration photo: the camera left to settle for :data:`SETTLE_FRAMES` pictures, its
    controls then held there (sources that have nothing to hold give None), and one picture more
    taken under the held values, which the kiosk will use at every start."""
    for _ in range(SETTLE_FRAMES):
        source.read()
    hold = source.hold() if hasattr(source, "hold") else None
    return source.read(), hold

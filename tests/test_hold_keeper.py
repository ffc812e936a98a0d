"""Steering the held camera controls after a lasting change of the room's light
(vision.camera_controls.steer_hold, vision.hold_keeper): the values a camera is put on, when the
keeper steers and when it leaves the light alone, and that it converges on cameras whose
response it does not know. Rendered pictures: tests/test_hold_keeper_rendered.py."""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.camera_hold import CameraHold
from vision.camera_controls import MAX_EXPOSURE_US, steer_hold
from vision.hold_keeper import HoldKeeper, KeeperPolicy, departure

HELD = CameraHold("picamera2", {"ExposureTime": 10_000.0, "AnalogueGain": 2.0, "ColourGains": (1.9, 1.6),
                                "LensPosition": 3.0})


def _total(hold: CameraHold) -> float:
    return float(hold.values["ExposureTime"]) * float(hold.values["AnalogueGain"])  # type: ignore[arg-type]


def test_a_darker_room_lengthens_the_exposure_and_a_brighter_one_shortens_it() -> None:
    darker = steer_hold(HELD, [math.log(0.8)] * 3, response=0.5)
    assert _total(darker) == pytest.approx(_total(HELD) * 0.8 ** -2)
    assert darker.values["AnalogueGain"] == 2.0  # exposure first: it adds no noise
    assert darker.values["ColourGains"] == pytest.approx((1.9, 1.6))
    assert darker.values["LensPosition"] == 3.0  # the light does not move the focus
    brighter = steer_hold(HELD, [math.log(1.5)] * 3, response=1.0)
    assert _total(brighter) == pytest.approx(_total(HELD) / 1.5)


def test_past_the_longest_exposure_the_analogue_gain_carries_the_rest() -> None:
    much_darker = steer_hold(HELD, [math.log(0.4)] * 3, response=0.5)
    assert much_darker.values["ExposureTime"] == MAX_EXPOSURE_US
    assert _total(much_darker) == pytest.approx(_total(HELD) * 0.4 ** -2)
    limited = steer_hold(HELD, [math.log(0.15)] * 3, response=0.5,
                         available={"ExposureTime": (14, 1_000_000, None), "AnalogueGain": (1.0, 16.0, None)})
    assert limited.values["AnalogueGain"] == 16.0  # the camera's own limit


def test_a_warmer_light_lowers_the_red_gain_and_raises_the_blue() -> None:
    warmer = steer_hold(HELD, [math.log(0.9), 0.0, math.log(1.1)], response=0.5)
    red, blue = warmer.values["ColourGains"]  # type: ignore[misc]
    assert red == pytest.approx(1.9 * 1.1 ** -2) and blue == pytest.approx(1.6 * 0.9 ** -2)
    assert _total(warmer) == pytest.approx(_total(HELD) * math.exp(-(math.log(0.99)) / 3 / 0.5))


def test_a_usb_camera_has_its_exposure_steered_alone() -> None:
    held = CameraHold("v4l2", {"exposure": 150.0, "gain": 10.0, "wb_temperature": 4600.0})
    darker = steer_hold(held, [math.log(0.5), math.log(0.5), math.log(0.7)], response=1.0)
    overall = (2 * math.log(0.5) + math.log(0.7)) / 3
    assert darker.values["exposure"] == pytest.approx(150.0 / math.exp(overall))
    assert darker.values["gain"] == 10.0 and darker.values["wb_temperature"] == 4600.0
    menu = CameraHold("v4l2", {"exposure": -6.0})  # a log step, not a time: left alone
    assert steer_hold(menu, [math.log(0.5)] * 3, response=1.0).values == {"exposure": -6.0}
    with pytest.raises(ValueError, match="response"):
        steer_hold(held, [0.0] * 3, response=0.0)


class ModelCamera:
    """A camera's surround as a number: the room's change, less what the held values took out,
    through a tone curve of slope ``response`` (log picture value per log exposure)."""

    def __init__(self, room: list[float], response: float, follows: bool = True) -> None:
        self.room, self.response, self.follows, self.hold = np.array(room), response, follows, HELD

    def change(self) -> np.ndarray:
        if not self.follows:
            return self.room
        exposure = math.log(_total(self.hold) / _total(HELD))
        (red, blue), (red0, blue0) = self.hold.values["ColourGains"], HELD.values["ColourGains"]  # type: ignore[misc]
        linear = np.array([exposure + math.log(blue / blue0), exposure, exposure + math.log(red / red0)])
        return self.room + self.response * linear


def _run(keeper: HoldKeeper, camera: ModelCamera, seconds: float, start: float = 0.0, fps: float = 10.0):
    """Feed the keeper a steady picture every frame; the changes it asked for, with their times."""
    asked = []
    for k in range(int(seconds * fps)):
        now = start + k / fps
        change = keeper.look(camera.change(), now)
        if change is not None:
            camera.hold = change.hold
            asked.append((now, change))
    return asked


@pytest.mark.parametrize("response", [0.3, 0.45, 1.0])
@pytest.mark.parametrize("room", [[math.log(0.6)] * 3, [math.log(1.25), math.log(1.5), math.log(1.8)],
                                  [math.log(0.8), math.log(0.7), math.log(0.55)]])
def test_a_lasting_change_is_steered_back_whatever_the_cameras_response(response: float, room: list[float]
                                                                      ) -> None:
    camera = ModelCamera(room, response)
    policy = KeeperPolicy()
    keeper = HoldKeeper(HELD, policy)
    asked = _run(keeper, camera, policy.lasting + 30)
    assert asked and asked[0][0] == pytest.approx(policy.lasting, abs=1.0)  # only once it has lasted
    assert asked[-1][1].final and asked[-1][1].settled
    assert len(asked) <= policy.steps + 1
    overall, colour = departure(camera.change())
    assert abs(overall) <= policy.brightness / 2 and colour <= policy.colour / 2


def test_a_passing_cloud_or_a_small_change_is_left_to_the_reader() -> None:
    policy = KeeperPolicy()
    keeper = HoldKeeper(HELD, policy)
    cloud = ModelCamera([math.log(0.6)] * 3, 0.45)
    assert _run(keeper, cloud, policy.lasting - 5) == []
    cloud.room = np.zeros(3)  # it passed: the wait starts again
    assert _run(keeper, cloud, 5, start=policy.lasting - 5) == []
    cloud.room = np.full(3, math.log(0.6))
    assert _run(keeper, cloud, policy.lasting - 5, start=policy.lasting) == []
    small = ModelCamera([math.log(1.1), math.log(1.1), math.log(1.13)], 0.45)
    assert _run(HoldKeeper(HELD, policy), small, policy.lasting * 3) == []


def test_pictures_it_cannot_measure_change_nothing() -> None:
    keeper = HoldKeeper(HELD, KeeperPolicy(lasting=0.0, look_every=0.0))
    assert keeper.look(None, 0.0) is None
    assert keeper.look([math.nan, 0.0, 0.0], 1.0) is None
    assert keeper.hold is HELD


def test_a_camera_that_cannot_follow_is_left_on_its_nearest_values_and_tried_again_later() -> None:
    policy = KeeperPolicy()
    keeper = HoldKeeper(HELD, policy)
    stuck = ModelCamera([math.log(0.5)] * 3, 0.45, follows=False)  # the surround itself changed
    asked = _run(keeper, stuck, policy.lasting + 30)
    assert asked[-1][1].final and not asked[-1][1].settled
    assert len(asked) == policy.steps + 1
    first_try = asked[0][0]
    later = _run(keeper, stuck, policy.retry + 60, start=policy.lasting + 30)
    assert later and later[0][0] == pytest.approx(first_try + policy.retry, abs=1.0)  # not before
    again = _run(keeper, stuck, 2 * policy.retry + 60, start=later[-1][0] + 1)
    assert again[0][0] - later[0][0] == pytest.approx(2 * policy.retry, abs=2.0)  # backing off

"""The demo camera's worker stops with the app (kiosk/camera/demo.py)."""

from __future__ import annotations

import threading

from games.upwords import Upwords
from kiosk.camera.demo import DemoCamera


def test_close_lets_the_photo_in_hand_finish_and_the_worker_stop() -> None:
    """A process that exits while the worker is inside OpenCV can abort on the way out, so the
    app's stop waits for the job in hand: the photo is taken, then the worker is gone."""
    camera = DemoCamera.create()
    assert camera is not None
    started = threading.Event()
    camera._jobs.put(started.set)  # the worker is running before the photo is asked for
    assert started.wait(10)
    camera.film(Upwords(["Ann", "Bob"]).board)
    camera.close()
    assert not camera._worker.is_alive()
    assert camera.latest_image() is not None and camera.frames >= 1
    camera.close()  # twice is harmless

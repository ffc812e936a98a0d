"""The camera as the kiosk uses it: the live reader over a real camera
(:mod:`~kiosk.camera.live`), the demo's rendered board (:mod:`~kiosk.camera.demo`), the
picture shown on screen and the camera's faults in plain words.
"""

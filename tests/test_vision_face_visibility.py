"""How much of its letter a tile face can show: the evidence beside a letter read, or none."""

from __future__ import annotations

import cv2
import numpy as np

from vision.glyphs import CUT_WHITE, face_visibility


def _face(ink: int = 40, ground: int = 225) -> np.ndarray:
    """A tile face, 40 px square: a letter in ``ink`` on ``ground`` (grey), softened as a lens does."""
    face = np.full((40, 40), ground, np.uint8)
    cv2.putText(face, "J", (12, 31), cv2.FONT_HERSHEY_SIMPLEX, 1.0, ink, 3)
    return cv2.GaussianBlur(face, (3, 3), 0)


def _under_light(face: np.ndarray, gain: float, glare: float) -> np.ndarray:
    """The face under a light ``gain`` times the calibration's plus a lamp's ``glare`` (grey
    levels added), cut at the sensor's top."""
    return np.clip(face.astype(np.float64) * gain + glare, 0, 255).astype(np.uint8)


def test_a_plain_face_shows_its_ink_and_nothing_of_it_is_cut() -> None:
    contrast, cut = face_visibility(_face())
    assert contrast > 0.5 and cut == 0.0


def test_a_glare_that_cuts_the_face_white_cuts_its_ink_with_it() -> None:
    contrast, cut = face_visibility(_under_light(_face(ink=90), 1.5, 130))
    assert contrast < 0.03 and cut > 0.9


def test_a_brighter_light_that_leaves_the_ink_below_the_top_keeps_the_contrast() -> None:
    face = _face(ground=150)
    plain, brighter = face_visibility(face), face_visibility(_under_light(face, 1.3, 0))
    assert brighter[1] == 0.0 and abs(brighter[0] - plain[0]) < 0.05


def test_the_share_cut_counts_pixels_at_the_sensor_s_top_in_a_colour_face_too() -> None:
    face = cv2.cvtColor(_under_light(_face(), 1.0, 0), cv2.COLOR_GRAY2BGR)
    face[:20] = CUT_WHITE
    assert face_visibility(face)[1] >= 0.5


def test_an_empty_crop_shows_nothing() -> None:
    assert face_visibility(np.zeros((0, 0), np.uint8)).tolist() == [0.0, 0.0]

"""Teaching photos: the players' whole tile set laid out in a known order, as the renderer sees it.

At calibration time the players lay their tiles on the board in alphabetical order and the
kiosk learns what *their* letters look like from one photo (``tablekeeper calibrate``). For
tests, the benchmark and the demo the same flow runs on a rendered photo: this module lays
the alphabet out on an Upwords board, renders it, and cuts out each tile face exactly as the
reader will later see faces (same warp, same crop). The classifier never sees a test board.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.synthetic.render import STREET_LETTERS, Effects, Pose, UpwordsSpec, render_upwords
from vision.upwords_reader import UpwordsReader

#: The Upwords letters: A–Z with the Qu tile in place of Q.
UPWORDS_ALPHABET: tuple[str, ...] = (*"ABCDEFGHIJKLMNOP", "Qu", *"RSTUVWXYZ")

#: The poses of the default teaching photos: the camera as the kiosk may be set up.
TEACHING_POSES: tuple[Pose, ...] = (
    Pose(tilt_deg=0.0), Pose(tilt_deg=22.0, yaw_deg=6.0), Pose(tilt_deg=38.0, yaw_deg=-8.0),
)


def layout(alphabet: Sequence[str], rows: int, cols: int) -> dict[tuple[int, int], tuple[str, int]]:
    """The alphabet repeated row by row over the whole board, each tile one high."""
    cells = {}
    for i in range(rows * cols):
        cells[divmod(i, cols)] = (alphabet[i % len(alphabet)], 1)
    return cells


def teaching_samples(alphabet: Sequence[str] = UPWORDS_ALPHABET, poses: Sequence[Pose] = TEACHING_POSES,
                     size: int = 10, seed: int = 1000, effects: Effects | None = None
                     ) -> tuple[list[np.ndarray], list[str]]:
    """Tile-face crops and their labels from rendered teaching photos (one per pose)."""
    images: list[np.ndarray] = []
    labels: list[str] = []
    spec = UpwordsSpec(rows=size, cols=size)
    for i, pose in enumerate(poses):
        cells = layout(alphabet[i % len(alphabet):] + alphabet[:i % len(alphabet)], size, size)
        shot = render_upwords(cells, spec=spec, pose=pose, seed=seed + i,
                              effects=effects or Effects(noise_sigma=2.0, jpeg_quality=90))
        reader = UpwordsReader(shot.corners, shot.image_size, rows=size, cols=size)
        plane = reader.warp_planes(shot.image)[1]
        for (r, c), (letter, _) in cells.items():
            images.append(reader.face_crop(plane, r, c))
            labels.append(letter)
    return images, labels


def street_teaching_samples(poses: Sequence[Pose] = TEACHING_POSES, seed: int = 2000,
                            effects: Effects | None = None) -> tuple[list[np.ndarray], list[str]]:
    """Word on the Street's own teaching photo: the start of a game, every tile on its letter
    of the median strip, so the order is known without anyone typing it (one photo per pose)."""
    from vision.street import StreetReader
    from vision.synthetic.render import render_street

    images: list[np.ndarray] = []
    labels: list[str] = []
    for i, pose in enumerate(poses):
        shot = render_street({}, pose=pose, seed=seed + i,
                             effects=effects or Effects(noise_sigma=2.0, jpeg_quality=90))
        reader = StreetReader(shot.corners, shot.image_size)
        top = reader.warp(shot.image)
        for col, letter in enumerate(STREET_LETTERS):
            images.append(reader.face_crop(top, 2, col))
            labels.append(letter)
    return images, labels

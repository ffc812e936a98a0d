"""A pinhole camera looking at a board on the table: the 3-D half of the renderer.

Why a real projection and not a tilted 2-D warp: Upwords stack heights are read partly from
geometry (a taller stack's top face is nearer the camera, so it is larger and displaced away
from the image centre). Only a true perspective model of boxes standing on the board plane
produces that cue with the right size, so the tests of the height reader mean something.

World frame (millimetres): x along the board's columns (left to right as seen from the
players' side), y along its rows (top to bottom), z *into* the board, so the frame is
right-handed and a tile of height h has its top face at z = -h. The board's playing area
starts at the origin.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class Pose:
    """Where the camera is and what lens it has.

    ``tilt_deg`` 0 is straight overhead; 40 is a camera on a stand at the table side.
    ``yaw_deg`` turns the camera around the vertical through the board centre (0: the
    camera is on the side of the last row, so the board reads upright). ``distance_mm``
    None fits the board into ``fill`` of the image. ``focal_px`` is the focal length in
    pixels; ``offset_mm`` moves the point looked at away from the board centre.
    """

    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    roll_deg: float = 0.0
    distance_mm: float | None = None
    focal_px: float = 900.0
    image_size: tuple[int, int] = (1024, 768)
    fill: float = 0.88
    offset_mm: tuple[float, float] = (0.0, 0.0)

    @classmethod
    def random(cls, rng: np.random.Generator, max_tilt: float = 40.0, **overrides: object) -> Pose:
        """A plausible table-side pose: overhead to ``max_tilt`` degrees, a little yaw and roll."""
        values: dict[str, object] = {
            "tilt_deg": float(rng.uniform(0.0, max_tilt)),
            "yaw_deg": float(rng.uniform(-12.0, 12.0)),
            "roll_deg": float(rng.uniform(-4.0, 4.0)),
            "focal_px": float(rng.uniform(750.0, 1100.0)),
            "fill": float(rng.uniform(0.75, 0.92)),
            "offset_mm": (float(rng.uniform(-6, 6)), float(rng.uniform(-6, 6))),
        }
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]


class PinholeCamera:
    """Projects world points (mm) to pixels for a :class:`Pose` aimed at a board of a given size."""

    def __init__(self, pose: Pose, board_w_mm: float, board_h_mm: float, margin_mm: float = 0.0):
        self.pose = pose
        self._build(board_w_mm, board_h_mm, margin_mm, pose.distance_mm)
        if pose.distance_mm is None:
            # Fit the whole board (margins included) into `fill` of the frame: the far edge of a
            # tilted board is smaller than the near one, so refine the distance twice.
            w, h = pose.image_size
            outline = np.array([[-margin_mm, -margin_mm, 0], [board_w_mm + margin_mm, -margin_mm, 0],
                                [board_w_mm + margin_mm, board_h_mm + margin_mm, 0],
                                [-margin_mm, board_h_mm + margin_mm, 0]])
            for _ in range(3):
                uv = self.project(outline) - [w / 2, h / 2]
                need = max(np.abs(uv[:, 0]).max() / (w / 2), np.abs(uv[:, 1]).max() / (h / 2)) / pose.fill
                self._build(board_w_mm, board_h_mm, margin_mm, self.distance * need)

    def _build(self, board_w_mm: float, board_h_mm: float, margin_mm: float, distance: float | None) -> None:
        pose = self.pose
        w, h = pose.image_size
        self.K = np.array([[pose.focal_px, 0.0, w / 2.0], [0.0, pose.focal_px, h / 2.0], [0.0, 0.0, 1.0]])
        target = np.array([board_w_mm / 2 + pose.offset_mm[0], board_h_mm / 2 + pose.offset_mm[1], 0.0])
        if distance is None:  # a first guess from the board's width
            distance = pose.focal_px * (board_w_mm + 2 * margin_mm) / (w * pose.fill)
        tilt, yaw = math.radians(pose.tilt_deg), math.radians(pose.yaw_deg)
        toward = np.array([math.sin(yaw), math.cos(yaw), 0.0])  # horizontal, board -> camera
        centre = target + distance * (math.sin(tilt) * toward - math.cos(tilt) * np.array([0, 0, 1.0]))
        z_axis = target - centre
        z_axis /= np.linalg.norm(z_axis)
        y_axis = toward - (toward @ z_axis) * z_axis  # "toward the camera" shows as image-down
        y_axis /= np.linalg.norm(y_axis)
        x_axis = np.cross(y_axis, z_axis)
        roll = math.radians(pose.roll_deg)
        x_r = math.cos(roll) * x_axis + math.sin(roll) * y_axis
        y_r = -math.sin(roll) * x_axis + math.cos(roll) * y_axis
        self.R = np.stack([x_r, y_r, z_axis])
        self.centre = centre
        self.t = -self.R @ centre
        self.distance = distance

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) to camera coordinates (N, 3)."""
        return np.asarray(points, dtype=np.float64) @ self.R.T + self.t

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) to pixel positions (N, 2)."""
        cam = self.to_camera(points)
        uv = cam @ self.K.T
        return uv[:, :2] / uv[:, 2:3]

    def plane_homography(self, z: float = 0.0) -> np.ndarray:
        """The 3x3 map from (x, y, 1) on the plane at height z (mm, negative is up) to pixels."""
        r1, r2, r3 = self.R[:, 0], self.R[:, 1], self.R[:, 2]
        return self.K @ np.column_stack([r1, r2, self.t + z * r3])

    def sees_face(self, face_centre: np.ndarray, outward_normal: np.ndarray) -> bool:
        """True when a planar face's front side is turned toward the camera."""
        return float((self.centre - face_centre) @ outward_normal) > 1e-9

"""The board plane and the planes above it, recovered from the four calibrated corners.

Why: the top face of an Upwords stack of height h lies on the plane h tile-thicknesses above
the board. The calibration stores only where the board's corners are in the image (one
homography), but that homography is K [r1 r2 t] for a pinhole camera, so with the focal
length we get the camera's pose and with it the homography of any parallel plane:
H(z) = K [r1 r2 (t + z r3)]. Warping a plane at the right height makes a stack's top face
land exactly on its cell; at a wrong height it slides off — that is the geometric height cue.

The focal length comes from the calibration's lens when there is one; otherwise it is
estimated from the homography itself (Zhang's constraints with square pixels and a centred
principal point), which works when the camera is tilted; straight overhead the focal length
is unobservable, the height cue is weak anyway, and a typical value is assumed.

World units: millimetres of an idealised board with square cells of ``pitch_mm``; the
origin is the playing area's top-left corner, z points into the board (up is negative).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Focal length assumed when neither the lens nor the view reveals it, as a fraction of the image width
#: (a typical Pi camera module with the standard lens at 1024 px wide is about 0.85–0.95).
DEFAULT_FOCAL_FRACTION = 0.9


@dataclass(frozen=True, slots=True)
class BoardPlanes:
    """The camera's view of a board: the homography of the board plane and of planes above it."""

    K: np.ndarray
    R: np.ndarray
    t: np.ndarray
    cell_mm: tuple[float, float]
    focal_source: str  # "lens", "estimated" or "assumed"

    @classmethod
    def from_corners(cls, corners: np.ndarray, rows: int, cols: int, image_size: tuple[int, int],
                     cell_mm: tuple[float, float] = (22.0, 22.0), camera_matrix: np.ndarray | None = None
                     ) -> BoardPlanes:
        """Recover the view from the playing area's corners (TL, TR, BR, BL, image pixels)."""
        corners = np.asarray(corners, np.float64).reshape(4, 2)
        w_mm, h_mm = cols * cell_mm[0], rows * cell_mm[1]
        board = np.float32([[0, 0], [w_mm, 0], [w_mm, h_mm], [0, h_mm]])
        H = cv2.getPerspectiveTransform(board, corners.astype(np.float32)).astype(np.float64)
        w, h = image_size
        if camera_matrix is not None:
            K, source = np.asarray(camera_matrix, np.float64), "lens"
        else:
            f = _estimate_focal(H, (w / 2.0, h / 2.0))
            source = "estimated"
            if f is None or not 0.3 * w < f < 5.0 * w:
                f, source = DEFAULT_FOCAL_FRACTION * w, "assumed"
            K = np.array([[f, 0, w / 2.0], [0, f, h / 2.0], [0, 0, 1.0]])
        B = np.linalg.solve(K, H)
        scale = 2.0 / (np.linalg.norm(B[:, 0]) + np.linalg.norm(B[:, 1]))
        if B[2, 2] * scale < 0:  # the board must be in front of the camera
            scale = -scale
        r1, r2 = B[:, 0] * scale, B[:, 1] * scale
        r3 = np.cross(r1, r2)
        # Nearest true rotation to the noisy (r1 r2 r3).
        u, _, vt = np.linalg.svd(np.column_stack([r1, r2, r3]))
        R = u @ vt
        return cls(K=K, R=R, t=B[:, 2] * scale, cell_mm=cell_mm, focal_source=source)

    def homography(self, z_mm: float = 0.0) -> np.ndarray:
        """Board-plane millimetres at height z (negative is up) -> image pixels."""
        return self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t + z_mm * self.R[:, 2]])

    def warp(self, image: np.ndarray, rows: int, cols: int, cell_px: int, z_mm: float = 0.0,
             pad_cells: float = 0.0, gray: bool = False, origin: tuple[int, int] = (0, 0)) -> np.ndarray:
        """A top-down image of the plane at height z: ``cell_px`` pixels per cell, ``pad_cells`` around.

        ``rows`` x ``cols`` cells starting at cell ``origin`` (row, col): a window of the board.
        """
        sx, sy = cell_px / self.cell_mm[0], cell_px / self.cell_mm[1]
        pad = pad_cells * cell_px
        ox, oy = origin[1] * self.cell_mm[0], origin[0] * self.cell_mm[1]
        to_mm = np.array([[1 / sx, 0, ox - pad / sx], [0, 1 / sy, oy - pad / sy], [0, 0, 1.0]])
        m = self.homography(z_mm) @ to_mm
        size = (round(cols * cell_px + 2 * pad), round(rows * cell_px + 2 * pad))
        src = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if gray and image.ndim == 3 else image
        return cv2.warpPerspective(src, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """World points (N, 3) in mm -> image pixels (N, 2)."""
        cam = np.asarray(points_mm, np.float64) @ self.R.T + self.t
        uv = cam @ self.K.T
        return uv[:, :2] / uv[:, 2:3]

    @property
    def tilt_deg(self) -> float:
        """How far the camera's axis is from straight down onto the board."""
        return float(np.degrees(np.arccos(min(1.0, abs(self.R[2, 2])))))


def _estimate_focal(H: np.ndarray, principal: tuple[float, float]) -> float | None:
    """Focal length (px) from one plane homography, or None when the view is too frontal to tell."""
    T = np.array([[1, 0, -principal[0]], [0, 1, -principal[1]], [0, 0, 1.0]])
    G = T @ H
    G = G / np.linalg.norm(G[:, :2])
    h1, h2 = G[:, 0], G[:, 1]
    estimates = []
    den = h1[2] * h2[2]
    if abs(den) > 1e-12:
        f2 = -(h1[0] * h2[0] + h1[1] * h2[1]) / den
        if f2 > 0:
            estimates.append((abs(den), f2))
    den2 = h1[2] ** 2 - h2[2] ** 2
    if abs(den2) > 1e-12:
        f2 = -(h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2) / den2
        if f2 > 0:
            estimates.append((abs(den2), f2))
    if not estimates:
        return None
    weight, f2 = max(estimates)
    # Frontal views make the denominators vanish; below this the estimate is noise.
    return float(np.sqrt(f2)) if weight > 5e-9 else None

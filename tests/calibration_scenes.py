"""Synthetic scenes for the calibration tests: a board with corner markers placed as the docs say,
photographed under perspective by OpenCV's own warp."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.markers import dictionary

PX_PER_MM = 4.0
AREA_MM = (176.0, 176.0)  # an 8x8 Upwords playing area of 22 mm cells
MARKER_MM = 30.0


def board_texture(area_mm=AREA_MM, marker_mm=MARKER_MM, pad_mm=40.0,
                  ids=(0, 1, 2, 3)) -> tuple[np.ndarray, np.ndarray]:
    """A top-down board with a grid, markers placed as the docs say (inner corner on the area's corner).

    Returns the texture and the playing area's corners in texture pixels.
    """
    s = PX_PER_MM
    w, h = area_mm
    tex = np.full((round((h + 2 * pad_mm) * s), round((w + 2 * pad_mm) * s), 3), (60, 120, 170), np.uint8)
    x0, y0 = pad_mm * s, pad_mm * s
    area = np.array([[x0, y0], [x0 + w * s, y0], [x0 + w * s, y0 + h * s], [x0, y0 + h * s]])
    cv2.rectangle(tex, (round(x0), round(y0)), (round(x0 + w * s), round(y0 + h * s)), (200, 210, 220), -1)
    for k in range(9):
        cv2.line(tex, (round(x0 + k * w * s / 8), round(y0)), (round(x0 + k * w * s / 8), round(y0 + h * s)),
                 (40, 40, 40), 2)
        cv2.line(tex, (round(x0), round(y0 + k * h * s / 8)), (round(x0 + w * s), round(y0 + k * h * s / 8)),
                 (40, 40, 40), 2)
    side = round(marker_mm * s)
    quiet = side // 6
    for spot, marker_id in enumerate(ids):
        cx, cy = area[spot]
        # the marker's inner corner touches the area's corner; the marker lies outside it
        mx = round(cx - side) if spot in (0, 3) else round(cx)
        my = round(cy - side) if spot in (0, 1) else round(cy)
        tex[my - quiet:my + side + quiet, mx - quiet:mx + side + quiet] = 255
        img = cv2.aruco.generateImageMarker(dictionary(), marker_id, side)
        tex[my:my + side, mx:mx + side] = img[..., None]
    return tex, area


def photograph(tex: np.ndarray, area: np.ndarray, dst_quad, size=(1024, 768), seed=0):
    """Warp the texture onto a table under perspective; return the photo and the area's true corners."""
    h, w = tex.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    H = cv2.getPerspectiveTransform(src, np.float32(dst_quad))
    rng = np.random.default_rng(seed)
    table = rng.normal(90, 12, (size[1], size[0], 3)).clip(0, 255).astype(np.uint8)
    photo = cv2.warpPerspective(tex, H, size, dst=table, borderMode=cv2.BORDER_TRANSPARENT,
                                flags=cv2.INTER_LINEAR)
    photo = cv2.GaussianBlur(photo, (3, 3), 0.8)
    _, jpg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 88])
    photo = cv2.imdecode(jpg, cv2.IMREAD_COLOR)
    # Pixel centres sit at integer coordinates, so the edge between texture pixels i-1 and i is i - 0.5.
    truth = cv2.perspectiveTransform((area - 0.5)[None].astype(np.float64), H.astype(np.float64))[0]
    return photo, truth

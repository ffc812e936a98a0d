"""Corner markers: the printed sheet's size, and finding the board under perspective."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from calibration.file import CalibrationError
from calibration.markers import (
    MarkerLayout,
    MarkersNotFound,
    dictionary,
    find_board,
    find_markers,
    marker_sheet,
    write_marker_sheet,
)

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
    truth = cv2.perspectiveTransform(area[None].astype(np.float64), H.astype(np.float64))[0]
    return photo, truth


VIEWS = {
    "overhead": [[150, 60], [880, 70], [870, 720], [160, 710]],
    "tilted": [[260, 120], [770, 120], [960, 700], [60, 700]],
    "turned": [[520, 20], [1000, 380], [520, 750], [40, 380]],
}


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_the_board_is_found_from_the_markers_inner_corners(view) -> None:
    tex, area = board_texture()
    photo, truth = photograph(tex, area, VIEWS[view])
    corners = find_board(photo)
    assert np.abs(corners - truth).max() < 1.5, (corners, truth)


def test_the_camera_on_the_far_side_still_gives_the_players_top_left() -> None:
    """Upside-down camera: ArUco corners are in the marker's own frame, so TL stays TL."""
    tex, area = board_texture()
    quad = VIEWS["tilted"]
    rotated = [quad[2], quad[3], quad[0], quad[1]]  # the texture's TL lands at the photo's bottom right
    photo, truth = photograph(tex, area, rotated)
    corners = find_board(photo)
    assert np.abs(corners - truth).max() < 1.5
    assert corners[0][1] > corners[2][1]  # the board's top-left is low in the picture


def test_a_hidden_marker_is_named() -> None:
    tex, area = board_texture()
    photo, _ = photograph(tex, area, VIEWS["tilted"])
    found = find_markers(photo)
    quad = found[2].astype(np.int32)
    cv2.fillConvexPoly(photo, quad, (30, 80, 160))  # a hand over the bottom-right marker
    with pytest.raises(MarkersNotFound) as err:
        find_board(photo)
    assert str(err.value) == "found markers 0, 1, 3: marker 2 (bottom right) is hidden"
    assert err.value.missing == (2,) and isinstance(err.value, CalibrationError)


def test_no_markers_at_all_says_how_to_get_them() -> None:
    photo = np.full((480, 640, 3), 128, np.uint8)
    with pytest.raises(MarkersNotFound, match=r"no corner markers found.*tablekeeper calibrate markers"):
        find_board(photo)


def test_swapped_markers_are_refused() -> None:
    tex, area = board_texture(ids=(0, 3, 2, 1))  # markers 1 and 3 swapped on the table
    photo, _ = photograph(tex, area, VIEWS["overhead"])
    with pytest.raises(CalibrationError, match="do not outline the board"):
        find_board(photo)


def test_a_board_with_markers_in_its_margin_via_a_layout() -> None:
    """VB's renderer prints the markers in the board's margin; its layout gives the board corners."""
    render = pytest.importorskip("vision.render")
    textures = pytest.importorskip("vision.render_textures")
    spec = render.UpwordsSpec()
    w_mm, h_mm = spec.cols * spec.pitch_mm, spec.rows * spec.pitch_mm
    quads = textures.marker_layout_mm(w_mm, h_mm, spec.margin_mm)
    layout = MarkerLayout((w_mm, h_mm), dict(enumerate(quads)))
    for i, pose in enumerate((render.Pose(tilt_deg=0.0), render.Pose(tilt_deg=30.0, yaw_deg=10.0))):
        shot = render.render_upwords({(3, 3): ("M", 1), (3, 4): ("O", 2)}, pose=pose, seed=i, markers=True)
        corners = find_board(shot.image, layout)
        assert np.abs(corners - shot.corners).max() < 2.0, (pose, corners, shot.corners)


def test_the_sheet_prints_at_the_stated_size_and_its_markers_are_found(tmp_path: Path) -> None:
    path = write_marker_sheet(tmp_path / "markers.png", size_mm=40)
    with Image.open(path) as im:
        assert im.info["dpi"][0] == pytest.approx(300, abs=0.5)
        assert im.size == (2480, 3508)  # A4 at 300 dpi
        page = np.array(im.convert("L"))
    found = find_markers(page)
    assert sorted(found) == [0, 1, 2, 3]
    side_px = 40 / 25.4 * 300
    for quad in found.values():
        assert np.linalg.norm(quad[1] - quad[0]) == pytest.approx(side_px, rel=0.02)
    # laid out as on the board: 0 top left, 1 top right, 2 bottom right, 3 bottom left
    c = {i: q.mean(axis=0) for i, q in found.items()}
    assert c[0][0] < c[1][0] and c[3][0] < c[2][0] and c[0][1] < c[3][1] and c[1][1] < c[2][1]


def test_sheet_refuses_silly_sizes_and_formats(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="10 to 80 mm"):
        marker_sheet(size_mm=150)
    with pytest.raises(CalibrationError, match=r"\.png or \.pdf"):
        write_marker_sheet(tmp_path / "m.jpg")

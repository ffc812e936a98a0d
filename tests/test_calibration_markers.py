"""Corner markers: the printed sheet's size, and finding the board under perspective."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from calibration_scenes import board_texture, photograph
from PIL import Image

from calibration.file import CalibrationError
from calibration.markers import (
    MarkerLayout,
    MarkersNotFound,
    find_board,
    find_markers,
    marker_sheet,
    write_marker_sheet,
)

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
    render = pytest.importorskip("vision.synthetic.render")
    textures = pytest.importorskip("vision.synthetic.textures")
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


REAL_PHOTOS = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-scrabble-photos"


@pytest.mark.skipif(not REAL_PHOTOS.is_dir(),
                    reason="../shared/data/real-scrabble-photos is not beside the repo")
def test_real_board_photos_without_markers_are_refused_plainly() -> None:
    """Real phone photos of a Scrabble board carry no markers: no false corner is invented."""
    for path in sorted(REAL_PHOTOS.glob("*.jpg"))[:3]:
        image = cv2.imread(str(path))
        image = cv2.resize(image, (image.shape[1] // 3, image.shape[0] // 3), interpolation=cv2.INTER_AREA)
        with pytest.raises(MarkersNotFound) as err:
            find_board(image)
        assert err.value.found == () and "no corner markers found" in str(err.value)

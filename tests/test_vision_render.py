"""The synthetic board renderer: determinism, true corners, real perspective of stacks, effects."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.synthetic.render import Effects, Hand, Pose, StreetSpec, render_street, render_upwords
from vision.synthetic.textures import font_path, tile_face


def _tile_mask(image: np.ndarray) -> np.ndarray:
    """Pixels of the light beige Upwords tile faces (the board and table are darker or redder)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    return ((hsv[..., 2] > 185) & (hsv[..., 1] < 110)).astype(np.uint8)


def test_same_seed_same_picture_and_different_seed_differs() -> None:
    cells = {(3, 3): ("M", 1), (3, 4): ("O", 3)}
    fx = Effects(light_gradient=0.3, shadow=0.3, shadow_seed=5, noise_sigma=3, jpeg_quality=85)
    a = render_upwords(cells, pose=Pose(tilt_deg=25), effects=fx, seed=11)
    b = render_upwords(cells, pose=Pose(tilt_deg=25), effects=fx, seed=11)
    c = render_upwords(cells, pose=Pose(tilt_deg=25), effects=fx, seed=12)
    assert a.image.tobytes() == b.image.tobytes()
    assert a.image.tobytes() != c.image.tobytes()


@pytest.mark.parametrize("tilt,yaw", [(0, 0), (20, 10), (40, -12)])
def test_aruco_markers_are_detectable_where_the_truth_says(tilt: float, yaw: float) -> None:
    shot = render_upwords({(0, 0): ("A", 1)}, pose=Pose(tilt_deg=tilt, yaw_deg=yaw), seed=3, markers=True,
                          effects=Effects(noise_sigma=2, jpeg_quality=90))
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(shot.image)
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        assert np.abs(quad.reshape(4, 2) - shot.markers[int(marker_id)]).max() < 2.0


def test_board_corners_are_where_the_grid_is() -> None:
    """Warping the true corners to a top-down view puts the grid walls on the cell borders."""
    shot = render_upwords({}, pose=Pose(tilt_deg=35, yaw_deg=8), seed=4)
    size = 8 * 40
    m = cv2.getPerspectiveTransform(shot.corners.astype(np.float32),
                                    np.float32([[0, 0], [size, 0], [size, size], [0, size]]))
    top = cv2.cvtColor(cv2.warpPerspective(shot.image, m, (size, size)), cv2.COLOR_BGR2GRAY).astype(float)
    walls = np.mean([top[:, k * 40 - 1:k * 40 + 2].mean() for k in range(1, 8)])
    floors = np.mean([top[:, k * 40 + 14:k * 40 + 26].mean() for k in range(8)])
    assert walls > floors + 8  # the lighter grid walls fall exactly on the predicted lines


def test_a_taller_stack_looks_larger_and_further_from_the_centre_overhead() -> None:
    pose = Pose(tilt_deg=0, focal_px=900)
    areas, dists = [], []
    for height in (1, 5):
        shot = render_upwords({(0, 0): ("I", height)}, pose=pose, seed=1)
        mask = _tile_mask(shot.image)
        _n, _labels, stats, cents = cv2.connectedComponentsWithStats(mask)
        k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        areas.append(stats[k, cv2.CC_STAT_AREA])
        dists.append(np.hypot(*(cents[k] - np.array(shot.image_size) / 2)))
    assert areas[1] > areas[0] * 1.05
    assert dists[1] > dists[0] + 2


def test_under_a_tilted_camera_a_taller_stack_top_moves_away_from_the_camera() -> None:
    """Warped to the board plane, the top face of a 5-stack sits 'up' the board (toward row 0)."""
    tops = []
    for height in (1, 5):
        shot = render_upwords({(4, 4): ("I", height)}, pose=Pose(tilt_deg=40), seed=1)
        size = 8 * 40
        m = cv2.getPerspectiveTransform(shot.corners.astype(np.float32),
                                        np.float32([[0, 0], [size, 0], [size, size], [0, size]]))
        mask = _tile_mask(cv2.warpPerspective(shot.image, m, (size, size)))
        ys = np.nonzero(mask)[0]
        tops.append(ys.min())
    assert tops[1] < tops[0] - 10


def test_visible_side_faces_are_drawn_for_a_stack_seen_from_the_side() -> None:
    flat = render_upwords({(2, 4): ("O", 1)}, pose=Pose(tilt_deg=40), seed=2)
    tall = render_upwords({(2, 4): ("O", 5)}, pose=Pose(tilt_deg=40), seed=2)
    diff = np.abs(flat.image.astype(int) - tall.image.astype(int)).sum(axis=2) > 40
    # A 5-stack covers more of the picture than one tile: its front side is visible.
    assert diff.sum() > 600


def test_hand_puts_skin_over_the_board() -> None:
    clean = render_upwords({}, seed=5)
    hand = render_upwords({}, seed=5, effects=Effects(hand=Hand((512, 384), 20, 120)))

    def skin(image: np.ndarray) -> np.ndarray:
        hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
        return (hsv[..., 0] < 20) & (hsv[..., 1] > 60) & (hsv[..., 2] > 110)

    # the palm, just behind the fingertips, over the dark board
    palm = (slice(390, 425), slice(550, 590))
    assert skin(hand.image)[palm].mean() > 0.9
    assert skin(clean.image)[palm].mean() < 0.02
    assert hand.hand and not clean.hand


def test_the_truth_says_which_cells_a_hand_covers_and_a_hand_short_of_the_board_covers_none() -> None:
    """A benchmark holds the arm check to the hand as drawn: a hand over the middle of the board
    covers cells there, and one reaching from the picture's edge that stops short covers none,
    though it is in the picture."""
    over = render_upwords({}, seed=5, effects=Effects(hand=Hand((512, 384), 20, 120)))
    cover = over.hand_cover()
    assert cover.shape == (8, 8)
    row, col = np.unravel_index(cover.argmax(), cover.shape)
    assert cover.max() > 0.9 and 2 <= row <= 5 and col >= 4  # the palm, right of the middle
    assert cover[:, :2].max() == 0.0  # the arm comes from the right
    short = render_upwords({}, seed=5, effects=Effects(hand=Hand((1000, 384), 0, 80)))
    assert short.hand and short.hand_cover().max() == 0.0
    assert not render_upwords({}, seed=5).hand_cover().any()


def test_non_ascii_letters_are_drawn_with_a_real_font() -> None:
    if font_path() is None:
        pytest.skip("no TrueType font on this machine: only A-Z (Hershey) can be drawn")
    a, umlaut = tile_face("A", 96), tile_face("Ä", 96)
    assert np.abs(a[:30].astype(int) - umlaut[:30].astype(int)).sum() > 2000  # the dots
    assert np.abs(tile_face("Qu", 96).astype(int) - tile_face("Q", 96).astype(int)).sum() > 2000


def test_street_places_tiles_in_their_lanes_and_captured_ones_beside_the_board() -> None:
    shot = render_street({"B": -2, "C": 2, "R": 3}, pose=Pose(tilt_deg=0), seed=1)
    assert shot.positions["B"] == -2 and shot.positions["M"] == 0 and shot.positions["R"] == 3
    spec = StreetSpec()
    h = cv2.getPerspectiveTransform(shot.corners.astype(np.float32), np.float32(
        [[0, 0], [spec.cols * 30, 0], [spec.cols * 30, spec.rows * 30], [0, spec.rows * 30]]))
    top = cv2.warpPerspective(shot.image, h, (spec.cols * 30, spec.rows * 30 + 60))
    white = (cv2.cvtColor(top, cv2.COLOR_BGR2HSV)[..., 1] < 40) & (top.mean(axis=2) > 200)
    assert white[5:25, 5:25].mean() > 0.5          # B in the top lane (-2)
    assert white[125:145, 35:55].mean() > 0.5      # C in the bottom lane (+2)
    assert white[65:85, 35:55].mean() < 0.2        # C not on the median
    assert white[65:85, 11 * 30 + 5:11 * 30 + 25].mean() < 0.2  # R captured: not on the street


def test_bad_state_is_refused_in_plain_words() -> None:
    with pytest.raises(ValueError, match="not a Word on the Street letter"):
        render_street({"A": 0})
    with pytest.raises(ValueError, match="spaces run from -2 to"):
        render_street({"B": 5})
    with pytest.raises(ValueError, match="no cell"):
        render_upwords({(9, 0): ("A", 1)})

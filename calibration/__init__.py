"""The calibration file (board homography, grid, taught letters) and the flows that make it."""

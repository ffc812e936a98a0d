"""Reading the real boards: camera sources, board warping, letter and occupancy readers, the renderer."""

"""The kiosk's look in one place: a dark theme with one bright accent, sized for 800x480.

Numbers are pixels at 800x480 on a 7" panel (about 4.4 px per mm): a 10 mm touch target
is 44 px, and the kiosk uses 60 px or more so wet or hurried fingers still hit. No text is
smaller than :data:`SMALL` (18 px).
"""

from __future__ import annotations

BG = (0.07, 0.08, 0.10, 1)
PANEL = (0.13, 0.15, 0.19, 1)
PANEL_HI = (0.20, 0.23, 0.29, 1)
TEXT = (0.96, 0.96, 0.94, 1)
MUTED = (0.70, 0.73, 0.78, 1)
ACCENT = (1.00, 0.76, 0.16, 1)  # amber: the "do this" colour
ACCENT_TEXT = (0.08, 0.08, 0.08, 1)
GOOD = (0.26, 0.80, 0.42, 1)
BAD = (0.93, 0.28, 0.26, 1)
WARN = (0.98, 0.55, 0.12, 1)
INFO = (0.30, 0.62, 0.98, 1)

SMALL = 18
BODY = 22
LARGE = 30
HUGE = 52
GIANT = 84

TOUCH = 64  # the smallest button height
GAP = 8

"""The kiosk's own small files on disk, other than the game log: where each lives
(:mod:`~kiosk.files.paths`), the settings, the house words, Option's letter points, the kept
timer and the word-list cache, each written whole or not at all.
"""

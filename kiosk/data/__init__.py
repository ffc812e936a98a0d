"""Data files shipped with the kiosk (Word on the Street categories)."""

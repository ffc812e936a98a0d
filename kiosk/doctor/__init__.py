"""``tablekeeper doctor``'s checks: camera, GPIO, Tesseract, word list, display and data, each
with what to do about it; it only reads, never repairs.
"""

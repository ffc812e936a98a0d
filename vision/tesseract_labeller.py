"""Tesseract as the teaching-time labeller: it proposes the letter on each taught cell, so a
layout typed wrong is caught before it is taught. Never on the read path (a call is a process,
about 120 ms a cell; :mod:`vision.letters` reads boards with the taught classifier alone).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.glyphs import glyph_components, ink_mask
from vision.letters import LetterRead


def tesseract_letter(image: np.ndarray, alphabet: Sequence[str]) -> LetterRead:
    """Ask Tesseract for one letter: ``--psm 13`` (raw line) on the binarised glyph, then
    ``--psm 10`` (single character). Slow (a process per call): use for teaching and doubts."""
    import pytesseract  # imported here: the fast path never needs it

    page = _tesseract_page(image)
    if page is None:
        return LetterRead(None, 0.0, "tesseract")
    chars = "".join(sorted({ch for letter in alphabet for ch in (letter, letter.lower()) for ch in ch}))
    wanted = {letter.upper(): letter for letter in alphabet}
    for psm in (13, 10):
        config = f"--psm {psm} -c tessedit_char_whitelist={chars}"
        data = pytesseract.image_to_data(page, config=config, output_type=pytesseract.Output.DICT)
        words = [(t.strip(), float(c)) for t, c in zip(data["text"], data["conf"], strict=True) if t.strip()]
        if words:
            text, conf = max(words, key=lambda tc: tc[1])
            letter = wanted.get(text.upper())
            if letter is not None:
                return LetterRead(letter, max(0.0, min(1.0, conf / 100.0)), "tesseract")
    return LetterRead(None, 0.0, "tesseract")


def _tesseract_page(image: np.ndarray, height: int = 48) -> np.ndarray | None:
    """Black strokes on white, cut tight round the glyph and scaled to a height Tesseract
    reads best, with a wide white margin (its page segmentation needs one)."""
    bw = ink_mask(image)
    mask = glyph_components(bw)
    if mask is None:
        return None
    ys, xs = np.nonzero(mask)
    crop = np.where(mask, 0, 255).astype(np.uint8)[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    scale = height / crop.shape[0]
    crop = cv2.resize(crop, (max(1, round(crop.shape[1] * scale)), height), interpolation=cv2.INTER_LINEAR)
    return cv2.copyMakeBorder(crop, 24, 24, 24, 24, cv2.BORDER_CONSTANT, value=255)

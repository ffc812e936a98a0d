"""The QR code of a table's page on the club server, as PNG bytes (segno: pure Python, small)."""

from __future__ import annotations

import io


def qr_png(url: str, scale: int = 8) -> bytes:
    """A black-on-white QR code of ``url`` with a quiet zone, ``scale`` pixels per module.

    Error correction M: a phone reads it from across the table, off a glossy screen.
    """
    import segno

    code = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="png", scale=scale, border=4, dark="black", light="white")
    return out.getvalue()

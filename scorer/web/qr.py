"""QR codes as SVG (web pages) and as text (the terminal), from the ``qrcode`` package.

No image library is needed: the SVG path factory and the ASCII printer are pure Python.
"""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from markupsafe import Markup, escape


def svg(data: str, label: str = "QR code") -> Markup:
    """``data`` as an inline ``<svg>`` element (one path, scales to its box), named
    ``label`` for screen readers."""
    img = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    text = img.to_string(encoding="unicode")
    # Let CSS size it: drop the fixed millimetre size, keep the viewBox.
    text = text.replace('width="', 'data-w="', 1).replace('height="', 'data-h="', 1)
    return Markup(text.replace("<svg ", f'<svg class="qr" role="img" aria-label="{escape(label)}" ', 1))


def terminal(data: str) -> str:
    """``data`` as a QR code drawn with block characters, for a terminal."""
    code = qrcode.QRCode(border=2)
    code.add_data(data)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()

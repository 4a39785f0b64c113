"""The embedded Unicode fonts (DejaVu Sans) and text measurement."""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

# generator/fonts/, beside this package in a checkout and in a wheel alike; found here, not
# in core.resources, because render is the bottom layer and imports nothing of generator
FONTS = Path(__file__).resolve().parent.parent / "fonts"
REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"


@cache
def register_fonts() -> None:
    """Register the shipped TTF files with ReportLab (once per process)."""
    folder = FONTS
    pdfmetrics.registerFont(TTFont(REGULAR, str(folder / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(folder / "DejaVuSans-Bold.ttf")))


def font_name(bold: bool) -> str:
    return BOLD if bold else REGULAR


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of `text` in points."""
    return _width(text, size, bold)


# Layouts measure the same words again and again (line breaking, fitting): a cold `all`
# asks 22,000 times about 2,600 texts, and a look-up is a tenth of a measurement.
@lru_cache(maxsize=1 << 16)
def _width(text: str, size: float, bold: bool) -> float:
    register_fonts()
    return pdfmetrics.stringWidth(text, font_name(bold), size)


def fit_size(
    text: str, size: float, max_width: float, bold: bool = False, minimum: float = 5
) -> float:
    """The largest size ≤ `size` at which `text` fits in `max_width` (not below `minimum`)."""
    width = text_width(text, size, bold)
    if width <= max_width or width == 0:
        return size
    return max(minimum, size * max_width / width)


def missing_glyphs(text: str) -> str:
    """The characters of `text` the embedded font cannot draw (they would print as boxes)."""
    register_fonts()
    known = pdfmetrics.getFont(font_name(False)).face.charToGlyph
    return "".join(dict.fromkeys(ch for ch in text if not ch.isspace() and ord(ch) not in known))


def ascent(size: float) -> float:
    """Height above the baseline of capitals and accented letters, approximately."""
    return 0.76 * size


def descent(size: float) -> float:
    """Depth below the baseline, approximately."""
    return 0.24 * size

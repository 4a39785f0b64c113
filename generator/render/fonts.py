"""The embedded Unicode fonts (DejaVu Sans), a system font for the scripts DejaVu lacks,
and text measurement."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator
from functools import cache, lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

# generator/fonts/, beside this package in a checkout and in a wheel alike; found here, not
# in core.resources, because render is the bottom layer and imports nothing of generator
FONTS = Path(__file__).resolve().parent.parent / "fonts"
REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"

# DejaVu has no Chinese, Japanese or Korean letters, and a font that has them is 10-20 MB:
# too big to ship, so a system package's TrueType font sets them (embedded as a subset, like
# DejaVu). Where Debian, Ubuntu and Fedora put them; each letter DejaVu lacks is set in the
# first of these that has it. (Noto CJK has PostScript outlines, which ReportLab cannot embed.)
FALLBACK_FONTS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",  # fonts-droid-fallback
    "/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf",  # the same: Hangul
    "/usr/share/fonts/google-droid-sans-fonts/DroidSansFallbackFull.ttf",  # Fedora
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",  # fonts-wqy-microhei
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",  # fonts-wqy-zenhei
)
FALLBACK_PACKAGE = "fonts-droid-fallback"  # the Debian package the warnings name
# the scripts that package adds (a missing letter of another script is not its business)
FALLBACK_SCRIPTS = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO", "IDEOGRAPHIC", "FULLWIDTH")

_search: tuple[str, ...] = FALLBACK_FONTS
# what else remembers widths (fit's line breaks): forgotten when the fonts change
width_caches: list[Callable[[], None]] = []


@cache
def register_fonts() -> None:
    """Register the shipped TTF files with ReportLab (once per process)."""
    folder = FONTS
    pdfmetrics.registerFont(TTFont(REGULAR, str(folder / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(folder / "DejaVuSans-Bold.ttf")))


def font_name(bold: bool) -> str:
    return BOLD if bold else REGULAR


def use_fallback_fonts(paths: Iterable[str | Path]) -> None:
    """Look for the fallback fonts at `paths` from now on (`()`: a machine without any).

    The web server's workers and the tests set it; measurements made before are forgotten.
    """
    global _search
    _search = tuple(str(p) for p in paths)
    for clear in (_fallback.cache_clear, _runs.cache_clear, _width.cache_clear, *width_caches):
        clear()


def fallback_installed(paths: Iterable[str | Path] | None = None) -> bool:
    """Whether a fallback font is installed (at `paths`, else where the search looks)."""
    return any(Path(p).is_file() for p in (_search if paths is None else paths))


@cache
def _charset(name: str) -> frozenset[int]:
    register_fonts()
    return frozenset(pdfmetrics.getFont(name).face.charToGlyph)


def _fallbacks() -> Iterator[tuple[str, frozenset[int]]]:
    """The fallback fonts found, in search order: (name, characters). Each is read and
    registered when a letter is first looked for in it (0.25 s and 20 MB each)."""
    for index in range(len(_search)):
        if (found := _fallback(index)) is not None:
            yield found[0], found[1]


@cache
def _fallback(index: int) -> tuple[str, frozenset[int], bytes] | None:
    path = _search[index]
    if not Path(path).is_file():
        return None
    name = "Fallback-" + Path(path).stem
    try:
        font = TTFont(name, path, subfontIndex=0)
    except (OSError, TTFError):  # unreadable or damaged: as if it were not there
        return None
    before = {found[2] for i in range(index) if (found := _fallback(i)) is not None}
    if font.face.name in before:  # ReportLab would take it for that font
        font.face.name += b"-" + Path(path).stem.encode("ascii", "replace")
    pdfmetrics.registerFont(font)
    return name, frozenset(font.face.charToGlyph), font.face.name


def _font_of(ch: str, main: str) -> str:
    """The font `ch` is set in: the embedded one, else the first fallback that has it."""
    if ch.isspace() or ord(ch) in _charset(main):
        return main
    return next((name for name, chars in _fallbacks() if ord(ch) in chars), main)


def text_runs(text: str, bold: bool = False) -> tuple[tuple[str, str], ...]:
    """`text` as (font name, characters) runs: the embedded font's, and each letter it
    lacks in the fallback font that has it (a letter no font has stays a box in DejaVu)."""
    main = font_name(bold)
    if text.isascii():  # DejaVu has every printable ASCII letter
        return ((main, text),)
    return _runs(text, bold)


@lru_cache(maxsize=1 << 12)
def _runs(text: str, bold: bool) -> tuple[tuple[str, str], ...]:
    main = font_name(bold)
    runs: list[list[str]] = []
    for ch in text:
        font = _font_of(ch, main)
        if runs and (runs[-1][0] == font or ch.isspace() or unicodedata.combining(ch)):
            runs[-1][1] += ch  # a space or an accent stays with the letters before it
        else:
            runs.append([font, ch])
    return tuple((font, part) for font, part in runs) or ((main, ""),)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of `text` in points."""
    return _width(text, size, bold)


# Layouts measure the same words again and again (line breaking, fitting): a cold `all`
# asks 22,000 times about 2,600 texts, and a look-up is a tenth of a measurement.
@lru_cache(maxsize=1 << 16)
def _width(text: str, size: float, bold: bool) -> float:
    register_fonts()
    return sum(pdfmetrics.stringWidth(part, font, size) for font, part in text_runs(text, bold))


def fit_size(
    text: str, size: float, max_width: float, bold: bool = False, minimum: float = 5
) -> float:
    """The largest size ≤ `size` at which `text` fits in `max_width` (not below `minimum`)."""
    width = text_width(text, size, bold)
    if width <= max_width or width == 0:
        return size
    return max(minimum, size * max_width / width)


def missing_glyphs(text: str) -> str:
    """The characters of `text` no font can draw (they would print as boxes)."""
    if text.isascii():
        return ""
    main = font_name(False)
    return "".join(
        dict.fromkeys(
            ch
            for ch in text
            if not ch.isspace()
            and ord(ch) not in _charset(main)
            and not any(ord(ch) in chars for _, chars in _fallbacks())
        )
    )


def fallback_would_print(missing: str) -> bool:
    """Whether the fallback package has a script of `missing` (so installing it helps)."""
    return any(unicodedata.name(ch, "").startswith(FALLBACK_SCRIPTS) for ch in missing)


def ascent(size: float) -> float:
    """Height above the baseline of capitals and accented letters, approximately."""
    return 0.76 * size


def descent(size: float) -> float:
    """Depth below the baseline, approximately."""
    return 0.24 * size

"""Page-health checks of a printed PDF: what a print reviewer sees, page by page.

Each check reads the PDF's bytes back with pdfplumber (what a printer gets; the fonts
with fontTools) and takes what a word *should* respect from the layout's own document
model (`render.primitives.Document`, built in memory by a product's `build_*()`):

- a **box** is a `Rect` the layout drew (forms expanded); a word belongs to the
  innermost box holding the middle of its first letter and must lie inside it;
- **fine print** is text set in a grey at least as light as #444444 (the house
  style's `GREY`, `MID_GREY`, `LIGHT_GREY` for labels, legends and footers): at
  least `FINE_MIN`; everything darker is body text, at least `Expect.body_min`
  (in large print everything is; keys and reports too, at 6 pt); a **footer** is
  fine print whose baseline lies within `FOOTER_BAND` of the paper's bottom edge;
- a **heading** is a line set bold in ink at a size above the page's body size
  (the size most of its ink letters have), the convention of every `flow.Theme`;
- a **writing field** is a box the test names from the layout's own geometry,
  with its promised minimum;
- **used**: the content spans at least 60 % of the area inside 10 mm, on every page but
  a document's last (`Expect.last`: a pupil's last sheet page, a section's last page);
- **glyphs**: every character printed has a glyph in the embedded font it is set in
  (read from the font program: a subset maps what its font lacks to `.notdef`, a box);
- **lines**: no stroke (rule, box edge, chart line) runs through a word's ink (the ink's
  height from the embedded glyphs, so a rule under a word without descenders is fine),
  unless a filled shape drawn after the stroke hides it there;
- **spacing**: texts side by side at least a space apart (not "3028" for 30 and 28);
- **shortened**: the user's data (names, title, date) printed whole wherever printed:
  wrapped over lines is whole, cut ("Montag …") or truncated is a finding;
- **grey**: what colour tells apart stays apart in luminance (`check_grey`): touching
  areas of two colours, a coloured line and its ground, lines of two colours and one look.

Every check returns findings as readable strings ("page 3: 'Nguyễn' (6.0 pt) runs
out of its box by 2.1 mm"); an empty list is a healthy page. `page_health`
runs them all and groups the findings by check. `tests/test_pagehealth_checks.py`
shows each check failing on a hand-made bad page.
"""

from __future__ import annotations

import io
import itertools
import math
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pdfplumber

from generator.render.fonts import ascent, descent, font_name, text_width
from generator.render.primitives import (
    MM,
    Circle,
    Document,
    Item,
    Line,
    Polygon,
    Rect,
    Text,
    UseForm,
    texts_of,
)

CHECKS = (
    "boxes", "overlap", "edge", "size", "fields", "used", "orphan", "centred", "glyphs",
    "lines", "spacing", "shortened", "grey",
)  # fmt: skip
"""Every check's name, in the order `page_health` reports them."""

EDGE = 5 * MM  # nothing printed closer to the paper's edge (most printers' dead margin is less)
FOOTER_BAND = 15 * MM
FINE_MIN = 6.0  # grey fine print: footers, labels, hints
FINE_GREY = 0.26  # text at least this light (#444444; GREY, MID_GREY, LIGHT_GREY) is fine print
TOLERANCE = 0.35  # points: rounding in the PDF and glyph side bearings


@dataclass(frozen=True)
class Field:
    """A writing field the layout promises: its box and the least width and height it may have."""

    label: str
    page: int  # 1-based
    w: float
    h: float
    min_w: float = 0.0
    min_h: float = 0.0


@dataclass(frozen=True)
class Expect:
    """What a page kind promises. `body_min` None: not a players' or pupils' page."""

    body_min: float | None = 8.0
    large_print: bool = False  # every text at least `body_min`, fine print too
    min_used: float = 0.6  # share of the printable area a page's content spans at least
    last: bool = False  # a document's last page (a pupil's, a section's): exempt from "used"
    orphans: bool = True  # text pages: no heading as a page's last line
    edge_exempt: tuple[str, ...] = ()  # words allowed near the edge (a cut mark), commented
    blank_pages: frozenset[int] = frozenset()  # deliberate blanks (1-based), exempt from "used"
    fields: tuple[Field, ...] = field(default=())
    centred: bool = False  # the page promises its content centred across the paper


@dataclass(frozen=True)
class Word:
    """One word as printed: its ink box in points, top-down like pdfplumber, and its look."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    baseline: float
    size: float
    first_mid: float  # the middle of its first letter (x)
    grey: bool = False
    bold: bool = False
    ink_top: float = 0.0  # its letters' ink, from the embedded font (else `top`, `bottom`)
    ink_bottom: float = 0.0


def _words(page: pdfplumber.page.Page, glyphs: Glyphs | None = None) -> list[Word]:
    """The page's words; with the embedded fonts' `glyphs`, each with its ink's height."""
    words = []
    for w in page.extract_words(use_text_flow=True, extra_attrs=["size"], return_chars=True):
        chars = w["chars"]
        first = chars[0]
        baseline = page.height - first["matrix"][5]
        size = float(w["size"])
        colour = first.get("non_stroking_color") or (0,)
        grey = min(colour) >= FINE_GREY
        top, bottom = baseline - ascent(size), baseline + descent(size)
        ink_top, ink_bottom = top, bottom
        if glyphs is not None:
            ink = [glyphs.get(c["fontname"], {}).get(c["text"]) for c in chars]
            if all(ink):  # a missing glyph: the box's own height
                ink_top = baseline - max(hi for _, hi in ink) * size  # type: ignore[misc]
                ink_bottom = baseline - min(lo for lo, _ in ink) * size  # type: ignore[misc]
        mid = (first["x0"] + first["x1"]) / 2
        bold = "Bold" in first.get("fontname", "")
        words.append(Word(w["text"], w["x0"], w["x1"], top, bottom, baseline, size, mid, grey,
                          bold, ink_top, ink_bottom))  # fmt: skip
    return words


def rects_of(items: Iterable[Item], forms: dict[str, tuple[Item, ...]]) -> list[Rect]:
    """Every Rect a page draws, with forms expanded and shifted."""
    out: list[Rect] = []
    for item in items:
        if isinstance(item, Rect):
            out.append(item)
        elif isinstance(item, UseForm):
            for r in rects_of(forms[item.name], forms):
                out.append(Rect(r.x + item.dx, r.y + item.dy, r.w, r.h, r.stroke, r.fill))
    return out


def _is_footer(word: Word, height: float) -> bool:
    return word.grey and word.baseline > height - FOOTER_BAND


def check_boxes(words: Sequence[Word], rects: Sequence[Rect], height: float) -> list[str]:
    """Every word inside the innermost box that holds the middle of its first letter."""
    boxes = [
        (r.x, height - r.y - r.h, r.x + r.w, height - r.y)
        for r in rects
        if r.w > 3 * MM and r.h > 3 * MM
    ]
    found = []
    for w in words:
        y = (w.top + w.bottom) / 2
        home = [b for b in boxes if b[0] <= w.first_mid <= b[2] and b[1] <= y <= b[3]]
        if not home:
            continue
        x0, top, x1, bottom = min(home, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
        out = max(x0 - w.x0, w.x1 - x1, top - w.top, w.bottom - bottom)
        if out > TOLERANCE:
            found.append(f"{w.text!r} ({w.size:.1f} pt) runs out of its box by {out / MM:.1f} mm")
    return found


def check_overlap(words: Sequence[Word]) -> list[str]:
    """No two words' ink boxes overlap."""
    found = []
    ordered = sorted(words, key=lambda w: w.x0)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.x0 >= a.x1 - TOLERANCE:
                break
            dx = min(a.x1, b.x1) - max(a.x0, b.x0)
            dy = min(a.bottom, b.bottom) - max(a.top, b.top)
            if dx > TOLERANCE and dy > TOLERANCE:
                found.append(f"{a.text!r} ({a.size:.1f} pt) overlaps {b.text!r} ({b.size:.1f} pt)")
    return found


def check_edge(
    page: pdfplumber.page.Page, words: Sequence[Word], exempt: Sequence[str] = ()
) -> list[str]:
    """Nothing printed (letters, lines, boxes) within `EDGE` of the paper's edge."""
    found = []
    w, h = page.width, page.height
    for word in words:
        if word.text in exempt:
            continue
        gap = min(word.x0, w - word.x1, word.top, h - word.bottom)
        if gap < EDGE - TOLERANCE:
            found.append(f"{word.text!r} {gap / MM:.1f} mm from the edge")
    for kind in ("rects", "lines", "curves"):
        for obj in getattr(page, kind):
            lw = float(obj.get("linewidth") or 0) / 2 if obj.get("stroke") else 0.0
            if not obj.get("stroke") and not obj.get("fill"):
                continue
            gap = min(obj["x0"] - lw, w - obj["x1"] - lw, obj["top"] - lw, h - obj["bottom"] - lw)
            if gap < EDGE - TOLERANCE:
                found.append(f"a {kind[:-1]} {gap / MM:.1f} mm from the edge")
    return found


def check_size(words: Sequence[Word], body_min: float | None, large_print: bool) -> list[str]:
    """Body text (ink) at least `body_min`, grey fine print at least `FINE_MIN` (one line each)."""
    if body_min is None:
        return []
    small: dict[tuple[float, float, bool], list[Word]] = {}
    for w in words:
        least = body_min if large_print or not w.grey else FINE_MIN
        if w.size < least - 0.05:
            small.setdefault((round(w.baseline, 1), round(w.size, 1), w.grey), []).append(w)
    found = []
    for (_, size, grey), line in small.items():
        least = body_min if large_print or not grey else FINE_MIN
        text = " ".join(w.text for w in sorted(line, key=lambda w: w.x0))
        kind = "fine print" if grey else "body text"
        found.append(f"{_short(text)!r}: {kind} {size:.1f} pt, below {least:g} pt")
    return found


def _short(text: str, most: int = 48) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def check_fields(fields: Sequence[Field], page: int) -> list[str]:
    """Every writing field at its promised minimum width and height."""
    found = []
    for f in fields:
        if f.page != page:
            continue
        if f.w < f.min_w - 0.05:
            found.append(f"{f.label} {f.w / MM:.1f} mm wide, promised ≥ {f.min_w / MM:.1f} mm")
        if f.h < f.min_h - 0.05:
            found.append(f"{f.label} {f.h / MM:.1f} mm high, promised ≥ {f.min_h / MM:.1f} mm")
    return found


def check_used(words: Sequence[Word], rects: Sequence[Rect], w: float, h: float,
               least: float) -> list[str]:  # fmt: skip
    """The page's content (footer aside) spans at least `least` of the area inside 10 mm."""
    xs: list[float] = []
    ys: list[float] = []
    for word in words:
        if not _is_footer(word, h):
            xs += [word.x0, word.x1]
            ys += [word.top, word.bottom]
    for r in rects:
        if r.w < w - 20 * MM or r.h < h - 20 * MM:  # a frame round the whole page says nothing
            xs += [r.x, r.x + r.w]
            ys += [h - r.y - r.h, h - r.y]
    area = (w - 20 * MM) * (h - 20 * MM)
    used = (max(xs) - min(xs)) * (max(ys) - min(ys)) / area if xs else 0.0
    if used < least:
        return [f"only {used:.0%} of the page used (at least {least:.0%} expected)"]
    return []


CENTRED_TOLERANCE = 1 * MM


def check_centred(words: Sequence[Word], rects: Sequence[Rect], w: float, h: float) -> list[str]:
    """The content (footers aside) as far from the left edge of the paper as from the right."""
    xs = [x for word in words if not _is_footer(word, h) for x in (word.x0, word.x1)]
    xs += [x for r in rects for x in (r.x, r.x + r.w)]
    if not xs:
        return []
    left, right = min(xs), w - max(xs)
    if abs(left - right) > CENTRED_TOLERANCE:
        return [f"not centred: {left / MM:.1f} mm on the left, {right / MM:.1f} mm on the right"]
    return []


def _lines(words: Sequence[Word]) -> list[list[Word]]:
    """Words grouped into lines by their baseline, top to bottom."""
    lines: dict[float, list[Word]] = {}
    for w in words:
        lines.setdefault(round(w.baseline), []).append(w)
    return [lines[y] for y in sorted(lines)]


ORPHAN_LINES = 3  # a heading with no more of its section than this below it is left behind


def _body_lines(words: Sequence[Word], h: float) -> tuple[list[list[Word]], float]:
    """The lines of body text (fine print and footers aside) and the size most letters have."""
    body = [w for w in words if not w.grey and not _is_footer(w, h)]
    sizes = Counter(round(w.size, 1) for w in body for _ in w.text)
    return _lines(body), (sizes.most_common(1)[0][0] if sizes else 0.0)


def _heading(line: Sequence[Word], body_size: float) -> float | None:
    """The size of a heading line (bold ink above the body size, words not sums), else None."""
    worded = any(sum(ch.isalpha() for ch in w.text) >= 2 for w in line)  # not "(1 + 1) · 4 = 8"
    if worded and all(w.bold and w.size > body_size + 0.05 for w in line):
        return min(w.size for w in line)
    return None


def check_orphan(words: Sequence[Word], h: float, after: Sequence[Word] | None) -> list[str]:
    """No heading left at a page's foot: as its last line, or with at most `ORPHAN_LINES`
    of its section below it while the next page (`after`; None: the last page) goes on
    with that section (it does not open with a heading as large)."""
    lines, body_size = _body_lines(words, h)
    heads = [(i, size) for i, line in enumerate(lines) if (size := _heading(line, body_size))]
    if not heads:
        return []
    i, size = heads[-1]
    while i > 0 and _heading(lines[i - 1], body_size):  # a heading set on two lines
        i -= 1
    text = " ".join(w.text for line in lines[i:] if _heading(line, body_size) for w in line)
    below = len(lines) - 1 - heads[-1][0]
    if below == 0:
        return [f"heading {text!r} is the page's last line"]
    if below > ORPHAN_LINES or after is None:
        return []
    next_lines, next_size = _body_lines(after, h)
    opens = _heading(next_lines[0], next_size) if next_lines else None
    if opens is not None and opens >= size - 0.05:
        return []
    return [f"heading {text!r} is left at the page's foot with {below} line(s) of its section"]


Glyphs = dict[str, dict[str, tuple[float, float]]]
"""An embedded font's name (as pdfplumber gives it) → each character it draws → the glyph's
ink from its lowest to its highest point, in ems above the baseline."""


def embedded_glyphs(pdf: bytes) -> Glyphs:
    """Each embedded font of `pdf` → the characters it draws, read from the font itself.

    A character code of the font's ToUnicode map counts when the embedded TrueType program
    maps it to a glyph that is not `.notdef` and, unless the character is a space, has an
    outline (a subset maps what its font lacks to code 0, `.notdef`: the box on paper)."""
    import pypdf
    from fontTools.ttLib import TTFont

    found: Glyphs = {}
    seen: set[int] = set()

    def font_of(font: Any) -> dict[str, tuple[float, float]]:
        fonts = [d.get_object() for d in font.get("/DescendantFonts", [])] or [font]
        descriptor = fonts[0].get("/FontDescriptor")
        program = descriptor.get_object().get("/FontFile2") if descriptor else None
        to_unicode = font.get("/ToUnicode")
        if program is None or to_unicode is None:
            return {}  # not an embedded TrueType font: nothing we can vouch for
        tt = TTFont(io.BytesIO(program.get_object().get_data()))
        cmap: dict[int, str] = {}
        for table in tt["cmap"].tables:
            cmap.update(table.cmap)
        glyf, em = tt["glyf"], tt["head"].unitsPerEm
        chars = {}
        for code, text in _to_unicode(to_unicode.get_object().get_data()).items():
            name = cmap.get(code)
            if name is None or name == ".notdef":
                continue
            glyph = glyf[name]
            if glyph.numberOfContours == 0:
                if text.isspace():
                    chars[text] = (0.0, 0.0)
                continue
            glyph.recalcBounds(glyf)
            chars[text] = (glyph.yMin / em, glyph.yMax / em)
        return chars

    def walk(resources: Any) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            name = str(font.get("/BaseFont", "")).lstrip("/")
            if name not in found:
                found[name] = font_of(font)
        for xobject in (resources.get("/XObject") or {}).values():  # forms draw text too
            xobject = xobject.get_object()
            if id(xobject) not in seen:
                seen.add(id(xobject))
                walk(xobject.get("/Resources"))

    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        walk(page.get("/Resources"))
    return found


def _to_unicode(cmap: bytes) -> dict[int, str]:
    """A ToUnicode CMap's code → text (its bfchar and bfrange entries)."""
    import re

    out: dict[int, str] = {}
    text = cmap.decode("latin-1")
    for block in re.findall(r"beginbfchar(.*?)endbfchar", text, re.S):
        for code, uni in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>", block):
            out[int(code, 16)] = (  # ReportLab writes a code point past U+FFFF bare
                bytes.fromhex(uni).decode("utf-16-be", "replace") if len(uni) % 4 == 0
                else chr(int(uni, 16))
            )  # fmt: skip
    for block in re.findall(r"beginbfrange(.*?)endbfrange", text, re.S):
        for lo, hi, uni in re.findall(r"<(\w+)>\s*<(\w+)>\s*<(\w+)>", block):
            start = int(uni, 16)
            for k, code in enumerate(range(int(lo, 16), int(hi, 16) + 1)):
                out[code] = chr(start + k)
    return out


def check_glyphs(chars: Sequence[dict], glyphs: Glyphs, texts: Sequence[Text]) -> list[str]:
    """Every character printed has a glyph in the embedded font it is set in; a finding
    names the text the layout meant (the PDF only knows the code)."""
    missing: dict[int, list[str]] = {}  # the text's index → what it lacks
    unplaced: list[str] = []
    for ch in chars:
        if ch["text"].isspace() or ch["text"] in glyphs.get(ch["fontname"], {}):
            continue
        mid = (ch["x0"] + ch["x1"]) / 2
        homes = [
            i for i, t in enumerate(texts)
            if abs(t.y - ch["matrix"][5]) < 0.5 and _x_range(t)[0] - 1 <= mid <= _x_range(t)[1] + 1
        ]  # fmt: skip
        if homes:
            missing.setdefault(homes[0], []).append(ch["text"])
        else:
            unplaced.append(ch["text"])
    found = []
    for i, lacks in missing.items():
        t = texts[i]
        meant = "".join(
            dict.fromkeys(c for c in t.text if not c.isspace() and _lacks(c, t, glyphs))
        )
        family = font_name(t.bold)
        found.append(f"{_short(t.text)!r} ({t.size:.1f} pt): {len(lacks)} character(s) without "
                     f"a glyph in {family}" + (f": {meant}" if meant else ""))  # fmt: skip
    if unplaced:
        found.append(f"{len(unplaced)} character(s) without a glyph: {''.join(unplaced)!r}")
    return found


def _lacks(ch: str, text: Text, glyphs: Glyphs) -> bool:
    """Whether no embedded font of the text's family draws `ch`."""
    family = font_name(text.bold)
    return not any(ch in chars for name, chars in glyphs.items() if name.split("+")[-1] == family)


def _x_range(t: Text) -> tuple[float, float]:
    w = text_width(t.text, t.size, t.bold)
    x0 = t.x - {"left": 0.0, "center": w / 2, "right": w}[t.align]
    return x0, x0 + w


Segment = tuple[float, float, float, float, float, int]
"""A stroke: x1, y1, x2, y2 (top-down), its line width and its place in the drawing order."""
Cover = tuple[int, float, float, float, float, bool]
"""A filled shape: its place in the drawing order, x0, top, x1, bottom, and whether round."""


def strokes_of(items: Iterable[Item], forms: dict[str, tuple[Item, ...]],
               height: float) -> tuple[list[Segment], list[Cover]]:  # fmt: skip
    """Every stroke a page draws (lines, the edges of boxes, polygons and circles) and every
    filled box and circle (what hides a stroke drawn before it), forms expanded and shifted,
    top-down like pdfplumber."""
    out: list[Segment] = []
    covers: list[Cover] = []

    def add(points: Sequence[tuple[float, float]], width: float, closed: bool) -> None:
        pairs = list(itertools.pairwise(points))
        if closed:
            pairs.append((points[-1], points[0]))
        k = len(out) + len(covers)
        out.extend((a[0], height - a[1], b[0], height - b[1], width, k) for a, b in pairs)

    def cover(x: float, y: float, w: float, h: float, round_: bool) -> None:
        covers.append((len(out) + len(covers), x, height - y - h, x + w, height - y, round_))

    def walk(items: Iterable[Item], dx: float, dy: float) -> None:
        for i in items:
            if isinstance(i, Line):
                add(((i.x1 + dx, i.y1 + dy), (i.x2 + dx, i.y2 + dy)), i.line_width, False)
            elif isinstance(i, Rect):
                x, y = i.x + dx, i.y + dy
                if i.fill:
                    cover(x, y, i.w, i.h, False)
                if i.stroke:
                    corners = ((x, y), (x + i.w, y), (x + i.w, y + i.h), (x, y + i.h))
                    add(corners, i.line_width, True)
            elif isinstance(i, Polygon) and i.stroke:
                add([(x + dx, y + dy) for x, y in i.points], i.line_width, True)
            elif isinstance(i, Circle):
                if i.fill:
                    cover(i.x + dx - i.r, i.y + dy - i.r, 2 * i.r, 2 * i.r, True)
                if i.stroke:
                    turn = [a * math.pi / 8 for a in range(16)]
                    ring = [(i.x + dx + i.r * math.cos(a), i.y + dy + i.r * math.sin(a))
                            for a in turn]  # fmt: skip
                    add(ring, i.line_width, True)
            elif isinstance(i, UseForm):
                walk(forms[i.name], dx + i.dx, dy + i.dy)

    walk(items, 0.0, 0.0)
    return out, covers


def _hidden(seg: Segment, box: tuple[float, float, float, float], covers: Sequence[Cover]) -> bool:
    """Whether a filled shape drawn after the stroke covers the whole box (a number's white
    box on a triangle's side, a circled number on a hatched band)."""
    x0, top, x1, bottom = box
    for order, cx0, ctop, cx1, cbottom, round_ in covers:
        if order <= seg[5]:
            continue
        if round_:
            mx, my, r = (cx0 + cx1) / 2, (ctop + cbottom) / 2, (cx1 - cx0) / 2
            if all(math.hypot(x - mx, y - my) <= r for x in (x0, x1) for y in (top, bottom)):
                return True
        elif cx0 <= x0 and x1 <= cx1 and ctop <= top and bottom <= cbottom:
            return True
    return False


def _crosses(seg: Segment, box: tuple[float, float, float, float]) -> bool:
    """Whether a segment runs through the inside of a box (Liang–Barsky clipping)."""
    x1, y1, x2, y2 = seg[:4]
    x0, top, x1b, bottom = box
    if x0 >= x1b or top >= bottom:
        return False
    t0, t1 = 0.0, 1.0
    dx, dy = x2 - x1, y2 - y1
    for p, q in ((-dx, x1 - x0), (dx, x1b - x1), (-dy, y1 - top), (dy, bottom - y1)):
        if p == 0:
            if q <= 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 >= t1:
                return False
    return True


LINE_CLEAR = 0.3  # points: a stroke this close to a letter's ink does not count as crossing it


def check_lines(
    words: Sequence[Word], segments: Sequence[Segment], covers: Sequence[Cover] = ()
) -> list[str]:
    """No stroke (a rule, a box's edge, a chart's line) runs through a word's ink, unless a
    filled shape drawn after it hides it there."""
    import numpy as np

    if not segments:
        return []
    seg = np.array(segments)
    reach = seg[:, 4] / 2 + LINE_CLEAR
    left, right = np.minimum(seg[:, 0], seg[:, 2]), np.maximum(seg[:, 0], seg[:, 2])
    high, low = np.minimum(seg[:, 1], seg[:, 3]), np.maximum(seg[:, 1], seg[:, 3])
    found = []
    for w in words:
        if not w.text.strip():
            continue
        near = np.flatnonzero(
            (right + reach > w.x0) & (left - reach < w.x1)
            & (low + reach > w.ink_top) & (high - reach < w.ink_bottom)
        )  # fmt: skip
        for k in near:
            pad = reach[k]
            s = segments[k]
            box = (w.x0 + pad, w.ink_top + pad, w.x1 - pad, w.ink_bottom - pad)
            if _crosses(s, box) and not _hidden(s, box, covers):
                way = "a rule" if s[1] == s[3] else "an upright" if s[0] == s[2] else "a line"
                found.append(f"{way} runs through {w.text!r} ({w.size:.1f} pt)")
                break
    return found


def _ink_span(t: Text) -> tuple[float, float]:
    """A text's ink from its first to its last letter (spaces at its ends aside)."""
    x0, _ = _x_range(t)
    lead = len(t.text) - len(t.text.lstrip())
    start = x0 + text_width(t.text[:lead], t.size, t.bold)
    return start, x0 + text_width(t.text.rstrip(), t.size, t.bold)


SIGNS = "+-−×÷·:=<>≤≥≠()[]/"
"""Operators and brackets: a sum's tokens set closer than a space still read apart."""


def _sign(ch: str) -> bool:
    return ch in SIGNS or unicodedata.category(ch) == "Sm"


def check_spacing(
    texts: Sequence[Text], segments: Sequence[Segment] = (), height: float = 0.0
) -> list[str]:
    """Texts side by side on a line (labels, values) at least a space apart, so that no two
    read as one ("30" and "28" as "3028", "2 %" and "3 %" as "2 %3 %"). Not counted: a
    stroke between them (digits in their squares), an operator or bracket facing the other
    ("1 + 5 ="), runs set flush against each other (a bold word and the rest of its line)."""
    spans = []
    for t in texts:
        if t.text.strip():
            a, b = _ink_span(t)
            spans.append((a, b, t.y - descent(t.size), t.y + ascent(t.size), t))
    spans.sort(key=lambda s: s[0])
    found = []
    for i, (_, a1, alo, ahi, ta) in enumerate(spans):
        for b0, b1, blo, bhi, tb in spans[i + 1 :]:
            if b0 > a1 + 3 * ta.size:
                break
            if b0 < a1 - TOLERANCE or b1 <= a1:
                continue  # overlapping: the overlap check's
            if min(ahi, bhi) - max(alo, blo) < 0.5 * min(ahi - alo, bhi - blo):
                continue  # not on one line
            gap = b0 - a1
            space = text_width(" ", min(ta.size, tb.size))
            if gap >= space - TOLERANCE or abs(_x_range(ta)[1] - _x_range(tb)[0]) < 0.05:
                continue
            if _sign(ta.text.rstrip()[-1]) or _sign(tb.text.lstrip()[0]):
                continue
            band = (a1, height - max(ahi, bhi), b0, height - min(alo, blo))  # top-down
            if any(_crosses(seg, band) for seg in segments):
                continue
            found.append(f"{_short(ta.text)!r} and {_short(tb.text)!r} {gap / MM:.1f} mm "
                         f"apart, less than a space ({space / MM:.1f} mm)")  # fmt: skip
    return found


def luma(colour: str) -> float:
    """A colour's grey on a greyscale print or copy (Rec. 601 luma, 0 black to 1 white)."""
    r, g, b = (int(colour[k : k + 2], 16) / 255 for k in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def chroma(colour: str) -> float:
    """How far a colour is from any grey (0: a grey; 1: a pure colour)."""
    rgb = [int(colour[k : k + 2], 16) / 255 for k in (1, 3, 5)]
    return max(rgb) - min(rgb)


TINT = 0.2  # a fill of less chroma is a tint (a background, a shade), not a colour that means
GREY_AREAS = 0.10  # two colours of areas at least this far apart in grey
GREY_LINES = 0.20  # a thin coloured line this far from the ground it runs on, or from a line
GREY_THICK = 0.12  # … of another colour: at 12 % thin lines vanished; lines ≥ `THICK` need less
THICK = 1.5
PLAIN_SIDE = 3 * MM  # a smaller patch is an icon, not an area that means


def check_grey(items: Iterable[Item], forms: dict[str, tuple[Item, ...]]) -> list[str]:
    """What colour tells apart stays apart in grey: areas of two colours that touch (fills
    of more chroma than a tint, at least `PLAIN_SIDE` a side, with no mark of their own
    inside: a symbol, a digit or a pattern tells them apart too); a coloured line and the
    ground it runs on (the last area or wider line drawn under it, else the paper); lines
    of two colours and one look (width, dash; not two patterns of their own directions).
    Pairs of greys are what they are on any print."""
    areas: list[tuple[int, str, tuple[float, float, float, float]]] = []  # order, fill, box
    marks: list[tuple[float, float, float, float]] = []  # everything drawn, in order
    strokes: list[tuple[int, str, float, tuple[float, float]]] = []  # a shape's edge
    lines: list[tuple[int, Line]] = []

    def walk(items: Iterable[Item], dx: float, dy: float) -> None:
        for i in items:
            k = len(marks)
            if isinstance(i, UseForm):
                walk(forms[i.name], dx + i.dx, dy + i.dy)
                continue
            if isinstance(i, Rect):
                box = (i.x + dx, i.y + dy, i.x + dx + i.w, i.y + dy + i.h)
            elif isinstance(i, Circle):
                box = (i.x + dx - i.r, i.y + dy - i.r, i.x + dx + i.r, i.y + dy + i.r)
            elif isinstance(i, Polygon):
                xs, ys = [x for x, _ in i.points], [y for _, y in i.points]
                box = (min(xs) + dx, min(ys) + dy, max(xs) + dx, max(ys) + dy)
            elif isinstance(i, Line):
                i = Line(i.x1 + dx, i.y1 + dy, i.x2 + dx, i.y2 + dy, i.stroke, i.line_width, i.dash)
                box = (min(i.x1, i.x2), min(i.y1, i.y2), max(i.x1, i.x2), max(i.y1, i.y2))
                lines.append((k, i))
            else:
                x0, x1 = _x_range(i)
                box = (x0 + dx, i.y + dy, x1 + dx, i.y + dy + ascent(i.size))
            marks.append(box)
            if not isinstance(i, Line | Text):
                if i.fill:
                    areas.append((k, i.fill, box))
                if i.stroke:
                    strokes.append((k, i.stroke, i.line_width, ((box[0] + box[2]) / 2, box[3])))

    walk(items, 0.0, 0.0)
    found = []

    def inside(box: tuple[float, ...], outer: tuple[float, ...]) -> bool:
        return outer[0] < box[0] and box[2] < outer[2] and outer[1] < box[1] and box[3] < outer[3]

    plain = [
        (fill, box) for k, fill, box in areas
        if chroma(fill) >= TINT and min(box[2] - box[0], box[3] - box[1]) >= PLAIN_SIDE
        and not any(inside(b, box) for b in marks[k + 1 :])
    ]  # fmt: skip
    for (a, p), (b, q) in itertools.combinations(plain, 2):
        touch = (
            p[0] <= q[2] + 0.5 and q[0] <= p[2] + 0.5 and p[1] <= q[3] + 0.5 and q[1] <= p[3] + 0.5
        )
        if a != b and touch and abs(luma(a) - luma(b)) < GREY_AREAS:
            found.append(f"areas {a} and {b} side by side, {abs(luma(a) - luma(b)):.0%} apart "
                         f"in grey (at least {GREY_AREAS:.0%})")  # fmt: skip

    def ground(k: int, point: tuple[float, float], width: float) -> str:
        under, at = "#ffffff", -1
        for j, fill, (x0, y0, x1, y1) in areas:
            if j < k and x0 <= point[0] <= x1 and y0 <= point[1] <= y1:
                under, at = fill, j
        for j, line in lines:  # a halo: a wider line under it
            if at < j < k and line.line_width > width and _distance(point, line) < (
                line.line_width - width) / 2 + 0.05:  # fmt: skip
                under, at = line.stroke, j
        return under

    looks: dict[tuple[float, tuple[float, ...] | None], dict[str, list[int]]] = {}
    edges = [(k, i.stroke, i.line_width, ((i.x1 + i.x2) / 2, (i.y1 + i.y2) / 2)) for k, i in lines]
    for k, colour, width, point in edges + strokes:
        under = ground(k, point, width)
        least = GREY_THICK if width >= THICK else GREY_LINES
        apart = abs(luma(colour) - luma(under))
        if colour != under and max(chroma(colour), chroma(under)) >= TINT and apart < least:
            found.append(f"a {colour} line ({width:g} pt) on {under}: {apart:.0%} apart in "
                         f"grey (at least {least:.0%})")  # fmt: skip
    for _, i in lines:
        if chroma(i.stroke) >= TINT:
            turn = round(math.degrees(math.atan2(i.y2 - i.y1, i.x2 - i.x1)) % 180 / 15) % 12
            look = looks.setdefault((round(i.line_width, 2), i.dash), {})
            look.setdefault(i.stroke, []).append(turn)
    for (width, _), colours in looks.items():
        least = GREY_THICK if width >= THICK else GREY_LINES
        for a, b in itertools.combinations(sorted(colours), 2):
            ha, hb = _hatching(colours[a]), _hatching(colours[b])
            if ha is not None and hb is not None and ha != hb:
                continue  # two hatchings of their own directions
            if abs(luma(a) - luma(b)) < least:
                found.append(
                    f"lines {a} and {b} ({width:g} pt, one dash) "
                    f"{abs(luma(a) - luma(b)):.0%} apart in grey (at least {least:.0%})"
                )
    return list(dict.fromkeys(found))


def _hatching(turns: Sequence[int]) -> int | None:
    """The direction of a hatching (at least 3 lines, 80 % of them parallel), else None."""
    if len(turns) < 3:
        return None
    turn, count = Counter(turns).most_common(1)[0]
    return turn if count >= 0.8 * len(turns) else None


def _distance(point: tuple[float, float], line: Line) -> float:
    """From a point to a line segment."""
    (px, py), dx, dy = point, line.x2 - line.x1, line.y2 - line.y1
    t = ((px - line.x1) * dx + (py - line.y1) * dy) / (dx * dx + dy * dy or 1.0)
    t = min(1.0, max(0.0, t))
    return math.hypot(px - line.x1 - t * dx, py - line.y1 - t * dy)


CUTS = ("…", "...")  # what a layout puts where it shortened a text


def check_shortened(texts: Sequence[Text], data: Sequence[str]) -> list[str]:
    """Every piece of user data (a name, a title, a date) printed whole wherever it is
    printed: a text holding the start of one goes on with the rest, on the same text or
    on the lines below it (a name wrapped over a header's lines, hyphens allowed), and is
    never cut ("Montag …", "Maximilian-Al…")."""
    found = []
    for t in texts:
        for datum in data:
            if datum in t.text:
                continue
            cut = _cut(t, datum, texts)
            if cut:
                found.append(f"{_short(datum)!r} shortened to {cut!r}")
    return list(dict.fromkeys(found))


def _cut(t: Text, datum: str, texts: Sequence[Text]) -> str | None:
    """How `t` (and the lines after it) shorten `datum`; None: it does not, or `t` does not
    start it."""
    text = t.text
    for k in range(len(datum), min(4, len(datum)) - 1, -1):
        at = text.find(datum[:k])
        while at >= 0 and at > 0 and text[at - 1].isalnum():  # a word's end is no start
            at = text.find(datum[:k], at + 1)
        if at < 0:
            continue
        after = text[at + k :]
        if after.startswith(CUTS) or after.strip() in ("…", "..."):
            return text.strip()
        if after.strip() not in ("", "-"):
            return None  # the start of a datum followed by other words: a coincidence
        if not after.strip() and datum[k] not in " -–,." and datum[k - 1] not in "-–":
            return None  # "Würfel" at a line's end is no start of "Würfelrechnen …"
        if after.strip() == "-" and datum[k : k + 1] == "-":
            k += 1
        return _goes_on(t, datum[k:].lstrip(), texts, [text.strip()])
    return None


def _next_to(t: Text, u: Text) -> bool:
    """Whether `u` may carry on `t`: on the next lines below it, or right after it."""
    if u is t or not u.text.strip():
        return False
    (x0, x1), (ux0, ux1) = _x_range(t), _x_range(u)
    if abs(u.y - t.y) < 0.5:  # the same line, right after it
        return 0 <= ux0 - x1 < t.size
    return 0 < t.y - u.y <= 1.8 * t.size + 0.5 and ux0 < x1 + t.size and ux1 > x0 - t.size


def _goes_on(t: Text, rest: str, texts: Sequence[Text], printed: list[str]) -> str | None:
    """Whether `rest` follows on the lines below `t` (or flush to its right)."""
    for _ in range(6):
        if not rest:
            return None
        near = [u for u in texts if _next_to(t, u)]
        nxt = None
        for u in sorted(near, key=lambda u: (-round(u.y, 1), _x_range(u)[0])):
            piece = u.text.strip()
            bare = piece[:-1] if piece.endswith("-") and not rest.startswith(piece) else piece
            if rest.startswith(piece) or (bare and rest.startswith(bare)):
                nxt = u, len(piece if rest.startswith(piece) else bare)
                break
            if piece.startswith(rest):
                return None  # the rest, and more after it
        if nxt is None:
            following = [u.text.strip() for u in sorted(near, key=lambda u: -u.y)][:1]
            return " / ".join(printed + following)
        t, used = nxt
        printed.append(t.text.strip())
        rest = rest[used:].lstrip()
    return None if not rest else " / ".join(printed)


def page_health(
    pdf: bytes, document: Document, expect: Expect | Sequence[Expect], data: Sequence[str] = ()
) -> dict[str, list[str]]:
    """Every check's findings (`CHECKS` order), each "page k: …"; `expect` per page or for
    all; `data`: the user's texts the document prints (names, title, date), to print whole."""
    found: dict[str, list[str]] = {name: [] for name in CHECKS}
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert len(doc.pages) == len(document.pages), "the PDF is not this document"
        glyphs = embedded_glyphs(pdf)
        words = [_words(page, glyphs) for page in doc.pages]
        for number, (page, model) in enumerate(zip(doc.pages, document.pages), start=1):
            exp = expect if isinstance(expect, Expect) else expect[number - 1]
            here = words[number - 1]
            after = words[number] if number < len(words) else None
            rects = rects_of(model.items, document.forms)
            texts = texts_of(model.items, document.forms)
            w, h = page.width, page.height
            segments, covers = strokes_of(model.items, document.forms, h)
            results = {
                "boxes": check_boxes(here, rects, h),
                "overlap": check_overlap(here),
                "edge": check_edge(page, here, exp.edge_exempt),
                "size": check_size(here, exp.body_min, exp.large_print),
                "fields": check_fields(exp.fields, number),
                "used": []
                if number in exp.blank_pages or exp.last
                else check_used(here, rects, w, h, exp.min_used),
                "orphan": check_orphan(here, h, after) if exp.orphans else [],
                "centred": check_centred(here, rects, w, h) if exp.centred else [],
                "glyphs": check_glyphs(page.chars, glyphs, texts),
                "lines": check_lines(here, segments, covers),
                "spacing": check_spacing(texts, segments, h),
                "shortened": check_shortened(texts, data),
                "grey": check_grey(model.items, document.forms),
            }
            for name, lines in results.items():
                found[name] += [f"page {number}: {line}" for line in dict.fromkeys(lines)]
    return found


def report(findings: dict[str, list[str]], limit: int = 12) -> str:
    """Findings as a readable block: each check with its first `limit` lines."""
    out = []
    for name, lines in findings.items():
        if lines:
            out.append(f"{name}: {len(lines)} finding(s)")
            out += [f"    {line}" for line in lines[:limit]]
            if len(lines) > limit:
                out.append(f"    … and {len(lines) - limit} more")
    return "\n".join(out)

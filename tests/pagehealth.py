"""Page-health checks of a printed PDF: words in their boxes, margins, sizes, fields, fill, orphans.

Each check reads the PDF's bytes back with pdfplumber (what a printer gets) and
takes what a word *should* respect from the layout's own document model
(`render.primitives.Document`, built in memory by a product's `build_*()`):

- a **box** is a `Rect` the layout drew (forms expanded); a word belongs to the
  innermost box holding the middle of its first letter and must lie inside it;
- **fine print** is text set in a grey at least as light as #444444 (the house
  style's `GREY`, `MID_GREY`, `LIGHT_GREY` for labels, legends and footers): at
  least `FINE_MIN`; everything darker is body text, at least `Expect.body_min`
  (in large print everything is); a **footer** is fine print whose baseline
  lies within `FOOTER_BAND` of the paper's bottom edge;
- a **heading** is a line set bold in ink at a size above the page's body size
  (the size most of its ink letters have), the convention of every `flow.Theme`;
- a **writing field** is a box the test names from the layout's own geometry,
  with its promised minimum.

Every check returns findings as readable strings ("page 3: 'Nguyễn' (6.0 pt) runs
out of its box by 2.1 mm"); an empty list is a healthy page. `page_health`
runs them all and groups the findings by check.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import pdfplumber

from generator.render.fonts import ascent, descent
from generator.render.primitives import MM, Document, Item, Rect, UseForm

CHECKS = ("boxes", "overlap", "edge", "size", "fields", "used", "orphan", "centred")
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
    min_used: float = 0.25  # share of the printable area a page's content spans at least
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


def _words(page: pdfplumber.page.Page) -> list[Word]:
    words = []
    for w in page.extract_words(use_text_flow=True, extra_attrs=["size"], return_chars=True):
        chars = w["chars"]
        first = chars[0]
        baseline = page.height - first["matrix"][5]
        size = float(w["size"])
        colour = first.get("non_stroking_color") or (0,)
        grey = min(colour) >= FINE_GREY
        top, bottom = baseline - ascent(size), baseline + descent(size)
        mid = (first["x0"] + first["x1"]) / 2
        bold = "Bold" in first.get("fontname", "")
        words.append(
            Word(w["text"], w["x0"], w["x1"], top, bottom, baseline, size, mid, grey, bold)
        )
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


def page_health(
    pdf: bytes, document: Document, expect: Expect | Sequence[Expect]
) -> dict[str, list[str]]:
    """Every check's findings (`CHECKS` order), each "page k: …"; `expect` per page or for all."""
    found: dict[str, list[str]] = {name: [] for name in CHECKS}
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert len(doc.pages) == len(document.pages), "the PDF is not this document"
        words = [_words(page) for page in doc.pages]
        for number, (page, model) in enumerate(zip(doc.pages, document.pages), start=1):
            exp = expect if isinstance(expect, Expect) else expect[number - 1]
            here = words[number - 1]
            after = words[number] if number < len(words) else None
            rects = rects_of(model.items, document.forms)
            w, h = page.width, page.height
            results = {
                "boxes": check_boxes(here, rects, h),
                "overlap": check_overlap(here),
                "edge": check_edge(page, here, exp.edge_exempt),
                "size": check_size(here, exp.body_min, exp.large_print),
                "fields": check_fields(exp.fields, number),
                "used": []
                if number in exp.blank_pages
                else check_used(here, rects, w, h, exp.min_used),
                "orphan": check_orphan(here, h, after) if exp.orphans else [],
                "centred": check_centred(here, rects, w, h) if exp.centred else [],
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

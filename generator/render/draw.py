"""Execute a finished layout with ReportLab: `Document` → PDF bytes (invariant, reproducible)."""

from __future__ import annotations

import io
from functools import lru_cache

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as rl_canvas

from generator.render.fonts import font_name, register_fonts, text_runs, text_width
from generator.render.primitives import (
    Circle,
    Document,
    Item,
    Line,
    Polygon,
    Rect,
    Text,
    UseForm,
)


@lru_cache(maxsize=256)
def _color(hex_color: str) -> Color:
    """ReportLab's color of "#rrggbb" (the pages name the same few colors thousands of times)."""
    return HexColor(hex_color)


FAKE_BOLD = 0.04  # the outline's width per point of size: about DejaVu Bold's stem weight


def _form_id(name: str) -> str:
    return "F_" + "".join(ch if ch.isalnum() else "_" for ch in name)


def _draw(c: rl_canvas.Canvas, item: Item) -> None:
    if isinstance(item, Text):
        c.setFillColor(_color(item.color))
        if not item.text.isascii():  # DejaVu has every ASCII letter: one font
            runs = text_runs(item.text, item.bold)
            if len(runs) > 1 or runs[0][0] != font_name(item.bold):
                _draw_runs(c, item, runs)
                return
        c.setFont(font_name(item.bold), item.size)
        if item.align == "center":
            c.drawCentredString(item.x, item.y, item.text)
        elif item.align == "right":
            c.drawRightString(item.x, item.y, item.text)
        else:
            c.drawString(item.x, item.y, item.text)
    elif isinstance(item, Rect):
        c.setLineWidth(item.line_width)
        c.setDash(list(item.dash) if item.dash else [])
        if item.stroke:
            c.setStrokeColor(_color(item.stroke))
        if item.fill:
            c.setFillColor(_color(item.fill))
        if item.radius:
            c.roundRect(
                item.x, item.y, item.w, item.h, item.radius,
                stroke=int(bool(item.stroke)), fill=int(bool(item.fill)),
            )  # fmt: skip
        else:
            c.rect(
                item.x, item.y, item.w, item.h,
                stroke=int(bool(item.stroke)), fill=int(bool(item.fill)),
            )  # fmt: skip
    elif isinstance(item, Line):
        c.setLineWidth(item.line_width)
        c.setDash(list(item.dash) if item.dash else [])
        c.setStrokeColor(_color(item.stroke))
        c.line(item.x1, item.y1, item.x2, item.y2)
    elif isinstance(item, Circle):
        c.setLineWidth(item.line_width)
        c.setDash([])
        if item.stroke:
            c.setStrokeColor(_color(item.stroke))
        if item.fill:
            c.setFillColor(_color(item.fill))
        c.circle(item.x, item.y, item.r, stroke=int(bool(item.stroke)), fill=int(bool(item.fill)))
    elif isinstance(item, Polygon):
        c.setLineWidth(item.line_width)
        c.setDash([])
        if item.stroke:
            c.setStrokeColor(_color(item.stroke))
        if item.fill:
            c.setFillColor(_color(item.fill))
        path = c.beginPath()
        path.moveTo(*item.points[0])
        for point in item.points[1:]:
            path.lineTo(*point)
        path.close()
        c.drawPath(path, stroke=int(bool(item.stroke)), fill=int(bool(item.fill)))
    elif isinstance(item, UseForm):
        c.saveState()
        c.translate(item.dx, item.dy)
        c.doForm(_form_id(item.name))
        c.restoreState()
    else:  # pragma: no cover - a new primitive without a drawing rule is a bug
        raise TypeError(f"cannot draw {type(item).__name__}")


def _draw_runs(c: rl_canvas.Canvas, item: Text, runs: tuple[tuple[str, str], ...]) -> None:
    """A text in more than one font ("Anna 王小明"): each run after the one before, the
    whole aligned by the width `text_width` measured (the width every layout fitted)."""
    shift = {"center": 0.5, "right": 1.0}.get(item.align, 0.0)
    x = item.x - shift * text_width(item.text, item.size, item.bold)
    main = font_name(item.bold)
    for font, part in runs:
        c.setFont(font, item.size)
        if item.bold and font != main:  # the fallback has no bold: its outline drawn too
            c.setStrokeColor(_color(item.color))
            c.setLineWidth(item.size * FAKE_BOLD)
            c.setDash([])  # a dashed line drawn before would dash the outline
            c.drawString(x, item.y, part, mode=2)
        else:
            c.drawString(x, item.y, part)
        x += stringWidth(part, font, item.size)


def render_pdf(doc: Document) -> bytes:
    """Draw every page of `doc`; identical documents give identical bytes."""
    register_fonts()
    buffer = io.BytesIO()
    c = rl_canvas.Canvas(
        buffer,
        pagesize=(doc.width, doc.height),
        invariant=1,
        pageCompression=1,
        initialFontName=font_name(False),  # otherwise every page names Helvetica
        initialFontSize=10,
    )
    c.setTitle(doc.title)
    c.setAuthor("dicesheets")
    c.setCreator("dicesheets")
    c.setProducer("dicesheets")
    for name in sorted(doc.forms):
        c.beginForm(_form_id(name))
        for item in doc.forms[name]:
            _draw(c, item)
        c.endForm()
    for page in doc.pages:
        for item in page.items:
            _draw(c, item)
        c.showPage()
    c.save()
    return buffer.getvalue()

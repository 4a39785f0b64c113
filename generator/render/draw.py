"""Execute a finished layout with ReportLab: `Document` → PDF bytes (invariant, reproducible)."""

from __future__ import annotations

import io
from functools import lru_cache

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen import canvas as rl_canvas

from generator.render.fonts import font_name, register_fonts
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


def _form_id(name: str) -> str:
    return "F_" + "".join(ch if ch.isalnum() else "_" for ch in name)


def _draw(c: rl_canvas.Canvas, item: Item) -> None:
    if isinstance(item, Text):
        c.setFillColor(_color(item.color))
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

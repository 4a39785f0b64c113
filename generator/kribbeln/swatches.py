"""Kribbeln's colours as printed: swatches with a black-and-white symbol, and the legend row."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from generator.render.flow import Cursor, Figure, Theme
from generator.render.fonts import text_width
from generator.render.primitives import MM, Circle, Item, Polygon, Rect, Text
from generator.render.style import INK, WHITE


@dataclass(frozen=True)
class Swatch:
    """A colour as printed: its name, fill and black-and-white symbol."""

    name: str
    rgb: str
    symbol: str


def _regular(cx: float, cy: float, r: float, n: int, turn: float = 90.0) -> tuple:
    return tuple(
        (
            cx + r * math.cos(math.radians(turn + 360 * k / n)),
            cy + r * math.sin(math.radians(turn + 360 * k / n)),
        )
        for k in range(n)
    )


def _cross(cx: float, cy: float, r: float, w: float, angle: float) -> tuple:
    """A plus of arm length r and arm width w, turned by `angle` degrees."""
    a, h = r, w / 2
    outline = [(h, a), (h, h), (a, h), (a, -h), (h, -h), (h, -a),
               (-h, -a), (-h, -h), (-a, -h), (-a, h), (-h, h), (-h, a)]  # fmt: skip
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return tuple((cx + x * c - y * s, cy + x * s + y * c) for x, y in outline)


def symbol(name: str, cx: float, cy: float, size: float, fill: str) -> list[Item]:
    """A colour's black-and-white symbol, centred at (cx, cy), about `size` across."""
    r = size / 2
    if name == "circle":
        return [Circle(cx, cy, r * 0.85, stroke=None, fill=fill)]
    if name == "square":
        s = r * 1.5
        return [Rect(cx - s / 2, cy - s / 2, s, s, stroke=None, fill=fill)]
    if name == "triangle":
        return [Polygon(_regular(cx, cy - r * 0.15, r * 1.05, 3), stroke=None, fill=fill)]
    if name == "diamond":
        return [Polygon(_regular(cx, cy, r, 4), stroke=None, fill=fill)]
    if name == "hexagon":
        return [Polygon(_regular(cx, cy, r * 0.95, 6, 0), stroke=None, fill=fill)]
    if name == "star":
        outer = _regular(cx, cy, r * 1.05, 5)
        inner = _regular(cx, cy, r * 0.45, 5, 90 + 36)
        points = tuple(p for pair in zip(outer, inner) for p in pair)
        return [Polygon(points, stroke=None, fill=fill)]
    if name in ("cross", "plus"):
        angle = 45.0 if name == "cross" else 0.0
        return [Polygon(_cross(cx, cy, r, r * 0.55, angle), stroke=None, fill=fill)]
    raise ValueError(f"unknown symbol {name!r}")


def _luminance(rgb: str) -> float:
    r, g, b = (int(rgb[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def swatch(x: float, y: float, size: float, sw: Swatch) -> list[Item]:
    """A colour swatch with its symbol; (x, y) is the lower-left corner."""
    ink = INK if _luminance(sw.rgb) > 0.55 else WHITE
    items: list[Item] = [
        Rect(x, y, size, size, stroke="#222222", fill=sw.rgb, line_width=0.5, radius=size / 6)
    ]
    items += symbol(sw.symbol, x + size / 2, y + size / 2, size * 0.62, ink)
    return items


def any_color_swatch(x: float, y: float, size: float, legend: Sequence[Swatch]) -> list[Item]:
    """The mark of a free-colours task: a small grid of all the colours."""
    items: list[Item] = []
    cols = 3
    rows = math.ceil(len(legend) / cols)
    cw, ch = size / cols, size / rows
    for i, sw in enumerate(legend):
        cx, cy = x + (i % cols) * cw, y + size - (i // cols + 1) * ch
        items.append(Rect(cx, cy, cw, ch, stroke=None, fill=sw.rgb))
    items.append(Rect(x, y, size, size, stroke="#222222", line_width=0.5))
    return items


LEGEND_SWATCH = 4.6 * MM


def _legend_steps(label: str, legend: Sequence[Swatch], size: float) -> list[float]:
    """Where each swatch starts, from the row's left edge, and (last) where the row ends."""
    cx = text_width(label, size, True) + 2.5 * MM
    steps = []
    for sw in legend:
        steps.append(cx)
        cx += LEGEND_SWATCH + 1.2 * MM + text_width(sw.name, size) + 3.5 * MM
    return [*steps, cx - 3.5 * MM]


def legend_width(label: str, legend: Sequence[Swatch], size: float) -> float:
    """How wide `legend_row` draws."""
    return _legend_steps(label, legend, size)[-1]


def legend_row(label: str, legend: Sequence[Swatch], x: float, y: float, size: float) -> list[Item]:
    """A row of swatches with the colour names; y is the baseline of the names."""
    items: list[Item] = [Text(x, y, label, size, bold=True)]
    s = LEGEND_SWATCH
    for sw, dx in zip(legend, _legend_steps(label, legend, size)):
        items += swatch(x + dx, y - 1.2, s, sw)
        items.append(Text(x + dx + s + 1.2 * MM, y, sw.name, size))
    return items


LEGEND_H = 9 * MM


def legend_figure(legend: Sequence[Swatch]) -> Figure:
    """The legend row as a story figure, its names at the story's body size."""
    return Figure(LEGEND_H, partial(_legend_in_box, tuple(legend)))


def _legend_in_box(legend: tuple[Swatch, ...], box: Cursor, theme: Theme) -> list[Item]:
    # no label: the swatches start at the column's edge (the label's gap is taken back)
    return legend_row(
        "", legend, box.left - 2.5 * MM, box.top - 5 * MM, theme.paragraphs["body"].size
    )

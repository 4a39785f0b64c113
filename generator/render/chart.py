"""Simple vector charts as layout items: bar charts (histograms) and line charts.

Drawn with the same primitives and embedded font as every sheet, so a chart is
part of the page's vector graphics and the bytes stay reproducible. A chart is
a `Scale` (which values the plot shows, which ticks it labels), a head above
the plot (title, then the key and the unit, clear of the tick labels) and the
marks: bars that may grow from a reference line, a shaded band, a dashed
reference line, values printed on the bars, labels under the bars and under
groups of bars. Numbers reach the page through a formatter the caller gives,
so a chart writes them as its page does (12,5 % or 12.5%).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from generator.render.fonts import ascent, descent, fit_size, text_width
from generator.render.primitives import Item, Line, Rect, Text
from generator.render.style import DARK_GREY, WHITE, centred

AXIS = DARK_GREY
GRID = "#d8d8d8"
BAND_FILL = "#e3efe0"
REFERENCE = "#222222"
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")
SIZE = 7.0  # tick labels, bar labels, the key
LABEL_MIN = 6.0  # a bar's value shrinks to fit its bar no further than this
TITLE_SIZE = 9.0
HEAD_H = 2 * TITLE_SIZE + 10  # title and key line above the plot, clear of the top tick label

Format = Callable[[float], str]
Labels = Callable[[float], Sequence[str]]  # a value's labels, longest first


@dataclass(frozen=True)
class Frame:
    """The plotting area in points (lower-left corner, width, height)."""

    x: float
    y: float
    w: float
    h: float


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About `count` round tick values covering [low, high]."""
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step + 1e-9) * step
    ticks = []
    value = first
    while True:
        ticks.append(round(value, 10))
        if value >= high - step * 1e-9:
            return ticks
        value += step


@dataclass(frozen=True)
class Scale:
    """The value range a plot shows (bottom to top) and the ticks it labels."""

    low: float
    high: float
    ticks: tuple[float, ...]

    def y(self, frame: Frame, value: float) -> float:
        span = self.high - self.low or 1.0
        return frame.y + frame.h * (min(max(value, self.low), self.high) - self.low) / span


def scale_from_zero(values: Sequence[float], top: float | None = None) -> Scale:
    """0 to a round value at or above the largest (or to `top`)."""
    high = top if top is not None else max(values, default=0) or 1.0
    ticks = nice_ticks(0, high)
    return Scale(0.0, high if top is not None else max(ticks[-1], high), tuple(ticks))


def zoomed_scale(
    values: Sequence[float],
    include: Sequence[float] = (),
    min_span: float = 0.0,
    floor: float | None = None,
    ceiling: float | None = None,
) -> Scale:
    """Round ticks around the values (and what `include` names), at least `min_span` high.

    `floor`/`ceiling` bound the range (0 and 1 for shares), so a zoom never shows
    impossible values.
    """
    points = [*values, *include]
    low, high = min(points, default=0.0), max(points, default=1.0)
    if high - low < min_span:
        middle = (low + high) / 2
        low, high = middle - min_span / 2, middle + min_span / 2
    margin = (high - low) * 0.12
    low, high = low - margin, high + margin
    if floor is not None:
        low = max(low, floor)
    if ceiling is not None:
        high = min(high, ceiling)
    ticks = nice_ticks(low, high, 4)
    return Scale(ticks[0], ticks[-1], tuple(ticks))


KeyEntry = tuple[str, str, str]  # (colour, what it means, "line" | "dashed" | "box")


def head(
    frame: Frame,
    title: str,
    unit: str = "",
    key: Sequence[KeyEntry] = (),
    left: float | None = None,
) -> list[Item]:
    """The title, then a key line (what each colour, line or shade means) and the unit.

    Both lines sit above the top tick label, so none of them touches the plot or
    its labels; `left` is where the title starts (the tick labels' left edge).
    """
    x0 = frame.x if left is None else left
    top = frame.y + frame.h
    key_y = top + 0.5 * SIZE + 5
    title_y = key_y + SIZE + 5
    right = frame.x + frame.w
    items: list[Item] = [
        Text(x0, title_y, title, fit_size(title, TITLE_SIZE, right - x0, bold=True), bold=True)
    ]
    x = frame.x
    for color, name, kind in key:
        items += _key_mark(x, key_y, color, kind)
        items.append(Text(x + 15, key_y, name, SIZE))
        x += 15 + text_width(name, SIZE) + 12
    if unit:
        items.append(Text(right, key_y, unit, SIZE, align="right", color=AXIS))
    return items


def _key_mark(x: float, y: float, color: str, kind: str) -> list[Item]:
    """The key's sample of a line, a dashed line or a shade, beside text with baseline y."""
    mid = y + 0.35 * SIZE
    if kind == "dashed":
        return [
            Line(x + 4.5 * k, mid, x + 4.5 * k + 2.5, mid, stroke=color, line_width=0.9)
            for k in range(3)
        ]
    if kind == "box":
        return [Rect(x, y - 0.5, 12, SIZE, stroke=AXIS, fill=color, line_width=0.3)]
    return [Line(x, mid, x + 12, mid, stroke=color, line_width=2.5)]


def axes(frame: Frame, scale: Scale, label: Format, size: float = SIZE) -> list[Item]:
    """Horizontal grid lines with their labels, and the two axis lines."""
    items: list[Item] = []
    for tick in scale.ticks:
        if not scale.low - 1e-9 <= tick <= scale.high + 1e-9:
            continue
        y = scale.y(frame, tick)
        items.append(Line(frame.x, y, frame.x + frame.w, y, stroke=GRID, line_width=0.4))
        items.append(Text(frame.x - 3, centred(y, size), label(tick), size, align="right"))
    items.append(Line(frame.x, frame.y, frame.x + frame.w, frame.y, stroke=AXIS, line_width=0.8))
    items.append(Line(frame.x, frame.y, frame.x, frame.y + frame.h, stroke=AXIS, line_width=0.8))
    return items


def band(frame: Frame, scale: Scale, low: float, high: float, fill: str = BAND_FILL) -> list[Item]:
    """A shaded stripe across the plot between two values (drawn under the bars)."""
    y0, y1 = scale.y(frame, low), scale.y(frame, high)
    return [Rect(frame.x, y0, frame.w, y1 - y0, stroke=None, fill=fill)] if y1 > y0 else []


REFERENCE_W = 1.1
HALO_W = 2.2  # the white line under the dashes: they stay apart from any bar, also in gray


def reference_line(frame: Frame, scale: Scale, value: float) -> list[Item]:
    """A dashed line across the plot at `value` (the key says what it is), on a white halo so
    it reads across the bars it is drawn over, in color and in gray."""
    y = scale.y(frame, value)
    items: list[Item] = [Line(frame.x, y, frame.x + frame.w, y, stroke=WHITE, line_width=HALO_W)]
    x, dash = frame.x, 5.0
    while x < frame.x + frame.w:
        items.append(
            Line(x, y, min(x + dash, frame.x + frame.w), y, stroke=REFERENCE,
                 line_width=REFERENCE_W)
        )  # fmt: skip
        x += 2 * dash
    return items


def bars(
    frame: Frame,
    values: Sequence[float],
    scale: Scale,
    *,
    base: float | None = None,
    colors: Sequence[str] = (),
    value_label: Labels | None = None,
    marks: Sequence[float] = (),
    size: float = SIZE,
    clear_of: Sequence[float] = (),
) -> list[Item]:
    """One bar per value, from `base` (default the bottom of the scale) to the value.

    `value_label` gives each value's labels, longest first (12,5 %, 12,5, 13): the
    longest form that every bar's label takes with a space to its neighbours, at one
    size for all (down to `LABEL_MIN`), is printed above each bar (below one that hangs
    under `base`) and clear of the lines at the values `clear_of` (a dashed mean); none
    when even the shortest does not fit. `marks` draws a short dark tick across each bar
    at that value.
    """
    items: list[Item] = []
    n = max(1, len(values))
    slot = frame.w / n
    foot = scale.y(frame, scale.low if base is None else base)
    texts, label_size = _value_labels(values, value_label, slot, size)
    lines = [scale.y(frame, v) for v in clear_of]
    for i, value in enumerate(values):
        x = frame.x + i * slot + slot * 0.12
        w = slot * 0.76
        y = scale.y(frame, value)
        color = colors[i % len(colors)] if colors else PALETTE[0]
        if abs(y - foot) > 0.01:
            items.append(Rect(x, min(y, foot), w, abs(y - foot), stroke=None, fill=color))
        if i < len(marks):
            my = scale.y(frame, marks[i])
            items.append(
                Line(x - slot * 0.06, my, x + w + slot * 0.06, my, stroke=REFERENCE, line_width=1.4)
            )
        if texts[i]:
            s = label_size
            if y >= foot:  # above the bar, and above its mark
                ty = max(y, scale.y(frame, marks[i]) if i < len(marks) else y) + 2
                for line in sorted(lines):  # a line through the label: the label goes above it
                    if ty - descent(s) - 1 <= line <= ty + ascent(s) + 1:
                        ty = line + HALO_W / 2 + 0.5 + descent(s)
            else:
                ty = y - s - 1
                for line in sorted(lines, reverse=True):
                    if ty - descent(s) - 1 <= line <= ty + ascent(s) + 1:
                        ty = line - HALO_W / 2 - 0.5 - ascent(s)
            items.append(Text(x + w / 2, ty, texts[i], s, align="center"))
    return items


def _value_labels(
    values: Sequence[float], value_label: Labels | None, slot: float, size: float
) -> tuple[list[str], float]:
    """Each bar's label in one form for all (the longest that fits every slot with a space
    beside it, down to 80 % of `size`) and the one size they share; "" where none."""
    if value_label is None:
        return [""] * len(values), size
    forms = [tuple(value_label(v)) for v in values]
    least = max(LABEL_MIN, size * 0.8)
    depth = max((len(f) for f in forms), default=0)
    for k in range(depth):
        texts = [f[min(k, len(f) - 1)] if f else "" for f in forms]
        room = [slot - text_width(" ", least) for _ in texts]
        if all(text_width(t, least) <= r for t, r in zip(texts, room)):
            shown = [(t, r) for t, r in zip(texts, room) if t]
            common = min((fit_size(t, size, r, minimum=least) for t, r in shown), default=size)
            return texts, common
    return [""] * len(values), size


def x_labels(
    frame: Frame,
    labels: Sequence[str],
    every: int = 1,
    edges: bool = False,
    size: float = SIZE,
    short: Sequence[str] = (),
) -> list[Item]:
    """Labels under the bars (or under the bars' edges: a histogram's bin limits); the
    `short` ones where a label would not keep its size and a space to the next ("Sitzplatz 1
    Sitzplatz 2" read as one run)."""
    items: list[Item] = []
    n = max(1, len(labels) - 1 if edges else len(labels))
    slot = frame.w / n
    room = slot * every - 2 * text_width(" ", size)
    if short and any(text_width(label, size) > room for label in labels):
        labels = short
    for i, label in enumerate(labels):
        if i % every:
            continue
        x = frame.x + (i if edges else i + 0.5) * slot
        s = fit_size(label, size, slot * every * 0.95)
        items.append(Text(x, frame.y - size - 2, label, s, align="center"))
    return items


def groups(
    frame: Frame, runs: Sequence[tuple[str, int]], total: int, size: float = SIZE
) -> list[Item]:
    """A second line of labels under runs of bars (the sheet under its rows), with dividers."""
    items: list[Item] = []
    slot = frame.w / max(1, total)
    start = 0
    y = frame.y - 2 * size - 5
    for k, (label, count) in enumerate(runs):
        x0, x1 = frame.x + start * slot, frame.x + (start + count) * slot
        s = fit_size(label, size, (x1 - x0) * 0.95, bold=True)
        items.append(Text((x0 + x1) / 2, y, label, s, bold=True, align="center"))
        if k:
            items.append(Line(x0, frame.y, x0, frame.y - 2 * size - 3, stroke=GRID, line_width=0.6))
        start += count
    return items


def polylines(frame: Frame, series: Sequence[Sequence[float]], scale: Scale) -> list[Item]:
    """One polyline per series, in the palette's order, across the frame."""
    items: list[Item] = []
    n = max((len(v) for v in series), default=1)
    step = frame.w / max(1, n - 1)
    for k, values in enumerate(series):
        color = PALETTE[k % len(PALETTE)]
        points = [(frame.x + i * step, scale.y(frame, v)) for i, v in enumerate(values)]
        for (x1, y1), (x2, y2) in itertools.pairwise(points):
            items.append(Line(x1, y1, x2, y2, stroke=color, line_width=1.2))
    return items


GRID_CLEAR = 1.0  # points of gap the grid keeps on each side of a label it would cross


def clear_grid(items: Sequence[Item]) -> list[Item]:
    """The chart's items with every grid line broken where it would run through a label's
    ink (a bar's value sits where a grid line may pass): the label stays readable, also on
    a copy in grey, and the grid goes on on both sides."""
    spans: list[tuple[float, float, float, float]] = []  # x0, x1, bottom, top of each label
    for t in items:
        if isinstance(t, Text) and t.text.strip():
            w = text_width(t.text, t.size, t.bold)
            x0 = t.x - (w if t.align == "right" else w / 2 if t.align == "center" else 0)
            spans.append((x0, x0 + w, t.y - descent(t.size), t.y + ascent(t.size)))
    out: list[Item] = []
    for item in items:
        if not (isinstance(item, Line) and item.stroke == GRID and item.y1 == item.y2):
            out.append(item)
            continue
        y, half = item.y1, item.line_width / 2
        cuts = sorted(
            (x0 - GRID_CLEAR, x1 + GRID_CLEAR)
            for x0, x1, bottom, top in spans
            if bottom - half < y < top + half and x0 < max(item.x1, item.x2)
            and x1 > min(item.x1, item.x2)
        )  # fmt: skip
        x = min(item.x1, item.x2)
        for c0, c1 in cuts:
            if c0 > x:
                out.append(Line(x, y, c0, y, item.stroke, item.line_width, item.dash))
            x = max(x, c1)
        if x < max(item.x1, item.x2):
            out.append(
                Line(x, y, max(item.x1, item.x2), y, item.stroke, item.line_width, item.dash)
            )
    return out


def point_labels(
    frame: Frame, labels: Sequence[str], every: int = 1, size: float = SIZE
) -> list[Item]:
    """Labels under the points of a line chart."""
    step = frame.w / max(1, len(labels) - 1)
    return [
        Text(frame.x + i * step, frame.y - size - 2, label, size, align="center")
        for i, label in enumerate(labels)
        if i % every == 0
    ]

"""Simple vector charts as layout items: bar charts (histograms) and line charts.

Drawn with the same primitives and embedded font as every sheet, so a chart is
part of the page's vector graphics and the bytes stay reproducible.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from generator.render.fonts import fit_size
from generator.render.primitives import Item, Line, Rect, Text
from generator.render.style import DARK_GREY, centred

AXIS = DARK_GREY
GRID = "#d8d8d8"
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")


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
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while True:
        ticks.append(round(value, 10))
        if value >= high - step * 1e-9:
            return ticks
        value += step


def _label(value: float, decimal: str = ".") -> str:
    return f"{value:g}".replace(".", decimal)


def axes(
    frame: Frame, y_ticks: Sequence[float], y_max: float, title: str = "", y_label: str = "",
    size: float = 7, decimal: str = ".",
) -> list[Item]:  # fmt: skip
    """Frame, horizontal grid lines with labels, and an optional title above."""
    items: list[Item] = []
    for tick in y_ticks:
        y = frame.y + frame.h * tick / y_max if y_max else frame.y
        if y > frame.y + frame.h + 0.01:
            continue
        items.append(Line(frame.x, y, frame.x + frame.w, y, stroke=GRID, line_width=0.4))
        label = _label(tick, decimal)
        items.append(Text(frame.x - 2, centred(y, size), label, size, align="right"))
    items.append(Line(frame.x, frame.y, frame.x + frame.w, frame.y, stroke=AXIS, line_width=0.8))
    items.append(Line(frame.x, frame.y, frame.x, frame.y + frame.h, stroke=AXIS, line_width=0.8))
    if title:
        s = fit_size(title, size + 2, frame.w, bold=True)
        items.append(Text(frame.x, frame.y + frame.h + 4, title, s, bold=True))
    if y_label:  # above the plot at the right, where no bar or line can cover it
        items.append(
            Text(frame.x + frame.w, frame.y + frame.h + 4, y_label, size, align="right", color=AXIS)
        )
    return items


def bar_chart(
    frame: Frame, values: Sequence[float], labels: Sequence[str] = (), title: str = "",
    y_label: str = "", color: str = PALETTE[0], label_every: int = 1, size: float = 7,
    decimal: str = ".",
) -> list[Item]:  # fmt: skip
    """Bars of `values` across the frame; `labels` under every `label_every`-th bar."""
    top = max(values, default=0) or 1
    ticks = nice_ticks(0, top)
    y_max = max(ticks[-1], top)
    items = axes(frame, ticks, y_max, title, y_label, size, decimal)
    n = max(1, len(values))
    slot = frame.w / n
    for i, value in enumerate(values):
        h = frame.h * value / y_max
        if h > 0:
            items.append(
                Rect(
                    frame.x + i * slot + slot * 0.1, frame.y, slot * 0.8, h, stroke=None, fill=color
                )
            )
        if labels and i % label_every == 0 and i < len(labels):
            s = fit_size(labels[i], size, slot * label_every * 0.95)
            items.append(
                Text(frame.x + (i + 0.5) * slot, frame.y - size - 2, labels[i], s, align="center")
            )
    return items


def line_chart(
    frame: Frame, series: Sequence[tuple[str, Sequence[float]]], x_labels: Sequence[str] = (),
    title: str = "", y_label: str = "", y_max: float | None = None, label_every: int = 1,
    size: float = 7, decimal: str = ".",
) -> list[Item]:  # fmt: skip
    """One polyline per (name, values) series, with a small legend at the top right."""
    top = y_max if y_max is not None else max((max(v, default=0) for _, v in series), default=1)
    ticks = nice_ticks(0, top or 1)
    scale_max = max(ticks[-1], top or 1) if y_max is None else y_max
    items = axes(frame, ticks, scale_max, title, y_label, size, decimal)
    n = max((len(v) for _, v in series), default=1)
    step = frame.w / max(1, n - 1)
    for k, (name, values) in enumerate(series):
        color = PALETTE[k % len(PALETTE)]
        points = [
            (frame.x + i * step, frame.y + frame.h * v / scale_max) for i, v in enumerate(values)
        ]
        for (x1, y1), (x2, y2) in itertools.pairwise(points):
            items.append(Line(x1, y1, x2, y2, stroke=color, line_width=1.2))
        if name and len(series) > 1:
            lx = frame.x + frame.w - 70
            ly = frame.y + frame.h - (k + 1) * (size + 3)
            items.append(
                Line(lx, ly + size * 0.35, lx + 12, ly + size * 0.35, stroke=color, line_width=1.5)
            )
            items.append(Text(lx + 15, ly, name, size))
    for i, label in enumerate(x_labels):
        if i % label_every == 0:
            items.append(Text(frame.x + i * step, frame.y - size - 2, label, size, align="center"))
    return items

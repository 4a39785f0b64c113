"""The layout vocabulary: pages of rectangles, lines, text and reusable forms, in points.

Coordinates are PDF points with the origin at the bottom left of the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Align = Literal["left", "center", "right"]

PAPER = {"a4": (595.2755905511812, 841.8897637795277), "letter": (612.0, 792.0)}
MM = 72 / 25.4


def page_size(paper: str, landscape: bool = False) -> tuple[float, float]:
    """Width and height in points of a paper name."""
    width, height = PAPER[paper]
    return (height, width) if landscape else (width, height)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    stroke: str | None = "#000000"
    fill: str | None = None
    line_width: float = 0.6
    dash: tuple[float, ...] | None = None
    radius: float = 0.0


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    line_width: float = 0.6
    dash: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Circle:
    x: float
    y: float
    r: float
    stroke: str | None = "#000000"
    fill: str | None = None
    line_width: float = 0.6


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    stroke: str | None = "#000000"
    fill: str | None = None
    line_width: float = 0.6


@dataclass(frozen=True)
class Text:
    """One line of text; `x` is its left edge, centre or right edge by `align`, `y` its baseline."""

    x: float
    y: float
    text: str
    size: float
    bold: bool = False
    align: Align = "left"
    color: str = "#000000"


@dataclass(frozen=True)
class UseForm:
    """Draw the named form (drawn once per document, reused on every page) shifted by dx, dy."""

    name: str
    dx: float = 0.0
    dy: float = 0.0


Item = Rect | Line | Circle | Polygon | Text | UseForm


@dataclass(frozen=True)
class Page:
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Document:
    width: float
    height: float
    pages: tuple[Page, ...]
    forms: dict[str, tuple[Item, ...]] = field(default_factory=dict)
    title: str = ""


def texts_of(items: tuple[Item, ...], forms: dict[str, tuple[Item, ...]]) -> list[Text]:
    """Every Text a list of items draws, with forms expanded and shifted (for tests and checks)."""
    out: list[Text] = []
    for item in items:
        if isinstance(item, Text):
            out.append(item)
        elif isinstance(item, UseForm):
            for t in texts_of(forms[item.name], forms):
                out.append(
                    Text(t.x + item.dx, t.y + item.dy, t.text, t.size, t.bold, t.align, t.color)
                )
    return out

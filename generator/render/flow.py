"""Shared layout helpers for text-heavy pages: wrapped paragraphs and paginated tables.

Both return layout items (`primitives`) and never draw; rules pages, answer keys
and reports of every game use them, so their look stays the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.render.fonts import fit_size, text_width
from generator.render.primitives import MM, Align, Item, Line, Rect, Text


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Split `text` into lines no wider than `width` (a word longer than a line stands alone)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, size, bold) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


@dataclass
class Cursor:
    """A writing position on a page: left edge, right edge, current top (y decreases)."""

    left: float
    right: float
    top: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    def room(self) -> float:
        return self.top - self.bottom


def paragraph(
    cursor: Cursor, text: str, size: float = 10, bold: bool = False, leading: float = 1.3,
    space_after: float = 2.5 * MM, color: str = "#000000", indent: float = 0.0,
) -> tuple[list[Item], str]:  # fmt: skip
    """Lay out as much of `text` as fits; return the items and the text left over."""
    items: list[Item] = []
    lines = wrap(text, size, cursor.width - indent, bold)
    step = size * leading
    for i, line in enumerate(lines):
        if cursor.top - step < cursor.bottom:
            return items, " ".join(lines[i:])
        cursor.top -= step
        items.append(
            Text(cursor.left + indent, cursor.top + 0.25 * size, line, size, bold, color=color)
        )
    cursor.top -= space_after
    return items, ""


@dataclass(frozen=True)
class Column:
    title: str
    width: float  # share of the table width (relative weights)
    align: Align = "left"


def table(
    cursor: Cursor,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    size: float = 9,
    row_h: float = 6 * MM,
    header_fill: str = "#d9d9d9",
    zebra: str | None = "#f3f3f3",
) -> tuple[list[Item], int]:
    """Lay out a header and as many rows as fit; return the items and the rows placed."""
    items: list[Item] = []
    total = sum(c.width for c in columns)
    widths = [cursor.width * c.width / total for c in columns]
    pad = 1.2 * MM

    def cells(values: Sequence[str], bold: bool, fill: str | None) -> None:
        x = cursor.left
        y = cursor.top - row_h
        if fill:
            items.append(Rect(cursor.left, y, cursor.width, row_h, stroke=None, fill=fill))
        for col, w, value in zip(columns, widths, values):
            s = fit_size(value, size, w - 2 * pad, bold)
            tx = {"left": x + pad, "center": x + w / 2, "right": x + w - pad}[col.align]
            items.append(Text(tx, y + row_h / 2 - 0.36 * s, value, s, bold, col.align))
            x += w
        items.append(Line(cursor.left, y, cursor.right, y, stroke="#999999", line_width=0.4))
        cursor.top = y

    if cursor.room() < 2 * row_h:
        return items, 0
    cells([c.title for c in columns], True, header_fill)
    placed = 0
    for i, row in enumerate(rows):
        if cursor.room() < row_h:
            break
        cells(row, False, zebra if i % 2 else None)
        placed += 1
    return items, placed

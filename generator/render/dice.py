"""Drawn die faces (pips, not digits) as layout items, shared by every sheet that shows dice."""

from __future__ import annotations

from functools import partial

from generator.render.flow import Cursor, Figure, Theme
from generator.render.primitives import MM, Circle, Item, Rect, Text
from generator.render.style import INK, WHITE, centred

ROW_DIE = 9 * MM  # a die in a line of text (a rules page's example roll)
ROW_TEXT = 12.0

# pip positions on a 3×3 grid (column, row from the top), the usual Western layout
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def die_face(
    x: float,
    y: float,
    size: float,
    value: int,
    fill: str = WHITE,
    pips: str = INK,
    stroke: str = INK,
) -> list[Item]:
    """A die of side `size`, lower-left corner at (x, y); values above 6 print as a digit."""
    items: list[Item] = [
        Rect(
            x,
            y,
            size,
            size,
            stroke=stroke,
            fill=fill,
            line_width=max(0.5, size / 28),
            radius=size / 7,
        )
    ]
    if value in PIPS:
        r = size * 0.085
        step = size * 0.28
        for col, row in PIPS[value]:
            cx = x + size / 2 + (col - 1) * step
            cy = y + size / 2 - (row - 1) * step
            items.append(Circle(cx, cy, r, stroke=None, fill=pips))
    else:
        text_size = size * 0.55
        items.append(
            Text(
                x + size / 2,
                centred(y + size / 2, text_size),
                str(value),
                text_size,
                True,
                "center",
                pips,
            )
        )
    return items


def dice_row(values: tuple[int, ...], text: str) -> Figure:
    """A story figure: drawn white dice, then a line of bold text (a worked example)."""
    return Figure(ROW_DIE + 3.5 * MM, partial(_dice_row, values, text))


def _dice_row(values: tuple[int, ...], text: str, box: Cursor, theme: Theme) -> list[Item]:
    x = box.left + 6 * MM
    y = box.top - ROW_DIE - 0.5 * MM
    items: list[Item] = []
    for value in values:
        items += die_face(x, y, ROW_DIE, value)
        x += ROW_DIE + 2 * MM
    items.append(Text(x + 3 * MM, centred(y + ROW_DIE / 2, ROW_TEXT), text, ROW_TEXT, bold=True))
    return items

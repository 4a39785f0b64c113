"""Geometry of the Kniffel score block: where every box, line and word goes, in points."""

from __future__ import annotations

from dataclasses import dataclass

from generator.errors import DoesNotFit
from generator.kniffel.block import BlockRow, BlockSpec, block_rows, block_words
from generator.render.fonts import fit_size, text_width
from generator.render.primitives import (
    MM,
    Document,
    Item,
    Line,
    Page,
    Rect,
    Text,
    UseForm,
    page_size,
)
from generator.render.style import FOOTER_INK, FOOTER_SIZE, INK, TITLE, centred

MARGIN = 12 * MM
GAP = 8 * MM  # between two blocks on a page
LABEL_W = 46 * MM
MIN_COL_W = 12 * MM  # three handwritten digits
MAX_COL_W = 24 * MM
MIN_ROW_H = 7 * MM
MAX_ROW_H = 11 * MM
TITLE_H = 16 * MM
SHADE = "#e8e8e8"
TOTAL_SHADE = "#d0d0d0"


@dataclass(frozen=True)
class BlockGeometry:
    """Sizes shared by every block on the sheet."""

    page_w: float
    page_h: float
    per_page: int
    block_w: float
    col_w: float
    row_h: float
    n_rows: int

    @property
    def table_h(self) -> float:
        return self.row_h * (self.n_rows + 1)  # + the game header row

    def slot_x(self, slot: int) -> float:
        return MARGIN + slot * (self.block_w + GAP)


def min_block_width(games: int) -> float:
    return LABEL_W + games * MIN_COL_W


def geometry(spec: BlockSpec, paper: str, landscape: bool, per_page: str) -> BlockGeometry:
    """Choose blocks per page and the box sizes; raise DoesNotFit when a choice cannot fit."""
    page_w, page_h = page_size(paper, landscape)
    usable_w = page_w - 2 * MARGIN
    n_rows = len(block_rows(spec))
    fit = max(1, int((usable_w + GAP) // (min_block_width(spec.games) + GAP)))
    if per_page == "auto":
        count = min(2, fit)
    else:
        count = int(per_page)
        if count > fit:
            needed = (count * min_block_width(spec.games) + (count - 1) * GAP) / MM
            raise DoesNotFit(
                "per_page",
                f"{count} blocks of {spec.games} games need {needed:.0f} mm, "
                f"the page has {usable_w / MM:.0f} mm",
                needed,
                usable_w / MM,
                ("landscape", "games"),
            )
    if min_block_width(spec.games) > usable_w:
        raise DoesNotFit(
            "games",
            f"{spec.games} game columns do not fit across the page",
            min_block_width(spec.games) / MM,
            usable_w / MM,
            ("landscape",),
        )
    block_w = (usable_w - (count - 1) * GAP) / count
    col_w = min(MAX_COL_W, (block_w - LABEL_W) / spec.games)
    block_w = LABEL_W + spec.games * col_w
    row_h = min(MAX_ROW_H, (page_h - 2 * MARGIN - TITLE_H) / (n_rows + 1))
    if row_h < MIN_ROW_H:
        needed = 2 * MARGIN + TITLE_H + (n_rows + 1) * MIN_ROW_H
        raise DoesNotFit(
            "paper",
            f"the block does not fit the page height with {MIN_ROW_H / MM:.0f} mm boxes",
            needed / MM,
            page_h / MM,
        )
    return BlockGeometry(page_w, page_h, count, block_w, col_w, row_h, n_rows)


def _row_items(row: BlockRow, x: float, y: float, geo: BlockGeometry, games: int) -> list[Item]:
    """Label cell and game cells of one row whose top edge is at `y`."""
    items: list[Item] = []
    h = geo.row_h
    fill = {"sum": SHADE, "total": TOTAL_SHADE}.get(row.kind)
    items.append(Rect(x, y - h, LABEL_W, h, fill=fill, line_width=0.6))
    pad = 1.6 * MM
    bold = True
    if row.hint:
        size = fit_size(row.label, 9, LABEL_W - 2 * pad, bold=bold)
        items.append(Text(x + pad, y - 0.42 * h, row.label, size, bold=bold))
        hint_size = fit_size(row.hint, 6.2, LABEL_W - 2 * pad)
        items.append(Text(x + pad, y - 0.82 * h, row.hint, hint_size, color="#444444"))
    else:
        size = fit_size(row.label, 9, LABEL_W - 2 * pad, bold=bold)
        items.append(Text(x + pad, centred(y - 0.5 * h, size), row.label, size, bold=bold))
    for g in range(games):
        cx = x + LABEL_W + g * geo.col_w
        items.append(Rect(cx, y - h, geo.col_w, h, fill=fill, line_width=0.6))
        if row.kind == "yahtzee_bonus":
            box = 2.4 * MM
            for k in range(3):
                items.append(
                    Rect(
                        cx + 1.2 * MM + k * (box + 1 * MM),
                        y - 1.2 * MM - box,
                        box,
                        box,
                        line_width=0.4,
                    )
                )
    return items


TITLE_SIZE = TITLE


def _name_line(words: dict[str, str], x: float) -> tuple[float, float]:
    """Where the "Name:" label and the line after it start, for a block at `x`."""
    name_x = x + text_width(words["title"], TITLE_SIZE, bold=True) + 6 * MM
    return name_x, name_x + text_width(words["name_label"] + ":", 9) + 1.5 * MM


def block_form(spec: BlockSpec, geo: BlockGeometry, words: dict[str, str]) -> tuple[Item, ...]:
    """Everything of one block except the player's name, drawn at the first slot's position."""
    x = geo.slot_x(0)
    top = geo.page_h - MARGIN
    items: list[Item] = []
    items.append(Text(x, top - TITLE_SIZE * 0.8, words["title"], TITLE_SIZE, bold=True))
    name_x, line_x = _name_line(words, x)
    items.append(Text(name_x, top - 11 * MM + 1.5, words["name_label"] + ":", 9))
    items.append(Line(line_x, top - 11 * MM, x + geo.block_w, top - 11 * MM, line_width=0.5))
    y = top - TITLE_H
    # the game header row
    items.append(Rect(x, y - geo.row_h, LABEL_W, geo.row_h, stroke=None))
    for g in range(spec.games):
        cx = x + LABEL_W + g * geo.col_w
        label = words[f"game_{g + 1}"]
        size = fit_size(label, 8, geo.col_w - 1.5 * MM, bold=True)
        items.append(Rect(cx, y - geo.row_h, geo.col_w, geo.row_h, fill=TOTAL_SHADE))
        items.append(
            Text(cx + geo.col_w / 2, centred(y - geo.row_h / 2, size), label, size, True, "center")
        )
    y -= geo.row_h
    for row in block_rows(spec):
        items += _row_items(row, x, y, geo, spec.games)
        y -= geo.row_h
    # a heavier frame around the table and a rule between the two sections
    items.append(Rect(x, y, geo.block_w, geo.table_h - geo.row_h, stroke=INK, line_width=1.4))
    n_upper = len(spec.rules.upper) + 3
    split_y = top - TITLE_H - geo.row_h * (1 + n_upper)
    items.append(Line(x, split_y, x + geo.block_w, split_y, line_width=1.4))
    # the footer under each block: two-up blocks are cut apart, each keeps its own
    items.append(Text(x, y - 3.5 * MM, words["footer"], FOOTER_SIZE, color=FOOTER_INK))
    return tuple(items)


def name_item(name: str, words: dict[str, str], geo: BlockGeometry, slot: int) -> Text | None:
    """The player's name written on the name line of block `slot`."""
    if not name:
        return None
    x = geo.slot_x(slot)
    top = geo.page_h - MARGIN
    _, line_x = _name_line(words, x)
    room = x + geo.block_w - line_x - 1 * MM
    size = fit_size(name, 12, room)
    return Text(line_x + 1 * MM, top - 11 * MM + 2, name, size)


def layout_block(spec: BlockSpec, paper: str, landscape: bool, per_page: str) -> Document:
    """The whole document: every block of every copy, `per_page` blocks side by side."""
    geo = geometry(spec, paper, landscape, per_page)
    words = block_words(spec)
    form = block_form(spec, geo, words)
    blocks = spec.blocks
    pages = []
    for first in range(0, len(blocks), geo.per_page):
        items: list[Item] = []
        for slot, name in enumerate(blocks[first : first + geo.per_page]):
            dx = geo.slot_x(slot) - geo.slot_x(0)
            items.append(UseForm("block", dx, 0.0))
            text = name_item(name, words, geo, slot)
            if text is not None:
                items.append(text)
        pages.append(Page(tuple(items)))
    title = f"{spec.rules.name[spec.lang]} – {words['name_label']}"
    return Document(geo.page_w, geo.page_h, tuple(pages), {"block": form}, title=title)

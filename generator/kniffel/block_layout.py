"""Geometry of the Kniffel score block: where every box, line and word goes, in points."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from generator.core.errors import DoesNotFit, Msg
from generator.kniffel.block import BlockRow, BlockSpec, block_rows, block_words
from generator.render.fit import broken_lines, name_lines
from generator.render.fonts import descent, fit_size, text_width
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
from generator.render.style import (
    FOOTER_INK,
    FOOTER_SIZE,
    GREY,
    INK,
    TITLE,
    WHITE,
    centred,
)

MARGIN = 12 * MM  # left and right
TOP = 8 * MM  # above the title: rows of 8 mm still fit a Yahtzee block on a landscape A4
BOTTOM = 7 * MM  # below the footer line under the table
GAP = 10 * MM  # between two blocks on a page: the cut line runs in its middle
LABEL_W = 46 * MM
MAX_LABEL_W = 62 * MM  # a block alone on a wide page widens its label column up to this
MIN_COL_W = 12 * MM  # three handwritten digits
MAX_COL_W = 24 * MM
MIN_ROW_H = 8 * MM  # a box a pen writes three digits in
MAX_ROW_H = 14 * MM  # rows grow to fill the page height, up to this
TITLE_H = 13 * MM  # the title and the name line above the table
NAME_LINE = 10 * MM  # the name line below the page's top margin
FOOTER_H = 4 * MM  # below the table: the small footer line
FOOTER_DROP = 3.2 * MM  # the footer's baseline below the table
LABEL_PT = 9.0
HINT_PT = 6.5
TICK_GAP = 1.2 * MM  # between the Yahtzee bonus tick boxes and around them
MAX_TICK = 5 * MM
MIN_TICK = 3.5 * MM  # a box a pen hits: else two boxes instead of three
CUT_INSET = 6 * MM  # the cut line stops short of the paper edge (printers' dead margin)
SHADE = "#e8e8e8"
TOTAL_SHADE = "#d0d0d0"


class Cells(Protocol):
    """What a row of boxes needs to know: the label column and a game box's size."""

    @property
    def label_w(self) -> float: ...
    @property
    def col_w(self) -> float: ...
    @property
    def row_h(self) -> float: ...


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
    label_w: float = LABEL_W

    @property
    def table_h(self) -> float:
        return self.row_h * (self.n_rows + 1)  # + the game header row

    def slot_x(self, slot: int, on_page: int | None = None) -> float:
        """The left edge of block `slot` on a page of `on_page` blocks (default: a full
        page): the blocks of every page are centred as a row, so the last page of an odd
        number of blocks centres its block too."""
        count = self.per_page if on_page is None else on_page
        row_w = count * self.block_w + (count - 1) * GAP
        return (self.page_w - row_w) / 2 + slot * (self.block_w + GAP)

    def cut_x(self, slot: int, on_page: int | None = None) -> float:
        """The cut line between block `slot` and the next: the middle of the gap."""
        return self.slot_x(slot, on_page) + self.block_w + GAP / 2


def min_block_width(games: int) -> float:
    return LABEL_W + games * MIN_COL_W


def geometry(spec: BlockSpec, paper: str, landscape: bool, per_page: str) -> BlockGeometry:
    """Choose blocks per page and the box sizes; raise DoesNotFit when a choice cannot fit.

    Rows share the page height (up to MAX_ROW_H); blocks share the width (boxes up to
    MAX_COL_W, a lone block's label column up to MAX_LABEL_W) and are centred.
    """
    page_w, page_h = page_size(paper, landscape)
    usable_w = page_w - 2 * MARGIN
    n_rows = len(block_rows(spec))
    fit = max(1, int((usable_w + GAP) // (min_block_width(spec.games) + GAP)))
    if per_page == "auto":  # two side by side when they fit, but never an empty half page
        count = min(2, fit, len(spec.blocks))
    else:
        count = int(per_page)
        if count > fit:
            needed = (count * min_block_width(spec.games) + (count - 1) * GAP) / MM
            raise DoesNotFit(
                "per_page",
                Msg(
                    "blocks_games_need_mm",
                    count=count,
                    games=spec.games,
                    needed=f"{needed:.0f}",
                    usable_w=f"{usable_w / MM:.0f}",
                ),
                needed,
                usable_w / MM,
                ("landscape", "games"),
            )
    if min_block_width(spec.games) > usable_w:
        raise DoesNotFit(
            "games",
            Msg("game_columns_do_fit", games=spec.games),
            min_block_width(spec.games) / MM,
            usable_w / MM,
            ("landscape",),
        )
    room_w = (usable_w - (count - 1) * GAP) / count
    col_w = min(MAX_COL_W, (room_w - LABEL_W) / spec.games)
    label_w = max(LABEL_W, min(MAX_LABEL_W, room_w - spec.games * col_w))
    block_w = label_w + spec.games * col_w
    row_h = min(MAX_ROW_H, (page_h - TOP - BOTTOM - TITLE_H - FOOTER_H) / (n_rows + 1))
    if row_h < MIN_ROW_H - 1e-6:
        needed = TOP + BOTTOM + TITLE_H + FOOTER_H + (n_rows + 1) * MIN_ROW_H
        raise DoesNotFit(
            "paper",
            Msg("block_does_fit_page", min_row_h=f"{MIN_ROW_H / MM:.0f}"),
            needed / MM,
            page_h / MM,
        )
    return BlockGeometry(page_w, page_h, count, block_w, col_w, row_h, n_rows, label_w)


def row_items(row: BlockRow, x: float, y: float, geo: Cells, games: int) -> list[Item]:
    """Label cell and game cells of one row whose top edge is at `y`."""
    items: list[Item] = []
    h, label_w = geo.row_h, geo.label_w
    fill = {"sum": SHADE, "total": TOTAL_SHADE}.get(row.kind)
    items.append(Rect(x, y - h, label_w, h, fill=fill, line_width=0.6))
    pad = 1.6 * MM
    # one size for every label: a long one shrinks only if it cannot fit at all
    size = fit_size(row.label, LABEL_PT, label_w - 2 * pad, bold=True)
    if row.hint:
        hint_size = fit_size(row.hint, HINT_PT, label_w - 2 * pad)
        gap = (h - size - hint_size) / 3  # label and hint share the row evenly
        label_y = y - gap - 0.8 * size
        items.append(Text(x + pad, label_y, row.label, size, bold=True))
        hint_y = label_y - 0.2 * size - gap - 0.8 * hint_size
        items.append(Text(x + pad, hint_y, row.hint, hint_size, color="#444444"))
    else:
        items.append(Text(x + pad, centred(y - 0.5 * h, size), row.label, size, bold=True))
    for g in range(games):
        cx = x + label_w + g * geo.col_w
        items.append(Rect(cx, y - h, geo.col_w, h, fill=fill, line_width=0.6))
        if row.kind == "yahtzee_bonus":
            items += _ticks(cx, y, geo)
    return items


def ticks_across(geo: Cells) -> int:
    """Tick boxes per game box: as many of at least MIN_TICK as the box holds, at most three
    (the most a game sees), at least one (a narrow family column tallies in it)."""
    fits = int((geo.col_w - TICK_GAP) // (MIN_TICK + TICK_GAP) + 1e-9)
    return max(1, min(3, fits))


def tick_size(geo: Cells) -> float:
    """The side of a Yahtzee bonus tick box: as large as the box allows, up to MAX_TICK."""
    n = ticks_across(geo)
    return min(MAX_TICK, (geo.col_w - (n + 1) * TICK_GAP) / n, geo.row_h - 2 * TICK_GAP)


def _ticks(cx: float, y: float, geo: Cells) -> list[Item]:
    """The tick boxes centred in the game box whose top-left corner is (cx, y)."""
    box, n = tick_size(geo), ticks_across(geo)
    span = n * box + (n - 1) * TICK_GAP
    x0 = cx + (geo.col_w - span) / 2
    y0 = y - (geo.row_h + box) / 2
    return [
        Rect(x0 + k * (box + TICK_GAP), y0, box, box, line_width=0.6, fill=WHITE) for k in range(n)
    ]


TITLE_SIZE = TITLE
GAME_PT = 8.5


def _game_label(label: str, cx: float, y: float, geo: Cells) -> list[Item]:
    """A game's heading centred in its box below `y`: one line, or two ("1." / "Spiel")
    where a narrow box would shrink it below 8 pt."""
    room = geo.col_w - 1.5 * MM
    lines = [label]
    if fit_size(label, GAME_PT, room, bold=True) < 8 and " " in label:
        lines = label.rsplit(" ", 1)
    size = min(fit_size(line, GAME_PT, room, bold=True) for line in lines)
    step = 1.1 * size
    first = centred(y - geo.row_h / 2, size) + step * (len(lines) - 1) / 2
    return [Text(cx, first - k * step, line, size, True, "center") for k, line in enumerate(lines)]


def _name_line(words: dict[str, str], x: float) -> tuple[float, float]:
    """Where the "Name:" label and the line after it start, for a block at `x`."""
    name_x = x + text_width(words["title"], TITLE_SIZE, bold=True) + 6 * MM
    return name_x, name_x + text_width(words["name_label"] + ":", 9) + 1.5 * MM


def block_form(spec: BlockSpec, geo: BlockGeometry, words: dict[str, str]) -> tuple[Item, ...]:
    """Everything of one block except the player's name, drawn at the first slot's position."""
    x = geo.slot_x(0)
    top = geo.page_h - TOP
    items: list[Item] = []
    items.append(Text(x, top - TITLE_SIZE * 0.8, words["title"], TITLE_SIZE, bold=True))
    name_x, line_x = _name_line(words, x)
    rule = top - NAME_LINE
    items.append(Text(name_x, rule + 1.5, words["name_label"] + ":", 9))
    items.append(Line(line_x, rule, x + geo.block_w, rule, line_width=0.5))
    y = top - TITLE_H
    # the game header row
    items.append(Rect(x, y - geo.row_h, geo.label_w, geo.row_h, stroke=None))
    for g in range(spec.games):
        cx = x + geo.label_w + g * geo.col_w
        items.append(Rect(cx, y - geo.row_h, geo.col_w, geo.row_h, fill=TOTAL_SHADE))
        items += _game_label(words[f"game_{g + 1}"], cx + geo.col_w / 2, y, geo)
    y -= geo.row_h
    for row in block_rows(spec):
        items += row_items(row, x, y, geo, spec.games)
        y -= geo.row_h
    # a heavier frame around the table and a rule between the two sections
    items.append(Rect(x, y, geo.block_w, geo.table_h - geo.row_h, stroke=INK, line_width=1.4))
    n_upper = len(spec.rules.upper) + 3
    split_y = top - TITLE_H - geo.row_h * (1 + n_upper)
    items.append(Line(x, split_y, x + geo.block_w, split_y, line_width=1.4))
    # the footer under each block: two-up blocks are cut apart, each keeps its own
    items.append(Text(x, y - FOOTER_DROP, words["footer"], FOOTER_SIZE, color=FOOTER_INK))
    return tuple(items)


NAME_PT = 12.0
NAME_MIN = 8.0  # a name below this goes on two lines instead (body text on a players' page)


def name_text(name: str, room: float, rule: float, x: float) -> list[Text]:
    """A name written just above the rule at `rule`, left edge `x`: in full, on one line
    (12 pt down to 8 pt), else on two, else broken at a syllable on three (6 pt at least);
    its descenders clear the rule."""
    size = fit_size(name, NAME_PT, room, minimum=NAME_MIN)
    lines: tuple[str, ...] = (name,)
    if text_width(name, size) > room:
        for size in (9.0, 8.5, 8.0, 7.5, 7.0, 6.5, 6.0):
            lines = name_lines(name, size, room, 2)
            if lines:
                break
        else:
            lines = broken_lines(name, 6.0, room, 3)
    step = 1.1 * size
    base = rule + descent(size) + 0.6
    return [Text(x, base + step * (len(lines) - 1 - k), line, size) for k, line in enumerate(lines)]


def name_items(
    name: str, words: dict[str, str], geo: BlockGeometry, slot: int, on_page: int | None = None
) -> list[Text]:
    """The player's name written on the name line of block `slot` (of `on_page` blocks)."""
    if not name:
        return []
    x = geo.slot_x(slot, on_page)
    _, line_x = _name_line(words, x)
    room = x + geo.block_w - line_x - 1 * MM
    return name_text(name, room, geo.page_h - TOP - NAME_LINE, line_x + 1 * MM)


def cut_line(geo: BlockGeometry, slot: int, on_page: int | None = None) -> list[Item]:
    """The dashed line between block `slot` and the next, scissors at its top."""
    x = geo.cut_x(slot, on_page)
    top, bottom = geo.page_h - CUT_INSET, CUT_INSET
    size = 10.0
    return [
        Line(x, bottom, x, top - size - 1 * MM, stroke=GREY, line_width=0.6, dash=(4, 3)),
        Text(x, top - 0.8 * size, "✂", size, align="center", color=GREY),
    ]


def layout_block(spec: BlockSpec, paper: str, landscape: bool, per_page: str) -> Document:
    """The whole document: every block of every copy, `per_page` blocks side by side; a page
    with fewer blocks (the last of an odd number) centres them."""
    geo = geometry(spec, paper, landscape, per_page)
    words = block_words(spec)
    form = block_form(spec, geo, words)
    blocks = spec.blocks
    pages = []
    for first in range(0, len(blocks), geo.per_page):
        here = blocks[first : first + geo.per_page]
        items: list[Item] = []
        for slot, name in enumerate(here):
            dx = geo.slot_x(slot, len(here)) - geo.slot_x(0)
            if slot:
                items += cut_line(geo, slot - 1, len(here))
            items.append(UseForm("block", dx, 0.0))
            items += name_items(name, words, geo, slot, len(here))
        pages.append(Page(tuple(items)))
    title = f"{spec.rules.name[spec.lang]} – {words['name_label']}"
    return Document(geo.page_w, geo.page_h, tuple(pages), {"block": form}, title=title)

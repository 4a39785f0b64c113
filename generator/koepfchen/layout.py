"""Geometry of a Schlaues Köpfchen board, its rules page and answer key, in points.

The board is a serpentine: cell 0 (Start) at the top left, rows alternating
direction, the goal last; arrows in the gaps show the way. `board_geometry`
computes every cell as plain numbers first (tested without drawing). A track
that does not fit one page with cells of at least `MIN_ONE_PAGE` is split over
two pages: part 1 (odd number of rows, top to bottom, ending at its right edge)
is cut at a dashed line and laid on the grey glue strip of part 2, which
continues bottom to top from its left edge. Rules and key pages are stories
(`generator.koepfchen.pages`) poured through `render.flow`, in one or two columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Protocol

from generator.core.errors import DoesNotFit, Msg
from generator.koepfchen.pages import BoardView
from generator.render.fit import wrap
from generator.render.flow import (
    BulletStyle,
    Columns,
    Flowable,
    PageFrame,
    PageLabel,
    TableStyle,
    TextStyle,
    Theme,
    flow_story,
    footer_line,
    numbered,
)
from generator.render.fonts import ascent, fit_size, text_width
from generator.render.primitives import (
    MM,
    Circle,
    Document,
    Item,
    Line,
    Page,
    Polygon,
    Rect,
    Text,
    page_size,
)
from generator.render.style import DARK_GREY, GREY, MID_GREY, TEXT_TITLE, TITLE, WHITE, centred

MARGIN = 12 * MM
EDGE = 5.5 * MM  # nothing nearer the paper's edge: most printers cannot print there
GLUE_MARGIN = 24 * MM  # part 2's left margin: room for the glue strip
HEADER_H = 19 * MM
FOOTER_H = 8 * MM
HINT_PT = 8.0  # the glue hint of a two-part board: an instruction, in body size
HINT_LINE = 3.6 * MM
GAP = 6 * MM  # between cells: the arrows live here
MIN_ONE_PAGE = 22 * MM  # smaller cells than this: split the board over two pages
MIN_CELL = 17 * MM
MAX_CELL = 40 * MM
MAX_ASPECT = 1.35
TARGET_MIN_PT = 18.0
TARGET_MAX_PT = 40.0
INDEX_PT = 7.0
ARROW = "#4d4d4d"
FILLS = {0: "#d6ebf7", 1: "#e3f2dc", 2: "#fcf1cc", 3: "#f9dccf"}  # start, easy, medium, hard
PLAIN = WHITE
GOAL_FILL = "#ffd966"
GLUE_FILL = "#e6e6e6"


@dataclass(frozen=True)
class Slot:
    """Where one cell of the track goes: page (0 or 1), grid row/column, box in points."""

    page: int
    row: int
    col: int
    x: float
    y: float
    w: float
    h: float

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2


@dataclass(frozen=True)
class BoardGeometry:
    page_w: float
    page_h: float
    parts: int  # pages the board takes: 1 or 2
    cols: int
    rows: int
    cell_w: float
    cell_h: float
    slots: tuple[Slot, ...]  # one per cell, 0 (start) .. L (goal)
    left: tuple[float, ...]  # the grid area's left edge on each page
    width: float  # the grid area's width (the same on every page)

    @property
    def top(self) -> float:
        return self.page_h - MARGIN - HEADER_H

    @property
    def bottom(self) -> float:
        return MARGIN + FOOTER_H + (HINT_LINE if self.parts == 2 else 0.0)

    @property
    def cut_x(self) -> float:
        """Part 1's cut line: half a gap right of its last column."""
        return self.left[0] + self.width + GAP / 2

    @property
    def glue_x(self) -> float:
        """Part 2's glue line: half a gap left of its first column."""
        return self.left[-1] - GAP / 2


def _grid(n: int, width: float, height: float, parts: int) -> tuple[float, int, int, float, float]:
    """The best (size, cols, rows, cell_w, cell_h) for n cells; size 0 when nothing fits."""
    best = (0.0, 0, 0, 0.0, 0.0)
    best_waste = 0
    for cols in range(1, 17):
        for rows in range(1, 21):
            cap = cols * rows
            # one page: the last row is never empty nor holds the goal alone (part 2 of two
            # holds what is left of the track, its rows above stay free anyway)
            if parts == 1 and (cap < n or cap - n >= cols or (n > cols and cap - n == cols - 1)):
                continue
            if parts == 2 and (rows % 2 == 0 or not cap < n <= 2 * cap):
                continue
            cw = (width - (cols - 1) * GAP) / cols
            ch = (height - (rows - 1) * GAP) / rows
            if cw <= 0 or ch <= 0:
                continue
            w = min(cw, MAX_ASPECT * ch, MAX_CELL)
            h = min(ch, MAX_ASPECT * w, MAX_CELL)
            size = min(w, h)
            waste = parts * cap - n
            if size > best[0] + 1e-6 or (abs(size - best[0]) <= 1e-6 and waste < best_waste):
                best, best_waste = (size, cols, rows, w, h), waste
    return best


def board_geometry(n_cells: int, paper: str, landscape: bool) -> BoardGeometry:
    """Choose one or two pages and the grid; place every cell of the serpentine."""
    page_w, page_h = page_size(paper, landscape)
    height = page_h - 2 * MARGIN - HEADER_H - FOOTER_H
    one = _grid(n_cells, page_w - 2 * MARGIN, height, 1)
    # two parts: the glue hint takes a second line above the footer
    two = _grid(n_cells, page_w - MARGIN - GLUE_MARGIN, height - HINT_LINE, 2)
    if one[0] >= MIN_ONE_PAGE or one[0] >= two[0]:
        parts, (size, cols, rows, w, h) = 1, one
        left: tuple[float, ...] = (MARGIN,)
        width = page_w - 2 * MARGIN
    else:
        parts, (size, cols, rows, w, h) = 2, two
        width = page_w - MARGIN - GLUE_MARGIN
        left = (MARGIN, GLUE_MARGIN)
    if size < MIN_CELL:
        raise DoesNotFit(
            "paper",
            Msg("track_fields_does_fit", n_cells=n_cells - 1, min_cell=f"{MIN_CELL / MM:.0f}"),
            MIN_CELL / MM,
            size / MM,
            ("landscape",),
        )
    grid_w = cols * w + (cols - 1) * GAP
    top = page_h - MARGIN - HEADER_H
    # one part: centred; two: part 1 hugs its cut line, part 2 its glue line (one gap between)
    x0s = (left[0] + (width - grid_w) / 2,) if parts == 1 else (left[0] + width - grid_w, left[1])
    cap = cols * rows
    slots = []
    for i in range(n_cells):
        if parts == 1 or i < cap:
            page, row, c = 0, i // cols, i % cols
            col = c if row % 2 == 0 else cols - 1 - c
        else:
            j = i - cap
            page, up, c = 1, j // cols, j % cols
            row = rows - 1 - up
            col = c if up % 2 == 0 else cols - 1 - c
        x = x0s[page] + col * (w + GAP)
        y = top - row * (h + GAP) - h
        slots.append(Slot(page, row, col, x, y, w, h))
    goal, before = slots[-1], slots[-2] if len(slots) > 1 else None
    if before is not None and (before.page, before.row) != (goal.page, goal.row) and cols > 1:
        # the goal alone in its row (part 2 of a two-part board): it takes two fields' room,
        # towards the way the row runs, so no lone small box ends the track
        x = goal.x if goal.col == 0 else goal.x - w - GAP
        slots[-1] = Slot(goal.page, goal.row, goal.col, x, goal.y, 2 * w + GAP, h)
    return BoardGeometry(page_w, page_h, parts, cols, rows, w, h, tuple(slots), left, width)


def target_size(view: BoardView, geo: BoardGeometry) -> float:
    """One size for every target number: as large as the cells allow, never below 18 pt."""
    size = min(TARGET_MAX_PT, 0.42 * geo.cell_h)
    widest = max((str(t) for _, t, _ in view.cells if t is not None), key=len, default="0")
    return max(TARGET_MIN_PT, fit_size(widest, size, 0.84 * geo.cell_w, bold=True))


def target_baseline(slot: Slot, size: float) -> float:
    """Targets sit above the middle; the lower part of a cell is room for pawns."""
    return centred(slot.y + 0.60 * slot.h, size)


def index_origin(slot: Slot) -> tuple[float, float]:
    """Left end of the baseline of the small field number in the top-left corner."""
    return slot.x + 2 * MM, slot.y + slot.h - 2 * MM - ascent(INDEX_PT)


# --- the board -----------------------------------------------------------------------------


def _arrow(x1: float, y1: float, x2: float, y2: float, head: bool = True,
           size: float = 2.6 * MM) -> list[Item]:  # fmt: skip
    """A short arrow from (x1, y1) to (x2, y2), axis-parallel, with a filled head."""
    items: list[Item] = []
    dx, dy = (x2 > x1) - (x2 < x1), (y2 > y1) - (y2 < y1)
    half = 0.58 * size
    tip_x, tip_y = x2, y2
    base_x, base_y = x2 - dx * size, y2 - dy * size
    if head:
        items.append(Line(x1, y1, base_x, base_y, stroke=ARROW, line_width=1.4))
        nx, ny = -dy * half, dx * half
        items.append(
            Polygon(
                ((tip_x, tip_y), (base_x + nx, base_y + ny), (base_x - nx, base_y - ny)),
                stroke=None,
                fill=ARROW,
            )
        )
    else:
        items.append(Line(x1, y1, x2, y2, stroke=ARROW, line_width=1.4))
    return items


def _connector(a: Slot, b: Slot, geo: BoardGeometry) -> dict[int, list[Item]]:
    """The arrow from cell a to cell b, per page (split at the join of a two-part board)."""
    pad = 0.9 * MM
    if a.page != b.page:  # part 1's last cell → part 2's first: shaft on 1, head on 2
        return {
            0: _arrow(a.x + a.w + pad, a.cy, geo.cut_x, a.cy, head=False),
            # the whole head right of the glue line, where part 1 does not cover it
            1: _arrow(geo.glue_x, b.cy, b.x - pad / 2, b.cy, size=GAP / 2 - pad / 2),
        }
    if a.row == b.row:
        if b.x > a.x:
            return {a.page: _arrow(a.x + a.w + pad, a.cy, b.x - pad, b.cy)}
        return {a.page: _arrow(a.x - pad, a.cy, b.x + b.w + pad, b.cy)}
    # up or down in a's column (a goal of two fields' width is wider than a)
    if b.y < a.y:
        return {a.page: _arrow(a.cx, a.y - pad, a.cx, b.y + b.h + pad)}
    return {a.page: _arrow(a.cx, a.y + a.h + pad, a.cx, b.y - pad)}


DOT_STEP = 2.9 * MM  # from one dot of the difficulty mark to the next
DOT_R = 1.1 * MM


def _dots(x_right: float, y: float, level: int) -> list[Item]:
    """Three dots ending at `x_right`, the first `level` filled: ●○○, ●●○, ●●●."""
    items: list[Item] = []
    for i in range(3):
        cx = x_right - (2 - i) * DOT_STEP
        if i < level:
            items.append(Circle(cx, y, DOT_R, stroke=None, fill=DARK_GREY))
        else:
            items.append(Circle(cx, y, 1.0 * MM, stroke="#8c8c8c", line_width=0.5))
    return items


def _cell(slot: Slot, cell: tuple[int, int | None, int], view: BoardView, size: float,
          last: int) -> list[Item]:  # fmt: skip
    index, target, level = cell
    goal = index == last
    fill = GOAL_FILL if goal else FILLS[0] if index == 0 else FILLS[level] if view.marks else PLAIN
    items: list[Item] = [
        Rect(slot.x, slot.y, slot.w, slot.h, fill=fill, line_width=2.0 if goal else 1.0,
             radius=2.2 * MM)
    ]  # fmt: skip
    top = slot.y + slot.h
    items.append(Text(*index_origin(slot), str(index), INDEX_PT, color=GREY))
    if target is None:  # the start
        word = view.words["start"]
        s = fit_size(word, 15, 0.84 * slot.w, bold=True)
        items.append(Text(slot.cx, centred(slot.y + 0.55 * slot.h, s), word, s, True, "center"))
        return items
    items.append(Text(slot.cx, target_baseline(slot, size), str(target), size, True, "center"))
    if view.marks and not goal:
        items += _dots(slot.x + slot.w - 2.4 * MM, top - 2.6 * MM, level)
    if goal:
        word = view.words["goal"]
        s = fit_size(word, 11, 0.84 * slot.w, bold=True)
        items.append(Text(slot.cx, slot.y + 2.4 * MM, word, s, True, "center"))
    return items


def _legend(view: BoardView, right: float, y: float) -> tuple[list[Item], float]:
    """The legend of the dots (●○○ easy ●●○ medium ●●● hard), right-aligned; items and width.

    Each level shows the three dots exactly as the fields do.
    """
    words = view.words
    size = 8.0
    dots_w = 2 * DOT_STEP + 2.2 * MM + 1 * MM  # three dots and the space before the word
    parts = [(0, words["legend"])] + [(lv, words[f"level_{lv}"]) for lv in (1, 2, 3)]
    widths = [(dots_w if lv else 0) + text_width(w, size) for lv, w in parts]
    total = sum(widths) + 3 * MM * (len(parts) - 1)
    items: list[Item] = []
    x = right - total
    for (lv, word), width in zip(parts, widths):
        if lv:
            items += _dots(x + 1.1 * MM + 2 * DOT_STEP, y + 1.0 * MM, lv)
        items.append(Text(x + width - text_width(word, size), y, word, size))
        x += width + 3 * MM
    return items, total


def _header(view: BoardView, geo: BoardGeometry, page: int) -> list[Item]:
    """Title (and part), then the one-line reminder of a turn and the legend of the dots."""
    words = view.words
    x0 = geo.left[page]
    right = x0 + geo.width
    top = geo.page_h - MARGIN
    items: list[Item] = []
    title_room = geo.width
    if geo.parts == 2:
        label = words[f"part_{page + 1}"]
        items.append(Text(right, top - 6 * MM, label, 11, True, "right"))
        title_room -= text_width(label, 11, True) + 6 * MM
    size = fit_size(words["title"], TITLE, title_room, bold=True)
    items.append(Text(x0, top - 6 * MM, words["title"], size, bold=True))
    legend_w = 0.0
    if view.marks:
        legend, legend_w = _legend(view, right, top - 12.5 * MM)
        items += legend
    room = geo.width - legend_w - (6 * MM if legend_w else 0)
    lines = wrap(words["reminder"], 8.5, room)
    if len(lines) > 2:
        lines = [words["reminder"]]  # shrink to one line rather than run into the board
    for i, line in enumerate(lines):
        s = fit_size(line, 8.5, room)
        items.append(Text(x0, top - 12.5 * MM - i * 3.6 * MM, line, s, color=DARK_GREY))
    return items


def _footer(view: BoardView, geo: BoardGeometry, page: int) -> list[Item]:
    x0 = geo.left[page]
    items: list[Item] = []
    y = MARGIN
    if geo.parts == 2:
        lines = wrap(view.words["glue_hint"], HINT_PT, geo.width, bold=True)
        if len(lines) > 2:  # a user's long hint: one line, shrunk, rather than into the board
            lines = [view.words["glue_hint"]]
        for i, line in enumerate(lines):
            size = fit_size(line, HINT_PT, geo.width, bold=True)
            dy = (len(lines) - i) * HINT_LINE
            items.append(Text(x0, y + dy, line, size, bold=True, color=DARK_GREY))
    return items + footer_line(x0, x0 + geo.width, view.words["footer"])


def _glue_marks(view: BoardView, geo: BoardGeometry) -> dict[int, list[Item]]:
    """Part 1: the dashed cut line with row ticks; part 2: the grey glue strip with the same."""
    top, bottom = geo.top + 2 * MM, geo.bottom - 1 * MM
    ticks = [geo.top - r * (geo.cell_h + GAP) - geo.cell_h / 2 for r in range(geo.rows)]
    cut = view.words["cut"]
    one: list[Item] = [Line(geo.cut_x, bottom, geo.cut_x, top, line_width=0.8, dash=(4, 3))]
    one += [Line(geo.cut_x - 1.5 * MM, y, geo.cut_x + 1.5 * MM, y, line_width=0.6) for y in ticks]
    # right of the cut (this strip is cut away), never within EDGE of the paper's edge
    room = geo.page_w - EDGE - geo.cut_x - 1.5 * MM
    for i, line in enumerate(wrap(cut, 7, room)):
        y = geo.top - 3 * MM - i * 3 * MM
        one.append(Text(geo.cut_x + 1.5 * MM, y, line, fit_size(line, 7, room), color=GREY))
    strip_x = EDGE
    two: list[Item] = [
        Rect(strip_x, bottom, geo.glue_x - strip_x, top - bottom, stroke=None, fill=GLUE_FILL),
        Line(geo.glue_x, bottom, geo.glue_x, top, line_width=0.8),
    ]
    two += [Line(geo.glue_x - 1.5 * MM, y, geo.glue_x + 1.5 * MM, y, line_width=0.6) for y in ticks]
    glue = view.words["glue"]
    size = fit_size(glue, 7, geo.glue_x - strip_x - 2 * MM)
    cx = (strip_x + geo.glue_x) / 2
    for i in range(geo.rows):  # between the ticks, so the word never meets an arrow
        y = ticks[i] - (geo.cell_h + GAP) / 2 + 1 * MM if i < geo.rows - 1 else ticks[i] - 6 * MM
        two.append(Text(cx, y, glue, size, align="center", color=MID_GREY))
    return {0: one, 1: two}


def board_pages(view: BoardView, geo: BoardGeometry) -> list[list[Item]]:
    """The items of the board page(s)."""
    size = target_size(view, geo)
    pages: list[list[Item]] = [[] for _ in range(geo.parts)]
    for page in range(geo.parts):
        pages[page] += _header(view, geo, page) + _footer(view, geo, page)
    if geo.parts == 2:
        for page, items in _glue_marks(view, geo).items():
            pages[page] += items
    slots = geo.slots
    for a, b in pairwise(slots):
        for page, items in _connector(a, b, geo).items():
            pages[page] += items
    last = len(view.cells) - 1
    for slot, cell in zip(slots, view.cells):
        pages[slot.page] += _cell(slot, cell, view, size, last)
    return pages


# --- rules page and answer key: stories ---------------------------------------------------

TEXT_MARGIN_X = 18 * MM
TEXT_MARGIN_Y = 15 * MM
COLUMN_GAP = 8 * MM
THEME = Theme(
    headings={
        1: TextStyle(TEXT_TITLE, bold=True, after=3 * MM, keep=TEXT_TITLE * 1.6 + 30 * MM),
        2: TextStyle(12, bold=True, before=1.5 * MM, after=1.2 * MM, keep=12 * 1.6 + 40 * MM),
        3: TextStyle(10, bold=True, before=1.5 * MM, after=1.2 * MM, keep=10 * 1.6 + 14 * MM),
    },
    paragraphs={"body": TextStyle(9.5), "small": TextStyle(8.5, color=DARK_GREY)},
    bullet=BulletStyle(TextStyle(9.5, after=1.4 * MM, indent=6 * MM, keep_lines=3)),
    table=TableStyle(8.5, row_h=4.4 * MM, after=2.5 * MM),
)


def text_frame(
    page_w: float, page_h: float, footer: str, page: PageLabel | None = None
) -> PageFrame:
    """The text area of rules and key pages, with the board's footer line on every page."""

    def line(k: int, n: int) -> list[Item]:
        label = page(k, n) if page else ""
        return footer_line(TEXT_MARGIN_X, page_w - TEXT_MARGIN_X, footer, label)

    return PageFrame(
        page_w, page_h, TEXT_MARGIN_X, page_w - TEXT_MARGIN_X, page_h - TEXT_MARGIN_Y,
        TEXT_MARGIN_Y, COLUMN_GAP, footer=line,
    )  # fmt: skip


@dataclass(frozen=True)
class SheetLayout:
    """The document and what each page is (board, rules, key) for the manifest and tests."""

    document: Document
    roles: tuple[str, ...]
    geometry: BoardGeometry
    target_pt: float


class KeyStory(Protocol):
    """The answer key's story with its field table in `field_columns` columns."""

    def __call__(self, field_columns: int) -> Sequence[Flowable]: ...


FIELD_COLUMN = 58 * MM  # the key's field table: a landscape page takes four such columns
CONTINUED = THEME.headings[2]  # the running heading of the key's pages after the first


def _continued_h(title: str, width: float) -> float:
    lines = wrap(title, CONTINUED.size, width, bold=True)
    return len(lines) * CONTINUED.size * CONTINUED.leading + CONTINUED.after


def key_pages(key: KeyStory, frame: PageFrame, wide: bool, continued: str = "") -> list[list[Item]]:
    """The key's pages; those after the first open with the running heading `continued`."""
    width = frame.right - frame.left
    field_columns = min(4, int((width + COLUMN_GAP) // (FIELD_COLUMN + COLUMN_GAP))) if wide else 2
    story = key(field_columns)
    if continued:
        frame = _with_running_head(frame, continued)
    # tighter table rows where that saves a page (never a page for one table more)
    layouts = [flow_story(story, frame, _key_theme(row_h)) for row_h in KEY_ROWS]
    return min(layouts, key=len)


KEY_ROWS = (THEME.table.row_h, 4.0 * MM, 3.7 * MM)


def _key_theme(row_h: float) -> Theme:
    return replace(THEME, table=replace(THEME.table, row_h=row_h))


def _with_running_head(frame: PageFrame, continued: str) -> PageFrame:
    """The frame whose pages after the first open with the running heading `continued`."""
    width = frame.right - frame.left
    footer = frame.footer

    def head_and_footer(k: int, n: int) -> list[Item]:
        items = footer(k, n) if footer else []
        if k == 1:
            return items
        y = frame.top
        for line in wrap(continued, CONTINUED.size, width, bold=True):
            y -= CONTINUED.size * CONTINUED.leading
            base = y + CONTINUED.baseline * CONTINUED.size
            items.append(Text(frame.left, base, line, CONTINUED.size, bold=True))
        return items

    return replace(frame, continued=_continued_h(continued, width), footer=head_and_footer)


def layout_sheet(
    view: BoardView,
    rules: Sequence[Flowable] | None,
    key: KeyStory | None,
    paper: str,
    landscape: bool,
    title: str,
    page: PageLabel | None = None,
    key_continued: str = "",
) -> SheetLayout:
    """Board page(s), then the rules page, then the answer key (each optional but the board);
    `page` labels the pages of the rules and of the key in their footers with their page
    of the whole PDF ("Seite 3/5"), and the key's pages after the first open with
    `key_continued`."""
    geo = board_geometry(len(view.cells), paper, landscape)
    pages = board_pages(view, geo)
    boards = len(pages)
    wide = geo.page_w > geo.page_h
    if rules and wide:  # two columns keep the lines short
        rules = [rules[0], Columns(2), *rules[1:]]

    def parts(total: int) -> tuple[list[list[Item]], list[list[Item]]]:
        """The rules' and the key's pages, numbered as pages of a PDF of `total` pages."""
        # same page size as the board: one paper setting prints the whole file
        frame = text_frame(geo.page_w, geo.page_h, view.words["footer"],
                           numbered(page, boards, total))  # fmt: skip
        rule_pages = flow_story(rules, frame, THEME) if rules else []
        frame = text_frame(geo.page_w, geo.page_h, view.words["footer"],
                           numbered(page, boards + len(rule_pages), total))  # fmt: skip
        return rule_pages, key_pages(key, frame, wide, key_continued) if key else []

    # the footers count the whole file: measured once, then numbered
    rule_pages, answer_pages = parts(0)
    rule_pages, answer_pages = parts(boards + len(rule_pages) + len(answer_pages))
    pages += rule_pages + answer_pages
    roles = ["board"] * boards + ["rules"] * len(rule_pages) + ["key"] * len(answer_pages)
    doc = Document(geo.page_w, geo.page_h, tuple(Page(tuple(p)) for p in pages), title=title)
    return SheetLayout(doc, tuple(roles), geo, target_size(view, geo))

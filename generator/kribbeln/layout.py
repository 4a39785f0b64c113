"""Geometry of a Kribbeln block: task sheets, the rules page and the answer key, in points.

A sheet is a table: a header row of player names (a pip field and a small
points field per player), ten rows — three colour areas of (task, task,
Kribbeln), then the fourth Kribbeln row — and a totals row, with the tiebreak
line, a short reminder of the rules and the colour legend below. Colour areas
differ by tint, by a pattern that survives black-and-white printing and by
their number; every task shows a swatch with the symbol of each colour it
names. `sheet_geometry` computes the sizes first (testable as numbers);
`sheet_items` only places what it says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.errors import DoesNotFit
from generator.kribbeln.pages import KeyView, RowView, SheetView
from generator.kribbeln.swatches import any_color_swatch, legend_row, swatch
from generator.render.flow import (
    BulletStyle,
    Column,
    Flowable,
    Group,
    Heading,
    PageFrame,
    PageLabel,
    Paragraph,
    Space,
    Table,
    TableStyle,
    TextStyle,
    Theme,
    flow_story,
    footer_line,
    wrap,
)
from generator.render.fonts import fit_size, text_width
from generator.render.primitives import (
    MM,
    Align,
    Circle,
    Document,
    Item,
    Line,
    Page,
    Rect,
    Text,
    page_size,
)
from generator.render.style import (
    DARK_GREY,
    GREY,
    INK,
    LEADING,
    TEXT_TITLE,
    TITLE,
    WHITE,
    centred,
)

MARGIN = 12 * MM
BAND_W = 9 * MM
TASK_MIN_W = 44 * MM
PLAYER_MIN_W = 16.5 * MM  # an 11 mm pip field (two handwritten digits) + a 5.5 mm points field
PLAYER_PREF_W = 21 * MM  # what a player column gets while the task column is narrow
PLAYER_MAX_W = 34 * MM
TASK_PREF_W = 100 * MM  # beyond this the task column gives its room to the players
PIP_SHARE = 0.64
TITLE_H = 13 * MM
NAME_H = 10 * MM
SUB_H = 4.5 * MM
TOTAL_H = 10 * MM
TASK_MIN_H = 12 * MM
TASK_MAX_H = 22 * MM
KRIBBELN_SHARE = 0.85  # a Kribbeln row is this much the height of a task row
SWATCH = 5.6 * MM
PAD = 1.8 * MM
THIN, THICK = 0.6, 1.5
POINTS_FILL = "#eeeeee"


@dataclass(frozen=True)
class AreaStyle:
    """How a colour area looks: a tint, an ink for its pattern and number, and the pattern."""

    tint: str
    ink: str
    pattern: str  # "horizontal" | "diagonal" | "dots" | "none"


AREA_STYLES = {
    1: AreaStyle("#d6e7f5", "#2f6ea5", "horizontal"),
    2: AreaStyle("#dcefd5", "#3a7d35", "diagonal"),
    3: AreaStyle("#ebdff3", "#7446a0", "dots"),
    4: AreaStyle("#e4e4e4", "#3a3a3a", "none"),
}


@dataclass(frozen=True)
class SheetGeometry:
    """Sizes and positions of one sheet, in points (origin bottom-left)."""

    page_w: float
    page_h: float
    players: int
    task_w: float
    player_w: float
    pip_w: float
    points_w: float
    task_h: float
    kribbeln_h: float
    bottom_h: float

    @property
    def left(self) -> float:
        return MARGIN

    @property
    def table_w(self) -> float:
        return BAND_W + self.task_w + self.players * self.player_w

    @property
    def players_x(self) -> float:
        return MARGIN + BAND_W + self.task_w

    @property
    def header_top(self) -> float:
        return self.page_h - MARGIN - TITLE_H

    @property
    def rows_top(self) -> float:
        return self.header_top - NAME_H - SUB_H

    def row_h(self, kind: str) -> float:
        return self.task_h if kind == "task" else self.kribbeln_h

    def row_tops(self, kinds: Sequence[str]) -> list[float]:
        """The top edge of every row."""
        tops, y = [], self.rows_top
        for kind in kinds:
            tops.append(y)
            y -= self.row_h(kind)
        return tops

    @property
    def rows_h(self) -> float:
        return 6 * self.task_h + 4 * self.kribbeln_h

    @property
    def total_top(self) -> float:
        return self.rows_top - self.rows_h

    @property
    def table_bottom(self) -> float:
        return self.total_top - TOTAL_H


def _bottom_lines(view: SheetView, width: float) -> list[str]:
    return wrap(view.words["reminder"], 7, width)


def bottom_height(view: SheetView, width: float) -> float:
    """Tiebreak line, reminder, legend and footer below the table."""
    return 8 * MM + len(_bottom_lines(view, width)) * 7 * LEADING + 8 * MM + 4 * MM


def sheet_geometry(view: SheetView, paper: str, landscape: bool) -> SheetGeometry:
    """Column widths and row heights; DoesNotFit when the players or rows cannot fit."""
    page_w, page_h = page_size(paper, landscape)
    usable_w = page_w - 2 * MARGIN
    players = len(view.names)
    room_w = usable_w - BAND_W
    if (room_w - TASK_MIN_W) / players < PLAYER_MIN_W - 1e-6:
        raise DoesNotFit(
            "players",
            f"{players} player columns do not fit across the page "
            f"(at most {int((room_w - TASK_MIN_W) // PLAYER_MIN_W)})",
            (BAND_W + TASK_MIN_W + players * PLAYER_MIN_W) / MM,
            usable_w / MM,
            ("landscape",),
        )
    task_w = min(max(room_w - players * PLAYER_PREF_W, TASK_MIN_W), TASK_PREF_W)
    player_w = min(PLAYER_MAX_W, (room_w - task_w) / players)
    task_w = room_w - players * player_w
    pip_w = player_w * PIP_SHARE
    bottom = bottom_height(view, usable_w)
    room = page_h - 2 * MARGIN - TITLE_H - NAME_H - SUB_H - TOTAL_H - bottom
    task_h = min(TASK_MAX_H, room / (6 + 4 * KRIBBELN_SHARE))
    if task_h < TASK_MIN_H - 1e-6:
        needed = page_h - room + TASK_MIN_H * (6 + 4 * KRIBBELN_SHARE)
        message = "the ten rows do not fit the page height; use portrait"
        raise DoesNotFit("landscape", message, needed / MM, page_h / MM)
    return SheetGeometry(
        page_w, page_h, players, task_w, player_w, pip_w, player_w - pip_w, task_h,
        task_h * KRIBBELN_SHARE, bottom,
    )  # fmt: skip


# --- symbols and patterns ---------------------------------------------------------------


def _clip(x1: float, y1: float, x2: float, y2: float, box: tuple) -> tuple | None:
    """Liang–Barsky: the part of a segment inside box (x, y, w, h), or None."""
    bx, by, bw, bh = box
    dx, dy = x2 - x1, y2 - y1
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x1 - bx), (dx, bx + bw - x1), (-dy, y1 - by), (dy, by + bh - y1)):
        if abs(p) < 1e-12:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    if t0 >= t1:
        return None
    return (x1 + t0 * dx, y1 + t0 * dy, x1 + t1 * dx, y1 + t1 * dy)


def pattern(x: float, y: float, w: float, h: float, kind: str, ink: str) -> list[Item]:
    """A fill pattern inside a rectangle: horizontal or diagonal lines, or dots."""
    items: list[Item] = []
    step = 2.2 * MM
    if kind == "horizontal":
        yy = y + step / 2
        while yy < y + h:
            items.append(Line(x, yy, x + w, yy, stroke=ink, line_width=0.7))
            yy += step
    elif kind == "diagonal":
        c = -w
        while c < h:
            seg = _clip(x, y + c, x + w + h, y + c + w + h, (x, y, w, h))
            if seg:
                items.append(Line(seg[0], seg[1], seg[2], seg[3], stroke=ink, line_width=0.7))
            c += step * 1.2
    elif kind == "dots":
        row = 0
        yy = y + step / 2
        while yy < y + h:
            xx = x + step / 2 + (step / 2 if row % 2 else 0)
            while xx < x + w - 0.4:
                items.append(Circle(xx, yy, 0.45 * MM, stroke=None, fill=ink))
                xx += step
            yy += step * 0.9
            row += 1
    return items


# --- the sheet --------------------------------------------------------------------------


def _band(geo: SheetGeometry, area: int, top: float, bottom: float, label: str) -> list[Item]:
    style = AREA_STYLES[area]
    x, w, h = geo.left, BAND_W, top - bottom
    items: list[Item] = [Rect(x, bottom, w, h, stroke=None, fill=style.tint)]
    items += pattern(x, bottom, w, h, style.pattern, style.ink)
    cy = (top + bottom) / 2
    r = 3.1 * MM
    items.append(Circle(x + w / 2, cy, r, stroke=style.ink, fill=WHITE, line_width=1.0))
    items.append(Text(x + w / 2, centred(cy, 11), label, 11, True, "center", style.ink))
    items.append(Rect(x, bottom, w, h, stroke=INK, line_width=THIN))
    return items


HINT_SIZE = 6.5
TASK_LEADING = 1.18  # task texts are set tight to fit their cells
STACK_BELOW = 40 * MM  # text narrower than this beside the swatches: swatches go on top


@dataclass(frozen=True)
class TextBox:
    """Where a task's text goes inside its cell, relative to the cell's left and top edges."""

    dx: float
    drop: float  # from the cell's top edge to the top of the first line
    width: float


def text_box(row: RowView, cell_w: float) -> TextBox:
    """Beside the swatches, or below them when that leaves the text too narrow."""
    n = 1 if row.any_color else len(row.swatches)
    beside = PAD + n * SWATCH + (n - 1) * 1.0 * MM + 1.8 * MM
    if cell_w - PAD - beside >= STACK_BELOW or n == 0:
        return TextBox(beside, PAD, cell_w - PAD - beside)
    return TextBox(PAD, PAD + SWATCH + 1.2 * MM, cell_w - 2 * PAD)


def _fits(row: RowView, size: float, box: TextBox, h: float, hint: bool = True) -> bool:
    """Whether the task text fits its cell at this size (above the hint line, if any)."""
    lines = wrap(row.text, size, box.width, bold=True)
    text_bottom = box.drop + 0.8 * size + (len(lines) - 1) * size * TASK_LEADING + 0.3 * size
    limit = h - PAD - 0.2 * HINT_SIZE - 0.8 * HINT_SIZE - 1.0 if hint else h - PAD
    return text_bottom <= limit and all(text_width(line, size, True) <= box.width for line in lines)


def task_text_size(view: SheetView, geo: SheetGeometry, largest: float = 10.5) -> float:
    """One text size for every task of a sheet: the largest at which all of them fit.

    Down to 7 pt every task keeps its family line; below that (narrow columns,
    many players) a task whose text needs the room drops it, down to 5.5 pt.
    """
    rows = [r for r in view.rows if r.kind == "task"]
    size = largest

    def fit(hint: bool) -> bool:
        return all(_fits(r, size, text_box(r, geo.task_w), geo.task_h, hint) for r in rows)

    while size > 7.0 and not fit(True):
        size -= 0.25
    while size > 5.5 and not fit(True) and not fit(False):
        size -= 0.25
    return size


def _task_cell(view: SheetView, row: RowView, x: float, top: float, w: float, h: float,
               size: float) -> list[Item]:  # fmt: skip
    items: list[Item] = []
    sw_y = top - PAD - SWATCH
    if row.any_color:
        items += any_color_swatch(x + PAD, sw_y, SWATCH, view.legend)
    else:
        for k, sw in enumerate(row.swatches):
            items += swatch(x + PAD + k * (SWATCH + 1.0 * MM), sw_y, SWATCH, sw)
    box = text_box(row, w)
    hints = row.hints if _fits(row, size, box, h, hint=True) else ()
    y = top - box.drop - 0.8 * size
    for line in wrap(row.text, size, box.width, bold=True):
        items.append(Text(x + box.dx, y, line, size, bold=True))
        y -= size * TASK_LEADING
    for hint in hints:
        items.append(Text(x + box.dx, top - h + PAD + 0.2 * HINT_SIZE, hint, HINT_SIZE,
                          color=GREY))  # fmt: skip
    return items


def _kribbeln_cell(row: RowView, x: float, top: float, w: float, h: float) -> list[Item]:
    items: list[Item] = []
    size = 10.5
    items.append(Text(x + PAD, top - PAD - 0.8 * size, row.text, size, bold=True))
    label_w = text_width(row.text, size, True) + 4 * MM
    if w - 2 * PAD - label_w >= 75 * MM:  # a wide column: the hints go beside the label
        x, w = x + label_w, w - label_w
        room = h - 2 * PAD
        first = top - PAD
    else:
        room = h - 2 * PAD - size - 0.8 * MM
        first = top - PAD - size - 0.8 * MM
    hint_size = 6.6
    while True:  # the hints wrap; shrink them until they fit the row
        lines = [line for hint in row.hints for line in wrap(hint, hint_size, w - 2 * PAD)]
        if len(lines) * hint_size * 1.22 <= room or hint_size <= 5.6:
            break
        hint_size -= 0.2
    fit = max(0, int(room // (hint_size * 1.22)))
    if len(lines) > fit:  # a narrow column: keep the hints that fit whole
        lines = []
        for hint in row.hints:
            more = wrap(hint, hint_size, w - 2 * PAD)
            if len(lines) + len(more) > fit:
                break
            lines += more
    y = first - 0.85 * hint_size
    for line in lines:
        items.append(Text(x + PAD, y, line, hint_size, color=DARK_GREY))
        y -= hint_size * 1.22
    return items


def sheet_items(view: SheetView, geo: SheetGeometry, text_size: float | None = None) -> list[Item]:
    """Every box, line and word of one sheet (task text at `text_size`, default: what fits)."""
    task_size = text_size or task_text_size(view, geo)
    items: list[Item] = []
    words = view.words
    x0, top = geo.left, geo.page_h - MARGIN
    right = x0 + geo.table_w
    # title
    items.append(Text(x0, top - 8 * MM, words["title"], TITLE, bold=True))
    items.append(Text(right, top - 8 * MM, words["sheet_label"], 12, True, "right"))
    # header: names, then the pips/points labels
    y = geo.header_top
    head_h = NAME_H + SUB_H
    items.append(Rect(x0, y - head_h, BAND_W + geo.task_w, head_h, stroke=None, fill="#f4f4f4"))
    label_y = centred(y - head_h / 2, 9)
    items.append(Text(x0 + BAND_W + PAD, label_y, words["players"], 9, bold=True))
    for p, name in enumerate(view.names):
        px = geo.players_x + p * geo.player_w
        items.append(Rect(px, y - NAME_H, geo.player_w, NAME_H, line_width=THICK))
        if name:
            size = fit_size(name, 10.5, geo.player_w - 2 * 1.2 * MM, bold=True, minimum=6)
            items.append(
                Text(px + geo.player_w / 2, centred(y - NAME_H / 2, size), name, size, True,
                     "center")
            )  # fmt: skip
        sub = y - NAME_H
        items.append(Rect(px, sub - SUB_H, geo.pip_w, SUB_H, fill="#f4f4f4", line_width=THIN))
        items.append(
            Rect(px + geo.pip_w, sub - SUB_H, geo.points_w, SUB_H, fill=POINTS_FILL,
                 line_width=THIN)
        )  # fmt: skip
        for label, cx, w in (
            (words["pips"], px + geo.pip_w / 2, geo.pip_w),
            (words["points"], px + geo.pip_w + geo.points_w / 2, geo.points_w),
        ):
            s = fit_size(label, 6.5, w - 1.0 * MM, minimum=4.5)
            items.append(Text(cx, centred(sub - SUB_H / 2, s), label, s, align="center"))
    # the ten rows
    tops = geo.row_tops([r.kind for r in view.rows])
    task_x = x0 + BAND_W
    for row, row_top in zip(view.rows, tops):
        h = geo.row_h(row.kind)
        style = AREA_STYLES[row.area]
        kribbeln = row.kind == "kribbeln"
        fill = style.tint if kribbeln else None
        items.append(Rect(task_x, row_top - h, geo.task_w, h, fill=fill, line_width=THIN))
        if kribbeln:
            items += _kribbeln_cell(row, task_x, row_top, geo.task_w, h)
        else:
            items += _task_cell(view, row, task_x, row_top, geo.task_w, h, task_size)
        for p in range(geo.players):
            px = geo.players_x + p * geo.player_w
            items.append(Rect(px, row_top - h, geo.pip_w, h, fill=fill, line_width=THIN))
            items.append(
                Rect(px + geo.pip_w, row_top - h, geo.points_w, h, fill=POINTS_FILL,
                     line_width=THIN)
            )  # fmt: skip
    # area bands and the heavy lines between areas
    first: dict[int, float] = {}
    for row, row_top in zip(view.rows, tops):
        first.setdefault(row.area, row_top)
    for area, area_top in first.items():
        last = max(i for i, r in enumerate(view.rows) if r.area == area)
        bottom = tops[last] - geo.row_h(view.rows[last].kind)
        label = str(area)
        items += _band(geo, area, area_top, bottom, label)
        items.append(Line(x0, bottom, right, bottom, line_width=THICK))
    for p in range(geo.players + 1):
        px = geo.players_x + p * geo.player_w
        items.append(Line(px, geo.header_top, px, geo.table_bottom, line_width=THICK))
    # totals
    t_top = geo.total_top
    items.append(Rect(x0, t_top - TOTAL_H, BAND_W + geo.task_w, TOTAL_H, fill="#f4f4f4",
                      line_width=THIN))  # fmt: skip
    items.append(
        Text(task_x + geo.task_w - PAD, centred(t_top - TOTAL_H / 2, 10), words["total"], 10,
             True, "right")
    )  # fmt: skip
    for p in range(geo.players):
        px = geo.players_x + p * geo.player_w
        items.append(Rect(px, t_top - TOTAL_H, geo.player_w, TOTAL_H, line_width=THICK))
    items.append(Rect(x0, geo.table_bottom, geo.table_w, geo.header_top - geo.table_bottom,
                      stroke=INK, line_width=THICK))  # fmt: skip
    # below the table: tiebreak line, reminder, legend, footer
    y = geo.table_bottom - 6 * MM
    items.append(Text(x0, y, words["tiebreak"], 10, bold=True))
    y -= 4.5 * MM
    for line in _bottom_lines(view, geo.table_w):
        items.append(Text(x0, y, line, 7, color=DARK_GREY))
        y -= 7 * LEADING
    y -= 5.5 * MM
    items += legend_row(words["legend"], view.legend, x0, y, 8)
    return items + footer_line(x0, right, words["footer"])


# --- rules page and answer key ----------------------------------------------------------

KEY_ROW = 5.4 * MM
KEY_WIDTHS = (8, 12, 100, 25, 14, 12, 12)
KEY_ALIGN: tuple[Align, ...] = ("right", "center", "left", "left", "right", "right", "left")
KEY_THEME = Theme(
    headings={
        1: TextStyle(TEXT_TITLE, bold=True, after=3 * MM, keep_lines=None),
        2: TextStyle(10.5, bold=True, after=0.8 * MM, keep_lines=None),
    },
    paragraphs={
        "note": TextStyle(8.5, after=1.6 * MM, keep_lines=None),
        "summary": TextStyle(7.5, color=DARK_GREY, after=1.2 * MM, keep_lines=None),
    },
    table=TableStyle(7.5, KEY_ROW, after=4 * MM),
)


def rules_theme(size: float) -> Theme:
    """Rules text at `size`: every paragraph and bullet moves on whole, headings stay with it."""
    return Theme(
        headings={
            1: TextStyle(TEXT_TITLE, bold=True, after=3 * MM, keep_lines=None),
            2: TextStyle(size + 1.5, bold=True, before=1.2 * MM, after=1.2 * MM, keep=14 * MM),
        },
        paragraphs={"body": TextStyle(size, after=2 * MM, keep_lines=None)},
        bullet=BulletStyle(
            TextStyle(size, after=1.2 * MM, indent=4 * MM, keep_lines=None),
            label_dx=1 * MM, label_bold=False,
        ),
    )  # fmt: skip


def text_frame(
    page_w: float, page_h: float, footer: str = "", page: PageLabel | None = None
) -> PageFrame:
    """The text area of the rules and key pages, with the footer on every page."""

    def line(k: int, n: int) -> list[Item]:
        return footer_line(MARGIN, page_w - MARGIN, footer, page(k, n) if page else "")

    return PageFrame(page_w, page_h, MARGIN, page_w - MARGIN, page_h - MARGIN, MARGIN, footer=line)


def rules_pages(
    story: Sequence[Flowable], page_w: float, page_h: float, footer: str = "",
    page: PageLabel | None = None,
) -> list[list[Item]]:  # fmt: skip
    """The rules page: 9.5 pt text, smaller (down to 8 pt) if that keeps it on one page."""
    for size in (9.5, 9.0, 8.5, 8.0):
        pages = flow_story(story, text_frame(page_w, page_h, footer, page), rules_theme(size))
        if len(pages) == 1:
            return pages
    return pages


def key_pages(
    key: KeyView, page_w: float, page_h: float, page: PageLabel | None = None
) -> list[list[Item]]:
    """The answer key: title, notes, then one table per sheet, kept with its heading."""
    columns = tuple(Column(t, w, a) for t, w, a in zip(key.columns, KEY_WIDTHS, KEY_ALIGN))
    story: list[Flowable] = [Heading(key.title, 1)]
    story += [Paragraph(note, "note") for note in key.intro]
    story.append(Space(2 * MM))
    for section in key.sections:
        story.append(
            Group((Heading(section.heading), Paragraph(section.summary, "summary"),
                   Table(columns, section.rows)))
        )  # fmt: skip
    return flow_story(story, text_frame(page_w, page_h, key.footer, page), KEY_THEME)


@dataclass(frozen=True)
class BlockLayout:
    """The document and how many pages each part took."""

    document: Document
    sheet_pages: int
    rules_pages: int
    key_pages: int


def layout_block(
    sheets: Sequence[SheetView],
    rules: Sequence[Flowable] | None,
    key: KeyView | None,
    paper: str,
    landscape: bool,
    title: str,
    rules_footer: str = "",
    page: PageLabel | None = None,
) -> BlockLayout:
    """The block: every sheet (one per page), then the rules page(s), then the answer key;
    `page` labels the pages of the rules and of the key in their footers ("Seite 2/3")."""
    page_w, page_h = page_size(paper, landscape)
    geos = [sheet_geometry(v, paper, landscape) for v in sheets]
    # one task text size for the whole pad, so the sheets look alike
    size = min((task_text_size(v, g) for v, g in zip(sheets, geos)), default=10.5)
    sheet_pages = [sheet_items(v, g, size) for v, g in zip(sheets, geos)]
    rule_pages = rules_pages(rules, page_w, page_h, rules_footer, page) if rules is not None else []
    answer_pages = key_pages(key, page_w, page_h, page) if key is not None else []
    pages = tuple(Page(tuple(p)) for p in sheet_pages + rule_pages + answer_pages)
    return BlockLayout(
        Document(page_w, page_h, pages, title=title),
        len(sheet_pages),
        len(rule_pages),
        len(answer_pages),
    )

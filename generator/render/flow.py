"""The one story engine for text pages: rules pages, answer keys and reports of every game.

A story is a sequence of flowables (headings, paragraphs, bullets, tables that
continue across columns and pages with their header repeated, figures,
columns, keep-together groups); `flow_story` pours it into the columns of as
many pages as it needs and adds each page's footer ("page k of N"). A `Theme`
says how each kind of flowable looks, so a game's view decides what is said
and its layout how it looks. The helpers (`paragraph`, `table`; lines come from
`generator.render.fit`) return layout items (`primitives`) and never draw.

Rules every story keeps: a heading never ends a column (it moves on with the
first line(s) of what follows); a group moves on whole when it fits a fresh
column; a table that moves on repeats its header; space above a heading is
dropped at the top of a column.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from generator.render.fit import clipped, wrap
from generator.render.fonts import fit_size, text_width
from generator.render.primitives import MM, Align, Item, Line, Rect, Text
from generator.render.style import (
    BASELINE_RAISE,
    FOOTER_BASELINE,
    FOOTER_INK,
    FOOTER_MIN,
    FOOTER_SIZE,
    HEADER_FILL,
    INK,
    LEADING,
    RULE_GREY,
    ZEBRA_FILL,
    centred,
)

PageLabel = Callable[[int, int], str]
"""(page k, pages N) → the page label of a footer, e.g. "Seite 2/3" (`text.page_label`)."""


def numbered(page: PageLabel | None, before: int, total: int) -> PageLabel | None:
    """A part's page label counted in the whole PDF: its k-th page is page `before + k` of
    `total` (a rules page after two sheets says "Seite 3/5", as the printer's dialog does)."""
    if page is None:
        return None
    return lambda k, n: page(before + k, total)


def footer_line(
    left: float, right: float, what: str, page: str = "", size: float = FOOTER_SIZE
) -> list[Item]:
    """The house footer of every product: what the page is (product · sheet · the number that
    makes it again · dicesheets) from `left`, its page label ("Seite 2/3") ending at `right`,
    on one baseline `FOOTER_BASELINE` above the paper's foot; `what` shrinks to leave room
    (down to `FOOTER_MIN`, then it is shortened with "…")."""
    items: list[Item] = []
    room = right - left - (text_width(page, size) + 4 * MM if page else 0)
    if what:
        fitted = fit_size(what, size, room, minimum=min(size, FOOTER_MIN))
        if len(what) > 1 and text_width(what, fitted) > room:
            what = clipped(what, fitted, room)
        items.append(Text(left, FOOTER_BASELINE, what, fitted, color=FOOTER_INK))
    if page:
        items.append(Text(right, FOOTER_BASELINE, page, size, align="right", color=FOOTER_INK))
    return items


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
    cursor: Cursor, text: str, size: float = 10, bold: bool = False, leading: float = LEADING,
    space_after: float = 2.5 * MM, color: str = INK, indent: float = 0.0,
    baseline: float = BASELINE_RAISE,
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
            Text(cursor.left + indent, cursor.top + baseline * size, line, size, bold, color=color)
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
    header_fill: str = HEADER_FILL,
    zebra: str | None = ZEBRA_FILL,
    natural: Sequence[Sequence[str]] = (),
) -> tuple[list[Item], int]:
    """Lay out a header and as many rows as fit; return the items and the rows placed.

    With `natural` (every row of the table, also those on other columns), the columns are
    as wide as their header and widest value need, the room left shared by the weights.
    """
    items: list[Item] = []
    pad = 1.2 * MM
    total = sum(c.width for c in columns)
    widths = [cursor.width * c.width / total for c in columns]
    if natural:
        need = [
            2 * pad
            + max(text_width(c.title, size, True), *(text_width(r[k], size) for r in natural))
            for k, c in enumerate(columns)
        ]
        spare = cursor.width - sum(need)
        widths = [n + max(0.0, spare) * c.width / total for n, c in zip(need, columns)]
        if spare < 0:  # too narrow even so: every column gives up the same share
            widths = [w * cursor.width / sum(need) for w in widths]

    def cells(values: Sequence[str], bold: bool, fill: str | None) -> None:
        x = cursor.left
        y = cursor.top - row_h
        if fill:
            items.append(Rect(cursor.left, y, cursor.width, row_h, stroke=None, fill=fill))
        for col, w, value in zip(columns, widths, values):
            s = fit_size(value, size, w - 2 * pad, bold)
            tx = {"left": x + pad, "center": x + w / 2, "right": x + w - pad}[col.align]
            items.append(Text(tx, centred(y + row_h / 2, s), value, s, bold, col.align))
            x += w
        items.append(Line(cursor.left, y, cursor.right, y, stroke=RULE_GREY, line_width=0.4))
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


# --- the story: what flows -------------------------------------------------------------


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 2  # a key into the theme's heading styles (1: the page title)


@dataclass(frozen=True)
class Paragraph:
    text: str
    role: str = "body"  # a key into the theme's paragraph styles


@dataclass(frozen=True)
class Bullet:
    label: str  # "1.", "•" or "" (a continuation of the item above)
    text: str


@dataclass(frozen=True)
class Table:
    """Rows under a header; rows that do not fit move on, and the header comes with them."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    balance: bool = False  # in columns: rows spread evenly when they all fit this page
    natural: bool = False  # columns as wide as their words need (see `table`)
    measure: tuple[tuple[str, ...], ...] = ()  # natural: the rows that size them (default its
    # own; the tables of one key share their columns)


@dataclass(frozen=True)
class Figure:
    """Drawn items: `draw(box, theme)` fills a box of `height` (None: the rest of the column).

    The theme lets a figure that carries words set them at the story's sizes.
    """

    height: float | None
    draw: Callable[[Cursor, Theme], list[Item]]


@dataclass(frozen=True)
class Space:
    height: float


@dataclass(frozen=True)
class Columns:
    """From here on, below everything placed so far, flow in this many columns."""

    count: int = 1
    widths: tuple[float, ...] = ()  # widths in points, left to right (default: equal)


@dataclass(frozen=True)
class ColumnBreak:
    """Continue at the top of the next column."""


@dataclass(frozen=True)
class PageBreak:
    """Continue on a new page (unless nothing is on this one yet)."""


@dataclass(frozen=True)
class Group:
    """Flowables kept together in one column when they fit a fresh one."""

    flowables: tuple[Flowable, ...]
    fresh_if_long: bool = False  # taller than a column: still start at the top of one


@dataclass(frozen=True)
class Balanced:
    """Groups spread over two columns so that the columns end at about the same height."""

    groups: tuple[Group, ...]


Flowable = (
    Heading | Paragraph | Bullet | Table | Figure | Space | Columns | ColumnBreak | PageBreak
    | Group | Balanced
)  # fmt: skip


# --- how it looks ------------------------------------------------------------------------


@dataclass(frozen=True)
class TextStyle:
    size: float
    bold: bool = False
    color: str = INK
    leading: float = LEADING
    before: float = 0.0  # space above (headings), dropped at the top of a column
    after: float = 2 * MM
    indent: float = 0.0
    keep_lines: int | None = 1  # lines that move on together; None: all, with the space after
    keep: float = 0.0  # headings: room wanted below their top, beyond their own lines
    baseline: float = BASELINE_RAISE


@dataclass(frozen=True)
class BulletStyle:
    text: TextStyle  # its indent is where the text starts
    label_dx: float = 0.0  # where the label starts, from the column's left edge
    label_bold: bool = True


@dataclass(frozen=True)
class TableStyle:
    size: float = 9
    row_h: float = 6 * MM
    after: float = 2.5 * MM


@dataclass(frozen=True)
class Theme:
    headings: Mapping[int, TextStyle]
    paragraphs: Mapping[str, TextStyle]
    bullet: BulletStyle | None = None
    table: TableStyle = TableStyle()


@dataclass(frozen=True)
class PageFrame:
    """A page's size, its text area, and the footer drawn on every page."""

    width: float
    height: float
    left: float
    right: float
    top: float
    bottom: float
    column_gap: float = 0.0
    footer: Callable[[int, int], list[Item]] | None = None  # (page k, pages N) → items
    spill: bool = True  # False: what does not fit its column raises Overflow
    continued: float = 0.0  # room kept at the top of every page after the first (its footer
    # callback draws a running heading there: "… (continued)")


class Overflow(ValueError):
    """A story that must stay within one page (or a flowable within an empty page) does not.

    The layout that poured the story turns it into `errors.DoesNotFit` for its product.
    """

    def __init__(self, needed: float, room: float) -> None:
        super().__init__(f"needs {needed / MM:.0f} mm, the column has {room / MM:.0f} mm")
        self.needed = needed
        self.room = room


def flow_story(flowables: Sequence[Flowable], frame: PageFrame, theme: Theme) -> list[list[Item]]:
    """The items of every page the story takes, footers included."""
    flow = _Flow(frame, theme)
    flow.story(flowables)
    pages = flow.pages
    if frame.footer is not None:
        for k, items in enumerate(pages, start=1):
            footer = frame.footer(k, len(pages))
            items.extend(footer)
    return pages


def measure(flowables: Sequence[Flowable], width: float, theme: Theme) -> float:
    """The height `flowables` take in one column of `width`, mid-column (space above counts)."""
    probe = _Flow(PageFrame(width, 1e6, 0.0, width, 1e6, 0.0), theme)
    probe.cursor.top -= 1 * MM  # not at the top: headings take their space above too
    start = probe.cursor.top
    probe.story(flowables)
    return start - probe.cursor.top


class _Flow:
    """Pages of flowables in one or more columns; a column that is full moves on."""

    def __init__(self, frame: PageFrame, theme: Theme) -> None:
        self.frame, self.theme = frame, theme
        self.pages: list[list[Item]] = []
        self.count = 1
        self.widths: tuple[float, ...] = ()
        self.grouped = False  # inside a group that was already moved to where it fits
        self._new_page()

    # --- where we are

    def _new_page(self) -> None:
        self.pages.append([])
        self.blank = True
        self.section_top = self.page_top()
        self.low = self.section_top
        self.column = 0
        self.cursor = self._column(0)

    def _column(self, column: int) -> Cursor:
        f = self.frame
        if self.widths:
            left = f.left + sum(self.widths[:column]) + column * f.column_gap
            width = self.widths[column]
        else:
            width = (f.right - f.left - (self.count - 1) * f.column_gap) / self.count
            left = f.left + column * (width + f.column_gap)
        return Cursor(left, left + width, self.section_top, f.bottom)

    def next_column(self) -> None:
        self.low = min(self.low, self.cursor.top)
        if self.column + 1 < self.count:
            self.column += 1
            self.cursor = self._column(self.column)
        else:
            self._new_page()

    def overflow(self, needed: float) -> None:
        """What follows does not fit here: the next column, or Overflow if nothing may spill."""
        if not self.frame.spill:
            raise Overflow(needed, self.cursor.room())
        self.next_column()

    def page_top(self) -> float:
        """Where this page's text starts: below the running heading after the first page."""
        return self.frame.top - (self.frame.continued if len(self.pages) > 1 else 0.0)

    def fresh(self) -> bool:
        """True at the top of a full-height column: moving on would not give more room."""
        return self.cursor.top >= self.page_top() - 1

    def at_column_top(self) -> bool:
        return self.cursor.top >= self.section_top - 1

    def full_room(self) -> float:
        return self.page_top() - self.frame.bottom

    def need(self, height: float) -> None:
        """Move on unless `height` fits in the current column."""
        if self.cursor.room() < height and not self.fresh():
            self.overflow(height)

    def add(self, items: Sequence[Item]) -> None:
        if items:
            self.blank = False
        self.pages[-1].extend(items)

    # --- the flowables

    def story(self, flowables: Sequence[Flowable]) -> None:
        for i, flowable in enumerate(flowables):
            self.flowable(flowable, functools.partial(self._lead, flowables, i + 1))

    def flowable(self, flowable: Flowable, lead: Callable[[], float]) -> None:
        if isinstance(flowable, Heading):
            self._heading(flowable, lead())
        elif isinstance(flowable, Paragraph):
            self._text(flowable.text, self.theme.paragraphs[flowable.role])
        elif isinstance(flowable, Bullet):
            self._bullet(flowable)
        elif isinstance(flowable, Table):
            self._table(flowable)
        elif isinstance(flowable, Figure):
            self._figure(flowable)
        elif isinstance(flowable, Space):
            self.cursor.top -= flowable.height
        elif isinstance(flowable, Columns):
            self._columns(flowable)
        elif isinstance(flowable, ColumnBreak):
            self.next_column()
        elif isinstance(flowable, PageBreak):
            if not self.blank:
                self._new_page()
        elif isinstance(flowable, Group):
            self._group(flowable)
        elif isinstance(flowable, Balanced):
            self._balanced(flowable)
        else:
            raise TypeError(f"not a flowable: {flowable!r}")

    def _height(self, text: str, style: TextStyle) -> float:
        lines = wrap(text, style.size, self.cursor.width - style.indent, style.bold)
        return len(lines) * style.size * style.leading

    def _lead(self, flowables: Sequence[Flowable], i: int) -> float:
        """The height that must stay with a heading above flowable i: its first line(s)."""
        if i >= len(flowables):
            return 0.0
        flowable = flowables[i]
        if isinstance(flowable, Heading):
            style = self.theme.headings[flowable.level]
            own = style.before + self._height(flowable.text, style) + style.after
            return own + self._lead(flowables, i + 1)
        if isinstance(flowable, Paragraph):
            return self._kept(flowable.text, self.theme.paragraphs[flowable.role])
        if isinstance(flowable, Bullet) and self.theme.bullet is not None:
            return self._kept(flowable.text, self.theme.bullet.text)
        if isinstance(flowable, Table):
            return 2 * self.theme.table.row_h  # the header and one row
        if isinstance(flowable, Figure):
            return flowable.height or 0.0
        if isinstance(flowable, Space):
            return flowable.height + self._lead(flowables, i + 1)
        if isinstance(flowable, Group):
            return self._lead(flowable.flowables, 0)
        if isinstance(flowable, Balanced) and flowable.groups:
            return self._lead(flowable.groups[0].flowables, 0)
        return 0.0

    def _kept(self, text: str, style: TextStyle) -> float:
        """The height of the lines of `text` that move on together (keep_lines None: all)."""
        if style.keep_lines is None:
            return self._height(text, style) + style.after
        lines = wrap(text, style.size, self.cursor.width - style.indent, style.bold)
        return min(style.keep_lines, len(lines)) * style.size * style.leading

    def _heading(self, heading: Heading, lead: float) -> None:
        style = self.theme.headings[heading.level]
        if not self.grouped:
            own = style.before + self._height(heading.text, style) + style.after
            self.need(max(style.keep, own + lead))
        if style.before and not self.at_column_top():
            self.cursor.top -= style.before
        self._lines(heading.text, style)

    def _text(self, text: str, style: TextStyle) -> None:
        if not self.grouped:
            self._keep(text, style)
        self._lines(text, style)

    def _keep(self, text: str, style: TextStyle) -> None:
        """Move on unless the lines that must stay together fit here."""
        if style.keep_lines is None:
            self.need(self._height(text, style) + style.after)
        else:
            lines = wrap(text, style.size, self.cursor.width - style.indent, style.bold)
            self.need(min(style.keep_lines, len(lines)) * style.size * style.leading)

    def _lines(self, text: str, style: TextStyle) -> None:
        rest = text
        while rest:
            items, rest = paragraph(
                self.cursor, rest, style.size, style.bold, style.leading, style.after,
                style.color, style.indent, style.baseline,
            )  # fmt: skip
            self.add(items)
            if rest:
                self.overflow(style.size * style.leading)

    def _bullet(self, item: Bullet) -> None:
        bullet = self.theme.bullet
        assert bullet is not None, "a story with bullets needs a theme with a bullet style"
        style = bullet.text
        if not self.grouped:  # the label moves with the first lines of its text
            self._keep(item.text, style)
        if item.label:
            y = self.cursor.top - style.size * style.leading + style.baseline * style.size
            x = self.cursor.left + bullet.label_dx
            self.add([Text(x, y, item.label, style.size, bullet.label_bold)])
        self._lines(item.text, style)

    def _figure(self, figure: Figure) -> None:
        if figure.height is None:
            box = Cursor(self.cursor.left, self.cursor.right, self.cursor.top, self.cursor.bottom)
            self.add(figure.draw(box, self.theme))
            self.cursor.top = self.cursor.bottom
            return
        if not self.grouped:
            self.need(figure.height)
        top = self.cursor.top
        box = Cursor(self.cursor.left, self.cursor.right, top, top - figure.height)
        self.add(figure.draw(box, self.theme))
        self.cursor.top = top - figure.height

    def _table(self, spec: Table) -> None:
        style = self.theme.table
        rows = list(spec.rows)
        fits = int((self.cursor.room() + 1e-6) // style.row_h) - 1  # rows under the header
        per_column = 0
        if spec.balance and self.count > 1 and self.column == 0 and len(rows) <= fits * self.count:
            per_column = -(-len(rows) // self.count)  # even columns when all fit this page
        while rows:
            chunk = rows[:per_column] if per_column else rows
            natural = (spec.measure or spec.rows) if spec.natural else ()
            items, placed = table(
                self.cursor, spec.columns, chunk, style.size, style.row_h, natural=natural
            )
            self.add(items)
            rows = rows[placed:]
            if rows:
                if placed == 0 and self.fresh() and self.column == 0:
                    raise Overflow(2 * style.row_h, self.cursor.room())
                if per_column:  # every column of an even table ends with the space after it
                    self.cursor.top -= style.after
                self.overflow(2 * style.row_h)
        self.cursor.top -= style.after

    def _columns(self, columns: Columns) -> None:
        self.section_top = min(self.low, self.cursor.top)
        self.widths = columns.widths
        self.count = len(columns.widths) or columns.count
        self.column = 0
        self.cursor = self._column(0)
        self.low = self.section_top

    def _group(self, group: Group) -> None:
        height = measure(group.flowables, self.cursor.width, self.theme)
        fits_fresh = height <= self.full_room() or group.fresh_if_long
        while height > self.cursor.room() and fits_fresh and not self.fresh():
            self.overflow(height)
        outer, self.grouped = self.grouped, height <= self.cursor.room()
        self.story(group.flowables)
        self.grouped = outer

    def _balanced(self, balanced: Balanced) -> None:
        """Groups in order; as soon as the rest fits this page's two columns, even them out."""
        groups = list(balanced.groups)
        while groups:
            if self.count == 2 and self.column == 0 and self._split_rest(groups):
                return
            self._group(groups.pop(0))

    def _split_rest(self, groups: list[Group]) -> bool:
        """Place all `groups` in the two columns of this page, ending level, if they fit."""
        heights = [measure(g.flowables, self.cursor.width, self.theme) for g in groups]
        used = self.section_top - self.cursor.top
        room_left, room_right = self.cursor.room(), self.section_top - self.frame.bottom
        options = [
            (max(used + sum(heights[:k]), sum(heights[k:])), k)
            for k in range(len(groups) + 1)
            if sum(heights[:k]) <= room_left and sum(heights[k:]) <= room_right
        ]
        if not options:
            return False
        _, k = min(options)
        for group in groups[:k]:
            self._group(group)
        self.next_column()
        for group in groups[k:]:
            self._group(group)
        return True

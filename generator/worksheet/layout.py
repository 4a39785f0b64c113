"""Geometry of the maths worksheets and their answer key: cells, dice, lines and words, in points.

A sheet page is a header (title in up to two lines, the version badge, a Name row,
then Class / Date / Score), then the sections: a heading and an instruction, then the
problems in a grid of cells. A cell shows the problem number in a disc, the dice
(pips) or cards (digits) — in large print in two rows where one row would make them
small —, an arrow and the target in a heavy box, and ruled lines to write the
calculation on. A version's rows are spread evenly over its pages. Every page of a
version is a reusable form; a pupil's page adds only the name, class and date.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from generator.render.dice import die_face
from generator.render.fit import broken_lines, lines_without_orphan, was_shortened
from generator.render.flow import (
    Column,
    Flowable,
    Group,
    Heading,
    PageFrame,
    Paragraph,
    Table,
    TableStyle,
    TextStyle,
    Theme,
    flow_story,
    footer_line,
)
from generator.render.fonts import descent, fit_size, text_width
from generator.render.primitives import (
    MM,
    Align,
    Circle,
    Document,
    Item,
    LaterForms,
    Line,
    Page,
    Polygon,
    Rect,
    Text,
    UseForm,
    page_size,
)
from generator.render.style import (
    DARK_GREY,
    FOOTER_SIZE,
    INK,
    LEADING,
    TEXT_TITLE,
    TITLE,
    WHITE,
    centred,
)
from generator.worksheet.model import AnswerKey, SheetCopy, SheetWords, ShownProblem, VersionSheet

MARGIN = 14 * MM
COL_GAP = 6 * MM
ROW_GAP = 3.5 * MM
PAD = 2.5 * MM  # inside a cell
GAP = 2.5 * MM  # between dice, and around the arrow
ARROW_W = 7 * MM  # the shortest arrow
MAX_ARROW = 30 * MM
SECTION_GAP = 2 * MM
LINE_GREY = "#9a9a9a"
FRAME_GREY = "#b8b8b8"
CARD_RATIO = 1.32  # card height / width


@dataclass(frozen=True)
class Style:
    """The sizes that differ between normal and large print (text in pt, lengths in points)."""

    title: float
    label: float  # header field labels
    name: float  # the pupil's name on the name line
    instruction: float
    heading: float
    number: float  # problem number
    target: float  # the target in its box
    card: float  # the digit on a card
    footer: float
    die: float  # preferred side of a die (width of a card)
    min_die: float  # below this, the dice take two rows (large print) or one column
    squeeze_die: float  # the smallest a one-page sheet may make them
    fill_min: float  # a long name, class or date shrinks to this size, then wraps
    box: float  # side of the target box
    badge: float  # side of the version badge
    badge_letter: float
    lines: int  # writing lines per problem
    line_gap: float  # distance between writing lines
    field_gap: float  # distance between header rows


NORMAL = Style(
    title=TITLE, label=11, name=14, instruction=10.5, heading=12, number=11, target=20, card=15,
    footer=FOOTER_SIZE, die=11 * MM, min_die=8 * MM, squeeze_die=8 * MM, fill_min=9, box=13 * MM,
    badge=17 * MM, badge_letter=30, lines=2, line_gap=8.5 * MM, field_gap=9 * MM,
)  # fmt: skip
# Large print: dice and cards half as big again (never below normal print's largest), the
# numbers of a problem in two rows where one row would make them smaller than that.
LARGE = Style(
    title=22, label=16, name=18, instruction=16, heading=18, number=16, target=28, card=22,
    footer=16, die=16 * MM, min_die=12 * MM, squeeze_die=10.5 * MM, fill_min=16, box=18 * MM,
    badge=21 * MM, badge_letter=38, lines=2, line_gap=12 * MM, field_gap=12.5 * MM,
)  # fmt: skip
DISC_FILL = 0.65  # the widest problem number takes at most this share of its disc
BOX_PAD = 0.3  # room left and right of the widest target, as a share of its size


@dataclass(frozen=True)
class Fills:
    """The words the copies of one print size write into the header: every pupil's name,
    class and date. The header makes room for the longest, so none loses a letter."""

    names: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    dates: tuple[str, ...] = ()

    @staticmethod
    def of(copies: Sequence[SheetCopy]) -> Fills:
        return Fills(
            tuple(sorted({c.name for c in copies if c.name})),
            tuple(sorted({c.klass for c in copies if c.klass})),
            tuple(sorted({c.date for c in copies if c.date})),
        )


@dataclass(frozen=True)
class Geometry:
    """Page and cell sizes shared by every sheet of a worksheet."""

    page_w: float
    page_h: float
    style: Style
    large_print: bool
    columns: int
    cell_w: float
    die: float  # side of a die, width of a card
    cards: bool  # some problem shows cards (taller than dice)
    line_gap: float  # distance between writing lines (≥ the style's)
    values: int = 3  # the most numbers a problem shows
    value_rows: int = 1  # the rows a problem's dice or cards are laid out in
    disc_r: float = 0.0  # radius of the problem number's disc (0: the style's)
    box_w: float = 0.0  # width of the target box (0: square)
    fills: Fills = field(default_factory=lambda: Fills())  # the header makes room for these
    lines: int = 0  # writing lines per problem (0: the style's; more where cells grow)

    @property
    def left(self) -> float:
        return MARGIN

    @property
    def right(self) -> float:
        return self.page_w - MARGIN

    @property
    def top(self) -> float:
        return self.page_h - MARGIN

    @property
    def bottom(self) -> float:
        """The lowest point a cell may reach (the footer sits below)."""
        return MARGIN + self.style.footer * 1.6

    @property
    def badge_r(self) -> float:
        return self.disc_r or self.style.number * 0.85

    @property
    def target_w(self) -> float:
        return max(self.box_w, self.style.box)

    @property
    def per_row(self) -> int:
        """Dice (or cards) in a row of a problem's block."""
        return -(-self.values // self.value_rows)

    @property
    def value_h(self) -> float:
        """Height of one die or card."""
        return self.die * CARD_RATIO if self.cards else self.die

    @property
    def block_h(self) -> float:
        """Height of a problem's dice or cards, all rows."""
        return self.value_rows * self.value_h + (self.value_rows - 1) * GAP

    @property
    def row_h(self) -> float:
        """Height of the row holding the dice and the target box."""
        return max(self.block_h, self.style.box)

    @property
    def cell_h(self) -> float:
        return PAD + self.row_h + self.writing + PAD

    @property
    def line_count(self) -> int:
        return self.lines or self.style.lines

    @property
    def writing(self) -> float:
        """Height of a cell's writing space: its lines."""
        return self.line_count * self.line_gap

    def cell_x(self, column: int) -> float:
        return self.left + column * (self.cell_w + COL_GAP)

    def widest_die(self) -> float:
        """The largest die (up to the style's) a row of the cell has room for."""
        fixed = PAD + 2 * self.badge_r + GAP + GAP + ARROW_W + GAP + self.target_w + PAD
        per_row = self.per_row
        return min(self.style.die, (self.cell_w - fixed - (per_row - 1) * GAP) / per_row)


def _disc_r(style: Style, last_number: int) -> float:
    """A disc that holds the widest problem number with room around it."""
    widest = text_width(str(last_number), style.number, bold=True)
    return max(style.number * 0.85, widest / 2 / DISC_FILL)


def _box_w(style: Style, largest_target: int) -> float:
    """A target box wide enough for the widest target with room beside it."""
    widest = text_width(str(largest_target), style.target, bold=True)
    return max(style.box, widest + 2 * BOX_PAD * style.target)


def geometry(
    paper: str,
    large_print: bool,
    max_values: int,
    cards: bool,
    last_number: int = 20,
    largest_target: int = 40,
) -> Geometry:
    """Two columns of cells when the dice fit at a readable size, else one; in large print
    a problem's dice may take two rows first (they stay big, and two columns fit)."""
    style = LARGE if large_print else NORMAL
    page_w, page_h = page_size(paper)
    usable = page_w - 2 * MARGIN
    disc_r, box_w = _disc_r(style, last_number), _box_w(style, largest_target)
    rows = (1, 2) if large_print and max_values > 2 else (1,)
    options = [(columns, r) for columns in (2, 1) for r in rows]
    for k, (columns, value_rows) in enumerate(options):
        cell_w = (usable - (columns - 1) * COL_GAP) / columns
        geo = Geometry(page_w, page_h, style, large_print, columns, cell_w, style.die, cards,
                       style.line_gap, max_values, value_rows, disc_r, box_w)  # fmt: skip
        geo = replace(geo, die=geo.widest_die())
        if geo.die >= style.min_die or k == len(options) - 1:
            return geo
    raise AssertionError("unreachable")


# --- lines of text -----------------------------------------------------------------------

TITLE_LINES = 2  # a title wraps to this many lines at its size, then gets smaller …
TITLE_LEADING = 1.15  # a title's lines belong together


def title_lines(title: str, size: float, width: float, least: float) -> tuple[float, list[str]]:
    """The title's size and lines: at `size` in at most two lines where it fits, else
    smaller (not below `least`), then in as many lines as it takes — never shortened."""
    step = 0.5
    while True:
        lines = lines_without_orphan(title, size, width, bold=True)
        if len(lines) <= TITLE_LINES or size - step < least:
            break
        size -= step
    # a word wider than the line (no space to break at) is broken, not cut
    return size, [part for line in lines for part in broken_lines(line, size, width, 99, True)]


# --- one cell ---------------------------------------------------------------------------


def card_face(x: float, y: float, w: float, value: int, size: float) -> list[Item]:
    """A playing card of width `w` (lower-left corner at x, y) showing `value` as a digit."""
    h = w * CARD_RATIO
    text = str(value)
    size = fit_size(text, size, w - 1.5 * MM, bold=True)
    return [
        Rect(x, y, w, h, fill="#fbfbf4", line_width=max(0.8, w / 30), radius=w / 8),
        Text(x + w / 2, centred(y + h / 2, size), text, size, True, "center"),
    ]


def _arrow(x1: float, x2: float, y: float) -> list[Item]:
    head = 2.2 * MM
    return [
        Line(x1, y, x2 - head, y, line_width=1.4),
        Polygon(((x2, y), (x2 - head, y + head * 0.6), (x2 - head, y - head * 0.6)), stroke=None,
                fill=INK),
    ]  # fmt: skip


def cell_items(problem: ShownProblem, x: float, top: float, geo: Geometry) -> list[Item]:
    """Everything of one problem cell whose top-left corner is (x, top)."""
    style = geo.style
    items: list[Item] = [
        Rect(x, top - geo.cell_h, geo.cell_w, geo.cell_h, stroke=FRAME_GREY, line_width=0.7,
             radius=2.5 * MM),
    ]  # fmt: skip
    mid = top - PAD - geo.row_h / 2
    r = geo.badge_r
    cx = x + PAD + r
    items.append(Circle(cx, mid, r, stroke=None, fill=DARK_GREY))
    size = fit_size(str(problem.number), style.number, 2 * DISC_FILL * r, bold=True)
    items.append(Text(cx, centred(mid, size), str(problem.number), size, True, "center", WHITE))
    left = cx + r + GAP
    values = problem.values
    rows = [values[i : i + geo.per_row] for i in range(0, len(values), geo.per_row)]
    block_w = min(len(values), geo.per_row) * (geo.die + GAP) - GAP
    block_h = len(rows) * (geo.value_h + GAP) - GAP
    y = mid + block_h / 2  # the top of the first row
    for row in rows:  # a shorter row sits centred under the one above
        vx = left + (block_w - (len(row) * (geo.die + GAP) - GAP)) / 2
        for value in row:
            if problem.kind == "cards":
                items += card_face(vx, y - geo.value_h, geo.die, value, style.card)
            else:
                items += die_face(vx, y - geo.die, geo.die, value)
            vx += geo.die + GAP
        y -= geo.value_h + GAP
    end = left + block_w
    # the box at the cell's right edge, lined up across cells, but never far from the dice
    box_w = geo.target_w
    box_x = min(x + geo.cell_w - PAD - box_w, end + GAP + MAX_ARROW + GAP)
    items += _arrow(end + GAP, box_x - GAP, mid)
    items.append(Rect(box_x, mid - style.box / 2, box_w, style.box, line_width=1.8,
                      radius=1.2 * MM))  # fmt: skip
    target = str(problem.target)
    size = fit_size(target, style.target, box_w - 2 * BOX_PAD * style.target, bold=True)
    items.append(Text(box_x + box_w / 2, centred(mid, size), target, size, True, "center"))
    line_top = top - PAD - geo.row_h
    for i in range(1, geo.line_count + 1):
        y = line_top - i * geo.line_gap
        items.append(Line(x + PAD, y, x + geo.cell_w - PAD, y, stroke=LINE_GREY, line_width=0.5))
    return items


# --- headers and footers ----------------------------------------------------------------


@dataclass(frozen=True)
class NameSpot:
    """Where a pupil's name is written: the start of the name line, its height and length."""

    x: float
    y: float
    width: float


def _badge(letter: str, words: SheetWords, geo: Geometry) -> tuple[list[Item], float]:
    """The version badge in the top right corner; returns the items and its bottom edge."""
    style = geo.style
    side = style.badge
    x = geo.right - side
    label_size = fit_size(words.version, style.label, side + 8 * MM)
    label_y = geo.top - 0.8 * label_size
    box_top = label_y - 0.35 * label_size - 1 * MM
    letter_size = fit_size(letter, style.badge_letter, side - 3 * MM, bold=True)
    items: list[Item] = [
        Text(x + side / 2, label_y, words.version, label_size, align="center"),
        Rect(x, box_top - side, side, side, line_width=2.2, radius=2 * MM),
        Text(x + side / 2, centred(box_top - side / 2, letter_size), letter, letter_size, True,
             "center"),
    ]  # fmt: skip
    return items, box_top - side


def _field(label: str, x: float, end: float, y: float, size: float) -> tuple[list[Item], float]:
    """A label and a line from x to end at baseline y; returns where the line starts."""
    start = x + text_width(label, size) + 1.5 * MM
    return [Text(x, y, label, size), Line(start, y - 1, end, y - 1, line_width=0.6)], start


@dataclass(frozen=True)
class Spots:
    """Where a copy's own words go: the name line, and on the first page class and date."""

    name: NameSpot
    klass: NameSpot | None = None
    date: NameSpot | None = None


def _spot(start: float, end: float, y: float) -> NameSpot:
    return NameSpot(start + 1 * MM, y - 1, end - start - 2 * MM)  # the line of `_field`


CLASS_LINE = 18 * MM
SCORE_LINE = 22 * MM
FIELD_GAP = 4 * MM  # between two fields of a row
FILL_LEADING = 1.15  # the lines of a name that takes two


def _label_w(label: str, style: Style) -> float:
    """A field's label and the space before its line (as `_field` draws them)."""
    return text_width(label, style.label) + 1.5 * MM


def fill_lines(text: str, width: float, style: Style) -> tuple[float, tuple[str, ...]]:
    """A pupil's name, class or date on a line `width` long: its size and lines. Smaller to
    fit (not below the page's smallest text), then on two lines (broken after a space or
    hyphen), then on as many as it takes — never shortened."""
    size = fit_size(text, style.name, width, minimum=style.fill_min)
    if text_width(text, size) <= width:
        return size, (text,)
    size = style.name
    while size > style.fill_min:
        lines = broken_lines(text, size, width, 2)
        if not was_shortened(lines, text):
            return size, lines
        size = max(style.fill_min, size - 0.5)
    return size, broken_lines(text, size, width, 99)


def _fill_height(texts: Sequence[str], width: float, style: Style) -> float:
    """The height above the line that the longest of `texts` needs beyond one line."""
    extra = 0.0
    for text in texts:
        size, lines = fill_lines(text, width, style)
        extra = max(extra, (len(lines) - 1) * size * FILL_LEADING)
    return extra


# the rows of the first page's fields, tried in turn until every fill-in fits on one line
# at a readable size (a long date gets a row of its own, then a long class); the name
# always has the whole first row
ARRANGEMENTS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("name",), ("class", "date", "score")),
    (("name",), ("class", "score"), ("date",)),
    (("name",), ("class",), ("date", "score")),
)


def _row_ends(
    row: Sequence[str], words: SheetWords, geo: Geometry, right: float
) -> dict[str, tuple[float, float]]:
    """Where each field of a row starts and ends: the score at the right with its total,
    the class on a short line unless it ends the row, the rest of the row for the last."""
    style = geo.style
    ends: dict[str, tuple[float, float]] = {}
    x = geo.left
    last = right
    if "score" in row:
        total_w = text_width(words.score_total, style.label)
        split = right - total_w - _label_w(words.score, style) - SCORE_LINE
        ends["score"] = (split, right - total_w - 1.5 * MM)
        last = split - FIELD_GAP
    fields = [f for f in row if f != "score"]
    for k, name in enumerate(fields):
        if k < len(fields) - 1:  # a short line a hand writes "3b" on
            end = x + _label_w(words.klass, style) + CLASS_LINE
            ends[name] = (x, end)
            x = end + FIELD_GAP
        else:
            ends[name] = (x, last)
    return ends


def _first_header(letter: str, words: SheetWords, geo: Geometry) -> tuple[list[Item], Spots, float]:
    """Title, badge and the four fields; returns the items, the fill-in spots and the bottom.

    Every fill-in of `geo.fills` fits whole: a long date or class gets a row of its own,
    and one still too long is written on two lines, the header making room above it."""
    style = geo.style
    items, badge_bottom = _badge(letter, words, geo)
    room_right = geo.right - style.badge - 5 * MM
    size, lines = title_lines(words.title, style.title, room_right - geo.left, style.heading)
    first_y = geo.top - 0.8 * size
    step = size * TITLE_LEADING
    items += [Text(geo.left, first_y - k * step, line, size, True)
              for k, line in enumerate(lines)]  # fmt: skip
    title_y = first_y - (len(lines) - 1) * step
    labels = {"name": words.name, "class": words.klass, "date": words.date, "score": words.score}
    fills = {"name": geo.fills.names, "class": geo.fills.classes, "date": geo.fills.dates}

    def fits(field_name: str, ends: tuple[float, float]) -> bool:
        start = ends[0] + _label_w(labels[field_name], style)
        width = _spot(start, ends[1], 0).width
        return all(len(fill_lines(t, width, style)[1]) == 1 for t in fills[field_name])

    rows: tuple[tuple[str, ...], ...] = ARRANGEMENTS[-1]
    for arrangement in ARRANGEMENTS:
        if all(
            fits(f, e)
            for row in arrangement[1:]
            for f, e in _row_ends(row, words, geo, room_right).items()
            if f != "score"
        ):
            rows = arrangement
            break
    spots: dict[str, NameSpot] = {}
    y = title_y - 0.25 * size
    for row in rows:
        ends = _row_ends(row, words, geo, room_right)
        spans = {f: (e[0] + _label_w(labels[f], style), e[1]) for f, e in ends.items()}
        extra = max(
            (_fill_height(fills[f], _spot(*spans[f], 0).width, style) for f in row if f in fills),
            default=0.0,
        )
        y -= style.field_gap + extra
        for f in row:
            field_items, start = _field(labels[f], ends[f][0], ends[f][1], y, style.label)
            items += field_items
            if f in fills:
                spots[f] = _spot(start, ends[f][1], y)
        if "score" in row:
            items.append(Text(room_right, y, words.score_total, style.label, align="right"))
    bottom = min(y - 0.4 * style.label, badge_bottom) - 3 * MM
    return items, Spots(spots["name"], spots["class"], spots["date"]), bottom


def _next_header(letter: str, words: SheetWords, geo: Geometry) -> tuple[list[Item], Spots, float]:
    """Later pages: the badge and the name line, so a loose page still says whose it is."""
    style = geo.style
    items, badge_bottom = _badge(letter, words, geo)
    room_right = geo.right - style.badge - 5 * MM
    row = badge_bottom + 1 * MM
    name_items, name_start = _field(words.name, geo.left, room_right, row, style.label)
    items += name_items
    return items, Spots(_spot(name_start, room_right, row)), badge_bottom - 3 * MM


def page_label(words: SheetWords, letter: str, large_print: bool) -> Callable[[int, int], str]:
    """The footer's page label: in large print it says the version and the sheet's number
    too ("Gruppe A · Blatt-Nr. 7 · Seite 1/3"), the words of the normal print's footer."""
    if large_print and words.large_page:
        large = words.large_page
        return lambda page, pages: large(letter, page, pages)
    return words.page


def _footer(text: str, page_label: str, geo: Geometry) -> list[Item]:
    # large print keeps every word ≥ 16 pt: the page label says it all
    what = "" if geo.large_print else text
    return footer_line(geo.left, geo.right, what, page_label, geo.style.footer)


# --- a version's pages ------------------------------------------------------------------


@dataclass(frozen=True)
class SheetPage:
    items: tuple[Item, ...]
    spots: Spots
    problems: int  # how many problems the page holds
    rows: int = 0  # rows of cells

    @property
    def name(self) -> NameSpot:
        return self.spots.name


def _intro(heading: str, instruction: str, geo: Geometry) -> tuple[float, list[tuple[str, bool]]]:
    """Height and lines (text, bold) of a section's heading and instruction."""
    style = geo.style
    width = geo.right - geo.left
    lines = [(line, True) for line in lines_without_orphan(heading, style.heading, width, True)]
    lines += [(line, False) for line in lines_without_orphan(instruction, style.instruction, width)]
    height = sum((style.heading if bold else style.instruction) * LEADING for _, bold in lines)
    return height + SECTION_GAP, lines


def version_pages(
    version: VersionSheet,
    words: SheetWords,
    geo: Geometry,
    per_page: int | None = None,
    row_caps: Sequence[int] = (),
    draw: bool = True,
) -> list[SheetPage]:
    """The pages of one version, without any pupil's name; at most `per_page` problems a
    page, and page k at most `row_caps[k]` rows of cells (where given). Without `draw`
    only the cut: each page's spots, problems and rows, no cells (the same pages, for a
    fraction of the time: the page counts of a class set need no drawing)."""
    if version.title:
        words = replace(words, title=version.title)
    pages: list[tuple[list[Item], Spots, int, int]] = []
    items, spots, y = _first_header(version.letter, words, geo)
    on_page = rows = 0

    def new_page() -> None:
        nonlocal items, spots, y, on_page, rows
        pages.append((items, spots, on_page, rows))
        items, spots, y = _next_header(version.letter, words, geo)
        on_page = rows = 0

    def capped() -> bool:
        return len(pages) < len(row_caps) and rows >= row_caps[len(pages)]

    for section in version.sections:
        intro_h, lines = _intro(section.heading, section.instruction, geo)
        column = 0  # where the next cell goes in the current row
        row_top = y
        for index, problem in enumerate(section.problems):
            if per_page is not None and on_page == per_page:
                new_page()
                column = 0
            if column == 0:
                need = geo.cell_h + (intro_h if index == 0 else 0)
                if (y - need < geo.bottom or capped()) and on_page:
                    new_page()
                if index == 0:
                    for text, bold in lines:
                        size = geo.style.heading if bold else geo.style.instruction
                        y -= size * LEADING
                        if draw:
                            items.append(Text(geo.left, y + 0.28 * size, text, size, bold))
                    y -= SECTION_GAP
                row_top = y
                y -= geo.cell_h + ROW_GAP
                rows += 1
            if draw:
                items += cell_items(problem, geo.cell_x(column), row_top, geo)
            column = (column + 1) % geo.columns
            on_page += 1
        y -= SECTION_GAP
    pages.append((items, spots, on_page, rows))
    total = len(pages)
    label = page_label(words, version.letter, geo.large_print)

    def footer(k: int) -> list[Item]:
        return _footer(words.footer(version.letter), label(k, total), geo) if draw else []

    return [
        SheetPage(tuple(page_items + footer(k)) if draw else (), page_spots, count, page_rows)
        for k, (page_items, page_spots, count, page_rows) in enumerate(pages, start=1)
    ]


def level_rows(rows: Sequence[int]) -> list[int]:
    """Row caps for the pages but the last that spread `rows` (a page's rows as filled from
    the top) evenly over as many pages: the last page never holds one lonely row while
    the others are full. The caps stay within what each page held."""
    total, most = sum(rows), max(rows)
    before = list(rows[:-1])
    for level in range(1, most + 1):
        caps = [min(r, level) for r in before]
        rest = total - sum(caps)
        if rest > level:
            continue
        for i in reversed(range(len(caps))):  # earlier pages give a row to the last one
            if rest >= level - 1:
                break
            if caps[i] == level:
                caps[i] -= 1
                rest += 1
        return caps
    return before


def page_cut(
    version: VersionSheet, words: SheetWords, geo: Geometry, per_page: int | None = None
) -> tuple[list[SheetPage], tuple[int, ...]]:
    """How `paginate` cuts a version, without drawing: its pages (spots, problems, rows;
    no items) and the row caps that spread the problems evenly over them."""
    pages = version_pages(version, words, geo, per_page, draw=False)
    if len(pages) < 2:
        return pages, ()
    caps = tuple(level_rows([p.rows for p in pages]))
    even = version_pages(version, words, geo, per_page, caps, draw=False)
    return (even, caps) if len(even) == len(pages) else (pages, ())


def paginate(
    version: VersionSheet, words: SheetWords, geo: Geometry, per_page: int | None = None
) -> list[SheetPage]:
    """The pages of a version with the problems spread evenly over them."""
    _, caps = page_cut(version, words, geo, per_page)
    return version_pages(version, words, geo, per_page, caps)


MOST_GAP = 1.5  # writing lines at most this share of the style's distance apart …
EASY_GAP = 1.2  # … and, where a cell has room for more lines, about this share


def with_writing(geo: Geometry, height: float) -> Geometry:
    """The cells with `height` of writing space: the style's lines, spread up to 1.5× their
    distance, then more lines about 1.2× apart (never closer than the style's)."""
    base = geo.style.line_gap
    most = max(geo.style.lines, int(height / base + 1e-9))
    counts = [n for n in range(geo.style.lines, most + 1) if height / n <= MOST_GAP * base + 1e-9]
    n = min(counts, key=lambda k: abs(height / k - EASY_GAP * base), default=geo.style.lines)
    return replace(geo, lines=n, line_gap=max(base, height / n))


def roomier(
    geo: Geometry, version: VersionSheet, words: SheetWords, per_page: int | None = None
) -> Geometry:
    """The cells grown into the space the pages leave: the most writing space that keeps
    the number of pages (the rows then spread evenly over them again)."""
    pages = len(page_cut(version, words, geo, per_page)[0])
    low, high = geo.writing, geo.page_h
    for _ in range(16):  # to well under 0.01 mm
        mid = (low + high) / 2
        if len(page_cut(version, words, with_writing(geo, mid), per_page)[0]) == pages:
            low = mid
        else:
            high = mid
    return with_writing(geo, low) if low > geo.writing else geo


COMPACT_BOX = 0.78  # the target box may shrink to this share (two digits still fit large)


def compact(geo: Geometry) -> list[Geometry]:
    """What a one-page sheet may give up, least first: the dice at their smallest
    readable size and a smaller target box; in large print then one row of dice (no
    smaller than `squeeze_die`). The writing lines keep their minimum distance."""
    style = replace(geo.style, box=max(geo.style.min_die, geo.style.box * COMPACT_BOX))
    smaller = replace(geo, die=min(geo.die, geo.style.min_die), style=style)
    options = [smaller]
    if geo.value_rows > 1:
        one_row = replace(smaller, value_rows=1)
        one_row = replace(one_row, die=one_row.widest_die())
        if one_row.die >= style.squeeze_die:
            options.append(one_row)
    return options


class PagesDoNotFit(Exception):
    """A page request that the writing lines' minimum does not allow; the numbers say why.

    `needed` and `room` are the heights (mm) of the problem rows asked for and of those
    that fit on the first page.
    """

    def __init__(self, problems: int, pages: int, fit: int, geo: Geometry) -> None:
        super().__init__(f"{problems} problems need {pages} pages; {fit} fit on one")
        self.problems, self.pages, self.fit, self.large_print = (
            problems,
            pages,
            fit,
            geo.large_print,
        )
        row = (geo.cell_h + ROW_GAP) / MM
        self.needed = -(-problems // geo.columns) * row
        self.room = -(-fit // geo.columns) * row


def fitted(
    geo: Geometry,
    version: VersionSheet,
    words: SheetWords,
    per_page: int | None,
    one_page: bool,
) -> Geometry:
    """The geometry for one style of print, checked against --per-page and --one-page: the
    fewest pages (the dice and box as small as `compact` allows, if that saves a page; never
    the writing lines), at most `per_page` problems a page, then the cells grown to use
    the pages."""
    problems = sum(len(s.problems) for s in version.sections)
    candidates = (geo, *compact(geo))
    if one_page:
        for candidate in candidates:
            pages = version_pages(version, words, candidate, draw=False)
            if len(pages) == 1:
                return roomier(candidate, version, words)
        raise PagesDoNotFit(problems, len(pages), pages[0].problems, geo)
    # only --one-page squeezes the dice below their readable size (large print: one row)
    candidates = (geo, *(c for c in candidates[1:] if c.die >= geo.style.min_die - 1e-9))
    want = min(per_page or problems, problems)
    held = [version_pages(version, words, c, draw=False)[0].problems for c in candidates]
    allowed = [c for c, n in zip(candidates, held) if per_page is None or n >= want]
    if not allowed:
        raise PagesDoNotFit(want, 2, max(held), geo)
    counts = [len(page_cut(version, words, c, per_page)[0]) for c in allowed]
    best = allowed[counts.index(min(counts))]  # the first of the fewest: the largest dice
    return roomier(best, version, words, per_page)


NAME_CLEARANCE = 1.0  # points between the deepest descender (g, p, ç, ą) and the line


def name_texts(name: str, spot: NameSpot, geo: Geometry) -> list[Text]:
    """A pupil's name (or class, date) written on its line, the descenders clear of it;
    smaller to fit, but not below the page's smallest text, then on two lines (the header
    made room for them above the line), never shortened."""
    size, lines = fill_lines(name, spot.width, geo.style)
    base = spot.y + descent(size) + NAME_CLEARANCE
    step = size * FILL_LEADING
    return [
        Text(spot.x, base + (len(lines) - 1 - k) * step, line, size) for k, line in enumerate(lines)
    ]


# --- the answer key ---------------------------------------------------------------------

KEY_SIZE = 9.5
KEY_ROWS = (6.2 * MM, 5.6 * MM, 5.0 * MM)  # row heights to try, roomiest first
KEY_WIDTHS = (0.5, 1.5, 0.7, 2.5, 0.95, 1.2)
KEY_ALIGN: tuple[Align, ...] = ("right", "center", "center", "left", "center", "center")


def key_theme(row_h: float = KEY_ROWS[0]) -> Theme:
    """How the key looks, with table rows `row_h` tall."""
    return Theme(
        headings={
            1: TextStyle(TEXT_TITLE, bold=True, after=3 * MM),  # the key's title
            2: TextStyle(14, bold=True, before=4 * MM, after=2.5 * MM),  # a version
            3: TextStyle(12, bold=True, after=2.5 * MM),  # the class list
            4: TextStyle(10.5, bold=True, after=1.5 * MM),  # a section of a version
        },
        paragraphs={"body": TextStyle(KEY_SIZE, after=2.5 * MM)},
        table=TableStyle(KEY_SIZE, row_h, after=3 * MM),
    )


def key_story(key: AnswerKey) -> list[Flowable]:
    """The answer key: an overview (and the class list), then the versions one below the
    other, each kept whole on a page where it fits (so a page holds several)."""
    story: list[Flowable] = [Heading(key.title, 1), *(Paragraph(text) for text in key.intro)]
    if key.roster:
        name_col, version_col = key.roster_columns
        half = (len(key.roster) + 1) // 2
        second = list(key.roster[half:]) + [("", "")] * (half - len(key.roster[half:]))
        columns: tuple[Column, ...] = (
            Column(name_col, 2.4),
            Column(version_col, 0.8, "center"),
        ) * 2
        rows = tuple((a[0], a[1], b[0], b[1]) for a, b in zip(key.roster[:half], second))
        story += [Heading(key.roster_heading, 3), Table(columns, rows)]
    widths, align = key.widths or KEY_WIDTHS, key.align or KEY_ALIGN
    columns = tuple(Column(t, w, a) for t, w, a in zip(key.columns, widths, align))  # type: ignore[arg-type]
    for version in key.versions:
        part: list[Flowable] = [Heading(version.heading, 2)]
        for section in version.sections:
            if section.heading:
                part.append(Heading(section.heading, 4))
            part += section.figures or (Table(columns, section.rows),)
        # a version longer than a page starts on a fresh one and continues under its header;
        # drawn puzzles flow on from the intro, row by row (a fresh page would leave it alone)
        drawn = any(section.figures for section in version.sections)
        story.append(Group(tuple(part), fresh_if_long=not drawn))
    return story


def key_pages(key: AnswerKey, page_w: float, page_h: float) -> list[Page]:
    """The answer key's pages, each with the footer and "page k of N": the fewest pages,
    then the roomiest rows."""

    def footer(k: int, total: int) -> list[Item]:
        return footer_line(MARGIN, page_w - MARGIN, key.footer, key.page(k, total))

    frame = PageFrame(page_w, page_h, MARGIN, page_w - MARGIN, page_h - MARGIN,
                      MARGIN + 8 * MM, footer=footer)  # fmt: skip
    story = key_story(key)
    tried = [flow_story(story, frame, key_theme(row_h)) for row_h in KEY_ROWS]

    def cost(pages: list[list[Item]]) -> tuple[int, int]:
        """Pages, then table headers: a table continued on the next page repeats its own."""
        head = key.columns[0]
        return len(pages), sum(isinstance(i, Text) and i.text == head for p in pages for i in p)

    best = min(tried, key=cost)  # the first of the cheapest: the roomiest rows
    return [Page(tuple(items)) for items in best]


# --- the whole document -----------------------------------------------------------------


@dataclass(frozen=True)
class Pagination:
    """How the pupils' pages are cut: problems per page, one page, even pages per pupil."""

    per_page: int | None = None
    one_page: bool = False
    duplex: bool = False


def fill_ins(copy: SheetCopy, spots: Spots, geo: Geometry) -> list[Item]:
    """A copy's own words on a page: the pupil's name, and on the first page class and date."""
    items: list[Item] = []
    for text, spot in ((copy.name, spots.name), (copy.klass, spots.klass), (copy.date, spots.date)):
        if text and spot is not None:
            items += name_texts(text, spot, geo)
    return items


def blank_page(text: str, geo: Geometry) -> Page:
    """The back of a pupil's last page in double-sided printing."""
    if not text:
        return Page(())
    size = geo.style.instruction
    return Page(
        (Text(geo.page_w / 2, geo.page_h / 2, text, size, align="center", color="#888888"),)
    )


def copies_document(
    copies: Sequence[SheetCopy],
    letters: Sequence[str],
    spots: dict[tuple[int, bool], list[Spots]],
    forms: Mapping[str, tuple[Item, ...]],
    geos: Mapping[bool, Geometry],
    words: SheetWords,
    key: AnswerKey | None,
    paper: str,
    large_print: bool,
    pagination: Pagination,
) -> tuple[Document, list[int]]:
    """Each copy's pages (its version's forms, filled in), blank pages for duplex, the key.

    Returns the document and the number of pages of every copy.
    """
    page_w, page_h = page_size(paper)
    pages: list[Page] = []
    counts: list[int] = []
    for copy in copies:
        large = large_print or copy.large_print
        own = spots[copy.version, large]
        for k, page_spots in enumerate(own):
            page_items: list[Item] = [UseForm(form_name(letters[copy.version], k, large))]
            page_items += fill_ins(copy, page_spots, geos[large])
            pages.append(Page(tuple(page_items)))
        count = len(own)
        if pagination.duplex and count % 2:
            pages.append(blank_page(words.blank, geos[large]))
            count += 1
        counts.append(count)
    if key is not None:
        pages += key_pages(key, page_w, page_h)
    return Document(page_w, page_h, tuple(pages), forms, title=words.title), counts


def layout_sheets(
    versions: Sequence[VersionSheet],
    copies: Sequence[SheetCopy],
    words: SheetWords,
    key: AnswerKey | None,
    paper: str,
    large_print: bool = False,
    pagination: Pagination = Pagination(),
) -> tuple[Document, list[int]]:
    """Every pupil's sheet (each version's pages drawn once as forms), then the answer key.

    A copy is in large print when it asks for it or `large_print` is set; each print size
    has its own forms. Returns the document and the number of pages of every copy.
    The forms are drawn when first asked for (`LaterForms`): the cut of every version's
    pages is known at once, the cells of a version only when one of its pages is drawn.
    """
    problems = [p for v in versions for s in v.sections for p in s.problems]
    most = max(len(p.values) for p in problems)
    cards = any(p.kind == "cards" for p in problems)
    last = max(p.number for p in problems)
    largest = max(p.target for p in problems)
    styles = sorted({large_print or copy.large_print for copy in copies})
    geos = {
        large: fitted(
            replace(
                geometry(paper, large, most, cards, last, largest),
                fills=Fills.of([c for c in copies if (large_print or c.large_print) == large]),
            ),
            versions[0],
            words,
            pagination.per_page,
            pagination.one_page,
        )
        for large in styles
    }
    forms = LaterForms()
    spots: dict[tuple[int, bool], list[Spots]] = {}
    for large, geo in geos.items():
        for v, version in enumerate(versions):
            cut, caps = page_cut(version, words, geo, pagination.per_page)
            spots[v, large] = [page.spots for page in cut]
            names = [form_name(version.letter, k, large) for k in range(len(cut))]
            forms.later(names, partial(_drawn, version, words, geo, pagination.per_page, caps))
    letters = [version.letter for version in versions]
    return copies_document(copies, letters, spots, forms, geos, words, key, paper, large_print,
                           pagination)  # fmt: skip


def _drawn(
    version: VersionSheet,
    words: SheetWords,
    geo: Geometry,
    per_page: int | None,
    caps: tuple[int, ...],
) -> list[tuple[Item, ...]]:
    """The items of a version's pages as `paginate` cuts them (`page_cut` gave the caps)."""
    return [page.items for page in version_pages(version, words, geo, per_page, caps)]


def layout_worksheet(
    versions: Sequence[VersionSheet],
    copies: Sequence[SheetCopy],
    words: SheetWords,
    key: AnswerKey | None,
    paper: str,
    large_print: bool,
    pagination: Pagination = Pagination(),
) -> Document:
    """The document of `layout_sheets`."""
    return layout_sheets(versions, copies, words, key, paper, large_print, pagination)[0]


def form_name(letter: str, page: int, large_print: bool = False) -> str:
    """The form holding page `page` (0-based) of version `letter` in one print size."""
    return f"sheet-{letter}{'-large' if large_print else ''}-{page + 1}"


def layout_key(key: AnswerKey, paper: str) -> Document:
    """The answer key as a document of its own (`--key-file`)."""
    page_w, page_h = page_size(paper)
    return Document(page_w, page_h, tuple(key_pages(key, page_w, page_h)), title=key.title)

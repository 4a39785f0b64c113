"""Geometry of the maths worksheets and their answer key: cells, dice, lines and words, in points.

A sheet page is a header (title, the version badge, Name / Class / Date / Score
lines), then the sections: a heading and an instruction, then the problems in a
grid of cells. A cell shows the problem number, the dice (pips) or cards (digits),
an arrow and the target in a heavy box, and ruled lines to write the calculation
on. Every page of a version is a reusable form; a pupil's page adds only the name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from generator.render.dice import die_face
from generator.render.flow import (
    Column,
    Flowable,
    Group,
    Heading,
    PageBreak,
    PageFrame,
    Paragraph,
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
    min_die: float  # below this, one column instead of two
    box: float  # side of the target box
    badge: float  # side of the version badge
    badge_letter: float
    lines: int  # writing lines per problem
    line_gap: float  # distance between writing lines
    field_gap: float  # distance between header rows


NORMAL = Style(
    title=TITLE, label=11, name=14, instruction=10.5, heading=12, number=11, target=20, card=15,
    footer=FOOTER_SIZE, die=11 * MM, min_die=8 * MM, box=13 * MM, badge=17 * MM, badge_letter=30,
    lines=2, line_gap=8.5 * MM, field_gap=9 * MM,
)  # fmt: skip
LARGE = Style(
    title=22, label=16, name=18, instruction=16, heading=18, number=16, target=28, card=20,
    footer=16, die=14 * MM, min_die=10.5 * MM, box=18 * MM, badge=21 * MM, badge_letter=38,
    lines=2, line_gap=12 * MM, field_gap=12.5 * MM,
)  # fmt: skip


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
        return self.style.number * 0.85  # two bold digits fit at full size

    @property
    def value_h(self) -> float:
        return self.die * CARD_RATIO if self.cards else self.die

    @property
    def row_h(self) -> float:
        """Height of the row holding the dice and the target box."""
        return max(self.value_h, self.style.box)

    @property
    def cell_h(self) -> float:
        return PAD + self.row_h + self.style.lines * self.line_gap + PAD

    def cell_x(self, column: int) -> float:
        return self.left + column * (self.cell_w + COL_GAP)


def _fixed_width(style: Style, geo_badge_r: float) -> float:
    """Width of a cell's content apart from the dice."""
    return PAD + 2 * geo_badge_r + GAP + GAP + ARROW_W + GAP + style.box + PAD


def geometry(paper: str, large_print: bool, max_values: int, cards: bool) -> Geometry:
    """Two columns of cells when the dice fit at a readable size, else one."""
    style = LARGE if large_print else NORMAL
    page_w, page_h = page_size(paper)
    usable = page_w - 2 * MARGIN
    badge_r = style.number * 0.85
    for columns in (2, 1):
        cell_w = (usable - (columns - 1) * COL_GAP) / columns
        room = cell_w - _fixed_width(style, badge_r)
        die = min(style.die, (room - (max_values - 1) * GAP) / max_values)
        if die >= style.min_die or columns == 1:
            return Geometry(
                page_w, page_h, style, large_print, columns, cell_w, die, cards, style.line_gap
            )
    raise AssertionError("unreachable")


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
    size = fit_size(str(problem.number), style.number, 1.7 * r, bold=True)
    items.append(Text(cx, centred(mid, size), str(problem.number), size, True, "center", WHITE))
    vx = cx + r + GAP
    for value in problem.values:
        if problem.kind == "cards":
            items += card_face(vx, mid - geo.value_h / 2, geo.die, value, style.card)
        else:
            items += die_face(vx, mid - geo.die / 2, geo.die, value)
        vx += geo.die + GAP
    # the box at the cell's right edge, lined up across cells, but never far from the dice
    box_x = min(x + geo.cell_w - PAD - style.box, vx + MAX_ARROW + GAP)
    items += _arrow(vx, box_x - GAP, mid)
    items.append(Rect(box_x, mid - style.box / 2, style.box, style.box, line_width=1.8,
                      radius=1.2 * MM))  # fmt: skip
    target = str(problem.target)
    size = fit_size(target, style.target, style.box - 2 * MM, bold=True)
    items.append(Text(box_x + style.box / 2, centred(mid, size), target, size, True, "center"))
    line_top = top - PAD - geo.row_h
    for i in range(1, style.lines + 1):
        y = line_top - i * geo.line_gap
        items.append(Line(x + PAD, y, x + geo.cell_w - PAD, y, stroke=LINE_GREY, line_width=0.5))
    return items


# --- headers and footers ----------------------------------------------------------------


@dataclass(frozen=True)
class NameSpot:
    """Where a pupil's name is written: the start of the name line, its baseline and length."""

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
    return NameSpot(start + 1 * MM, y + 1.5, end - start - 2 * MM)


def _first_header(letter: str, words: SheetWords, geo: Geometry) -> tuple[list[Item], Spots, float]:
    """Title, badge and the four fields; returns the items, the fill-in spots and the bottom."""
    style = geo.style
    items, badge_bottom = _badge(letter, words, geo)
    room_right = geo.right - style.badge - 5 * MM
    title_size = fit_size(words.title, style.title, room_right - geo.left, bold=True)
    title_y = geo.top - 0.8 * style.title
    items.append(Text(geo.left, title_y, words.title, title_size, True))
    row1 = title_y - style.field_gap - 0.25 * style.title
    row2 = row1 - style.field_gap
    width = room_right - geo.left
    split1 = geo.left + 0.66 * width
    split2 = geo.left + 0.48 * width
    gap = 4 * MM
    name_items, name_start = _field(words.name, geo.left, split1 - gap, row1, style.label)
    class_items, class_start = _field(words.klass, split1, room_right, row1, style.label)
    date_items, date_start = _field(words.date, geo.left, split2 - gap, row2, style.label)
    total_w = text_width(words.score_total, style.label)
    score_items, _ = _field(words.score, split2, room_right - total_w - 1.5 * MM, row2, style.label)
    total = Text(room_right, row2, words.score_total, style.label, align="right")
    items += name_items + class_items + date_items + score_items + [total]
    spots = Spots(
        _spot(name_start, split1 - gap, row1),
        _spot(class_start, room_right, row1),
        _spot(date_start, split2 - gap, row2),
    )
    bottom = min(row2 - 0.4 * style.label, badge_bottom) - 3 * MM
    return items, spots, bottom


def _next_header(letter: str, words: SheetWords, geo: Geometry) -> tuple[list[Item], Spots, float]:
    """Later pages: the badge and the name line, so a loose page still says whose it is."""
    style = geo.style
    items, badge_bottom = _badge(letter, words, geo)
    room_right = geo.right - style.badge - 5 * MM
    row = badge_bottom + 1 * MM
    end = geo.left + 0.66 * (room_right - geo.left)
    name_items, name_start = _field(words.name, geo.left, end, row, style.label)
    items += name_items
    return items, Spots(_spot(name_start, end, row)), badge_bottom - 3 * MM


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

    @property
    def name(self) -> NameSpot:
        return self.spots.name


def _intro(heading: str, instruction: str, geo: Geometry) -> tuple[float, list[tuple[str, bool]]]:
    """Height and lines (text, bold) of a section's heading and instruction."""
    style = geo.style
    width = geo.right - geo.left
    lines = [(line, True) for line in wrap(heading, style.heading, width, bold=True)]
    lines += [(line, False) for line in wrap(instruction, style.instruction, width)]
    height = sum((style.heading if bold else style.instruction) * LEADING for _, bold in lines)
    return height + SECTION_GAP, lines


def version_pages(
    version: VersionSheet, words: SheetWords, geo: Geometry, per_page: int | None = None
) -> list[SheetPage]:
    """The pages of one version, without any pupil's name; at most `per_page` problems a page."""
    pages: list[tuple[list[Item], Spots, int]] = []
    items, spots, y = _first_header(version.letter, words, geo)
    on_page = 0

    def new_page() -> None:
        nonlocal items, spots, y, on_page
        pages.append((items, spots, on_page))
        items, spots, y = _next_header(version.letter, words, geo)
        on_page = 0

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
                if y - need < geo.bottom and on_page:
                    new_page()
                if index == 0:
                    for text, bold in lines:
                        size = geo.style.heading if bold else geo.style.instruction
                        y -= size * LEADING
                        items.append(Text(geo.left, y + 0.28 * size, text, size, bold))
                    y -= SECTION_GAP
                row_top = y
                y -= geo.cell_h + ROW_GAP
            items += cell_items(problem, geo.cell_x(column), row_top, geo)
            column = (column + 1) % geo.columns
            on_page += 1
        y -= SECTION_GAP
    pages.append((items, spots, on_page))
    total = len(pages)
    label = words.large_page if geo.large_print and words.large_page else words.page
    return [
        SheetPage(
            tuple(page_items + _footer(words.footer(version.letter), label(k, total), geo)),
            page_spots,
            count,
        )
        for k, (page_items, page_spots, count) in enumerate(pages, start=1)
    ]


STRETCH = (1.5, 1.4, 1.3, 1.2, 1.1)


def roomier(
    geo: Geometry, version: VersionSheet, words: SheetWords, per_page: int | None = None
) -> Geometry:
    """The widest line gap (up to 1.5×) that keeps the number of pages: space left on
    the pages becomes writing space."""
    pages = len(version_pages(version, words, geo, per_page))
    for factor in STRETCH:
        wider = replace(geo, line_gap=geo.style.line_gap * factor)
        if len(version_pages(version, words, wider, per_page)) == pages:
            return wider
    return geo


COMPACT_BOX = 0.78  # the target box may shrink to this share (two digits still fit large)


def compact(geo: Geometry) -> Geometry:
    """The same sheet with the smallest readable dice and a smaller target box: what a
    one-page sheet may give up. The writing lines keep their minimum distance."""
    style = replace(geo.style, box=max(geo.style.min_die, geo.style.box * COMPACT_BOX))
    return replace(geo, die=min(geo.die, geo.style.min_die), style=style)


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
    """The geometry for one style of print, checked against --per-page and --one-page."""
    problems = sum(len(s.problems) for s in version.sections)
    if one_page:
        for candidate in (geo, compact(geo)):
            pages = version_pages(version, words, candidate)
            if len(pages) == 1:
                return roomier(candidate, version, words)
        raise PagesDoNotFit(problems, len(pages), pages[0].problems, geo)
    if per_page is not None:
        pages = version_pages(version, words, geo)
        want = min(per_page, problems)
        if pages[0].problems < want:
            raise PagesDoNotFit(want, 2, pages[0].problems, geo)
    return roomier(geo, version, words, per_page)


def name_text(name: str, spot: NameSpot, geo: Geometry) -> Text:
    """A pupil's name written on the name line."""
    return Text(spot.x, spot.y, name, fit_size(name, geo.style.name, spot.width))


# --- the answer key ---------------------------------------------------------------------

KEY_SIZE = 9.5
KEY_ROW = 6.2 * MM
KEY_WIDTHS = (0.5, 1.5, 0.7, 2.5, 0.95, 1.2)
KEY_ALIGN: tuple[Align, ...] = ("right", "center", "center", "left", "center", "center")


KEY_THEME = Theme(
    headings={
        1: TextStyle(TEXT_TITLE, bold=True, after=3 * MM),  # the key's title
        2: TextStyle(14, bold=True, after=2.5 * MM),  # a version
        3: TextStyle(12, bold=True, after=2.5 * MM),  # the class list
        4: TextStyle(10.5, bold=True, after=1.5 * MM),  # a section of a version
    },
    paragraphs={"body": TextStyle(KEY_SIZE, after=2.5 * MM)},
    table=TableStyle(KEY_SIZE, KEY_ROW, after=3 * MM),
)


def key_story(key: AnswerKey) -> list[Flowable]:
    """The answer key: an overview (and the class list), then each version from a new page."""
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
    columns = tuple(Column(t, w, a) for t, w, a in zip(key.columns, KEY_WIDTHS, KEY_ALIGN))
    for index, version in enumerate(key.versions):
        part: list[Flowable] = [Heading(version.heading, 2)]
        for section in version.sections:
            if section.heading:
                part.append(Heading(section.heading, 4))
            part.append(Table(columns, section.rows))
        # the first version stays below the overview only if it fits there whole
        story += [PageBreak()] if index else []
        story.append(Group(tuple(part), fresh_if_long=True))
    return story


def key_pages(key: AnswerKey, page_w: float, page_h: float) -> list[Page]:
    """The answer key's pages, each with the footer and "page k of N"."""

    def footer(k: int, total: int) -> list[Item]:
        return footer_line(MARGIN, page_w - MARGIN, key.footer, key.page(k, total))

    frame = PageFrame(page_w, page_h, MARGIN, page_w - MARGIN, page_h - MARGIN,
                      MARGIN + 8 * MM, footer=footer)  # fmt: skip
    return [Page(tuple(items)) for items in flow_story(key_story(key), frame, KEY_THEME)]


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
            items.append(name_text(text, spot, geo))
    return items


def blank_page(text: str, geo: Geometry) -> Page:
    """The back of a pupil's last page in double-sided printing."""
    if not text:
        return Page(())
    size = geo.style.instruction
    return Page(
        (Text(geo.page_w / 2, geo.page_h / 2, text, size, align="center", color="#888888"),)
    )


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
    """
    problems = [p for v in versions for s in v.sections for p in s.problems]
    most = max(len(p.values) for p in problems)
    cards = any(p.kind == "cards" for p in problems)
    styles = sorted({large_print or copy.large_print for copy in copies})
    geos = {
        large: fitted(
            geometry(paper, large, most, cards),
            versions[0],
            words,
            pagination.per_page,
            pagination.one_page,
        )
        for large in styles
    }
    forms: dict[str, tuple[Item, ...]] = {}
    spots: dict[tuple[int, bool], list[Spots]] = {}
    for large, geo in geos.items():
        for v, version in enumerate(versions):
            built = version_pages(version, words, geo, pagination.per_page)
            spots[v, large] = [page.spots for page in built]
            for k, page in enumerate(built):
                forms[form_name(version.letter, k, large)] = page.items
    page_w, page_h = page_size(paper)
    pages: list[Page] = []
    counts: list[int] = []
    for copy in copies:
        large = large_print or copy.large_print
        letter = versions[copy.version].letter
        own = spots[copy.version, large]
        for k, page_spots in enumerate(own):
            page_items: list[Item] = [UseForm(form_name(letter, k, large))]
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

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
    Block,
    Column,
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
from generator.render.style import GREY
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
    title=18, label=11, name=14, instruction=10.5, heading=12, number=11, target=20, card=15,
    footer=7, die=11 * MM, min_die=8 * MM, box=13 * MM, badge=17 * MM, badge_letter=30,
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
        Text(x + w / 2, y + h / 2 - 0.36 * size, text, size, True, "center"),
    ]


def _arrow(x1: float, x2: float, y: float) -> list[Item]:
    head = 2.2 * MM
    return [
        Line(x1, y, x2 - head, y, line_width=1.4),
        Polygon(((x2, y), (x2 - head, y + head * 0.6), (x2 - head, y - head * 0.6)), stroke=None,
                fill="#000000"),
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
    items.append(Circle(cx, mid, r, stroke=None, fill="#333333"))
    size = fit_size(str(problem.number), style.number, 1.7 * r, bold=True)
    items.append(Text(cx, mid - 0.36 * size, str(problem.number), size, True, "center", "#ffffff"))
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
    items.append(Text(box_x + style.box / 2, mid - 0.36 * size, target, size, True, "center"))
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
        Text(x + side / 2, box_top - side / 2 - 0.36 * letter_size, letter, letter_size, True,
             "center"),
    ]  # fmt: skip
    return items, box_top - side


def _field(label: str, x: float, end: float, y: float, size: float) -> tuple[list[Item], float]:
    """A label and a line from x to end at baseline y; returns where the line starts."""
    start = x + text_width(label, size) + 1.5 * MM
    return [Text(x, y, label, size), Line(start, y - 1, end, y - 1, line_width=0.6)], start


def _first_header(
    letter: str, words: SheetWords, geo: Geometry
) -> tuple[list[Item], NameSpot, float]:
    """Title, badge and the four fields; returns the items, the name spot and the header bottom."""
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
    class_items, _ = _field(words.klass, split1, room_right, row1, style.label)
    date_items, _ = _field(words.date, geo.left, split2 - gap, row2, style.label)
    total_w = text_width(words.score_total, style.label)
    score_items, _ = _field(words.score, split2, room_right - total_w - 1.5 * MM, row2, style.label)
    total = Text(room_right, row2, words.score_total, style.label, align="right")
    items += name_items + class_items + date_items + score_items + [total]
    spot = NameSpot(name_start + 1 * MM, row1 + 1.5, split1 - gap - name_start - 2 * MM)
    bottom = min(row2 - 0.4 * style.label, badge_bottom) - 3 * MM
    return items, spot, bottom


def _next_header(
    letter: str, words: SheetWords, geo: Geometry
) -> tuple[list[Item], NameSpot, float]:
    """Later pages: the badge and the name line, so a loose page still says whose it is."""
    style = geo.style
    items, badge_bottom = _badge(letter, words, geo)
    room_right = geo.right - style.badge - 5 * MM
    row = badge_bottom + 1 * MM
    end = geo.left + 0.66 * (room_right - geo.left)
    name_items, name_start = _field(words.name, geo.left, end, row, style.label)
    items += name_items
    spot = NameSpot(name_start + 1 * MM, row + 1.5, end - name_start - 2 * MM)
    return items, spot, badge_bottom - 3 * MM


def _footer(text: str, page_label: str, geo: Geometry) -> list[Item]:
    size = geo.style.footer
    y = MARGIN
    items: list[Item] = [Text(geo.right, y, page_label, size, align="right", color=GREY)]
    if not geo.large_print:  # large print keeps every word ≥ 16 pt: only the page number
        room = geo.right - geo.left - text_width(page_label, size) - 6 * MM
        items.append(Text(geo.left, y, text, fit_size(text, size, room), color=GREY))
    return items


# --- a version's pages ------------------------------------------------------------------


@dataclass(frozen=True)
class SheetPage:
    items: tuple[Item, ...]
    name: NameSpot


def _intro(heading: str, instruction: str, geo: Geometry) -> tuple[float, list[tuple[str, bool]]]:
    """Height and lines (text, bold) of a section's heading and instruction."""
    style = geo.style
    width = geo.right - geo.left
    lines = [(line, True) for line in wrap(heading, style.heading, width, bold=True)]
    lines += [(line, False) for line in wrap(instruction, style.instruction, width)]
    height = sum((style.heading if bold else style.instruction) * 1.3 for _, bold in lines)
    return height + SECTION_GAP, lines


def version_pages(version: VersionSheet, words: SheetWords, geo: Geometry) -> list[SheetPage]:
    """The pages of one version, without any pupil's name."""
    pages: list[tuple[list[Item], NameSpot]] = []
    items, spot, y = _first_header(version.letter, words, geo)
    for section in version.sections:
        intro_h, lines = _intro(section.heading, section.instruction, geo)
        problems = list(section.problems)
        rows = [problems[i : i + geo.columns] for i in range(0, len(problems), geo.columns)]
        for index, row in enumerate(rows):
            need = geo.cell_h + (intro_h if index == 0 else 0)
            if y - need < geo.bottom:
                pages.append((items, spot))
                items, spot, y = _next_header(version.letter, words, geo)
            if index == 0:
                for text, bold in lines:
                    size = geo.style.heading if bold else geo.style.instruction
                    y -= size * 1.3
                    items.append(Text(geo.left, y + 0.28 * size, text, size, bold))
                y -= SECTION_GAP
            for column, problem in enumerate(row):
                items += cell_items(problem, geo.cell_x(column), y, geo)
            y -= geo.cell_h + ROW_GAP
        y -= SECTION_GAP
    pages.append((items, spot))
    total = len(pages)
    return [
        SheetPage(
            tuple(page_items + _footer(words.footer(version.letter), words.page(k, total), geo)),
            page_spot,
        )
        for k, (page_items, page_spot) in enumerate(pages, start=1)
    ]


STRETCH = (1.5, 1.4, 1.3, 1.2, 1.1)


def roomier(geo: Geometry, version: VersionSheet, words: SheetWords) -> Geometry:
    """The widest line gap (up to 1.5×) that keeps the number of pages: space left on
    the pages becomes writing space."""
    pages = len(version_pages(version, words, geo))
    for factor in STRETCH:
        wider = replace(geo, line_gap=geo.style.line_gap * factor)
        if len(version_pages(version, words, wider)) == pages:
            return wider
    return geo


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
        1: TextStyle(16, bold=True, after=3 * MM),  # the key's title
        2: TextStyle(14, bold=True, after=2.5 * MM),  # a version
        3: TextStyle(12, bold=True, after=2.5 * MM),  # the class list
        4: TextStyle(10.5, bold=True, after=1.5 * MM),  # a section of a version
    },
    paragraphs={"body": TextStyle(KEY_SIZE, after=2.5 * MM)},
    table=TableStyle(KEY_SIZE, KEY_ROW, after=3 * MM),
)


def key_story(key: AnswerKey) -> list[Block]:
    """The answer key: an overview (and the class list), then each version from a new page."""
    story: list[Block] = [Heading(key.title, 1), *(Paragraph(text) for text in key.intro)]
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
        blocks: list[Block] = [Heading(version.heading, 2)]
        for section in version.sections:
            if section.heading:
                blocks.append(Heading(section.heading, 4))
            blocks.append(Table(columns, section.rows))
        # the first version stays below the overview only if it fits there whole
        story += [PageBreak()] if index else []
        story.append(Group(tuple(blocks), fresh_if_long=True))
    return story


def key_pages(key: AnswerKey, page_w: float, page_h: float) -> list[Page]:
    """The answer key's pages, each with the footer and "page k of N"."""

    def footer(k: int, total: int) -> list[Item]:
        return [
            Text(MARGIN, MARGIN, key.footer, 7, color=GREY),
            Text(page_w - MARGIN, MARGIN, key.page(k, total), 7, align="right", color=GREY),
        ]

    frame = PageFrame(page_w, page_h, MARGIN, page_w - MARGIN, page_h - MARGIN,
                      MARGIN + 8 * MM, footer=footer)  # fmt: skip
    return [Page(tuple(items)) for items in flow_story(key_story(key), frame, KEY_THEME)]


# --- the whole document -----------------------------------------------------------------


def layout_worksheet(
    versions: Sequence[VersionSheet],
    copies: Sequence[SheetCopy],
    words: SheetWords,
    key: AnswerKey | None,
    paper: str,
    large_print: bool,
) -> Document:
    """Every pupil's sheet (each version's pages drawn once as forms), then the answer key."""
    problems = [p for v in versions for s in v.sections for p in s.problems]
    geo = geometry(
        paper,
        large_print,
        max(len(p.values) for p in problems),
        any(p.kind == "cards" for p in problems),
    )
    geo = roomier(geo, versions[0], words)
    forms: dict[str, tuple[Item, ...]] = {}
    spots: list[list[NameSpot]] = []
    for version in versions:
        built = version_pages(version, words, geo)
        spots.append([page.name for page in built])
        for k, page in enumerate(built):
            forms[form_name(version.letter, k)] = page.items
    pages: list[Page] = []
    for copy in copies:
        letter = versions[copy.version].letter
        for k, spot in enumerate(spots[copy.version]):
            items: list[Item] = [UseForm(form_name(letter, k))]
            if copy.name:
                items.append(name_text(copy.name, spot, geo))
            pages.append(Page(tuple(items)))
    if key is not None:
        pages += key_pages(key, geo.page_w, geo.page_h)
    return Document(geo.page_w, geo.page_h, tuple(pages), forms, title=words.title)


def form_name(letter: str, page: int) -> str:
    """The form holding page `page` (0-based) of version `letter`."""
    return f"sheet-{letter}-{page + 1}"


def layout_key(key: AnswerKey, paper: str) -> Document:
    """The answer key as a document of its own (`--key-file`)."""
    page_w, page_h = page_size(paper)
    return Document(page_w, page_h, tuple(key_pages(key, page_w, page_h)), title=key.title)

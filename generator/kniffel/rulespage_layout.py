"""Geometry of the Kniffel/Yahtzee rules page: the text as a story, the boxes as a table
with drawn example dice, poured onto one page where 9.5 pt down to 8.5 pt allow it.

Portrait: one column. Landscape: two columns under the title (no line much longer than
on a portrait page), the box table in the first.
"""

from __future__ import annotations

from functools import partial

from generator.kniffel.rulespage import BoxLine, RulesView
from generator.render.dice import die_face
from generator.render.fit import wrap
from generator.render.flow import (
    Balanced,
    Bullet,
    BulletStyle,
    Columns,
    Cursor,
    Figure,
    Flowable,
    Group,
    Heading,
    PageBreak,
    PageFrame,
    PageLabel,
    Paragraph,
    TextStyle,
    Theme,
    flow_story,
    footer_line,
)
from generator.render.fonts import text_width
from generator.render.primitives import MM, Item, Line, Rect, Text
from generator.render.style import (
    FOOTER_ROOM,
    HEADER_FILL,
    INK,
    LEADING,
    RULE_GREY,
    TEXT_TITLE,
    ZEBRA_FILL,
    centred,
)

MARGIN = 12 * MM
GAP = 10 * MM  # between the columns of a landscape page
TWO_COLUMNS = 200 * MM  # a wider text area sets the rules in two columns
SIZES = (9.5, 9.0, 8.5, 8.0)  # the text shrinks (never below 8 pt) to keep the page one page
DIE = 4.0 * MM  # an example die: pips a child counts at a glance
DIE_GAP = 0.8 * MM
PAD = 1.1 * MM
SECTION_FILL = "#e9eef4"  # the band naming a section of the block


def rules_theme(size: float) -> Theme:
    """Rules text at `size`: paragraphs and bullets move on whole, headings stay with them."""
    return Theme(
        headings={
            1: TextStyle(TEXT_TITLE, bold=True, after=2.5 * MM, keep_lines=None),
            2: TextStyle(size + 1.5, bold=True, before=1.2 * MM, after=1 * MM, keep=14 * MM),
        },
        paragraphs={"body": TextStyle(size, after=1.6 * MM, keep_lines=None)},
        bullet=BulletStyle(
            TextStyle(size, after=1 * MM, indent=4 * MM, keep_lines=None),
            label_dx=1 * MM,
            label_bold=False,
        ),
    )


def _columns(view: RulesView, width: float, size: float) -> tuple[float, float, float, float]:
    """The table's column widths: box, need, points, example (the two texts share the rest)."""
    label_w = max(text_width(b.label, size, True) for b in view.boxes) + 2 * PAD
    label_w = max(label_w, text_width(view.columns[0], size, True) + 2 * PAD)
    said = max(text_width(b.example_text, size, True) for b in view.boxes)
    example_w = 5 * DIE + 4 * DIE_GAP + 1.5 * MM + said + 2 * PAD
    example_w = max(example_w, text_width(view.columns[3], size, True) + 2 * PAD)
    rest = width - label_w - example_w
    return label_w, 0.7 * rest, 0.3 * rest, example_w


def _row_h(box: BoxLine, widths: tuple[float, ...], size: float) -> float:
    lines = max(
        len(wrap(box.need, size, widths[1] - 2 * PAD)),
        len(wrap(box.points, size, widths[2] - 2 * PAD)),
    )
    return max(lines * size * LEADING, DIE) + 2 * PAD


def _band_h(size: float, lines: int = 1) -> float:
    return lines * size * LEADING + 2 * PAD


def _header_lines(view: RulesView, widths: tuple[float, ...], size: float) -> list[list[str]]:
    return [wrap(t, size, w - 2 * PAD, True) for t, w in zip(view.columns, widths)]


def box_table(
    view: RulesView, section: str, heading: str, header: bool, width: float, size: float
) -> Figure:
    """One section of the block as a table: the column header (if `header`), a band with
    the section's name, then a row per box with its example dice."""
    boxes = [b for b in view.boxes if b.section == section]
    widths = _columns(view, width, size)
    head = _band_h(size, max(len(x) for x in _header_lines(view, widths, size)))
    height = (head if header else 0) + _band_h(size) + sum(_row_h(b, widths, size) for b in boxes)
    return Figure(height + 2.5 * MM, partial(_draw_table, view, boxes, heading, header, size))


def _draw_table(
    view: RulesView,
    boxes: list[BoxLine],
    heading: str,
    header: bool,
    size: float,
    box: Cursor,
    theme: Theme,
) -> list[Item]:
    widths = _columns(view, box.width, size)
    xs = [box.left]
    for w in widths:
        xs.append(xs[-1] + w)
    items: list[Item] = []
    y = box.top
    band = _band_h(size)
    step = size * LEADING
    if header:
        titles = _header_lines(view, widths, size)
        head = _band_h(size, max(len(x) for x in titles))
        items.append(Rect(box.left, y - head, box.width, head, stroke=None, fill=HEADER_FILL))
        for x, title_lines in zip(xs, titles):
            for k, part in enumerate(title_lines):
                base = y - PAD - step + 0.25 * size - k * step
                items.append(Text(x + PAD, base, part, size, True))
        y -= head
    items.append(Rect(box.left, y - band, box.width, band, stroke=None, fill=SECTION_FILL))
    items.append(Text(box.left + PAD, centred(y - band / 2, size), heading, size, True))
    y -= band
    for i, line in enumerate(boxes):
        h = _row_h(line, widths, size)
        if i % 2:
            items.append(Rect(box.left, y - h, box.width, h, stroke=None, fill=ZEBRA_FILL))
        first = y - PAD - step + 0.25 * size  # the first text line's baseline
        items.append(Text(xs[0] + PAD, first, line.label, size, True))
        for col, text in ((1, line.need), (2, line.points)):
            for k, part in enumerate(wrap(text, size, widths[col] - 2 * PAD)):
                items.append(Text(xs[col] + PAD, first - k * step, part, size))
        dy = y - PAD - DIE
        dx = xs[3] + PAD
        for value in line.example:
            items += die_face(dx, dy, DIE, value)
            dx += DIE + DIE_GAP
        said = centred(dy + DIE / 2, size)
        items.append(Text(dx + 1.5 * MM - DIE_GAP, said, line.example_text, size, True))
        y -= h
        items.append(Line(box.left, y, box.right, y, stroke=RULE_GREY, line_width=0.4))
    items.append(Rect(box.left, y, box.width, box.top - y, stroke=INK, line_width=0.8))
    return items


def _groups(parts: tuple[tuple[str, tuple[str, ...], bool], ...]) -> list[Group]:
    """Each section as one group: its heading with its paragraphs or bullets."""
    return [
        Group((Heading(h), *(Bullet("•", t) if bullets else Paragraph(t) for t in texts)))
        for h, texts, bullets in parts
    ]


def rules_story(
    view: RulesView, width: float, size: float, two: bool, split: bool = False
) -> list[Flowable]:
    """The page as a story: the game, the boxes (across the page), bonus, joker, tips;
    `two`: the text before and after the boxes in two balanced columns; `split`: the
    sections after the boxes on a page of their own (two pages both well filled)."""
    before = _groups(tuple((h, texts, False) for h, texts in view.sections))
    after = _groups(view.after)
    tables: list[Flowable] = [
        box_table(view, "upper", view.upper_heading, True, width, size),
        box_table(view, "lower", view.lower_heading, False, width, size),
    ]
    if split:
        return [*before, *tables, PageBreak(), *after]
    if not two:  # the short last sections side by side: the page stays one page
        return [*before, *tables, *after[:-2], Columns(2), Balanced(tuple(after[-2:]))]
    return [Columns(2), Balanced(tuple(before)), Columns(1), *tables,
            Columns(2), Balanced(tuple(after))]  # fmt: skip


def rules_pages(
    view: RulesView, page_w: float, page_h: float, page: PageLabel | None = None
) -> list[list[Item]]:
    """The rules page: 9.5 pt, smaller (down to 8 pt) if that keeps it on one page; else two
    well-filled pages at 9.5 pt."""

    def footer(k: int, n: int) -> list[Item]:
        return footer_line(MARGIN, page_w - MARGIN, view.footer, page(k, n) if page else "")

    frame = PageFrame(
        page_w, page_h, MARGIN, page_w - MARGIN, page_h - MARGIN, FOOTER_ROOM + 1 * MM,
        column_gap=GAP, footer=footer,
    )  # fmt: skip
    content = page_w - 2 * MARGIN
    two = content > TWO_COLUMNS
    for size in SIZES:
        story: list[Flowable] = [Heading(view.title, 1), *rules_story(view, content, size, two)]
        pages = flow_story(story, frame, rules_theme(size))
        if len(pages) == 1:
            return pages
    # two pages at the full size: the game and the boxes, then bonus, joker, end and tips
    size = SIZES[0]
    story = [Heading(view.title, 1), *rules_story(view, content, size, two, split=True)]
    return flow_story(story, frame, rules_theme(size))

"""The story engine as numbers: columns, tables that continue, groups, headings, footers."""

from __future__ import annotations

import random

import pytest

from generator.render.flow import (
    Balanced,
    Bullet,
    BulletStyle,
    Column,
    ColumnBreak,
    Columns,
    Figure,
    Group,
    Heading,
    Overflow,
    PageBreak,
    PageFrame,
    Paragraph,
    Space,
    Table,
    TableStyle,
    TextStyle,
    Theme,
    flow_story,
    footer_line,
    measure,
)
from generator.render.primitives import MM, Item, Rect, Text

WORDS = ("Würfle", "bis", "zu", "dreimal", "lege", "Würfel", "beiseite", "oder", "nimm", "sie",
         "zurück", "Kribbeln", "Feld")  # fmt: skip
ROW_H = 6 * MM
THEME = Theme(
    headings={
        1: TextStyle(16, bold=True, after=3 * MM),
        2: TextStyle(12, bold=True, before=2 * MM),
    },
    paragraphs={"body": TextStyle(10), "keep": TextStyle(10, keep_lines=None)},
    bullet=BulletStyle(TextStyle(10, indent=5 * MM, keep_lines=2)),
    table=TableStyle(9, ROW_H, after=2 * MM),
)
# a text area 100 mm high and 120 mm wide, from (20 mm, 30 mm) to (140 mm, 130 mm)
TOP, BOTTOM, LEFT, RIGHT = 130 * MM, 30 * MM, 20 * MM, 140 * MM


def frame(**kw) -> PageFrame:
    return PageFrame(160 * MM, 160 * MM, LEFT, RIGHT, TOP, BOTTOM, column_gap=10 * MM, **kw)


def texts(page: list[Item]) -> list[Text]:
    return [i for i in page if isinstance(i, Text)]


def words(n: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(n))


def test_a_table_continues_on_the_next_page_under_its_header_again() -> None:
    columns = (Column("Nr.", 1, "right"), Column("Aufgabe", 3))
    rows = tuple((str(i), f"Zeile {i}") for i in range(40))
    pages = flow_story([Table(columns, rows)], frame(), THEME)
    per_page = int(100 * MM // ROW_H) - 1  # 16 rows of 6 mm in 100 mm, one is the header
    assert per_page == 15 and len(pages) == 3
    seen = []
    for page in pages:
        ts = texts(page)
        assert [t.text for t in ts[:2]] == ["Nr.", "Aufgabe"] and ts[0].bold
        assert all(BOTTOM <= t.y <= TOP for t in ts)
        seen += [t.text for t in ts[2:] if t.text.isdigit()]
    assert seen == [str(i) for i in range(40)]  # every row once, in order
    assert [len(texts(p)) // 2 - 1 for p in pages] == [15, 15, 10]


def test_a_table_in_two_columns_repeats_its_header_in_the_second() -> None:
    columns = (Column("Nr.", 1), Column("x", 1))
    rows = tuple((str(i), "x") for i in range(20))
    pages = flow_story([Columns(2), Table(columns, rows)], frame(), THEME)
    assert len(pages) == 1
    width = (RIGHT - LEFT - 10 * MM) / 2
    headers = [t for t in texts(pages[0]) if t.text == "Nr."]
    assert len(headers) == 2 and headers[0].y == headers[1].y
    second = [t for t in texts(pages[0]) if t.x >= LEFT + width + 10 * MM]
    assert [t.text for t in second if t.text.isdigit()] == [str(i) for i in range(15, 20)]


def test_balanced_tables_end_level_when_all_rows_fit_this_page() -> None:
    rows = tuple((str(i), "x") for i in range(9))
    table = Table((Column("Nr.", 1), Column("x", 1)), rows, balance=True)
    pages = flow_story([Columns(2), table], frame(), THEME)
    width = (RIGHT - LEFT - 10 * MM) / 2
    right = [t.text for t in texts(pages[0]) if t.x >= LEFT + width and t.text.isdigit()]
    assert right == ["5", "6", "7", "8"]  # 5 + 4 rows, not 9 + 0


def test_a_group_that_does_not_fit_the_rest_starts_the_next_page_whole() -> None:
    filler = Paragraph(words(150, 1))
    group = Group((Heading("Gruppe"), Paragraph(words(60, 2)), Paragraph(words(40, 3))))
    height = measure(group.flowables, RIGHT - LEFT, THEME)
    pages = flow_story([filler, group], frame(), THEME)
    first_room = min(t.y for t in texts(pages[0])) - BOTTOM
    assert first_room < height < 100 * MM  # it would have fitted a fresh page only
    heading = next(t for t in texts(pages[1]) if t.text == "Gruppe")
    assert heading.y == max(t.y for t in texts(pages[1])) > TOP - 20
    assert all(t.text != "Gruppe" for t in texts(pages[0]))


def test_a_group_taller_than_a_page_flows_from_where_it_is() -> None:
    group = Group(tuple(Paragraph(words(80, s)) for s in range(6)))
    assert measure(group.flowables, RIGHT - LEFT, THEME) > 100 * MM
    pages = flow_story([Paragraph("Vorab."), group], frame(), THEME)
    assert len(texts(pages[0])) > 5  # no page left empty but for one line


@pytest.mark.parametrize("seed", range(40))
def test_a_heading_never_ends_a_column(seed: int) -> None:
    rng = random.Random(seed)
    story = []
    for i in range(rng.randint(8, 25)):
        if rng.random() < 0.35:
            story.append(Heading(f"H{i} " + words(rng.randint(1, 6), seed + i), rng.choice((1, 2))))
        else:
            story.append(Paragraph(words(rng.randint(3, 60), seed * 100 + i)))
    pages = flow_story(story, frame(), THEME)
    heading_lines = set()
    for flowable in story:
        if isinstance(flowable, Heading):
            heading_lines.add(flowable.text.split()[0])
    for page in pages:
        ts = sorted(texts(page), key=lambda t: -t.y)
        assert all(t.y >= BOTTOM for t in ts)
        last = ts[-1]
        is_heading = last.bold and last.text.split()[0] in heading_lines
        assert not is_heading or (page is pages[-1] and isinstance(story[-1], Heading))


def test_paragraphs_kept_whole_move_on_whole() -> None:
    kept = Paragraph(words(60, 5), "keep")  # about 5 lines, 13 pt each
    split = Paragraph(kept.text)
    pages = flow_story([Space(80 * MM), kept], frame(), THEME)  # 20 mm left: 4 lines
    assert texts(pages[0]) == [] and len(pages) == 2
    assert " ".join(t.text for t in texts(pages[1])).split() == kept.text.split()
    pages = flow_story([Space(80 * MM), split], frame(), THEME)
    assert len(texts(pages[0])) == 4 and len(pages) == 2


def test_a_bullet_keeps_its_label_with_its_first_lines() -> None:
    # 1.5 lines of room left: the label and its first two lines move on together
    pages = flow_story([Space(100 * MM - 19.5), Bullet("1.", words(40, 7))], frame(), THEME)
    assert texts(pages[0]) == []
    label, first = texts(pages[1])[:2]
    assert label.text == "1." and label.x == LEFT and label.y == first.y
    assert first.x == pytest.approx(LEFT + 5 * MM)


def test_footers_say_page_k_of_n() -> None:
    footer = lambda k, n: [Text(LEFT, 10 * MM, f"Seite {k} von {n}", 7)]  # noqa: E731
    pages = flow_story([Paragraph(words(500, 8))], frame(footer=footer), THEME)
    assert len(pages) >= 3
    assert [texts(p)[-1].text for p in pages] == [
        f"Seite {k} von {len(pages)}" for k in range(1, len(pages) + 1)
    ]


def test_the_house_footer_keeps_its_page_label_and_shrinks_what_the_page_is() -> None:
    from generator.render.fonts import text_width
    from generator.render.style import EDGE, FOOTER_BASELINE, FOOTER_SIZE

    what = "Kribbeln · Lösungsblatt · Block-Nr. 12345 · dicesheets " * 3
    left, right = 12 * MM, 100 * MM
    line, page = footer_line(left, right, what, "Seite 2/3")
    assert (page.text, page.align, page.x, page.size) == ("Seite 2/3", "right", right, FOOTER_SIZE)
    assert line.x == left and line.y == page.y == FOOTER_BASELINE
    assert left + text_width(line.text, line.size) <= right - text_width(page.text, page.size)
    assert line.size == 6 and line.text.endswith("…") and what.startswith(line.text[:-1])
    assert FOOTER_BASELINE - 0.24 * FOOTER_SIZE > EDGE
    (only,) = footer_line(left, right, "Kniffel · dicesheets")
    assert only.size == FOOTER_SIZE and only.x == left


def test_columns_with_widths_a_column_break_and_a_figure_filling_the_rest() -> None:
    boxes = []

    def draw(box, theme) -> list[Item]:
        boxes.append((box.left, box.right, box.top, box.bottom))
        return [Rect(box.left, box.bottom, box.width, box.top - box.bottom)]

    story = [
        Heading("Titel", 1),
        Columns(widths=(40 * MM, 70 * MM)),
        Paragraph(words(20, 9)),
        ColumnBreak(),
        Figure(None, draw),
    ]
    pages = flow_story(story, frame(), THEME)
    assert len(pages) == 1
    title = texts(pages[0])[0]
    (left, right, top, bottom) = boxes[0]
    assert left == pytest.approx(LEFT + 50 * MM) and right == pytest.approx(LEFT + 120 * MM)
    assert bottom == BOTTOM and top == pytest.approx(title.y - 0.25 * 16 - 3 * MM)
    assert all(t.x + 0 <= LEFT + 40 * MM for t in texts(pages[0]))


def test_a_fixed_figure_moves_on_whole_and_space_counts() -> None:
    drawn = []
    fig = Figure(30 * MM, lambda box, theme: drawn.append(box.top) or [])
    pages = flow_story([Space(80 * MM), fig], frame(), THEME)
    assert len(pages) == 2 and drawn == [TOP]


def test_a_one_page_story_that_overflows_raises_overflow() -> None:
    with pytest.raises(Overflow):
        flow_story([Paragraph(words(400, 10))], frame(spill=False), THEME)
    assert len(flow_story([Paragraph("kurz")], frame(spill=False), THEME)) == 1


def test_a_page_break_never_leaves_a_blank_page() -> None:
    pages = flow_story([PageBreak(), Paragraph("a"), PageBreak(), PageBreak(), Paragraph("b")],
                       frame(), THEME)  # fmt: skip
    assert [[t.text for t in texts(p)] for p in pages] == [["a"], ["b"]]


def test_balanced_groups_end_at_about_the_same_height() -> None:
    groups = tuple(Group((Heading(f"G{i}", 2), Paragraph(words(12 + 4 * i, i)))) for i in range(5))
    pages = flow_story([Columns(2), Balanced(groups)], frame(), THEME)
    assert len(pages) == 1
    width = (RIGHT - LEFT - 10 * MM) / 2
    left = [t.y for t in texts(pages[0]) if t.x < LEFT + width]
    right = [t.y for t in texts(pages[0]) if t.x > LEFT + width]
    assert abs(min(left) - min(right)) < 25 * MM

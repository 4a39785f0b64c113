"""Shared text layout: wrapping and tables stay inside their width and height."""

from __future__ import annotations

from generator.render.fit import wrap
from generator.render.flow import Column, Cursor, paragraph, table
from generator.render.fonts import text_width
from generator.render.primitives import MM, Text

LOREM = "Würfle bis zu dreimal; lege Würfel beiseite oder nimm sie zurück. " * 12


def test_wrap_keeps_every_word_and_the_width() -> None:
    lines = wrap(LOREM, 10, 200)
    assert " ".join(lines).split() == LOREM.split()
    assert all(text_width(line, 10) <= 200 for line in lines)
    assert len(lines) > 3


def test_paragraph_stops_at_the_bottom_and_returns_the_rest() -> None:
    cursor = Cursor(left=50, right=250, top=200, bottom=150)
    items, rest = paragraph(cursor, LOREM, size=10)
    assert rest and len(items) == 3  # 50 pt of room, 13 pt per line
    assert all(isinstance(t, Text) and t.y >= 150 for t in items)
    assert " ".join(t.text for t in items).split() + rest.split() == LOREM.split()


def test_table_places_rows_that_fit() -> None:
    cursor = Cursor(left=0, right=100 * MM, top=100 * MM, bottom=40 * MM)
    rows = [[str(i), f"row {i}"] for i in range(50)]
    items, placed = table(cursor, [Column("#", 1, "right"), Column("text", 3)], rows, row_h=6 * MM)
    assert placed == 9  # 60 mm of room: header + 9 rows
    texts = [i for i in items if isinstance(i, Text)]
    assert texts[0].text == "#" and texts[-1].text == "row 8"
    assert cursor.top >= 40 * MM


def test_die_faces_have_their_pips_inside_the_die() -> None:
    from generator.render.dice import die_face
    from generator.render.primitives import Circle

    for value in range(1, 7):
        items = die_face(10, 20, 30, value)
        pips = [i for i in items if isinstance(i, Circle)]
        assert len(pips) == value
        assert all(
            p.x - p.r > 10 and p.x + p.r < 40 and p.y - p.r > 20 and p.y + p.r < 50 for p in pips
        )
    assert [i.text for i in die_face(0, 0, 20, 12) if isinstance(i, Text)] == ["12"]


def test_nice_ticks_and_bars_stay_in_their_frame() -> None:
    from generator.render.chart import Frame, bars, nice_ticks, polylines, scale_from_zero
    from generator.render.primitives import Line, Rect

    assert nice_ticks(0, 0.37) == [0, 0.1, 0.2, 0.3, 0.4]
    assert nice_ticks(0, 1200) == [0, 250, 500, 750, 1000, 1250]
    frame = Frame(50, 50, 200, 100)
    scale = scale_from_zero([1, 5, 3])
    rects = [i for i in bars(frame, [1, 5, 3], scale) if isinstance(i, Rect)]
    assert len(rects) == 3
    assert all(50 <= b.x and b.x + b.w <= 250 and b.y == 50 and b.y + b.h <= 150 for b in rects)
    tallest = max(rects, key=lambda b: b.h)
    assert tallest.h == 100  # 5 is a round tick: the tallest bar reaches the top
    lines = [
        i
        for i in polylines(frame, [[0.0, 0.5, 1.0]], scale_from_zero([], 1.0))
        if isinstance(i, Line)
    ]
    assert all(50 <= min(li.x1, li.x2) and max(li.x1, li.x2) <= 250 for li in lines)
    assert all(50 <= min(li.y1, li.y2) and max(li.y1, li.y2) <= 150 for li in lines)


def test_a_zoomed_chart_shows_deviations_from_its_reference() -> None:
    from generator.render.chart import Frame, Scale, bars, zoomed_scale
    from generator.render.primitives import Rect, Text

    seats = [0.255, 0.252, 0.248, 0.245]
    scale = zoomed_scale(seats, [0.25], min_span=0.02, floor=0.0, ceiling=1.0)
    assert scale.low <= 0.24 and scale.high >= 0.26 and scale.high - scale.low <= 0.05
    assert Scale(0, 1, (0, 1)).y(Frame(0, 10, 5, 100), 2.0) == 110  # clipped to the frame
    assert zoomed_scale([0.97, 0.99], [0.95], 0.0, 0.0, 1.0).high == 1.0  # never above 100 %
    frame = Frame(0, 0, 100, 100)
    items = bars(frame, seats, scale, base=0.25, value_label=lambda v: (f"{100 * v:.1f}",))
    rects = [i for i in items if isinstance(i, Rect)]
    base_y = scale.y(frame, 0.25)
    assert [r.y + r.h > base_y + 0.01 for r in rects] == [True, True, False, False]
    assert all(min(r.y, r.y + r.h) >= base_y - 0.01 or r.y + r.h <= base_y + 0.01 for r in rects)
    assert [t.text for t in items if isinstance(t, Text)] == ["25.5", "25.2", "24.8", "24.5"]
    # a label that fits no bar gives way to a shorter one, else none is printed
    narrow = Frame(0, 0, 40, 100)
    labels = [
        i.text
        for i in bars(narrow, seats, scale, value_label=lambda v: ("25,5 %", "25"))
        if isinstance(i, Text)
    ]
    assert labels == ["25"] * 4


def test_a_chart_head_stays_clear_of_the_top_tick_label() -> None:
    from generator.render.chart import SIZE, Frame, axes, head, scale_from_zero
    from generator.render.fonts import ascent, descent
    from generator.render.primitives import Text

    frame = Frame(50, 50, 300, 100)
    ticks = [t for t in axes(frame, scale_from_zero([1.0]), str) if isinstance(t, Text)]
    top_label = max(ticks, key=lambda t: t.y)
    top_of_ticks = top_label.y + ascent(top_label.size)
    lines = [
        t
        for t in head(frame, "Title", "unit", [("#000000", "mean", "dashed")], left=10)
        if isinstance(t, Text)
    ]
    assert [t.text for t in lines] == ["Title", "mean", "unit"]
    assert all(t.y - descent(t.size) > top_of_ticks for t in lines)
    assert lines[0].y - descent(lines[0].size) > lines[1].y + ascent(SIZE)  # title above key

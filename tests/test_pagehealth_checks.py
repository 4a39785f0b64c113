"""Each page-health check fails on a hand-made bad page and passes the same page made good."""

from __future__ import annotations

from generator.render.draw import render_pdf
from generator.render.fonts import text_width
from generator.render.primitives import MM, Document, Item, Line, Page, Rect, Text, page_size
from tests.pagehealth import Expect, page_health

W, H = page_size("a4")
FILL = (Rect(15 * MM, 15 * MM, W - 30 * MM, H - 30 * MM),)  # a frame that uses the page


PLAIN = Expect()


def findings(*pages: tuple[Item, ...], expect: Expect = PLAIN, check: str) -> list[str]:
    """What `check` finds on a document of these pages (each framed so that it is used)."""
    doc = Document(W, H, tuple(Page(FILL + items) for items in pages))
    return page_health(render_pdf(doc), doc, expect)[check]


def test_size_holds_teacher_pages_to_six_points() -> None:
    teacher = Expect(body_min=6.0)
    small = (Text(30 * MM, 200 * MM, "Feld 37: 15,4 %", 5.5),)
    assert findings(small, expect=teacher, check="size") == [
        "page 1: 'Feld 37: 15,4 %': body text 5.5 pt, below 6 pt"
    ]
    assert findings((Text(30 * MM, 200 * MM, "Feld 37: 15,4 %", 6.0),), expect=teacher,
                    check="size") == []  # fmt: skip


def test_used_wants_sixty_percent_but_of_a_documents_last_page() -> None:
    corner = (Rect(20 * MM, 200 * MM, 100 * MM, 60 * MM), Text(25 * MM, 250 * MM, "Aufgabe", 10))
    doc = Document(W, H, (Page(corner),))
    assert page_health(render_pdf(doc), doc, Expect())["used"] == [
        "page 1: only 11% of the page used (at least 60% expected)"
    ]
    assert page_health(render_pdf(doc), doc, Expect(last=True))["used"] == []
    assert findings(corner, check="used") == []  # framed: used


def test_glyphs_sees_a_character_the_embedded_font_lacks() -> None:
    # Ethiopic: neither DejaVu Sans nor the CJK fallback font has it
    name = (Text(30 * MM, 200 * MM, "Name: አበበ", 10), Text(30 * MM, 190 * MM, "Zoë Ødegård", 10))
    assert findings(name, check="glyphs") == [
        "page 1: 'Name: አበበ' (10.0 pt): 3 character(s) without a glyph in DejaVuSans: አበ"
    ]
    assert findings((Text(30 * MM, 190 * MM, "Zoë Ødegård Łukasz ✓", 10, bold=True),),
                    check="glyphs") == []  # fmt: skip


def test_lines_sees_a_rule_through_letters_and_descenders_on_the_rule() -> None:
    x, y = 30 * MM, 200 * MM
    width = text_width("Kniffel", 10)
    through = (Text(x, y, "Kniffel", 10), Line(x - 5, y + 3, x + width + 5, y + 3))
    assert findings(through, check="lines") == ["page 1: a rule runs through 'Kniffel' (10.0 pt)"]
    upright = (Text(x, y, "Kniffel", 10), Line(x + 10, y - 5, x + 10, y + 12))
    assert findings(upright, check="lines") == [
        "page 1: an upright runs through 'Kniffel' (10.0 pt)"
    ]
    # a name written on its rule: "Józef Piłsudski" has no descender, "Nguyễn" has one
    on_rule = (Text(x, y, "Anne", 10), Line(x, y - 1, x + 40 * MM, y - 1))
    assert findings(on_rule, check="lines") == []
    descender = (Text(x, y, "Nguyễn", 10), Line(x, y - 1, x + 40 * MM, y - 1))
    assert findings(descender, check="lines") == ["page 1: a rule runs through 'Nguyễn' (10.0 pt)"]
    below = (Text(x, y, "Nguyễn", 10), Line(x, y - 3.5, x + 40 * MM, y - 3.5))
    assert findings(below, check="lines") == []
    # a number's white box on a triangle's side: the side is hidden under it
    boxed = (Line(x - 20, y + 3, x + 40, y + 3), Rect(x - 2, y - 4, 20, 14, fill="#ffffff"),
             Text(x, y, "12", 10))  # fmt: skip
    assert findings(boxed, check="lines") == []


def test_spacing_sees_labels_closer_than_a_space() -> None:
    x, y = 30 * MM, 200 * MM
    w = text_width("30", 8)
    close = (Text(x, y, "30", 8), Text(x + w + 1.0, y, "28", 8))
    assert findings(close, check="spacing") == [
        "page 1: '30' and '28' 0.4 mm apart, less than a space (0.9 mm)"
    ]
    apart = (Text(x, y, "30", 8), Text(x + w + 4.0, y, "28", 8))
    assert findings(apart, check="spacing") == []
    runs = (Text(x, y, "Dreierpasch:", 8, bold=True),  # a bold word and the rest of its line
            Text(x + text_width("Dreierpasch:", 8, True), y, " drei gleiche", 8))  # fmt: skip
    assert findings(runs, check="spacing") == []
    percent = (Text(x, y, "2 %", 8), Text(x + text_width("2 %", 8) + 0.5, y, "3 %", 8))
    assert findings(percent, check="spacing") == [
        "page 1: '2 %' and '3 %' 0.2 mm apart, less than a space (0.9 mm)"
    ]
    # digits in their squares, a sum's tokens: apart all the same
    squares = (Text(x, y, "3", 8), Line(x + w / 2 + 1.2, y - 3, x + w / 2 + 1.2, y + 9),
               Text(x + w / 2 + 1.5, y, "0", 8))  # fmt: skip
    assert findings(squares, check="spacing") == []
    plus = text_width("1", 14, True)
    tokens = (Text(x, y, "1", 14, True), Text(x + plus + 2, y, "+", 14, True))
    assert findings(tokens, check="spacing") == []


def test_shortened_sees_user_data_cut_and_passes_it_wrapped() -> None:
    date, name = "Montag, 14. September 2026", "Maximilian-Alexander"
    x, y = 30 * MM, 200 * MM

    def shortened(*items: Item) -> list[str]:
        doc = Document(W, H, (Page(FILL + items),))
        return page_health(render_pdf(doc), doc, Expect(), data=(date, name))["shortened"]

    assert shortened(Text(x, y, "Datum: Montag …", 16)) == [
        "page 1: 'Montag, 14. September 2026' shortened to 'Datum: Montag …'"
    ]
    assert shortened(Text(x, y, "Maximilian-Al…", 9)) == [
        "page 1: 'Maximilian-Alexander' shortened to 'Maximilian-Al…'"
    ]
    assert shortened(Text(x, y, "Maximi-", 9), Text(x, y - 11, "lian-", 9)) == [
        "page 1: 'Maximilian-Alexander' shortened to 'Maximi- / lian-'"
    ]  # the third line missing
    whole = (Text(x, y, "Maximi-", 9), Text(x, y - 11, "lian-", 9),
             Text(x, y - 22, "Alexander", 9), Text(x, y - 60, f"Datum: {date}", 9))  # fmt: skip
    assert shortened(*whole) == []
    assert shortened(Text(x, y, "Maximilian-", 9), Text(x + 100, y - 11, "Alexander", 9)) == [
        "page 1: 'Maximilian-Alexander' shortened to 'Maximilian-'"
    ]  # the rest elsewhere on the page is no continuation
    assert shortened(Text(x, y, "Zwei Würfel", 9), Text(x, y - 11, "zeigen Blau", 9)) == []


def test_grey_sees_colours_that_look_alike_in_grey() -> None:
    x, y, side = 30 * MM, 200 * MM, 10 * MM
    red, green, blue = "#d62728", "#2ca02c", "#1f77b4"  # 0.39, 0.46, 0.42 in grey
    touching = (Rect(x, y, side, side, stroke=None, fill=red),
                Rect(x + side, y, side, side, stroke=None, fill=blue))  # fmt: skip
    assert findings(touching, check="grey") == [
        "page 1: areas #d62728 and #1f77b4 side by side, 3% apart in grey (at least 10%)"
    ]
    marked = (*touching, Text(x + 2, y + 2, "1", 9), Text(x + side + 2, y + 2, "2", 9))
    assert findings(marked, check="grey") == []  # a digit in each tells them apart
    series = (Line(x, y, x + side, y + side, stroke=red, line_width=1.2),
              Line(x, y + side, x + side, y, stroke=green, line_width=1.2))  # fmt: skip
    assert findings(series, check="grey") == [
        "page 1: lines #2ca02c and #d62728 (1.2 pt, one dash) 8% apart in grey (at least 20%)"
    ]
    bar = Rect(x, y, side, 4 * side, stroke=None, fill="#999999")  # 0.60 in grey
    mean = Line(x - 5, y + 20, x + side + 5, y + 20, stroke="#e377c2", line_width=0.8)  # 0.63
    assert findings((bar, mean), check="grey") == [
        "page 1: a #e377c2 line (0.8 pt) on #999999: 3% apart in grey (at least 20%)"
    ]
    halo = Line(x - 5, y + 20, x + side + 5, y + 20, stroke="#ffffff", line_width=2.2)
    assert findings((bar, halo, mean), check="grey") == []  # on a white halo: apart
    hatch = tuple(Line(x, y + k, x + side, y + k, stroke="#6a45a6", line_width=0.7)
                  for k in range(0, 20, 4)) + tuple(
        Line(x + k, y + 30, x + k + 6, y + 36, stroke="#a3366c", line_width=0.7)
        for k in range(0, 20, 4))  # fmt: skip
    assert findings(hatch, check="grey") == []  # two patterns of their own directions

"""What a teacher sees on the pupils' pages, as numbers: instructions and titles that wrap
well, names clear of their line, large print that is large, pages filled evenly."""

from __future__ import annotations

import pytest

from generator.numbers.expr import SYMBOLS
from generator.render.fonts import descent, text_width
from generator.render.primitives import MM, Circle, Line, Rect, Text, texts_of
from generator.render.style import DARK_GREY
from generator.text.words import Texts, maths
from generator.worksheet.build import brackets_help
from generator.worksheet.layout import (
    LARGE,
    NORMAL,
    cell_items,
    geometry,
    layout_sheets,
    level_rows,
    paginate,
    version_pages,
)
from generator.worksheet.load import load_family
from generator.worksheet.model import SheetCopy, ShownProblem, ShownSection, VersionSheet
from tests.test_worksheet_layout import WORDS

TITLE = (
    "Würfelrechnen für die Klasse 3b der Grundschule am Sonnenhang – Wiederholung vor den Ferien"
)
LONG_NAMES = ["Maximilian-Alexander Großkreutz", "Zoë Żółkiewska-Brzęczyszczykiewicz",
              "Nguyễn Văn An", "Jörg Pągowski", "Παναγιώτης Γεωργίου", "Ömer Çağlayan",
              "Hans-Joachim Friedrich-Wilhelm von Großkreutz-Brzęczyszczykiewicz"]  # fmt: skip


def sheet(instruction: str, problems: int = 20, values: int = 3, kind: str = "dice",
          title: str = "") -> VersionSheet:  # fmt: skip
    shown = tuple(
        ShownProblem(n, tuple((n + k) % 6 + 1 for k in range(values)), kind, 10 + n)
        for n in range(1, problems + 1)
    )
    return VersionSheet("A", (ShownSection("", instruction, shown),))


def instructions() -> list[tuple[str, str, str]]:
    """(family and level, language, instruction) for every shipped level."""
    found = []
    for family in ("koepfchen", "24"):
        for level in load_family(family).levels:
            for lang in ("de", "en"):
                text = Texts("worksheet", lang)(
                    "instruction",
                    kind=level.numbers.kind,
                    ops=[maths(SYMBOLS[op], lang) for op in level.rules.ops],
                    use_all=level.rules.use_all,
                    rational=level.rules.rational,
                    impossible=True,
                    brackets=brackets_help(level.rules.ops),
                )
                found.append((f"{family} {level.level}", lang, text))
    return found


def lines_at(items, size: float, bold: bool = False) -> list[Text]:
    return [t for t in items if isinstance(t, Text) and t.size == size and t.bold == bold]


@pytest.mark.parametrize("large", [False, True])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_instruction_leaves_a_word_alone_on_its_last_line(paper, large) -> None:
    style = LARGE if large else NORMAL
    geo = geometry(paper, large, 3, False)
    width = geo.right - geo.left
    for where, lang, text in instructions():
        first = version_pages(sheet(text), WORDS, geo)[0]
        printed = text.replace("\u00a0", " ")  # the no-break spaces print as spaces
        lines = [t for t in lines_at(first.items, style.instruction) if t.text in printed]
        assert " ".join(t.text for t in lines) == printed, where
        if len(lines) > 1:
            last = lines[-1].text
            assert len(last.split()) >= 2 and text_width(last, style.instruction) >= width / 4, (
                where, lang, last)  # fmt: skip
        # the list of signs never parts: "+, −, · und :" stands on one line
        listing = printed.split("darfst " if lang == "de" else "may use ")[1]
        listing = listing.split(" rechnen")[0].split(".")[0]
        assert any(listing in t.text for t in lines), (where, lang, listing)


@pytest.mark.parametrize("large", [False, True])
def test_a_long_title_wraps_and_keeps_every_word(large) -> None:
    style = LARGE if large else NORMAL
    geo = geometry("a4", large, 3, False)
    words = WORDS.__class__(**{**WORDS.__dict__, "title": TITLE})
    first = version_pages(sheet("Bilde die Zahl."), words, geo)[0]
    title = [t for t in first.items if isinstance(t, Text) and t.bold and t.y > geo.top - 40 * MM
             and t.text != "A"]  # fmt: skip
    assert 2 <= len(title) <= 3 and all(t.size >= (16 if large else 12) for t in title)
    room = geo.right - style.badge - 5 * MM
    assert all(t.x + text_width(t.text, t.size, True) <= room for t in title)
    assert " ".join(t.text for t in title) == TITLE  # whole, broken between words
    labels = [t for t in first.items if isinstance(t, Text) and t.text == WORDS.name]
    assert labels[0].y + 0.8 * labels[0].size < title[-1].y - descent(title[-1].size)


@pytest.mark.parametrize("large", [False, True])
def test_names_sit_clear_of_their_line_at_a_readable_size(large) -> None:
    style = LARGE if large else NORMAL
    copies = [SheetCopy(0, name, large, "3b", "Dienstag, 1. Dezember") for name in LONG_NAMES]
    doc, _ = layout_sheets([sheet("Bilde die Zahl.")], copies, WORDS, None, "a4", large)
    for page in doc.pages:
        form = [i for i in texts_of(page.items, doc.forms)]
        own = [t for t in page.items if isinstance(t, Text)]  # the pupil's words
        lines = [i for i in doc.forms[page.items[0].name] if isinstance(i, Line)]
        for text in own:
            assert text.size >= style.fill_min
            below = [ln for ln in lines if ln.x1 <= text.x <= ln.x2 and ln.y1 < text.y]
            line = max(below, key=lambda ln: ln.y1)
            assert text.y - descent(text.size) >= line.y1 + 0.5, text.text  # descenders clear
            assert text.x + text_width(text.text, text.size) <= line.x2 + 0.01
        # nothing of the form (a label, the title) where a pupil's words are written
        drawn = [t for t in form if isinstance(t, Text) and t not in own]
        for text in own:
            for other in drawn:
                apart = abs(text.y - other.y) >= 0.7 * max(text.size, other.size)
                left = text.x + text_width(text.text, text.size) <= other.x + 0.01
                right = other.x + text_width(other.text, other.size) <= text.x + 0.01
                assert apart or left or right, (text.text, other.text)
        assert form
    names = [t.text for p in doc.pages for t in p.items if isinstance(t, Text)]
    assert "Zoë Żółkiewska-Brzęczyszczykiewicz" in names  # whole, not shrunk away
    assert not any("…" in n for n in names)  # never shortened: 66 letters take two lines
    assert "Dienstag, 1. Dezember" in names


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("values", "cards"), [(3, False), (4, False), (4, True)])
def test_large_print_dice_are_half_as_big_again_in_two_columns(paper, values, cards) -> None:
    normal = geometry(paper, False, values, cards)
    large = geometry(paper, True, values, cards)
    assert large.columns == 2
    assert large.die >= 1.4 * NORMAL.die > normal.die  # 16 mm against at most 11 mm
    assert large.value_rows == 2 and large.per_row == 2  # the 24 game's four as a square


@pytest.mark.parametrize("large", [False, True])
def test_two_digit_numbers_and_targets_have_room(large) -> None:
    geo = geometry("a4", large, 3, False, last_number=20, largest_target=40)
    items = cell_items(ShownProblem(20, (3, 4, 5), "dice", 40), geo.left, geo.top, geo)
    [disc] = [i for i in items if isinstance(i, Circle) and i.fill == DARK_GREY]
    number = next(t for t in items if isinstance(t, Text) and t.text == "20")
    assert text_width("20", number.size, True) <= 0.7 * 2 * disc.r
    assert number.size == geo.style.number
    box = max((i for i in items if isinstance(i, Rect) and i.line_width == 1.8), key=lambda r: r.w)
    target = next(t for t in items if isinstance(t, Text) and t.text == "40")
    assert target.size == geo.style.target
    assert text_width("40", target.size, True) + 2 * 0.25 * target.size <= box.w


def test_rows_are_spread_evenly_over_the_pages() -> None:
    assert level_rows([2, 3, 3, 1]) == [2, 3, 2]  # then 2 on the last page, not 1
    assert level_rows([5, 1]) == [3]
    assert level_rows([5, 6, 6, 1]) == [5, 5, 4]
    assert level_rows([5, 6, 6, 6]) == [5, 6, 6]  # full pages stay full
    for large in (False, True):
        for problems in range(9, 41):
            geo = geometry("a4", large, 4, False)
            pages = paginate(sheet("Bilde die Zahl.", problems, 4), WORDS, geo)
            greedy = version_pages(sheet("Bilde die Zahl.", problems, 4), WORDS, geo)
            assert len(pages) == len(greedy)
            rows = [p.rows for p in pages]
            assert sum(p.problems for p in pages) == problems
            if len(rows) > 1:
                assert rows[-1] >= max(rows[1:]) - 1, (large, problems, rows)


def test_the_24_game_in_large_print_takes_four_pages() -> None:
    geo = geometry("a4", True, 4, False)
    pages = paginate(sheet("Bilde die Zahl.", 20, 4), WORDS, geo)
    assert len(pages) == 4 and min(p.problems for p in pages) >= 4  # was 6, the last with one

"""Worksheet layout as numbers: cells on the page, apart, big enough; large print is large."""

from __future__ import annotations

import pytest

from generator.render.primitives import MM, Circle, Rect, Text, page_size, texts_of
from generator.worksheet.layout import (
    LARGE,
    NORMAL,
    Geometry,
    geometry,
    layout_worksheet,
    roomier,
    version_pages,
)
from generator.worksheet.model import (
    SheetCopy,
    SheetWords,
    ShownProblem,
    ShownSection,
    VersionSheet,
)

WORDS = SheetWords(
    title="Würfelrechnen – Stufe 2",
    name="Name",
    klass="Klasse",
    date="Datum",
    score="Punkte",
    score_total="/ 20",
    version="Gruppe",
    footer=lambda letter: f"Würfelrechnen · Gruppe {letter}",
    page=lambda page, pages: f"Seite {page}/{pages}",
)


def version(letter: str = "A", problems: int = 20, values: int = 3, kind: str = "dice",
            sections: int = 1) -> VersionSheet:  # fmt: skip
    shown = []
    number = 1
    per = problems // sections
    for s in range(sections):
        items = []
        for _ in range(per):
            vals = tuple((number + k) % (6 if kind == "dice" else 13) + 1 for k in range(values))
            items.append(ShownProblem(number, vals, kind, 10 + number))
            number += 1
        heading = f"Abschnitt {s + 1}" if sections > 1 else ""
        shown.append(ShownSection(heading, "Bilde die Zahl im Kasten aus den Würfeln. " * 2,
                                  tuple(items)))  # fmt: skip
    return VersionSheet(letter, tuple(shown))


def cells(items) -> list[Rect]:
    """The cell frames: the rounded grey rectangles."""
    return [i for i in items if isinstance(i, Rect) and i.stroke == "#b8b8b8"]


def overlap(a: Rect, b: Rect) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("large", [False, True])
@pytest.mark.parametrize(("values", "kind"), [(3, "dice"), (4, "cards"), (4, "dice")])
def test_cells_fit_the_page_and_do_not_touch(paper, large, values, kind) -> None:
    v = version(values=values, kind=kind, sections=2)
    geo = roomier(geometry(paper, large, values, kind == "cards"), v, WORDS)
    width, height = page_size(paper)
    pages = version_pages(v, WORDS, geo)
    frames = [c for page in pages for c in cells(page.items)]
    assert len(frames) == 20
    for page in pages:
        boxes = cells(page.items)
        for i, a in enumerate(boxes):
            assert a.x >= 10 * MM and a.x + a.w <= width - 10 * MM + 0.01
            assert a.y >= geo.bottom - 0.01 and a.y + a.h <= height - 10 * MM
            assert not any(overlap(a, b) for b in boxes[i + 1 :])
        for item in page.items:  # nothing drawn off the page
            if isinstance(item, (Rect, Circle)):
                x, y = (item.x, item.y) if isinstance(item, Rect) else (item.x - item.r, item.y)
                assert 0 <= x <= width and 0 <= y <= height
    assert geo.die >= (LARGE if large else NORMAL).min_die - 1e-9


def test_large_print_sizes_and_more_writing_space() -> None:
    normal = geometry("a4", False, 3, False)
    large = geometry("a4", True, 3, False)
    for size in ("label", "name", "instruction", "heading", "number", "target", "card", "footer"):
        assert getattr(LARGE, size) >= 16, size
    assert large.style.line_gap > normal.style.line_gap
    assert large.cell_h - large.row_h > normal.cell_h - normal.row_h
    assert large.die > normal.die and large.style.box > normal.style.box
    texts = [t for page in version_pages(version(), WORDS, large) for t in page.items
             if isinstance(t, Text)]  # fmt: skip
    assert min(t.size for t in texts) >= 16


def test_children_get_room_to_write() -> None:
    for large in (False, True):
        geo = geometry("a4", large, 3, False)
        assert geo.style.lines >= 2
        assert geo.style.line_gap >= 8 * MM
        assert geo.die >= 8 * MM and geo.style.box >= 12 * MM
    assert geometry("a4", False, 3, False).columns == 2


def test_roomier_widens_lines_without_adding_pages() -> None:
    v = version()
    base = geometry("a4", False, 3, False)
    wide = roomier(base, v, WORDS)
    assert isinstance(wide, Geometry)
    assert wide.line_gap >= base.line_gap
    assert len(version_pages(v, WORDS, wide)) == len(version_pages(v, WORDS, base))


def test_every_version_page_is_a_form_and_names_go_on_top() -> None:
    versions = [version("A"), version("B")]
    copies = [SheetCopy(0, "Zoë"), SheetCopy(1, "Søren"), SheetCopy(0, "Ömer")]
    doc = layout_worksheet(versions, copies, WORDS, None, "a4", False)
    per_sheet = len(doc.forms) // 2
    assert len(doc.pages) == 3 * per_sheet
    for i, copy in enumerate(copies):
        for k in range(per_sheet):
            page = doc.pages[i * per_sheet + k]
            texts = [t.text for t in texts_of(page.items, doc.forms)]
            assert copy.name in texts
            assert "AB"[copy.version] in texts
            assert f"Seite {k + 1}/{per_sheet}" in texts
    numbers = [t.text for p in doc.pages[:per_sheet] for t in texts_of(p.items, doc.forms)
               if t.bold and t.size == NORMAL.number]  # fmt: skip
    assert numbers == [str(n) for n in range(1, 21)]


def test_one_page_shrinks_dice_and_box_never_the_writing_lines() -> None:
    from dataclasses import replace as changed

    from generator.worksheet.layout import PagesDoNotFit, compact, fitted

    def sheet(problems: int) -> VersionSheet:
        """A version whose instruction takes three lines (as level 2's does)."""
        v = version(problems=problems)
        section = changed(v.sections[0], instruction=v.sections[0].instruction * 2)
        return changed(v, sections=(section,))

    def most(geo: Geometry) -> int:
        return version_pages(sheet(30), WORDS, geo)[0].problems

    base = geometry("a4", False, 3, False)
    [small] = compact(base)  # normal print: one way to make room
    assert small.cell_h < base.cell_h
    fits = most(small)
    assert fits > most(base)  # the smaller dice and box win a row
    geo = fitted(base, sheet(fits), WORDS, None, True)
    assert len(version_pages(sheet(fits), WORDS, geo)) == 1
    assert geo.die == base.style.min_die and geo.style.box < base.style.box
    assert geo.line_gap >= base.style.line_gap  # the writing lines keep their minimum
    with pytest.raises(PagesDoNotFit) as info:
        fitted(base, sheet(fits + 1), WORDS, None, True)
    assert info.value.fit == fits and info.value.needed > info.value.room


def answer_key(rows_per_version: tuple[int, ...], sections: int = 1):
    from generator.worksheet.model import AnswerKey, KeySection, KeyVersion

    def rows(n: int) -> tuple[tuple[str, ...], ...]:
        return tuple((str(i), "1 · 2 · 3", "6", "1 + 2 + 3", "4", "2") for i in range(1, n + 1))

    versions = tuple(
        KeyVersion(f"Gruppe {chr(65 + v)}",
                   tuple(KeySection(f"Teil {s + 1}" if sections > 1 else "", rows(n))
                         for s in range(sections)))
        for v, n in enumerate(rows_per_version)
    )  # fmt: skip
    return AnswerKey(
        "Lösungen", ("Einleitung " * 30,), ("Nr.", "Würfel", "Ziel", "Lösung", "Anzahl", "Stufe"),
        versions, "Klassenliste", ("Name", "Gruppe"), (), "Fußzeile",
        lambda k, n: f"Seite {k}/{n}",
    )  # fmt: skip


def key_page_texts(key) -> list[list[Text]]:
    from generator.worksheet.layout import key_pages

    w, h = page_size("a4")
    return [[i for i in page.items if isinstance(i, Text)] for page in key_pages(key, w, h)]


def version_pages_of(pages: list[list[Text]]) -> dict[str, set[int]]:
    """The pages each version's rows are on (the numbers in the first column)."""
    found: dict[str, set[int]] = {}
    letter = ""
    for k, page in enumerate(pages):
        for t in page:
            if t.text.startswith("Gruppe"):
                letter = t.text[-1]
            elif t.text.isdigit() and t.x < 30 * MM:
                found.setdefault(letter, set()).add(k)
    return found


def test_versions_share_key_pages_each_kept_whole() -> None:
    pages = key_page_texts(answer_key((20, 20, 20)))
    heads = [[t.text for t in page if t.text.startswith("Gruppe")] for page in pages]
    assert heads == [["Gruppe A"], ["Gruppe B", "Gruppe C"]]  # was a page per version
    assert [page[-1].text for page in pages] == ["Seite 1/2", "Seite 2/2"]
    assert version_pages_of(pages) == {"A": {0}, "B": {1}, "C": {1}}
    small = key_page_texts(answer_key((8,) * 6))
    assert len(small) == 2 and all(len(p) == 1 for p in version_pages_of(small).values())
    # too long for the rest of the overview's page: A starts page 2, whole, B follows it
    pages = key_page_texts(answer_key((44, 5)))
    assert version_pages_of(pages) == {"A": {1}, "B": {2}} and pages[1][0].text == "Gruppe A"


def test_a_long_version_continues_under_its_header_and_no_section_heading_ends_a_page() -> None:
    pages = key_page_texts(answer_key((90,), sections=3))
    assert len(pages) >= 4 and pages[1][0].text == "Gruppe A"  # too long: it starts a page
    for page in pages[2:]:  # a table continues under its header again, or a part begins
        assert page[0].text == "Nr." or page[0].text.startswith("Teil")
    for page in pages:
        body = [t for t in page if not t.text.startswith(("Seite", "Fußzeile"))]
        assert not body[-1].text.startswith("Teil")


def test_a_class_set_draws_a_version_only_when_one_of_its_pages_is_asked_for() -> None:
    """The cut of every version's pages is known at once (the page count, each pupil's
    first page); the cells are drawn when a page is, and they are `paginate`'s."""
    from generator.render.primitives import LaterForms
    from generator.worksheet.layout import form_name, layout_sheets, paginate

    versions = [version(letter, 30) for letter in "ABC"]
    copies = [SheetCopy(i % 3, f"Kind {i}", i == 4, "", "") for i in range(9)]
    doc, pages = layout_sheets(versions, copies, WORDS, None, "a4")
    forms = doc.forms
    assert isinstance(forms, LaterForms) and not forms.made
    assert len(doc.pages) == sum(pages) and len(set(pages)) == 2  # large print: more pages
    first = forms[form_name("B", 0)]
    assert forms.made == {form_name("B", k) for k in range(pages[1])}  # B in normal print
    drawn = paginate(versions[1], WORDS, roomier(geometry("a4", False, 3, False, 30, 40),
                                                  versions[1], WORDS))  # fmt: skip
    assert first == drawn[0].items and len(cells(first)) > 0
    assert dict(forms).keys() == forms.made  # every form drawn when all are asked for

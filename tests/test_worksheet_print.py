"""A class set as a teacher prints it, read back from the PDF: the rules the problems need
are said, a pupil's header keeps every word, pages are used, solutions read left to right."""

from __future__ import annotations

import io
from dataclasses import replace
from fractions import Fraction
from functools import cache

import pdfplumber
import pytest

from generator.core.errors import DoesNotFit
from generator.io.cache import DISK
from generator.render.draw import render_pdf
from generator.render.primitives import MM
from generator.worksheet.build import WorksheetRequest
from generator.worksheet.layout import LARGE, MARGIN, NORMAL
from generator.worksheet.load import load_family, load_worksheet
from generator.worksheet.pool import level_pool
from generator.worksheet.sheet import build_sheet

BRACKETS = {"de": "Klammern sind erlaubt.", "en": "Brackets are allowed."}


@cache
def pdf_of(req: WorksheetRequest) -> tuple[bytes, dict]:
    """The PDF of a request and its manifest contents."""
    built = build_sheet(load_worksheet(req), req)
    return render_pdf(built.document), built.contents


def texts(req: WorksheetRequest, left_of_badge: bool = False) -> list[str]:
    """Every page's text, its lines joined by spaces (with `left_of_badge`, the page without
    the version badge's column, so the header's lines read in order)."""
    found = []
    with pdfplumber.open(io.BytesIO(pdf_of(req)[0])) as pdf:
        for page in pdf.pages:
            if left_of_badge:
                badge = (LARGE if req.large_print else NORMAL).badge
                page = page.crop((0, 0, page.width - MARGIN - badge - 1 * MM, page.height))
            found.append(" ".join((page.extract_text() or "").split()))
    return found


def sheet_texts(req: WorksheetRequest, left_of_badge: bool = False) -> list[str]:
    """The text of the pupils' pages (the key left out)."""
    found = texts(req, left_of_badge)
    pages = sum(sheet["pages"] for sheet in pdf_of(req)[1]["sheets"])
    return found[:pages]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize(("family", "level"), [("koepfchen", 1), ("koepfchen", 2),
                                               ("koepfchen", 3), ("koepfchen", 4), ("24", 1),
                                               ("24", 4)])  # fmt: skip
def test_the_instruction_says_brackets_where_they_can_help(family, level, lang) -> None:
    """Level 4 problems all need brackets: a sheet whose signs mix + or − with × or ÷ says
    they are allowed; level 1 (+ and − only, Klasse 1) does not talk of them."""
    req = WorksheetRequest(family=family, level=level, problems=4, lang=lang, seed=3, key=False)
    first = sheet_texts(req)[0]
    assert (BRACKETS[lang] in first) == (level > 1 or family == "24"), first


def test_no_brackets_sentence_when_the_signs_do_not_mix() -> None:
    for ops in ("+-", "*"):
        req = WorksheetRequest(level=3, ops=ops, problems=4, seed=3, key=False, targets="1-12")
        assert BRACKETS["de"] not in sheet_texts(req)[0], ops


DATE = "Montag, 14. September 2026"
LONG_TITLE = "Würfelrechnen für die Klasse 3b der Grundschule am Sonnenhang – Wiederholung"
LONG_NAME = "Hans-Joachim Friedrich-Wilhelm von Großkreutz-Brzęczyszczykiewicz"


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("large", [False, True])
def test_a_pupils_header_keeps_every_word(paper, large) -> None:
    """The date, the class, a long title and a long name are printed whole (on two lines
    where one is too short), never cut with "…"."""
    req = WorksheetRequest(
        problems=6, seed=5, key=False, paper=paper, large_print=large, date=DATE,
        klass="3b Sonnenblumen", title=LONG_TITLE, names=f"Anna, {LONG_NAME}",
    )  # fmt: skip
    pages = [p.replace("- ", "-") for p in sheet_texts(req, left_of_badge=True)]
    firsts = [p for p in pages if "Punkte" in p]
    assert len(firsts) == 2
    for text in pages:
        assert "…" not in text
    for text in firsts:
        assert DATE in text and "3b Sonnenblumen" in text and LONG_TITLE in text
    assert sum(LONG_NAME in p for p in pages) == len(pages) // 2  # on every page of the sheet


def used(req: WorksheetRequest) -> list[float]:
    """The share of every pupil's page (inside 10 mm, the footer aside) that its content
    spans: words, frames, dice and writing lines."""
    shares = []
    pages = sum(sheet["pages"] for sheet in pdf_of(req)[1]["sheets"])
    with pdfplumber.open(io.BytesIO(pdf_of(req)[0])) as pdf:
        for page in pdf.pages[:pages]:
            foot = page.height - 22 * MM
            found = [o for o in (*page.chars, *page.rects, *page.lines) if o["bottom"] < foot]
            w = max(o["x1"] for o in found) - min(o["x0"] for o in found)
            h = max(o["bottom"] for o in found) - min(o["top"] for o in found)
            shares.append(w * h / ((page.width - 20 * MM) * (page.height - 20 * MM)))
    return shares


def numbers_by_page(req: WorksheetRequest) -> list[list[str]]:
    """The problem numbers (white on their discs, at the style's size) of each pupil page."""
    style = LARGE if req.large_print else NORMAL
    pages = sum(sheet["pages"] for sheet in pdf_of(req)[1]["sheets"])
    with pdfplumber.open(io.BytesIO(pdf_of(req)[0])) as pdf:
        return [
            [w["text"] for w in page.extract_words(extra_attrs=["size", "fontname"])
             if abs(w["size"] - style.number) < 0.05 and w["text"].isdigit()
             and "Bold" in w["fontname"]]
            for page in pdf.pages[:pages]
        ]  # fmt: skip


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_sheet_takes_the_fewest_pages(paper) -> None:
    """Problems that fit on one page (as --one-page shows: 12 on A4) take one, not 6 + 6 on
    two a third empty; 24 take two on A4, not three."""
    for problems in (10, 12, 14):
        req = WorksheetRequest(problems=problems, seed=2, key=False, paper=paper)
        try:
            pdf_of(replace(req, one_page=True))
        except DoesNotFit:
            continue
        assert pdf_of(req)[1]["pages_per_sheet"] == 1, problems
    if paper == "a4":
        for problems, pages in ((12, 1), (24, 2)):
            req = WorksheetRequest(problems=problems, seed=2, key=False)
            assert pdf_of(req)[1]["pages_per_sheet"] == pages, problems


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("problems", "per_page", "large"), [
    (12, 4, False), (12, 6, False), (20, 6, False), (20, None, False), (12, None, False),
    (20, None, True), (12, None, True), (20, 4, True),
])  # fmt: skip
def test_cells_grow_to_use_the_page(paper, problems, per_page, large) -> None:
    """Every pupil's page at least 60 % used, and --per-page still at most N a page."""
    req = WorksheetRequest(problems=problems, per_page=per_page, large_print=large, seed=2,
                           key=False, paper=paper)  # fmt: skip
    shares = used(req)
    assert min(shares) >= 0.6, [f"{s:.0%}" for s in shares]
    numbers = numbers_by_page(req)
    assert [n for page in numbers for n in page] == [str(n) for n in range(1, problems + 1)]
    if per_page:
        assert max(len(page) for page in numbers) <= per_page


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("family", ["koepfchen", "24"])
def test_the_key_explains_the_difficulty_in_plain_words(lang, family) -> None:
    """A teacher reads sentences, not a formula: no "(fewest numbers − 1)", no "3/2/1/0";
    fractions are mentioned only where the rules allow them."""
    req = WorksheetRequest(family=family, level=2, problems=4, lang=lang, seed=3)
    key = " ".join(texts(req)[sum(s["pages"] for s in pdf_of(req)[1]["sheets"]) :])
    plain = {"de": "1 Punkt für jede Zahl nach der ersten",
             "en": "1 point for each number after the first"}  # fmt: skip
    assert plain[lang] in key
    assert "3/2/1/0" not in key and " − 1)" not in key and "=" not in key
    fraction = {"de": "Bruch", "en": "fraction"}[lang]
    assert (fraction in key) == (family == "24")


def left_to_right(text: str) -> list[Fraction]:
    """Every step of `text` worked strictly left to right, as a pupil who has not learnt
    Punkt vor Strich reads it (a bracket first); the last is the result."""
    tokens = text.replace("(", " ( ").replace(")", " ) ").split()
    steps: list[Fraction] = []

    def run(pos: int) -> tuple[Fraction, int]:
        value, pos = operand(pos)
        while pos < len(tokens) and tokens[pos] != ")":
            op = tokens[pos]
            right, pos = operand(pos + 1)
            value = {"+": value + right, "−": value - right, "×": value * right,
                     "·": value * right, "÷": value / right, ":": value / right}[op]  # fmt: skip
            steps.append(value)
        return value, pos

    def operand(pos: int) -> tuple[Fraction, int]:
        if tokens[pos] == "(":
            value, pos = run(pos + 1)
            return value, pos + 1
        return Fraction(int(tokens[pos])), pos + 1

    value, _ = run(0)
    return [*steps, value]


@pytest.mark.parametrize(("family", "level"), [("koepfchen", 1), ("koepfchen", 2),
                                               ("koepfchen", 3), ("koepfchen", 4), ("24", 1),
                                               ("24", 2)])  # fmt: skip
def test_the_keys_solutions_read_left_to_right(family, level) -> None:
    """Every solution a key can print (the whole pool of the level), read left to right,
    makes the target and never goes below 0 or off the whole numbers on the way
    ("4 − (6 ÷ 6)", never "4 − 6 ÷ 6"; the 24 game's whole-step solutions alike)."""
    pool = level_pool(load_family(family).level(level), store=DISK)
    assert pool.solvable
    for problem in pool.solvable:
        assert problem.simplest is not None
        steps = left_to_right(problem.simplest)
        assert steps[-1] == problem.target, problem.simplest
        if family == "koepfchen":
            assert all(s >= 0 and s.denominator == 1 for s in steps), problem.simplest


@pytest.mark.parametrize("lang", ["de", "en"])
def test_large_print_footers_say_what_normal_ones_say(lang) -> None:
    """The version and the sheet's number in the same words in both print sizes."""
    req = WorksheetRequest(problems=6, seed=48213, key=False, lang=lang, names="Anna, Ben",
                           large_print_for="Ben")  # fmt: skip
    version, number = {"de": ("Gruppe A", "Blatt-Nr. 48213"),
                       "en": ("version A", "sheet no. 48213")}[lang]  # fmt: skip
    for text in sheet_texts(req):
        assert f"{version} · {number}" in text, text[-80:]

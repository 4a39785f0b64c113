"""A class set as a teacher prints it, read back from the PDF: the rules the problems need
are said, a pupil's header keeps every word, pages are used, solutions read left to right."""

from __future__ import annotations

import io
from functools import cache

import pdfplumber
import pytest

from generator.render.draw import render_pdf
from generator.worksheet.build import WorksheetRequest
from generator.worksheet.load import load_worksheet
from generator.worksheet.sheet import build_sheet

BRACKETS = {"de": "Klammern sind erlaubt.", "en": "Brackets are allowed."}


@cache
def pdf_of(req: WorksheetRequest) -> tuple[bytes, dict]:
    """The PDF of a request and its manifest contents."""
    built = build_sheet(load_worksheet(req), req)
    return render_pdf(built.document), built.contents


def texts(req: WorksheetRequest) -> list[str]:
    with pdfplumber.open(io.BytesIO(pdf_of(req)[0])) as pdf:
        return [" ".join((page.extract_text() or "").split()) for page in pdf.pages]


def sheet_texts(req: WorksheetRequest) -> list[str]:
    """The text of the pupils' pages (the key left out)."""
    found = texts(req)
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

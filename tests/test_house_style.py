"""One house style on every product, A4 and Letter alike: the footer (what the page is, and
"page k/N" where a part runs over pages) on one baseline in one size and grey, the titles in
two sizes, nothing printed within 5 mm of the paper's edge (`render.style`)."""

from __future__ import annotations

import pytest

from generator.render.primitives import Text, texts_of
from generator.render.style import (
    EDGE,
    FOOTER_BASELINE,
    FOOTER_INK,
    FOOTER_MIN,
    FOOTER_SIZE,
    TEXT_TITLE,
    TITLE,
)
from tests.test_page_health import LANGS, MATRIX, PAPERS, Case, cases

SHEETS = {
    "kniffel-block", "kniffel-family", "odds-card", "koepfchen-board", "kribbeln-sheet",
    "worksheet-sheet", "topic-sheet",
}  # fmt: skip
"""Page kinds players get: their title is `TITLE`; every other kind is a text page."""

PAGED = {
    "kniffel-block-rules", "odds-rules", "kniffel-rules",
    "koepfchen-rules", "koepfchen-key", "kribbeln-rules", "kribbeln-key", "worksheet-sheet",
    "worksheet-large-sheet", "worksheet-key", "topic-sheet", "topic-large-sheet", "topic-key",
    "report-kribbeln", "report-koepfchen",
}  # fmt: skip
"""Parts that may run over pages: their footer ends with the page label ("Seite 2/3")."""


PRODUCTS = list(MATRIX)
"""Each product: the page-health matrix's documents, built once for both files."""


def _cases(group: str) -> list[tuple[str, Case]]:
    return [
        (f"{paper} {'landscape' if landscape else 'portrait'} {lang}", case)
        for paper, landscape in PAPERS
        for lang in LANGS
        for case in cases(group, paper, landscape, lang)
    ]


@pytest.mark.parametrize("product", PRODUCTS)
def test_every_page_has_the_house_footer(product: str) -> None:
    for where, case in _cases(product):
        doc = case.built.document
        for k, (page, kind) in enumerate(zip(doc.pages, case.kinds), start=1):
            texts = texts_of(page.items, doc.forms)
            at = f"{where} {case.built.name} page {k} ({kind})"
            if kind == "kniffel-block":  # a footer under each block: two-up blocks are cut apart
                feet = [t for t in texts if "dicesheets" in t.text]
                assert feet and all(t.size == FOOTER_SIZE for t in feet), at
                continue
            feet = [t for t in texts if t.y == FOOTER_BASELINE]
            large = kind in ("worksheet-large-sheet", "topic-large-sheet")
            assert feet and all(t.color == FOOTER_INK for t in feet), at
            label = [t for t in feet if t.align == "right"]
            assert bool(label) == (kind in PAGED), at
            if label and not kind.startswith(("worksheet", "topic")):  # a pupil's own pages
                # one count through the whole PDF, as a printer's dialog counts: the key
                # after a board and its rules page is "Seite 4/5", not a new "Seite 1/2"
                assert label[0].text.endswith(f" {k}/{len(doc.pages)}"), (at, label[0].text)
            for t in feet:
                assert (t.size == 16.0) if large else FOOTER_MIN <= t.size <= FOOTER_SIZE, at
            assert FOOTER_BASELINE - 0.24 * max(t.size for t in feet) >= EDGE, at


def _title(texts: list[Text]) -> Text:
    return max((t for t in texts if t.bold), key=lambda t: (t.y, -t.x))


@pytest.mark.parametrize("product", PRODUCTS)
def test_titles_are_set_in_two_sizes(product: str) -> None:
    for where, case in _cases(product):
        doc = case.built.document
        seen = set()
        for k, (page, kind) in enumerate(zip(doc.pages, case.kinds), start=1):
            if kind in seen or kind.startswith(("worksheet", "topic")):  # a teacher's title
                continue
            seen.add(kind)
            title = _title(texts_of(page.items, doc.forms))
            at = f"{where} {case.built.name} page {k} ({kind}): {title.text!r}"
            assert title.size == (TITLE if kind in SHEETS else TEXT_TITLE), at

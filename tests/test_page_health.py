"""Page health of every page kind × A4/Letter × portrait/landscape × de/en with stress inputs.

Every product is built in memory through its `build_*()` with the harshest inputs a
user gives — eight long Unicode names (one of them CJK), a 90-character title, the
longest date, large print where it exists, odd and small player and game counts, the
options that change a layout — and every page is read
back from the PDF by the checks of `tests/pagehealth.py`. One test per page kind ×
check gathers the findings of the whole matrix, so a kind's check passes only when
it holds on every paper, orientation and language.

A check that a page kind still fails is marked `xfail(strict=True)` in `KNOWN`
with its owner and finding; whoever fixes it removes the mark (strict: a fixed page
whose mark stays fails the run). One kind: `pytest tests/test_page_health.py -k
kribbeln-sheet`; the findings readably: `python -m tests.test_page_health
kribbeln-sheet [check]`.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import pytest

from generator import registry
from generator.core.built import Built
from generator.io.catalog import Catalog
from generator.render.draw import render_pdf
from generator.render.primitives import MM
from generator.surface.model import Product
from tests.pagehealth import CHECKS, Expect, Field, page_health, report

NAMES = (
    "Nguyễn Văn An, Maximilian-Alexander, 王小明, Zoë Ölçek-Şahin, Łukasz Wróblewski, "
    "Anne-Sophie Ødegård, Bartholomäus Müller, Józef Piłsudski"
)
TITLE = "Würfelrechnen für die Klassen 3a und 3b der Grundschule am Schlossberg – Wiederholung 2026"
assert len(TITLE) == 90
DATE = "Montag, 14. September 2026"  # a worksheet's --date: the longest weekday and month
DATA = (*NAMES.split(", "), TITLE, DATE)
"""The user's texts of the matrix: wherever a page prints one, it prints it whole."""
LANGS = ("de", "en")
PAPERS = (("a4", False), ("a4", True), ("letter", False), ("letter", True))
PLAYERS = Expect(body_min=8.0, orphans=False)  # a sheet players write on: no story
LARGE_PRINT = Expect(body_min=16.0, large_print=True, orphans=False)  # promised ≥ 16 pt
TEXT = Expect(body_min=8.0)  # rules pages the players read
TEACHER = Expect(body_min=6.0)  # keys and reports: for the grown-up at the table


@dataclass(frozen=True)
class Case:
    """One product in one paper, orientation and language: its pages' kinds and expectations."""

    built: Built
    kinds: tuple[str, ...]  # the page kind of every page
    expect: tuple[Expect, ...]
    ends: frozenset[int] = frozenset()  # pages (1-based) that end a document inside a run
    # of one kind (a pupil's last page); a run's last page always ends one

    def expectations(self) -> tuple[Expect, ...]:
        """`expect`, each document's last page marked `last` (exempt from "used")."""
        n = len(self.kinds)
        ends = {k for k in range(1, n + 1) if k == n or self.kinds[k - 1] != self.kinds[k]}
        return tuple(replace(e, last=True) if k in ends | self.ends else e
                     for k, e in enumerate(self.expect, start=1))  # fmt: skip


# --- the products, loaded once (the inputs do not depend on paper or language) ----------


@cache
def _kniffel_inputs(rules: str) -> Any:
    from generator.kniffel.build import BlockRequest
    from generator.kniffel.load import load_block

    return load_block(BlockRequest(rules=rules))


@cache
def _odds_inputs(rules: str) -> Any:
    from generator.kniffel.build import OddsRequest
    from generator.kniffel.load import load_odds

    return load_odds(OddsRequest(rules=rules, games=2000))


@cache
def _board_inputs(profile: str) -> Any:
    from generator.koepfchen.build import BoardRequest
    from generator.koepfchen.load import load_board

    return load_board(BoardRequest(profile))


@cache
def _kribbeln_inputs() -> Any:
    from generator.kribbeln.build import BlockRequest
    from generator.kribbeln.load import load_block

    return load_block(BlockRequest(pages=2))


LARGE = "Maximilian-Alexander, 王小明"  # these pupils get large print

WORKSHEETS = (("koepfchen", 2, NAMES), ("24", 1, "Maximilian-Alexander, Nguyễn Văn An"))
"""The worksheets of the matrix: family, level and the class (two pupils in large print)."""


@cache
def _worksheet_inputs(family: str, level: int, names: str, lang: str) -> Any:
    from generator.worksheet.load import load_worksheet

    return load_worksheet(_worksheet_request(family, level, names, lang, "a4"))


def _worksheet_request(family: str, level: int, names: str, lang: str, paper: str) -> Any:
    from generator.worksheet.build import WorksheetRequest

    return WorksheetRequest(
        family=family, level=level, lang=lang, paper=paper, title=TITLE, names=names, date=DATE,
        large_print_for=LARGE if "王" in names else names.split(",")[0],
    )  # fmt: skip


@cache
def _report_inputs(game: str, players: int = 4, profile: str = "classic") -> Any:
    from generator.report.balance import ReportRequest, load_report

    return load_report(ReportRequest(game, profile, pages=2, games=200, players=players))


KNIFFEL_SETS = ((1, 1, "none"), (3, 3, "free"), (5, 5, "forced"))
"""(players, games, joker) of the per-player blocks beside the stress case: odd and small
counts (a lone last block, a lone player) and every joker of the rules page."""
FAMILY_SETS = ((6, 3), (3, 1), (5, 2))
"""(players, games) of the family sheet: the most it takes, and odd counts."""


def _kniffel_case(built: Built, fields: tuple[Field, ...]) -> Case:
    """A block's pages as the manifest names them: the blocks (centred, their writing
    fields promised), then the rules page(s)."""
    c = built.contents
    family = c["layout"] == "family"
    block = replace(PLAYERS, fields=fields, centred=True)
    kinds, expect = [], []
    for k in range(1, len(built.document.pages) + 1):
        if k in c["rules_pages"]:
            kinds.append("kniffel-block-rules")
            expect.append(TEXT)
        else:
            kinds.append("kniffel-family" if family else "kniffel-block")
            expect.append(block)
    return Case(built, tuple(kinds), tuple(expect))


def _block_fields(geo: Any, pages: int, rules: Any, min_w: float, min_h: float) -> list[Field]:
    """The game boxes and (Yahtzee) the bonus tick boxes of every block page."""
    from generator.kniffel import block_layout as bl

    tick = bl.tick_size(geo)
    fields = [Field("a game box", k, geo.col_w, geo.row_h, min_w, min_h)
              for k in range(1, pages + 1)]  # fmt: skip
    if rules.extra_yahtzee_bonus:
        fields += [Field("a bonus tick box", k, tick, tick, bl.MIN_TICK, bl.MIN_TICK)
                   for k in range(1, pages + 1)]  # fmt: skip
    return fields


def _kniffel_block(paper: str, landscape: bool, lang: str) -> list[Case]:
    """The stress block (eight long names, its rules page), odd and small player and game
    counts with each joker, and the family sheet of both rule sets."""
    from generator.kniffel import block_layout as bl
    from generator.kniffel import family_layout as fl
    from generator.kniffel.block import make_spec
    from generator.kniffel.build import BlockRequest, build_block

    rules = {"de": "kniffel", "en": "yahtzee"}[lang]
    inputs = _kniffel_inputs(rules)
    names = [n.strip() for n in NAMES.split(",")]
    cases = []
    requests = [BlockRequest(rules=rules, lang=lang, names=NAMES, paper=paper,
                             landscape=landscape)]  # fmt: skip
    requests += [
        BlockRequest(rules=rules, lang=lang, players=players, games=games, joker=joker,
                     names=",".join(names[:players]), paper=paper, landscape=landscape,
                     rules_page=joker != "none")
        for players, games, joker in KNIFFEL_SETS
    ]  # fmt: skip
    for req in requests:
        built = build_block(inputs, req)
        # the promises of kniffel/block_layout.py: a game box holds three handwritten
        # digits, a Yahtzee bonus tick box is one a pen hits
        spec = make_spec(inputs.rules, lang, req.players, req.games, req.names, 1,
                         inputs.templates)  # fmt: skip
        geo = bl.geometry(spec, paper, landscape, req.per_page)
        pages = len(built.contents["block_pages"])
        fields = _block_fields(geo, pages, inputs.rules, bl.MIN_COL_W, bl.MIN_ROW_H)
        cases.append(_kniffel_case(built, tuple(fields)))
    for family_rules in ("kniffel", "yahtzee"):  # both rule sets on every paper
        family_inputs = _kniffel_inputs(family_rules)
        for players, games in FAMILY_SETS:
            req = BlockRequest(rules=family_rules, lang=lang, players=players, games=games,
                               names=",".join(names[:players]), layout="family", paper=paper,
                               landscape=landscape, rules_page=players == 6)  # fmt: skip
            built = build_block(family_inputs, req)
            spec = make_spec(family_inputs.rules, lang, players, games, req.names, 1,
                             family_inputs.templates)  # fmt: skip
            geo = fl.family_geometry(spec, paper, landscape)
            fields = _block_fields(geo, 1, family_inputs.rules, fl.MIN_COL_W, fl.MIN_ROW_H)
            cases.append(_kniffel_case(built, tuple(fields)))
    return cases


def _odds_card(paper: str, landscape: bool, lang: str) -> list[Case]:
    from generator.kniffel.build import OddsRequest, build_odds

    rules = {"de": "kniffel", "en": "yahtzee"}[lang]
    req = OddsRequest(rules=rules, lang=lang, games=2000, paper=paper, landscape=landscape)
    built = build_odds(_odds_inputs(rules), req)
    n = len(built.document.pages)
    kinds = tuple("odds-rules" if k in built.contents["rules_pages"] else "odds-card"
                  for k in range(1, n + 1))  # fmt: skip
    return [Case(built, kinds, (TEXT,) * n)]


def _kniffel_rules(paper: str, landscape: bool, lang: str) -> list[Case]:
    """The rules page of both rule sets, each joker on some paper."""
    from generator.kniffel.build import RulesRequest, build_rules

    jokers = {"kniffel": ("none", "free"), "yahtzee": ("forced", "free")}
    cases = []
    for rules, (first, second) in jokers.items():
        joker = second if landscape else first
        req = RulesRequest(rules=rules, joker=joker, lang=lang, paper=paper, landscape=landscape)
        built = build_rules(_kniffel_inputs(rules), req)
        n = len(built.document.pages)
        cases.append(Case(built, ("kniffel-rules",) * n, (TEXT,) * n))
    return cases


TYPED_TARGETS = (
    "3,8,12,5,7,9,10,11,13,14,15,16,17,18,20,21,22,24,25,26,27,28,30,32,33,35,36,40,42,45,"
    "48,50,54,60,64,72,80,90,100,120"
)
"""A classic board's targets as a teacher types them (`koepfchen board --targets`)."""


def _koepfchen(paper: str, landscape: bool, lang: str) -> list[Case]:
    from generator.koepfchen.build import BoardRequest, build_board
    from generator.koepfchen.layout import MIN_CELL

    cases = []
    boards = [(p, None) for p in ("classic", "plus-minus", "einmaleins", "challenge")]
    boards.append(("classic", TYPED_TARGETS))  # --targets: the key of a typed board
    for profile, targets in boards:  # challenge: two parts
        req = BoardRequest(profile, lang=lang, paper=paper, landscape=landscape, targets=targets)
        built = build_board(_board_inputs(profile), req)
        roles = built.contents["pages"]
        w, h = (v * MM for v in built.contents["board"]["cell_mm"])
        cells = tuple(
            Field("a board field", k, w, h, MIN_CELL, MIN_CELL)
            for k, role in enumerate(roles, start=1)
            if role == "board"
        )
        expect = {"board": replace(PLAYERS, fields=cells), "rules": TEXT, "key": TEACHER}
        kinds = tuple(f"koepfchen-{role}" for role in roles)
        cases.append(Case(built, kinds, tuple(expect[r] for r in roles)))
    return cases


KRIBBELN_PLAYERS = (2, 3, 5)
"""Player counts of the Kribbeln block beside the eight stress names: odd and small."""


def _kribbeln_blocks(paper: str, landscape: bool, lang: str) -> list[Case]:
    """The stress block (eight long names), and blocks of odd and small player counts."""
    everyone = NAMES.split(", ")
    cases = _kribbeln(paper, landscape, lang)
    for players in KRIBBELN_PLAYERS:
        cases += _kribbeln(paper, landscape, lang, ", ".join(everyone[:players]))
    return cases


def _kribbeln(paper: str, landscape: bool, lang: str, roster: str = NAMES) -> list[Case]:
    from generator.kribbeln.build import BlockRequest, build_block, player_names, sample_block_of
    from generator.kribbeln.layout import sheet_geometry
    from generator.kribbeln.pages import sheet_view

    req = BlockRequest(pages=2, names=roster, lang=lang, paper=paper, landscape=landscape)
    inputs = _kribbeln_inputs()
    built = build_block(inputs, req)
    c = built.contents
    block = sample_block_of(inputs, req.pages, req.seed)
    names = player_names(None, roster)
    fields = []
    for k, sheet in zip(c["sheet_pages"], block.sheets):
        view = sheet_view(
            sheet, len(block.sheets), block.dice, names, lang, req.seed, block.catalog.rolls,
            inputs.templates,
        )  # fmt: skip
        geo = sheet_geometry(view, paper, landscape)
        # the promises of kribbeln/layout.py: two handwritten digits need 11 mm, one 7 mm
        fields.append(Field("a pip field", k, geo.pip_w, geo.task_h, 11 * MM))
        fields.append(Field("a points field", k, geo.points_w, geo.task_h, 7 * MM))
    kinds, expect = [], []
    for k in range(1, len(built.document.pages) + 1):
        if k in c["sheet_pages"]:
            kinds.append("kribbeln-sheet")
            expect.append(replace(PLAYERS, fields=tuple(fields)))
        elif k in c["rules_pages"]:
            kinds.append("kribbeln-rules")
            expect.append(TEXT)
        else:
            kinds.append("kribbeln-key")
            expect.append(TEACHER)
    return [Case(built, tuple(kinds), tuple(expect))]


def _worksheet_fields(doc: Any, k: int, large: bool) -> tuple[Field, ...]:
    """A sheet page's writing lines and dice (or cards), measured on its forms, with the
    promises of worksheet/layout.py: lines 8.5 mm apart (large print 12 mm), dice at
    least 8 mm (large print 12 mm: never smaller than normal print's)."""
    from generator.render.primitives import Line, Rect, UseForm
    from generator.worksheet.layout import LARGE as LARGE_STYLE
    from generator.worksheet.layout import LINE_GREY, NORMAL

    style = LARGE_STYLE if large else NORMAL
    page = doc.pages[k - 1].items  # the sheet's own form, or (a page of several) drawn on it
    items = [j for i in page if isinstance(i, UseForm) for j in doc.forms[i.name]] + list(page)
    cells: dict[tuple[float, float], list[float]] = {}
    for i in items:  # the writing lines of a cell share their ends
        if isinstance(i, Line) and i.stroke == LINE_GREY:
            cells.setdefault((round(i.x1, 1), round(i.x2, 1)), []).append(i.y1)
    fields = []
    for ys in cells.values():
        ys.sort(reverse=True)
        gaps = [a - b for a, b in itertools.pairwise(ys) if a - b < 30 * MM]  # within one cell
        fields += [Field("writing lines", k, 0, g, 0, style.line_gap) for g in gaps]
    values = [i for i in items if isinstance(i, Rect) and i.fill in ("#ffffff", "#fbfbf4")]
    fields += [Field("a die or card", k, r.w, r.w, style.min_die) for r in values]
    return tuple(fields)


def _worksheet(paper: str, landscape: bool, lang: str) -> list[Case]:
    from generator.worksheet.build import build_worksheet

    if landscape:  # worksheets are portrait only
        return []
    cases = []
    for family, level, names in WORKSHEETS:
        inputs = _worksheet_inputs(family, level, names, lang)
        built = build_worksheet(inputs, _worksheet_request(family, level, names, lang, paper))
        cases.append(_worksheet_case(built))
    return cases + _worksheet_options(paper, landscape, lang) + _topics(paper, landscape, lang)


def _worksheet_case(built: Built, duplex: bool = False) -> Case:
    """A worksheet's pages: each pupil's sheet (a document of its own), then the key;
    `duplex`: a sheet's last page may be the blank that evens it."""
    n = len(built.document.pages)
    kinds, expect = ["worksheet-key"] * n, [TEACHER] * n
    ends = frozenset(s["first_page"] + s["pages"] - 1 for s in built.contents["sheets"])
    for sheet in built.contents["sheets"]:
        large = sheet["large_print"]
        for k in range(sheet["first_page"] - 1, sheet["first_page"] - 1 + sheet["pages"]):
            kinds[k] = "worksheet-large-sheet" if large else "worksheet-sheet"
            fields = _worksheet_fields(built.document, k + 1, large)
            expect[k] = replace(LARGE_PRINT if large else PLAYERS, fields=fields)
            if not fields:
                assert duplex and k + 1 in ends, "a sheet page without writing lines or dice"
                expect[k] = replace(expect[k], blank_pages=frozenset({k + 1}))
    return Case(built, tuple(kinds), tuple(expect), ends)


CLASS = (
    "Anna Berger, Ben Yılmaz, Çağla Demir, Dmitri Wolkow, Émilie Laurent, Finn-Ole Hansen, "
    "Greta Nußbaum, Hüseyin Öztürk, Ida Lindqvist, Jonas Schäfer, Katarzyna Wiśniewska, "
    "Lars Jørgensen, Mia-Sophie Krüger, Nguyễn Thị Lan, Oskar Žukauskas, Paula Grünwald, "
    "Quentin Dubois, Rania Haddad, Samuel Weiß, Tereza Nováková, Uwe Brandtner, "
    "Valentina Rossi, Wiebke Aßmann, Yusuf Kaya"
)
assert len(CLASS.split(", ")) == 24
"""A class set of 24 pupils, the last two in large print."""

WORKSHEET_OPTIONS: tuple[tuple[tuple[str, bool, str], dict[str, Any]], ...] = (
    (("a4", False, "de"), {"problems": 12, "per_page": 4}),
    (("letter", False, "en"), {"problems": 12, "per_page": 6, "large_print_for": None}),
    (("a4", False, "en"), {"problems": 12, "one_page": True, "large_print_for": None}),
    (("letter", False, "de"), {"level": 3, "ops": "+−×÷", "problems": 8}),
    (("letter", False, "en"), {"roster": "docs/examples/klasse3b.csv", "names": None,
                              "large_print_for": None}),
    (("a4", False, "en"), {"spec": "mixed", "large_print_for": None}),
    (("letter", False, "de"), {"spec": "mixed", "large_print_for": "Ben Yılmaz",
                               "names": "Anna Berger, Ben Yılmaz"}),
    (("a4", False, "de"), {"names": CLASS, "large_print_for": "Wiebke Aßmann, Yusuf Kaya",
                           "problems": 12, "versions": 4}),
)  # fmt: skip
"""Each option that changes a worksheet's layout, on one paper and language (every paper
would double the matrix's time for little): `--per-page`, `--one-page`, `--ops`, a roster
file, `--spec` (and large print in it), a class set of 24. (`--duplex` waits: its blank
pages have no house footer, which tests/test_house_style.py asks of every page.)"""


def _worksheet_options(paper: str, landscape: bool, lang: str) -> list[Case]:
    from generator.worksheet.build import WorksheetRequest, build_worksheet
    from generator.worksheet.load import load_worksheet

    cases = []
    for (want_paper, _, want_lang), options in WORKSHEET_OPTIONS:
        if (paper, lang) != (want_paper, want_lang) or landscape:
            continue
        settings = {"title": TITLE, "date": DATE, "names": "Maximilian-Alexander, Nguyễn Văn An",
                    "large_print_for": "Nguyễn Văn An", **options}  # fmt: skip
        req = WorksheetRequest(lang=lang, paper=paper, **settings)
        built = build_worksheet(load_worksheet(req), req)
        cases.append(_worksheet_case(built, req.duplex))
    return cases


TOPIC_CLASS = "Maximilian-Alexander, 王小明"  # the second pupil in large print


def _topics(paper: str, landscape: bool, lang: str) -> list[Case]:
    """One sheet of every topic of Klasse 1–4, a pupil in normal and one in large print."""
    from generator.worksheet.build import WorksheetRequest
    from generator.worksheet.roster import names_roster
    from generator.worksheet.topics import TOPICS
    from generator.worksheet.topicsheet import build_topic_worksheet

    if landscape:  # worksheets are portrait only
        return []
    cases = []
    for topic in TOPICS:
        req = WorksheetRequest(
            topic=topic.id, problems=min(6, topic.default_problems), versions=2, lang=lang,
            paper=paper, title=TITLE, names=TOPIC_CLASS, large_print_for="王小明", date=DATE,
        )  # fmt: skip
        built = build_topic_worksheet(req, names_roster(TOPIC_CLASS), None)
        n = len(built.document.pages)
        kinds, expect = ["topic-key"] * n, [TEACHER] * n
        ends = frozenset(s["first_page"] + s["pages"] - 1 for s in built.contents["sheets"])
        for sheet in built.contents["sheets"]:
            large = sheet["large_print"]
            for k in range(sheet["first_page"] - 1, sheet["first_page"] - 1 + sheet["pages"]):
                kinds[k] = "topic-large-sheet" if large else "topic-sheet"
                expect[k] = LARGE_PRINT if large else PLAYERS
        cases.append(Case(built, tuple(kinds), tuple(expect), ends))
    return cases


REPORTS = (
    ("kribbeln", 4, "classic"), ("kribbeln", 8, "classic"), ("kribbeln", 3, "classic"),
    ("koepfchen", 4, "classic"), ("koepfchen", 3, "plus-minus"), ("koepfchen", 5, "einmaleins"),
    ("koepfchen", 6, "challenge"),
)  # fmt: skip
"""(game, players, Köpfchen profile) of the balance reports: the most players each game takes,
odd counts, and every board profile."""


def _reports(paper: str, landscape: bool, lang: str) -> list[Case]:
    from generator.report.balance import ReportRequest, build_report

    cases = []
    for game, players, profile in REPORTS:
        req = ReportRequest(game, profile, pages=2, games=200, players=players, lang=lang,
                            paper=paper, landscape=landscape)  # fmt: skip
        built = build_report(_report_inputs(game, players, profile), req)
        n = len(built.document.pages)
        cases.append(Case(built, (f"report-{game}",) * n, (TEACHER,) * n))
    return cases


def _plain(product: Product) -> Callable[[str, bool, str], list[Case]]:
    """A product of one page kind with no case of its own: the first variant validate
    rehearses (else its first default), with the stress title and names where it takes
    them (names only where it sets no player count), read as a text page. A case of its
    own says more (its writing fields, large print); a product of several page kinds needs
    one (the unpacking below fails at collection)."""
    [kind] = product.page_kinds
    first = dict((*(r.params for r in product.rehearse), *product.defaults, {})[0])
    options = {o.name for o in registry.COMMANDS[product.command].options()}
    if "title" in options:
        first["title"] = TITLE
    if "names" in options and "players" not in first:
        first["names"] = NAMES

    def cases(paper: str, landscape: bool, lang: str) -> list[Case]:
        params = {**first, "lang": lang, "paper": paper, "landscape": landscape}
        built = product.make(params, Catalog.default())
        n = len(built.document.pages)
        return [Case(built, (kind,) * n, (TEXT,) * n)]

    return cases


# each registry product that prints pages, built with the stress inputs (the registry
# declares its page kinds; a page of an undeclared kind fails the matrix)
OWN: dict[str, Callable[[str, bool, str], list[Case]]] = {
    "kniffel-block": _kniffel_block, "kniffel-odds": _odds_card,
    "kniffel-rules": _kniffel_rules, "koepfchen": _koepfchen,
    "kribbeln": _kribbeln_blocks, "worksheet": _worksheet, "report": _reports,
}  # fmt: skip
MATRIX = {p.id: OWN.get(p.id) or _plain(p) for p in registry.PRODUCTS.values() if p.page_kinds}
KINDS = tuple(kind for p in registry.PRODUCTS.values() for kind in p.page_kinds)
PRODUCT_OF = {kind: p.id for p in registry.PRODUCTS.values() for kind in p.page_kinds}
"""A page kind's product. Each product's matrix is built on its own."""


@cache
def cases(product: str, paper: str, landscape: bool, lang: str) -> list[Case]:
    """One product's documents in one paper, orientation and language, built once a session.

    Under xdist one worker takes a product's tests here and in test_house_style
    (`xdist_scope` in tests/conftest.py), so it builds them once for both files."""
    return MATRIX[product](paper, landscape, lang)


@cache
def product_matrix(product: str) -> dict[tuple[str, str], list[str]]:
    """(kind, check) → every finding of one product's matrix, each led by paper and language."""
    kinds = [k for k in KINDS if PRODUCT_OF[k] == product]
    found: dict[tuple[str, str], list[str]] = {(k, c): [] for k in kinds for c in CHECKS}
    for paper, landscape in PAPERS:
        for lang in LANGS:
            where = f"{paper} {'landscape' if landscape else 'portrait'} {lang}"
            for case in cases(product, paper, landscape, lang):
                _check(case, where, found)  # a page of another product's kind: KeyError
    return found


def matrix() -> dict[tuple[str, str], list[str]]:
    """(kind, check) → every finding of the whole matrix."""
    return {key: lines for product in MATRIX for key, lines in product_matrix(product).items()}


def _check(case: Case, where: str, found: dict[tuple[str, str], list[str]]) -> None:
    doc = case.built.document
    pdf = render_pdf(doc)
    for check, lines in page_health(pdf, doc, case.expectations(), DATA).items():
        for line in lines:  # "page k: …"
            kind = case.kinds[int(line.split(":")[0].split()[1]) - 1]
            found[(kind, check)].append(f"{where} · {case.built.name} {line}")


# --- what still fails, and whose it is -------------------------------------------------

KNOWN: dict[tuple[str, str], str] = {
    ("topic-sheet", "used"): "#26 issue-26s: dice-tally sets its two tally tables on two "
    "pages, page 1 37 % (A4) / 40 % (Letter) used, both fit on one (#26 defect 5)",
    ("topic-large-sheet", "used"): "#26 issue-26s: large print of column-divide, "
    "column-add, column-times, number-triangle, number-chain sets its problems in the left "
    "half only, 2 a page, pages 34–60 % used (#26 defect 5)",
    ("topic-key", "size"): "#26 to route: the topic key's 'Aufgabe' column shrinks a tally's or "
    "dice-chance's problem text to 5.0–5.9 pt (flow.table's fit_size minimum 5), e.g. 'Würfle "
    "30-mal mit einem Würfel …' (dice-tally, dice-chance; A4 and Letter, de)",
    ("topic-key", "used"): "#26 to route: number-house key on Letter: Gruppe A alone on the "
    "key's first page (54 % used), Gruppe B on the next although it fits below",
    ("report-kribbeln", "size"): "#26 to route: Letter landscape en, the catalog chart's "
    "note '23, 0 of them never drawn' at 5.8 pt (below 6 pt)",
}


def _params() -> list[Any]:
    params = []
    for kind in KINDS:
        for check in CHECKS:
            marks = []
            if (kind, check) in KNOWN:
                marks.append(pytest.mark.xfail(strict=True, reason=KNOWN[kind, check]))
            params.append(pytest.param(kind, check, id=f"{kind}-{check}", marks=marks))
    return params


@pytest.mark.parametrize(("kind", "check"), _params())
def test_page_health(kind: str, check: str) -> None:
    from generator.render import fonts

    if check == "glyphs" and not fonts.fallback_installed():  # CI installs it
        pytest.skip(f"no fallback font for CJK names (apt-get install {fonts.FALLBACK_PACKAGE})")
    findings = product_matrix(PRODUCT_OF[kind])[kind, check]
    assert not findings, f"{kind}: {check}\n" + report({check: findings})


def test_every_product_that_prints_is_in_the_matrix() -> None:
    assert set(OWN) <= set(MATRIX) == {p.id for p in registry.PRODUCTS.values() if p.page_kinds}


def test_a_product_without_a_case_of_its_own_is_still_read_back() -> None:
    """What a new product of one page kind gets until it has its own case."""
    found: dict[tuple[str, str], list[str]] = {(k, c): [] for k in KINDS for c in CHECKS}
    cases = _plain(registry.PRODUCTS["kniffel-rules"])("letter", True, "en")
    assert [case.kinds[0] for case in cases] == ["kniffel-rules"]
    for case in cases:
        _check(case, "letter landscape en", found)
    assert not any(found.values()), found


def test_known_failures_name_a_kind_and_a_check() -> None:
    """Each entry: a kind and a check, the issue, the branch that owns it (or "to route"
    for the lead), and the finding."""
    assert all(kind in KINDS and check in CHECKS for kind, check in KNOWN)
    assert all(re.match(r"#\d+ (issue-\d+\w+|to route): \S", r) for r in KNOWN.values())


if __name__ == "__main__":  # python -m tests.test_page_health [KIND] [CHECK]: the findings
    want = sys.argv[1:]
    for (kind, check), lines in matrix().items():
        if lines and all(w in (kind, check) or w in kind for w in want):
            print(f"== {kind}", report({check: lines}, limit=40), sep=" · ")

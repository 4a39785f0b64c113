"""The balance report: figures equal the exact analysis, charts and pages present."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from generator.koepfchen.analysis import race_exact, turn_stats
from generator.koepfchen.build import make_board
from generator.koepfchen.load import load_profile
from generator.kribbeln.build import sample_block_of
from generator.kribbeln.load import load_block
from tests.pdfcheck import chars_outside, fonts, page_texts


def test_koepfchen_report_matches_the_analysis(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "r.pdf"
    result = run_cli(
        "report",
        "--game",
        "koepfchen",
        "--profile",
        "einmaleins",
        "--seed",
        "3",
        "--players",
        "3",
        "--out",
        out,
    )
    assert result.exit_code == 0, result.output + result.stderr
    data = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["contents"]
    board, _ = make_board(load_profile("einmaleins"), 3)
    assert data["targets"] == list(board.targets)
    solo = turn_stats(board.success)
    assert data["expected_turns"] == pytest.approx(solo.expected, abs=1e-9)
    assert (data["median_turns"], data["p90_turns"]) == (solo.median, solo.p90)
    assert data["win_by_seat"] == pytest.approx(race_exact(board.success, 3).win_by_seat, abs=1e-12)
    assert sum(data["win_by_seat"]) == pytest.approx(1, abs=1e-6)
    text = "\n".join(page_texts(out))
    for heading in (
        "Erfolgschance entlang der Strecke",
        "Spieldauer eines Spielers allein",
        "Gewinnchance nach Sitzplatz, 3 Spieler",
        "Kennzahlen",
    ):
        assert heading in text
    assert chars_outside(out) == []
    assert all(fonts(out).values())
    # shares as percentages, with the German decimal comma and no decimal point anywhere
    text = text.replace("\u202f", " ")
    assert "\n100 %\n" in text and "\n0 %\n" in text and not re.search(r"\d\.\d", text)
    assert "Sitzplatz 1 beginnt" in text and "gerecht: 33,3 %" in text


def test_report_bad_players_is_exit_2(run_cli) -> None:
    result = run_cli("report", "--game", "koepfchen", "--players", "9")
    assert result.exit_code == 2 and "--players" in result.stderr


def test_kribbeln_report_matches_block_and_simulation(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "k.pdf"
    result = run_cli(
        "report", "--game", "kribbeln", "--games", "400", "--players", "3", "--out", out
    )
    assert result.exit_code == 0, result.output + result.stderr
    data = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["contents"]
    block = sample_block_of(load_block(), 6, 1)
    assert data["sheets"] == [[t.id for t in s.tasks] for s in block.sheets]
    first = block.sheets[0].area_tasks(1)
    expected = sum(block.figures[t.id].p_success for t in first) / 2
    assert data["area_means"][0] == pytest.approx(expected, abs=1e-12)
    sim = data["simulation"]
    assert sim["games"] == 400 and len(sim["seats"]) == 3
    assert len(sim["tasks"]) == 36
    text = "\n".join(page_texts(out))
    assert "Simulierte X-Quote je Aufgabe des Blocks" in text
    assert "Mittlere Punkte nach Sitzplatz, 3 Spieler" in text
    assert chars_outside(out) == []


def test_kribbeln_report_simulates_the_very_sheets_it_charts(run_cli, tmp_path: Path) -> None:
    # regression: a 3-sheet report used to simulate six other sheets
    result = run_cli(
        "report",
        "--game",
        "kribbeln",
        "--pages",
        "3",
        "--seed",
        "7",
        "--games",
        "300",
        "--json",
        "--out",
        tmp_path / "r.pdf",
    )
    assert result.exit_code == 0, result.output + result.stderr
    data = json.loads(result.stdout)
    charted = data["sheets"]
    assert len(charted) == 3
    simulated: dict[int, list[str]] = {}
    for task in data["simulation"]["tasks"]:
        simulated.setdefault(task["sheet"], []).append(task["id"])
    assert [simulated[n] for n in (1, 2, 3)] == charted
    assert data["simulation"]["sheets_from"] == "kribbeln block --pages 3 --seed 7"
    block = sample_block_of(load_block(), 3, 7)  # the block `kribbeln block --pages 3` prints
    assert charted == [[t.id for t in s.tasks] for s in block.sheets]


def test_report_builds_in_memory() -> None:
    from generator.render.draw import render_pdf
    from generator.report.balance import ReportRequest, build_report, load_report

    req = ReportRequest("koepfchen", profile="classic", players=3, seed=2, lang="en")
    built = build_report(load_report(req), req)
    assert built.name == "report-koepfchen-en.pdf" and built.contents["players"] == 3
    assert render_pdf(built.document).startswith(b"%PDF")


def _report(game: str, **options):
    from generator.report.balance import ReportRequest, build_report, load_report

    req = ReportRequest(game, pages=6, games=200, **options)
    return build_report(load_report(req), req)


@pytest.mark.parametrize("players", [4, 8])
@pytest.mark.parametrize("landscape", [False, True])
def test_bar_values_stay_clear_of_the_mean_and_of_each_other(players: int, landscape: bool) -> None:
    """The mean line strikes through no value, nor does a grid line; neighbouring values
    keep a space between them ("3028" was two labels); one chart writes all its values in
    one form ("4 %" beside "24" was not)."""
    from generator.render.chart import GRID, HALO_W, REFERENCE
    from generator.render.fonts import ascent, descent, text_width
    from generator.render.primitives import Line, Text

    built = _report("kribbeln", players=players, landscape=landscape)
    for page in built.document.pages:
        items = page.items
        means = [i.y1 for i in items if isinstance(i, Line) and i.stroke == "#ffffff"
                 and i.line_width == HALO_W and i.y1 == i.y2]  # fmt: skip
        assert all(any(isinstance(j, Line) and j.stroke == REFERENCE and j.y1 == y for j in items)
                   for y in means)  # fmt: skip
        values = [i for i in items if isinstance(i, Text) and i.align == "center"
                  and i.text.replace(",", "").replace("%", "").replace("\u202f", "").strip()
                  .isdigit()]  # fmt: skip
        for v in values:
            low, high = v.y - descent(v.size), v.y + ascent(v.size)
            for y in means:
                if abs(v.y - y) < 40:  # the labels of the chart the line crosses
                    assert not low - 0.5 <= y <= high + 0.5, (v.text, y)
            x0 = v.x - text_width(v.text, v.size) / 2
            x1 = x0 + text_width(v.text, v.size)
            for g in items:  # the grid breaks for a value ("78,9" sat on the 80 % line)
                if isinstance(g, Line) and g.stroke == GRID and low < g.y1 < high:
                    assert not (g.x1 < x1 and g.x2 > x0), (v.text, g)
        rows: dict[float, list[Text]] = {}
        for v in values:
            rows.setdefault(round(v.y), []).append(v)
        for row in rows.values():
            row.sort(key=lambda t: t.x)
            for a, b in itertools.pairwise(row):
                gap = (b.x - text_width(b.text, b.size) / 2) - (
                    a.x + text_width(a.text, a.size) / 2
                )
                assert gap >= text_width(" ", a.size) - 0.5, (a.text, b.text, gap)
    # one form per chart: the sheets chart's values all carry "%" or none does
    first = built.document.pages[0]
    shares = [i.text for i in first.items if isinstance(i, Text) and i.align == "center"
              and "," in i.text and len(i.text) <= 7]  # fmt: skip
    assert shares and len({t.endswith("%") for t in shares}) == 1, shares


@pytest.mark.parametrize(("game", "most"), [("koepfchen", 1), ("kribbeln", 2)])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_landscape_reports_set_their_charts_side_by_side(game: str, most: int, paper: str) -> None:
    """A wide page takes the charts in two columns, as tall as fills the pages: the Köpfchen
    report on one page, every page but the last at least 60 % used."""
    import io

    import pdfplumber

    from generator.render.draw import render_pdf
    from tests.pagehealth import _words, check_used, rects_of

    built = _report(game, paper=paper, landscape=True)
    doc = built.document
    assert len(doc.pages) == most
    with pdfplumber.open(io.BytesIO(render_pdf(doc))) as pdf:
        for k, (page, model) in enumerate(zip(pdf.pages, doc.pages), start=1):
            words = _words(page)
            assert (
                min(w.x0 for w in words) < page.width / 3
                and max(w.x1 for w in words) > 2 * page.width / 3
            )
            if k < len(doc.pages) or k == 1:
                rects = rects_of(model.items, doc.forms)
                assert check_used(words, rects, page.width, page.height, 0.6) == [], k


@pytest.mark.parametrize("game", ["koepfchen", "kribbeln"])
@pytest.mark.parametrize(
    ("paper", "landscape"), [("a4", True), ("letter", True), ("letter", False)]
)
def test_report_columns_reach_the_foot_of_the_page(game: str, paper: str, landscape: bool) -> None:
    """Each column of each page but the last (in landscape: of every page) reaches down to the
    text area's foot: the Köpfchen line chart once stopped at 60 % of its page beside two
    charts, the Kribbeln page 2 and a letter page of one chart were half empty."""
    from generator.render.primitives import MM, Line, Rect, Text, page_size
    from generator.report.layout import MARGIN

    built = _report(game, paper=paper, landscape=landscape)
    width, height = page_size(paper, landscape)
    top, foot = height - MARGIN, MARGIN + 8 * MM
    pages = built.document.pages
    for k, page in enumerate(pages, start=1):
        if k == len(pages) and not landscape:
            continue
        lowest = {0: top, 1: top} if landscape else {0: top}
        for i in page.items:
            y = (
                i.y
                if isinstance(i, (Text, Rect))
                else min(i.y1, i.y2)
                if isinstance(i, Line)
                else top
            )
            x = i.x if isinstance(i, (Text, Rect)) else i.x1 if isinstance(i, Line) else 0
            if y > foot - 1:  # the footer aside
                c = int(landscape and x > width / 2)
                lowest[c] = min(lowest[c], y)
        for c, y in lowest.items():
            assert (top - y) / (top - foot) > 0.85, (k, c, round((top - y) / (top - foot), 2))


def test_seat_labels_keep_their_size_or_turn_into_numbers() -> None:
    """Eight seats in a narrow column: "1 … 8" under the bars (the note says they are seats),
    never "Sitzplatz 1 Sitzplatz 2" shrunk into one run."""
    from generator.render.chart import SIZE
    from generator.render.primitives import Text

    built = _report("kribbeln", players=8, paper="letter", landscape=True)
    texts = [i for p in built.document.pages for i in p.items if isinstance(i, Text)]
    seats = [t for t in texts if t.text.startswith("Sitzplatz ") and t.text[10:].isdigit()]
    assert not seats, [(t.text, t.size) for t in seats]
    assert [t.text for t in texts if t.text in "12345678" and t.size == SIZE][-8:] == list(
        "12345678"
    )

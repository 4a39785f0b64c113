"""Every product's load → build in memory (no file written, no working folder), then the one
writer: the same bytes and manifest the CLI writes, and the run's catalog passed explicitly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.core.built import Built
from generator.io.catalog import Catalog
from generator.io.writer import Previews, write_built
from generator.render.draw import render_pdf
from generator.render.primitives import texts_of


def _kniffel_block() -> Built:
    from generator.kniffel.build import BlockRequest, build_block
    from generator.kniffel.load import load_block

    req = BlockRequest(players=2, names="Zoë,Łukasz", games=3)
    return build_block(load_block(req), req)


def _kniffel_odds() -> Built:
    from generator.kniffel.build import OddsRequest, build_odds
    from generator.kniffel.load import load_odds

    req = OddsRequest(games=2000, seed=4)
    return build_odds(load_odds(req), req)


def _board() -> Built:
    from generator.koepfchen.build import BoardRequest, build_board
    from generator.koepfchen.load import load_board

    req = BoardRequest("plus-minus", seed=5, lang="en")
    return build_board(load_board(req), req)


def _kribbeln_block() -> Built:
    from generator.kribbeln.build import BlockRequest, build_block
    from generator.kribbeln.load import load_block

    req = BlockRequest(pages=2, seed=3, players=3)
    return build_block(load_block(req), req)


def _worksheet() -> Built:
    from generator.worksheet.build import WorksheetRequest, build_worksheet
    from generator.worksheet.load import load_worksheet

    req = WorksheetRequest(level=1, problems=6, versions=2, seed=2)
    return build_worksheet(load_worksheet(req), req)


def _report() -> Built:
    from generator.report.balance import ReportRequest, build_report, load_report

    req = ReportRequest("kribbeln", pages=2, players=3, games=200, seed=3)
    return build_report(load_report(req), req)


PRODUCTS = {
    "kniffel block": (_kniffel_block, "kniffel-block-de.pdf"),
    "kniffel odds": (_kniffel_odds, "kniffel-odds-de.pdf"),
    "koepfchen board": (_board, "koepfchen-plus-minus-5-en.pdf"),
    "kribbeln block": (_kribbeln_block, "kribbeln-block-3-de.pdf"),
    "worksheet": (_worksheet, "worksheet-koepfchen-level1-de.pdf"),
    "report": (_report, "report-kribbeln-de.pdf"),
}


@pytest.mark.parametrize("command", sorted(PRODUCTS))
def test_build_in_memory_then_write(command: str, tmp_path: Path) -> None:
    make, name = PRODUCTS[command]
    built = make()
    assert built.command == command and built.name == name
    pdf = render_pdf(built.document)
    assert pdf.startswith(b"%PDF") and render_pdf(make().document) == pdf  # pure: same bytes
    written = write_built(built, tmp_path, previews=Previews(tmp_path / "png", 20))
    assert written.pdfs == (tmp_path / name,) and written.pdfs[0].read_bytes() == pdf
    manifest = json.loads(written.manifest.read_text(encoding="utf-8"))
    assert manifest["command"] == command and manifest["pdf_bytes"] == len(pdf)
    assert manifest["contents"] == json.loads(json.dumps(dict(built.contents)))
    assert len(written.pngs) == len(built.document.pages)


def test_the_run_catalog_is_passed_not_ambient(tmp_path: Path) -> None:
    from generator.core.resources import templates_dir
    from generator.kniffel.build import BlockRequest, build_block
    from generator.kniffel.load import load_block

    mine = tmp_path / "mine"
    (mine / "templates" / "de").mkdir(parents=True)
    shipped = (templates_dir() / "de" / "kniffel_block.j2").read_text(encoding="utf-8")
    own = shipped.replace("{% macro name_label() %}", "{% macro name_label() %}Spielerin ")
    assert own != shipped
    (mine / "templates" / "de" / "kniffel_block.j2").write_text(own, encoding="utf-8")
    req = BlockRequest()

    def words(catalog: Catalog | None) -> list[str]:
        doc = build_block(load_block(req, catalog), req).document
        return [t.text for page in doc.pages for t in texts_of(page.items, doc.forms)]

    assert "Spielerin Name:" in words(Catalog.default(mine))
    assert "Name:" in words(None)

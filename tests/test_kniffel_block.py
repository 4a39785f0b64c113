"""The Kniffel/Yahtzee score block: layout numbers, the PDF read back, the manifest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.kniffel.block import block_rows, make_spec
from generator.kniffel.block_layout import MIN_COL_W, MIN_ROW_H, geometry, layout_block
from generator.load.kniffel import load_rules
from generator.render.primitives import MM, Rect, texts_of
from tests.pdfcheck import (
    A4,
    LETTER,
    chars_outside,
    fonts,
    overlapping_words,
    page_sizes,
    page_texts,
)

NAMES = ["Zoë", "Łukasz", "Ömer", "Nguyễn Văn An", "Søren"]


def spec(rules="kniffel", lang="de", players=None, games=6, names=None, copies=1):
    return make_spec(load_rules(rules), lang, players, games, names, copies)


def test_geometry_boxes_big_enough_for_three_digits() -> None:
    for paper in ("a4", "letter"):
        for landscape in (False, True):
            for games in range(1, 7):
                geo = geometry(spec(games=games), paper, landscape, "auto")
                assert geo.row_h >= MIN_ROW_H - 1e-9
                assert geo.col_w >= MIN_COL_W - 1e-9
                assert geo.row_h >= 7 * MM - 1e-9


def test_auto_puts_two_narrow_blocks_side_by_side() -> None:
    assert geometry(spec(games=3), "a4", False, "auto").per_page == 2
    assert geometry(spec(games=6), "a4", False, "auto").per_page == 1
    assert geometry(spec(games=6), "a4", True, "auto").per_page == 2


def test_every_item_inside_the_page() -> None:
    doc = layout_block(spec(players=3, games=3), "a4", False, "auto")
    for name, items in doc.forms.items():
        for item in items:
            if isinstance(item, Rect):
                assert item.x >= 0 and item.x + item.w <= doc.width / 2 + 1, name
                assert item.y >= 0 and item.y + item.h <= doc.height
    assert len(doc.pages) == 2  # three blocks, two per page


def test_rows_read_like_the_real_block() -> None:
    rows = block_rows(spec())
    labels = [r.label for r in rows]
    assert labels[:6] == ["Einser", "Zweier", "Dreier", "Vierer", "Fünfer", "Sechser"]
    assert "Bonus bei 63 oder mehr: +35" in labels
    assert labels[-1] == "Endsumme"
    assert rows[0].hint == "nur Einser zählen"
    yrows = block_rows(spec("yahtzee", "en"))
    assert any(r.kind == "yahtzee_bonus" for r in yrows)
    assert "Aces" in [r.label for r in yrows]


def test_name_is_drawn_per_block() -> None:
    doc = layout_block(spec(names="Zoë,Søren", games=3), "a4", False, "auto")
    texts = [t.text for t in texts_of(doc.pages[0].items, doc.forms)]
    assert "Zoë" in texts and "Søren" in texts
    assert texts.count("Einser") == 2


@pytest.mark.parametrize(
    ("rules", "lang", "paper", "size"),
    [("kniffel", "de", "a4", A4), ("yahtzee", "en", "letter", LETTER)],
)
def test_pdf_text_geometry_fonts(run_cli, tmp_path: Path, rules, lang, paper, size) -> None:
    out = tmp_path / f"{rules}.pdf"
    result = run_cli("kniffel", "block", "--rules", rules, "--lang", lang, "--paper", paper,
                     "--names", ",".join(NAMES), "--out", out)  # fmt: skip
    assert result.exit_code == 0, result.output
    sizes = page_sizes(out)
    assert len(sizes) == 5
    for w, h in sizes:
        assert w == pytest.approx(size[0], abs=0.01) and h == pytest.approx(size[1], abs=0.01)
    texts = page_texts(out)
    for name, text in zip(NAMES, texts):
        assert name in text
    ruleset = load_rules(rules)
    for cat in ruleset.boxes:
        assert cat.label[lang] in texts[0]
    for row in block_rows(spec(rules, lang)):
        assert row.label in texts[0]
    assert chars_outside(out, margin=10 * MM) == []
    assert overlapping_words(out) == []
    used = fonts(out)
    assert used and all(used.values()), used
    assert all("DejaVuSans" in name for name in used)
    manifest = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert manifest["contents"]["pages"] == 5
    assert manifest["contents"]["names"] == NAMES
    assert manifest["command"] == "kniffel block"
    assert [r["label"] for r in manifest["contents"]["rows"]] == [
        r.label for r in block_rows(spec(rules, lang))
    ]


def test_copies_reuse_one_form(run_cli, tmp_path: Path) -> None:
    one = tmp_path / "one.pdf"
    many = tmp_path / "many.pdf"
    assert run_cli("kniffel", "block", "--out", one).exit_code == 0
    assert run_cli("kniffel", "block", "--copies", "200", "--out", many).exit_code == 0
    assert len(page_sizes(many)) == 200
    # the grid is drawn once: 199 more pages cost far less than 199 more grids
    assert many.stat().st_size < 20 * one.stat().st_size

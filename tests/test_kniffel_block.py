"""The Kniffel/Yahtzee score block: layout numbers, the PDF read back, the manifest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.kniffel.block import block_rows, make_spec
from generator.kniffel.block_layout import (
    BOTTOM,
    FOOTER_H,
    LABEL_W,
    MAX_COL_W,
    MIN_COL_W,
    MIN_ROW_H,
    TITLE_H,
    TOP,
    geometry,
    layout_block,
)
from generator.kniffel.load import load_rules
from generator.render.primitives import MM, Line, Rect, texts_of
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
    assert geometry(spec(players=2, games=3), "a4", False, "auto").per_page == 2
    assert geometry(spec(players=2, games=6), "a4", False, "auto").per_page == 1
    assert geometry(spec(players=2, games=6), "a4", True, "auto").per_page == 2
    # a single block never takes half a page: it gets the whole width, centred
    alone = geometry(spec(players=1, games=6), "a4", True, "auto")
    assert alone.per_page == 1
    assert alone.label_w > LABEL_W and alone.col_w == pytest.approx(MAX_COL_W)
    right = alone.page_w - alone.slot_x(0) - alone.block_w
    assert alone.slot_x(0) == pytest.approx(right)


@pytest.mark.parametrize("rules", ["kniffel", "yahtzee"])
@pytest.mark.parametrize(("paper", "landscape"), [("a4", False), ("letter", False), ("a4", True)])
def test_rows_fill_the_page_height(rules, paper, landscape) -> None:
    geo = geometry(spec(rules, players=2, games=3), paper, landscape, "auto")
    below = geo.page_h - TOP - TITLE_H - geo.table_h  # the table's bottom edge
    assert BOTTOM + FOOTER_H - 1e-6 <= below <= BOTTOM + FOOTER_H + 1e-6
    assert MIN_ROW_H <= geo.row_h <= 14 * MM


def test_two_blocks_have_a_cut_line_between_them() -> None:
    doc = layout_block(spec(players=3, games=3), "a4", False, "auto")
    geo = geometry(spec(players=3, games=3), "a4", False, "auto")
    cut = [i for i in doc.pages[0].items if isinstance(i, Line) and i.dash]
    assert len(cut) == 1
    line = cut[0]
    assert geo.slot_x(0) + geo.block_w < line.x1 == line.x2 < geo.slot_x(1)
    assert min(line.y1, line.y2) >= 5 * MM and max(line.y1, line.y2) <= geo.page_h - 5 * MM
    assert not [i for i in doc.pages[1].items if isinstance(i, Line)]  # one block: no cut


def test_labels_share_one_size_and_bonus_ticks_are_big() -> None:
    doc = layout_block(spec("yahtzee", "en", players=1), "a4", False, "auto")
    rows = block_rows(spec("yahtzee", "en"))
    labels = {r.label for r in rows}
    sizes = {t.size for t in texts_of(doc.pages[0].items, doc.forms) if t.text in labels}
    assert sizes == {9.0}
    ticks = [i for i in doc.forms["block"] if isinstance(i, Rect) and i.w == i.h and i.w < 8 * MM]
    assert len(ticks) == 3 * 6 and all(t.w >= 4 * MM for t in ticks)
    keys = [r.key for r in rows]
    assert keys.index("yahtzee_bonus_points") == keys.index("yahtzee_bonus") + 1
    assert rows[keys.index("yahtzee_bonus_points")].hint == "score 100 per ✓"
    de = {r.key: r for r in block_rows(spec("yahtzee", "de"))}
    assert de["yahtzee_bonus"].hint == "✓ für jeden weiteren Yahtzee"


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
    bonus = next(r for r in rows if r.key == "bonus")
    assert (bonus.label, bonus.hint) == ("Bonus", "bei 63 oder mehr: 35 Punkte")
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
    manifest = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert manifest["contents"]["block_pages"] == [1, 2, 3, 4, 5]
    assert manifest["contents"]["rules_pages"] == list(range(6, len(sizes) + 1))
    assert len(sizes) > 5
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
    assert chars_outside(out, margin=6 * MM) == []  # the house edge is 5 mm
    assert overlapping_words(out) == []
    used = fonts(out)
    assert used and all(used.values()), used
    assert all("DejaVuSans" in name for name in used)
    assert manifest["contents"]["pages"] == len(sizes)
    assert manifest["contents"]["names"] == NAMES
    assert manifest["command"] == "kniffel block"
    assert [r["label"] for r in manifest["contents"]["rows"]] == [
        r.label for r in block_rows(spec(rules, lang))
    ]


def test_copies_reuse_one_form(run_cli, tmp_path: Path) -> None:
    one = tmp_path / "one.pdf"
    many = tmp_path / "many.pdf"
    assert run_cli("kniffel", "block", "--no-rules", "--out", one).exit_code == 0
    assert (
        run_cli("kniffel", "block", "--no-rules", "--copies", "200", "--out", many).exit_code == 0
    )
    assert len(page_sizes(many)) == 200
    # the grid is drawn once: 199 more pages cost far less than 199 more grids
    assert many.stat().st_size < 20 * one.stat().st_size


def test_narrow_boxes_get_two_tick_boxes_a_pen_can_hit() -> None:
    from generator.kniffel.block_layout import tick_size, ticks_across

    narrow = geometry(spec("yahtzee", "en", players=2, games=6), "letter", True, "auto")
    assert narrow.col_w < 14 * MM
    assert ticks_across(narrow) == 2 and tick_size(narrow) >= 3.5 * MM
    wide = geometry(spec("yahtzee", "en", players=1, games=6), "a4", False, "auto")
    assert ticks_across(wide) == 3 and tick_size(wide) >= 4.5 * MM


def _frames(doc, page):
    """Each block's heavy table frame on a page, as (left, right) in points."""
    from generator.render.primitives import UseForm

    out = []
    for item in doc.pages[page].items:
        if isinstance(item, UseForm):
            frame = next(
                r for r in doc.forms[item.name] if isinstance(r, Rect) and r.line_width == 1.4
            )
            out.append((frame.x + item.dx, frame.x + item.dx + frame.w))
    return out


@pytest.mark.parametrize(
    ("players", "games", "per_page"), [(3, 3, "auto"), (5, 1, "auto"), (1, 3, "2"), (3, 6, "2")]
)
def test_every_page_centres_its_blocks(players, games, per_page) -> None:
    """The last page of an odd number of blocks (or a lone block under --per-page 2) is
    centred on the paper, like every full page (the README's promise)."""
    for paper, landscape in (("a4", False), ("letter", True), ("a4", True)):
        s = spec(players=players, games=games)
        try:
            doc = layout_block(s, paper, landscape, per_page)
        except Exception:  # --per-page 2 with six games does not fit portrait
            assert per_page == "2" and not landscape
            continue
        for page in range(len(doc.pages)):
            frames = _frames(doc, page)
            left, right = frames[0][0], doc.width - frames[-1][1]
            assert left == pytest.approx(right, abs=0.01), (paper, landscape, page, frames)


@pytest.mark.parametrize("rules", ["kniffel", "yahtzee"])
def test_boxes_are_at_least_8_mm_high_on_every_paper(rules) -> None:
    for paper in ("a4", "letter"):
        for landscape in (False, True):
            geo = geometry(spec(rules, players=2), paper, landscape, "auto")
            assert geo.row_h >= 8 * MM - 1e-6, (paper, landscape, geo.row_h / MM)


@pytest.mark.parametrize("name", ["Jürgen Pfq", "Bartholomäus-Maximilian Müller-Lüdenscheidt"])
def test_a_name_sits_above_its_line_in_full(name) -> None:
    """Descenders clear the name line, and a long name is not cut (two lines instead)."""
    from generator.render.fonts import descent

    doc = layout_block(spec(names=name, games=1), "a4", False, "auto")
    [rule] = [i for i in doc.forms["block"] if isinstance(i, Line) and i.line_width == 0.5]
    texts = [t for t in doc.pages[0].items if hasattr(t, "text")]
    assert " ".join(t.text for t in texts).replace("- ", "-") == name
    for t in texts:
        assert t.y - descent(t.size) > rule.y1, t
        assert t.size >= 6.0

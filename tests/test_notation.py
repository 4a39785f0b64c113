"""German school notation on German pages (· and :), × and ÷ on English ones; dice listed
with commas; the solver reads every notation. PDFs are read back, not trusted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.numbers import Rules, evaluate
from generator.numbers.expr import canonical, parse
from generator.text.words import maths
from tests.pdfcheck import page_texts

ALL = Rules(ops="+-*/")


def test_maths_maps_only_the_two_signs() -> None:
    assert maths("(6 − 1) × 2 ÷ 5", "de") == "(6 − 1) · 2 : 5"
    assert maths("(6 − 1) × 2 ÷ 5", "en") == "(6 − 1) × 2 ÷ 5"


@pytest.mark.parametrize("text", ["(3 + 1) × 2", "(3 + 1) * 2", "(3 + 1) · 2", "(3 + 1) ⋅ 2"])
def test_every_multiplication_sign_reads_the_same(text: str) -> None:
    assert evaluate(text, ALL) == 8
    assert canonical(parse(text)).key == canonical(parse("(3 + 1) × 2")).key


@pytest.mark.parametrize("text", ["8 ÷ 2 − 1", "8 / 2 − 1", "8 : 2 - 1"])
def test_every_division_sign_reads_the_same(text: str) -> None:
    assert evaluate(text, ALL) == 3


def test_ops_accept_school_notation() -> None:
    assert Rules(ops="+·:").ops == Rules(ops="+*/").ops


def key_texts(pdf: Path) -> list[str]:
    import json

    contents = json.loads(pdf.with_suffix(".json").read_text(encoding="utf-8"))["contents"]
    return page_texts(pdf)[contents["sheet_pages"] :]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_worksheet_key_and_sheets_use_the_language_notation(run_cli, tmp_path, lang) -> None:
    result = run_cli("worksheet", "--level", "3", "--seed", "2", "--lang", lang, "--out", "w.pdf")
    assert result.exit_code == 0, result.output
    texts = page_texts(tmp_path / "w.pdf")
    key = "\n".join(key_texts(tmp_path / "w.pdf"))
    everything = "\n".join(texts)
    if lang == "de":
        assert "×" not in everything and "÷" not in everything
        assert re.search(r"\d \u00b7 \d", key) and re.search(r"\d : \d", key)
        assert "+, −, · und :" in texts[0]  # the instruction names the signs
    else:
        assert not re.search(r"\d \u00b7 \d", key) and not re.search(r"\d : \d", key)
        assert re.search(r"\d × \d", key) and re.search(r"\d ÷ \d", key)
    # the dice of every problem are listed with commas: "5, 1, 2", never "5 · 1 · 2"
    assert re.search(r"\b\d, \d, \d\b", key)
    assert not re.search(r"\b\d \u00b7 \d \u00b7 \d \d", key)


def test_koepfchen_rules_and_key_in_school_notation(run_cli, tmp_path) -> None:
    result = run_cli("koepfchen", "board", "--profile", "classic", "--seed", "1", "--out", "k.pdf")
    assert result.exit_code == 0, result.output
    everything = "\n".join(page_texts(tmp_path / "k.pdf"))
    assert "×" not in everything and "÷" not in everything
    assert "mal (·)" in everything and "geteilt (:)" in everything
    result = run_cli("koepfchen", "board", "--profile", "classic", "--lang", "en", "--out", "e.pdf")
    english = "\n".join(page_texts(tmp_path / "e.pdf"))
    assert "times (×)" in english and "÷" in english


def test_the_rules_ship_in_the_project_and_nothing_points_outside(tmp_path) -> None:
    from generator.core.resources import catalog_dir, rules_file, templates_dir
    from generator.io.starter import write_starter

    rules = rules_file().read_text(encoding="utf-8")
    for heading in ("## 1. Kribbeln", "## 2. Kniffel", "## 3. Schlaues Köpfchen", "## 4."):
        assert heading in rules
    shipped = [*catalog_dir().rglob("*.yaml"), *templates_dir().rglob("*.j2")]
    root = rules_file().parent.parent
    shipped += (
        [root / "README.md", root / "CONTRIBUTING.md"] if (root / "README.md").exists() else []
    )
    for path in shipped:
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text and "RULES.md" not in text, path
        assert "shared/seeds" not in text, path
    from generator.cli.init import NOTE

    written = write_starter(tmp_path / "cat", ["kribbeln"], note=NOTE)
    assert (tmp_path / "cat" / "rules.md").read_text(encoding="utf-8") == rules
    assert "rules.md" in (tmp_path / "cat" / "README.txt").read_text(encoding="utf-8")
    assert tmp_path / "cat" / "rules.md" in written

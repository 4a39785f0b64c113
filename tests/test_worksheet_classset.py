"""A whole class set in one run, read back from the PDF: 24 pupils from an Excel CSV,
two in large print, versions A–C, double-sided, with one key that holds for every sheet."""

from __future__ import annotations

import json
import os

import pdfplumber
import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.worksheet.layout import LARGE, NORMAL
from tests.pdfcheck import page_texts

FIRST = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fatma", "Greta", "Hannes", "Ida", "Jonas",
         "Kübra", "Lars", "Mia", "Noah", "Ömer", "Paula", "Quirin", "Rosa", "Søren", "Tilda",
         "Uwe", "Vera", "Willi", "Zoë"]  # fmt: skip
LARGE_PRINT = {"Cem", "Hannes"}


def excel_csv() -> bytes:
    """What German Excel saves as "CSV (Trennzeichen-getrennt)": Windows-1252, ; and CRLF."""
    rows = ["Nachname;Vorname;Klasse;Großdruck"]
    for i, first in enumerate(FIRST):
        mark = "x" if first == "Cem" else ""
        rows.append(f"Muster{i:02d};{first};3b;{mark}")
    return ("\r\n".join(rows) + "\r\n").encode("cp1252", errors="strict")


@pytest.fixture(scope="module")
def class_set(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("classset")
    (folder / "klasse3b.csv").write_bytes(excel_csv())
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(
            cli,
            ["worksheet", "--roster", "klasse3b.csv", "--large-print-for", "hannes",
             "--versions", "3", "--duplex", "--date", "KW 12", "--seed", "3",
             "--out", "out/set.pdf"],
            catch_exceptions=False,
        )  # fmt: skip
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.output
    pdf = folder / "out" / "set.pdf"
    manifest = json.loads(pdf.with_suffix(".json").read_text(encoding="utf-8"))
    with pdfplumber.open(str(pdf)) as doc:
        words = [page.extract_words(extra_attrs=["size"]) for page in doc.pages]
    return pdf, manifest["contents"], page_texts(pdf), words


def full(i: int) -> str:
    return f"{FIRST[i]} Muster{i:02d}"


def test_every_pupil_keeps_the_version_the_key_lists(class_set) -> None:
    _, contents, texts, _ = class_set
    sheets = contents["sheets"]
    assert [s["name"] for s in sheets] == [full(i) for i in range(24)]
    assert [s["version"] for s in sheets] == ["ABC"[i % 3] for i in range(24)]
    assert [s["large_print"] for s in sheets] == [f in LARGE_PRINT for f in FIRST]
    key = "\n".join(texts[contents["sheet_pages"] :])
    for i, sheet in enumerate(sheets):
        marker = " (Großdruck)" if FIRST[i] in LARGE_PRINT else ""
        assert f"{full(i)}{marker} {sheet['version']}" in key, full(i)


def test_double_sided_every_sheet_even_and_only_its_pupil(class_set) -> None:
    _, contents, texts, words = class_set
    sheets = contents["sheets"]
    assert sum(s["pages"] for s in sheets) == contents["sheet_pages"]
    assert len(texts) == contents["sheet_pages"] + contents["key_pages"]
    for i, sheet in enumerate(sheets):
        assert sheet["pages"] % 2 == 0
        start = sheet["first_page"] - 1
        own = texts[start : start + sheet["pages"]]
        printed = [t for t in own if "Diese Seite bleibt frei." not in t]
        assert printed and all(full(i) in t for t in printed)
        assert all(t.strip() in ("", "Diese Seite bleibt frei.") for t in own if t not in printed)
        assert "3b" in own[0] and "KW 12" in own[0]  # the class column and --date
        badge = LARGE.badge_letter if sheet["large_print"] else NORMAL.badge_letter
        letters = [w["text"] for w in words[start] if abs(w["size"] - badge) < 0.05]
        assert letters == [sheet["version"]]


def test_large_print_sheets_keep_every_word_at_16_pt(class_set) -> None:
    _, contents, _, words = class_set
    for sheet in contents["sheets"]:
        start = sheet["first_page"] - 1
        sizes = [w["size"] for page in words[start : start + sheet["pages"]] for w in page]
        if sheet["large_print"]:
            assert min(sizes) >= 16 - 0.05, sheet["name"]
        else:
            assert min(sizes) < 16

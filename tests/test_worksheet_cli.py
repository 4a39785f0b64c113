"""`dicesheets worksheet` end to end: the PDF read back (header, versions, names, sizes, key)
and the one-line errors for bad input."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pdfplumber
import pytest

from generator.render.style import EDGE
from generator.worksheet.layout import LARGE, NORMAL
from tests.pdfcheck import (
    A4,
    LETTER,
    chars_outside,
    fonts,
    overlapping_words,
    page_sizes,
    page_texts,
)

NAMES = ["Zoë", "Łukasz", "Ömer", "Nguyễn Văn An", "zoë", "Søren", "Αλέξανδρος"]


def manifest_of(pdf: Path) -> dict:
    return json.loads(pdf.with_suffix(".json").read_text(encoding="utf-8"))["contents"]


def words_by_page(pdf: Path) -> list[list[dict]]:
    with pdfplumber.open(str(pdf)) as doc:
        return [page.extract_words(extra_attrs=["size", "fontname"]) for page in doc.pages]


def sized(words: list[dict], size: float, bold: bool = True) -> list[str]:
    """The words of one font size (bold ones by default), top to bottom and left to right."""
    found = [w for w in words if abs(w["size"] - size) < 0.05 and ("Bold" in w["fontname"]) == bold]
    found.sort(key=lambda w: (round(w["top"] / 4), w["x0"]))
    return [w["text"] for w in found]


@dataclass
class Run:
    pdf: Path
    result: Any
    texts: list[str]
    words: list[list[dict]]


@pytest.fixture(scope="module")
def roster_sheet(tmp_path_factory: pytest.TempPathFactory):
    """Seven pupils (a duplicate name among them), level 2, versions A–C, two impossible."""
    import os

    from click.testing import CliRunner

    from generator.cli import cli

    folder = tmp_path_factory.mktemp("roster")
    (folder / "class.txt").write_text("\n".join([*NAMES[:3], "", *NAMES[3:]]) + "\n", "utf-8")
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(
            cli,
            ["worksheet", "--level", "2", "--versions", "3", "--impossible", "2", "--roster",
             "class.txt", "--seed", "5", "--out", "ws.pdf"],
            catch_exceptions=False,
        )  # fmt: skip
    finally:
        os.chdir(cwd)
    pdf = folder / "ws.pdf"
    return Run(pdf, result, page_texts(pdf), words_by_page(pdf))


def test_roster_run_reports_the_duplicate_once(roster_sheet) -> None:
    result = roster_sheet.result
    assert result.exit_code == 0, result.output
    warnings = result.stderr.strip().splitlines()
    assert warnings == [
        "dicesheets: warning: class.txt:6: 'zoë' appears again (first on line 1); both get a sheet"
    ]
    assert result.stdout.strip() == "wrote ws.pdf"


def test_each_pupil_gets_named_pages_of_their_version(roster_sheet) -> None:
    contents = manifest_of(roster_sheet.pdf)
    per_sheet = contents["pages_per_sheet"]
    texts, words = roster_sheet.texts, roster_sheet.words
    assert len(texts) == per_sheet * len(NAMES) + contents["key_pages"]
    assert [s["name"] for s in contents["sheets"]] == NAMES
    for i, name in enumerate(NAMES):
        letter = "ABC"[i % 3]
        assert contents["sheets"][i]["version"] == letter
        for k in range(per_sheet):
            page = i * per_sheet + k
            assert name in texts[page], (name, page)
            # the version letter is printed large in its badge on every page
            assert letter in sized(words[page], NORMAL.badge_letter), page
            assert "Gruppe" in texts[page] and "Name" in texts[page]
            others = [n for n in NAMES if n.casefold() != name.casefold()]
            assert not any(n in texts[page] for n in others)
        first = texts[i * per_sheet]
        for label in ("Klasse", "Datum", "Punkte", f"/ {contents['problems']}"):
            assert label in first


def test_sheet_pages_show_the_manifest_problems_in_order(roster_sheet) -> None:
    contents = manifest_of(roster_sheet.pdf)
    words = roster_sheet.words
    per_sheet = contents["pages_per_sheet"]
    for i, sheet in enumerate(contents["sheets"]):
        version = next(v for v in contents["versions"] if v["letter"] == sheet["version"])
        pages = words[i * per_sheet : (i + 1) * per_sheet]
        targets = [t for page in pages for t in sized(page, NORMAL.target)]
        numbers = [t for page in pages for t in sized(page, NORMAL.number)]
        assert targets == [str(p["target"]) for p in version["problems"]]
        assert numbers == [str(p["number"]) for p in version["problems"]]


def test_versions_differ_and_share_the_difficulty_distribution(roster_sheet) -> None:
    versions = manifest_of(roster_sheet.pdf)["versions"]
    keys = [{(tuple(sorted(p["numbers"])), p["target"]) for p in v["problems"]} for v in versions]
    assert all(len(k) == 20 for k in keys)
    assert not keys[0] & keys[1] and not keys[0] & keys[2] and not keys[1] & keys[2]
    profiles = [sorted(p["difficulty"] or 0 for p in v["problems"]) for v in versions]
    assert profiles[0] == profiles[1] == profiles[2]
    for v in versions:
        solvable = [p["difficulty"] for p in v["problems"] if p["solvable"]]
        assert solvable == sorted(solvable)  # easy to hard
        assert [p["number"] for p in v["problems"] if not p["solvable"]] == [
            p["number"] for p in versions[0]["problems"] if not p["solvable"]
        ]


def test_key_pages_match_the_problems(roster_sheet) -> None:
    contents = manifest_of(roster_sheet.pdf)
    texts = roster_sheet.texts
    key = "\n".join(texts[-contents["key_pages"] :])
    assert key.startswith("Lösungen")
    for name, letter in zip(NAMES, "ABCABCA"):
        assert re.search(rf"{re.escape(name)} {letter}\b", key), name
    versions = re.split(r"\nGruppe ([A-C])\n", "\n" + key)
    by_letter = dict(zip(versions[1::2], versions[2::2]))
    assert sorted(by_letter) == ["A", "B", "C"]
    for version in contents["versions"]:
        rows = [
            line for line in by_letter[version["letter"]].splitlines() if re.match(r"\d+ ", line)
        ]
        assert len(rows) == len(version["problems"])
        for line, p in zip(rows, version["problems"]):
            values = ", ".join(str(n) for n in p["numbers"])
            # the manifest keeps the solver's × and ÷; German pages write · and :
            school = p["solvable"] and p["simplest"].replace("×", "·").replace("÷", ":")
            solution = school if p["solvable"] else "nicht lösbar"
            score = str(p["difficulty"]) if p["solvable"] else "–"
            assert line == f"{p['number']} {values} {p['target']} {solution} {p['count']} {score}"


def test_pdf_geometry_and_fonts(roster_sheet) -> None:
    pdf = roster_sheet.pdf
    assert all(size == pytest.approx(A4, abs=0.01) for size in page_sizes(pdf))
    assert chars_outside(pdf, margin=EDGE) == []  # the house style: nothing within 5 mm
    assert overlapping_words(pdf) == []
    used = fonts(pdf)
    assert used and all(used.values()) and all("DejaVuSans" in name for name in used)


def test_large_print_keeps_every_word_at_16_pt(run_cli, tmp_path: Path) -> None:
    (tmp_path / "class.txt").write_text("Zoë\nSøren\n", encoding="utf-8")
    result = run_cli("worksheet", "--level", "3", "--problems", "10", "--large-print",
                     "--roster", "class.txt", "--lang", "en", "--impossible", "1",
                     "--versions", "2", "--out", "big.pdf")  # fmt: skip
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "big.pdf"
    contents = manifest_of(pdf)
    sheet_pages = contents["sheet_pages"]
    with pdfplumber.open(str(pdf)) as doc:
        for page in doc.pages[:sheet_pages]:
            sizes = {round(c["size"], 2) for c in page.chars}
            assert min(sizes) >= 16, sizes
        targets = [w for w in doc.pages[0].extract_words(extra_attrs=["size"])
                   if abs(w["size"] - LARGE.target) < 0.05]  # fmt: skip
        assert targets
    texts = page_texts(pdf)
    assert "Zoë" in texts[0] and "Søren" in texts[contents["pages_per_sheet"]]
    assert "no solution" in "\n".join(texts[sheet_pages:])
    assert chars_outside(pdf, margin=EDGE) == []  # the house style: nothing within 5 mm
    assert overlapping_words(pdf) == []


def test_key_file_letter_paper_english(run_cli, tmp_path: Path) -> None:
    result = run_cli("worksheet", "--family", "24", "--level", "3", "--problems", "8",
                     "--versions", "2", "--impossible", "1", "--lang", "en", "--paper", "letter",
                     "--key-file", "key.pdf", "--title", "Friday’s 24 ☺",
                     "--out", "ws.pdf")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout.split() == ["wrote", "ws.pdf", "wrote", "key.pdf"]
    pdf, key = tmp_path / "ws.pdf", tmp_path / "key.pdf"
    contents = manifest_of(pdf)
    assert contents["key_pdf"] == "key.pdf"
    assert len(page_sizes(pdf)) == contents["sheet_pages"] == 2 * contents["pages_per_sheet"]
    assert all(
        size == pytest.approx(LETTER, abs=0.01) for size in page_sizes(pdf) + page_sizes(key)
    )
    first = page_texts(pdf)[0]
    for label in ("Friday’s 24 ☺", "Name", "Class", "Date", "Score", "Version", "cards"):
        assert label in first
    key_text = "\n".join(page_texts(key))
    assert "Answer key" in key_text and "no solution" in key_text and "Version B" in key_text
    for version in contents["versions"]:
        for p in version["problems"]:
            assert len(p["numbers"]) == 4 and max(p["numbers"]) <= 13 and p["target"] == 24
    # cards: the numbers are printed as digits on the sheet
    words = words_by_page(pdf)
    cards = [w for page in words[: contents["pages_per_sheet"]] for w in sized(page, NORMAL.card)]
    assert cards == [str(n) for p in contents["versions"][0]["problems"] for n in p["numbers"]]


def test_png_previews_every_page_of_the_sheets_and_of_the_key(run_cli, tmp_path: Path) -> None:
    # regression: the worksheet used to write its PDF and no PNG (exit 0, no word)
    result = run_cli("worksheet", "--level", "2", "--problems", "8", "--versions", "2",
                     "--key-file", "key.pdf", "--out", "ws.pdf",
                     "--png", "prev", "--dpi", "20")  # fmt: skip
    assert result.exit_code == 0, result.output
    expected = []
    for pdf in (tmp_path / "ws.pdf", tmp_path / "key.pdf"):
        pages = len(page_sizes(pdf))
        expected += [f"{pdf.stem}-{n:0{len(str(pages))}d}.png" for n in range(1, pages + 1)]
    assert sorted(p.name for p in (tmp_path / "prev").iterdir()) == sorted(expected)
    assert [line.split("/")[-1] for line in result.stdout.splitlines()[2:]] == expected


def test_warnings_for_unprintable_names_and_unused_versions(run_cli, tmp_path: Path) -> None:
    (tmp_path / "class.txt").write_text("Anna\nअनिल\n", encoding="utf-8")  # no font has it
    result = run_cli("worksheet", "--roster", "class.txt", "--versions", "3", "--problems", "4",
                     "--seed", "1", "--out", "ws.pdf")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "dicesheets: warning: 2 names for 3 versions: version C is only in the key",
        "dicesheets: warning: class.txt:2: the font has no letters for 'अनिल' in 'अनिल' "
        "(they print as boxes)",
    ]
    assert [s["version"] for s in manifest_of(tmp_path / "ws.pdf")["sheets"]] == ["A", "B"]


def test_same_seed_same_bytes_in_memory_and_progress_is_reported() -> None:
    from generator.render.draw import render_pdf
    from generator.worksheet.build import WorksheetRequest, build_worksheet
    from generator.worksheet.load import load_worksheet

    seen: list[tuple[str, int, int]] = []
    req = WorksheetRequest(level=1, problems=6, versions=2, seed=3)
    inputs = load_worksheet(req, progress=lambda *s: seen.append(s))
    a = build_worksheet(inputs, req, progress=lambda *s: seen.append(s))
    b = build_worksheet(load_worksheet(req), req)
    assert render_pdf(a.document) == render_pdf(b.document)
    assert a.contents == b.contents and a.name == "worksheet-koepfchen-level1-de.pdf"
    stages = [s for s, _, _ in seen]
    assert {"problems", "layout"} <= set(stages)
    assert all(0 <= done <= total for _, done, total in seen)
    assert seen[-1][1] == seen[-1][2]


def test_separate_key_is_a_second_document_in_memory() -> None:
    from generator.worksheet.build import WorksheetRequest, build_worksheet
    from generator.worksheet.load import load_worksheet

    req = WorksheetRequest(level=1, problems=6, versions=2, seed=3, key_file="key.pdf")
    built = build_worksheet(load_worksheet(req), req)
    [(role, key)] = built.extra
    assert role == "key" and built.contents["key_pages"] == len(key.pages) >= 1
    assert len(built.document.pages) == 2 * built.contents["pages_per_sheet"]


def test_all_writes_a_level_two_worksheet_with_three_versions(tmp_path: Path) -> None:
    from generator.cli import defaults
    from generator.io.writer import write_built

    # only the worksheet (the fourth default): the others have their own tests
    build = list(defaults.default_builds())[3]
    [sheet] = write_built(build(), tmp_path / "out").pdfs
    assert sheet.name.startswith("worksheet-") and sheet.is_file()
    contents = manifest_of(sheet)
    assert [v["letter"] for v in contents["versions"]] == ["A", "B", "C"]
    # the overview with version A, then B and C on one page
    assert contents["sections"][0]["level"] == 2 and contents["key_pages"] == 2


BAD = [
    (["--level", "9"], "--level", "unknown level 9"),
    (["--family", "poker"], "--family", "unknown family 'poker'"),
    (["--level", "4", "--problems", "99"], "--problems", "at most 98 different"),
    (["--problems", "0"], "--problems", "1–100"),
    (["--problems", "10", "--impossible", "11"], "--impossible", "only 10 problems"),
    (["--family", "24", "--level", "2", "--impossible", "8"], "--impossible", "at most 7"),
    (["--versions", "27"], "--versions", "1–26"),
    (["--roster", "cp1252-hole.txt"], "--roster", "neither UTF-8, UTF-16 nor Windows-1252"),
    (["--roster", "nobom16.txt"], "--roster", "UTF-16 without a byte-order mark"),
    (["--roster", "table.csv"], "table.csv:1", "without a header row"),
    (["--roster", "lp.csv"], "lp.csv:2", "large print 'vielleicht'"),
    (["--names", "Anna,,Ben"], "--names", "an empty name"),
    (["--names", "Anna", "--roster", "empty.txt"], "--names", "either as a file or as names"),
    (["--large-print-for", "Cem"], "--large-print-for", "needs the class list"),
    (["--names", "Anna, Ben", "--large-print-for", "Cem"], "--large-print-for", "'Cem' is not"),
    (["--no-key", "--key-file", "k.pdf"], "--key-file", "no key to write"),
    (["--one-page", "--problems", "40"], "--one-page", "(try --problems)"),
    (["--one-page", "--per-page", "4"], "--per-page", "one page per sheet"),
    (["--per-page", "0"], "--per-page", "1–100"),
    (["--per-page", "30", "--problems", "30"], "--per-page", "at most"),
    (["--class", "x" * 41], "--class", "at most 40"),
    (["--roster", "empty.txt"], "--roster", "has no names"),
    (["--roster", "missing.txt"], "--roster", "cannot read"),
    (["--spec", "mixed", "--level", "3"], "--level", "leave out --level"),
    (["--spec", "nope.yaml"], "--spec", "no spec file"),
    (["--spec", "bad.yaml"], "bad.yaml:2", "expected a whole number"),
    (["--out", "ws.pdf", "--key-file", "ws.pdf"], "--key-file", "written twice"),
    (["--out", "file.txt/ws.pdf"], "--out", "is not a folder"),
    (["--paper", "a5"], "--paper", "a5"),
]


@pytest.mark.parametrize(("args", "where", "what"), BAD)
def test_bad_input_exit_2_one_line_no_file(run_cli, tmp_path: Path, args, where, what) -> None:
    (tmp_path / "cp1252-hole.txt").write_bytes("Jörg\n".encode("cp1252") + b"\x81\n")
    (tmp_path / "nobom16.txt").write_bytes("Jörg\nAnna\n".encode("utf-16-le"))
    (tmp_path / "table.csv").write_text("Müller;Anna;3b\nSchulz;Ben;3b\n", encoding="utf-8")
    (tmp_path / "lp.csv").write_text("Vorname;Großdruck\nAnna;vielleicht\n", encoding="utf-8")
    (tmp_path / "file.txt").write_text("", encoding="utf-8")
    (tmp_path / "empty.txt").write_text("\n \n", encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(
        "sections:\n  - {family: koepfchen, level: x, problems: 3}\n", encoding="utf-8"
    )
    before = set(tmp_path.rglob("*"))
    result = run_cli("worksheet", *args)
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("dicesheets: error: ")
    assert where in err and what in err, err
    assert set(tmp_path.rglob("*")) == before


def test_page_controls_no_key_and_missing_folders(run_cli, tmp_path: Path) -> None:
    result = run_cli("worksheet", "--problems", "10", "--one-page", "--no-key",
                     "--class", "3b", "--out", "a/b/one.pdf")  # fmt: skip
    assert result.exit_code == 0, result.output
    contents = manifest_of(tmp_path / "a/b/one.pdf")
    assert contents["pages_per_sheet"] == 1 and contents["key_pages"] == 0
    texts = page_texts(tmp_path / "a/b/one.pdf")
    assert len(texts) == 1 and "3b" in texts[0] and "Lösungen" not in texts[0]
    result = run_cli("worksheet", "--problems", "10", "--per-page", "4", "--lang", "en",
                     "--out", "c/per.pdf", "--key-file", "d/e/key.pdf")  # fmt: skip
    assert result.exit_code == 0, result.output
    texts = page_texts(tmp_path / "c/per.pdf")
    assert manifest_of(tmp_path / "c/per.pdf")["pages_per_sheet"] == len(texts) == 3
    assert (tmp_path / "d/e/key.pdf").is_file()
    words = words_by_page(tmp_path / "c/per.pdf")
    numbers = [sized(page, NORMAL.number) for page in words]
    # at most 4 a page, in order; the cells grow, so the header's page may hold fewer
    assert [n for page in numbers for n in page] == [str(n) for n in range(1, 11)]
    assert all(2 <= len(page) <= 4 for page in numbers)

"""A class list's "Stufe" column: each pupil a sheet of their level, one key for all."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.core.errors import UserError
from generator.worksheet.levels import Level
from generator.worksheet.load import load_family
from generator.worksheet.roster import parse_roster, roster_from_bytes
from tests.test_worksheet_roster import xlsx_bytes

# (name, Stufe): empty cells get the sheet's level (--level 2)
CLASS = [("Anna Meier", ""), ("Ben Öztürk", "3"), ("Cem Yılmaz", "1"), ("Dora Schmidt", ""),
         ("Emil Wagner", "Stufe 3"), ("Fiona Koch", "3"), ("Gül Demir", "")]  # fmt: skip
LEVEL = {"": 2, "3": 3, "1": 1, "Stufe 3": 3}


def table(rows: list[tuple[str, str]], sep: str = ";") -> str:
    return "\n".join([f"Name{sep}Stufe", *(f"{n}{sep}{s}" for n, s in rows)]) + "\n"


def run(folder: Path, *args: str) -> object:
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        return CliRunner().invoke(cli, ["worksheet", *args], catch_exceptions=False)
    finally:
        os.chdir(cwd)


@pytest.fixture(scope="module")
def levels_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, list[str]]:
    folder = tmp_path_factory.mktemp("stufe")
    (folder / "klasse.csv").write_text(table(CLASS), "utf-8")
    result = run(folder, "--level", "2", "--versions", "2", "--roster", "klasse.csv",
                 "--large-print-for", "Cem", "--seed", "5", "--out", "ws.pdf")  # fmt: skip
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    contents = json.loads((folder / "ws.json").read_text("utf-8"))["contents"]
    with pdfplumber.open(folder / "ws.pdf") as pdf:
        texts = [page.extract_text() or "" for page in pdf.pages]
    return folder, contents, texts


def test_the_column_is_read_from_text_and_excel() -> None:
    roster = parse_roster(table(CLASS, "\t"), "klasse.txt")
    assert [p.level for p in roster.pupils] == [None, 3, 1, None, 3, 3, None]
    rows: list[list[object]] = [["Vorname", "Nachname", "Stufe"], ["Anna", "Meier", 3],
                                ["Ben", "Öztürk", None], ["Cem", "Yılmaz", "4"]]  # fmt: skip
    excel = roster_from_bytes(xlsx_bytes(rows), "klasse.xlsx")
    assert [p.level for p in excel.pupils] == [3, None, 4]  # a number cell 3.0 reads as 3


def pool_keys(level: Level) -> set[tuple[tuple[int, ...], int]]:
    from generator.io.cache import DISK
    from generator.worksheet.pool import level_pool

    return {(c.key[0], c.key[1]) for c in level_pool(level, store=DISK).solvable}


def test_every_pupil_gets_a_sheet_of_their_level(levels_run) -> None:
    _, contents, texts = levels_run
    sheets = contents["sheets"]
    assert [s["name"] for s in sheets] == [name for name, _ in CLASS]  # the list's order
    assert [s["level"] for s in sheets] == [LEVEL[stufe] for _, stufe in CLASS]
    levels = {entry["level"]: entry for entry in contents["levels"]}
    # as many versions as asked, never more than the level has pupils; letters run on
    assert {n: e["versions"] for n, e in levels.items()} == {1: ["A"], 2: ["B", "C"], 3: ["D", "E"]}
    assert {n: e["pupils"] for n, e in levels.items()} == {1: 1, 2: 3, 3: 3}
    family = load_family("koepfchen")
    by_letter = {v["letter"]: v for v in contents["versions"]}
    for sheet in sheets:
        version = by_letter[sheet["version"]]
        assert sheet["version"] in levels[sheet["level"]]["versions"]
        # every problem of the sheet is from that level's pool, under that level's rules
        level = family.level(sheet["level"])
        keys = pool_keys(level)
        for problem in version["problems"]:
            assert problem["rules"]["ops"] == level.rules.ops
            assert (tuple(sorted(problem["numbers"])), problem["target"]) in keys or (
                (tuple(problem["numbers"]), problem["target"]) in keys
            )
            section = contents["sections"][problem["section"]]
            assert section["level"] == sheet["level"]
        # the printed sheet says its level in the title
        page = texts[sheet["first_page"] - 1]
        assert f"Stufe {sheet['level']}" in page and sheet["name"] in page
    assert [s["large_print"] for s in sheets] == [name.startswith("Cem") for name, _ in CLASS]


def test_the_key_says_which_versions_and_pupils_have_which_level(levels_run) -> None:
    _, contents, texts = levels_run
    key = "\n".join(texts[contents["sheet_pages"] :])
    assert "Stufen 1, 2 und 3" in key
    for entry in contents["levels"]:
        for letter in entry["versions"]:
            assert f"Gruppe {letter} · Stufe {entry['level']}" in key
    for sheet in contents["sheets"]:
        assert f"{sheet['version']} (Stufe {sheet['level']})" in key
    assert "Gruppen B, C." in key and "Gruppe A." in key


def test_without_other_levels_the_sheets_are_as_before(tmp_path: Path) -> None:
    same = [(name, "2" if i % 2 else "") for i, (name, _) in enumerate(CLASS)]
    (tmp_path / "with.csv").write_text(table(same), "utf-8")
    (tmp_path / "plain.txt").write_text("\n".join(name for name, _ in CLASS) + "\n", "utf-8")
    for roster, out in (("with.csv", "a.pdf"), ("plain.txt", "b.pdf")):
        result = run(tmp_path, "--versions", "3", "--roster", roster, "--seed", "9", "--out", out)
        assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


@pytest.mark.parametrize(
    ("cell", "said"),
    [
        ("drei", "klasse.csv:3: level 'drei' (expected a level such as 1, 2, 3 or 4"),
        ("7", "klasse.csv:3: level 7 (expected one of the levels of 'koepfchen': 1, 2, 3, 4)"),
    ],
)
def test_a_bad_level_is_one_line_naming_the_row(tmp_path: Path, cell: str, said: str) -> None:
    (tmp_path / "klasse.csv").write_text(table([("Anna", "2"), ("Ben", cell)]), "utf-8")
    result = run(tmp_path, "--roster", "klasse.csv", "--seed", "1")
    assert result.exit_code == 2  # type: ignore[attr-defined]
    lines = result.stderr.strip().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1 and said in lines[0] and "--roster" in lines[0], lines


def test_the_bad_level_in_german_names_the_row() -> None:
    with pytest.raises(UserError) as info:
        parse_roster(table([("Anna", "2"), ("Ben", "zwei")]), "Klassenliste")
    assert info.value.msg.say("de").startswith("Klassenliste, Zeile 3: Stufe „zwei“ (erwartet")


def test_a_topic_sheet_says_the_column_goes_unused(tmp_path: Path) -> None:
    (tmp_path / "klasse.csv").write_text(table(CLASS), "utf-8")
    result = run(tmp_path, "--topic", "add-20-carry", "--roster", "klasse.csv", "--seed", "1",
                 "--out", "t.pdf")  # fmt: skip
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    assert "has a 'Stufe' (level) column" in result.stderr  # type: ignore[attr-defined]


# --- the web page: the same column in a pasted or uploaded list --------------------------


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")
    from starlette.testclient import TestClient

    from generator.web.app import Settings, create_app

    with TestClient(create_app(Settings(workers=1))) as c:
        yield c


def test_the_page_gives_each_pasted_pupil_their_level(client) -> None:
    from tests.web_support import WORKSHEET

    form = {**WORKSHEET, "versions": "2", "seed": "5", "roster_text": table(CLASS, "\t")}
    body = client.post("/api/preview/worksheet?lang=de", data=form).json()
    assert body["ok"], body
    said = "Stufe 1: 1 Kind (Gruppe A); Stufe 2: 3 Kinder (Gruppen B, C); Stufe 3: 3 Kinder"
    assert said in body["figures_html"]
    response = client.post("/download/worksheet", data={**form, "part": "both"})
    import io

    from pypdf import PdfReader

    texts = [p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages]
    assert "Würfelrechnen – Stufe 3" in texts[2] and "Ben Öztürk" in texts[2]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_bad_level_on_the_page_is_beside_the_class_list(client, lang: str) -> None:
    from tests.web_support import WORKSHEET

    upload = xlsx_bytes([["Name", "Stufe"], ["Anna", 2], ["Ben", "zwei"]])
    body = client.post(
        f"/api/preview/worksheet?lang={lang}",
        data=WORKSHEET,
        files={"roster_file": ("klasse.xlsx", upload)},
    ).json()
    assert not body["ok"]
    expected = {
        "de": "klasse.xlsx, Zeile 3: Stufe „zwei“ (erwartet eine Stufe wie 1, 2, 3 oder 4",
        "en": "klasse.xlsx:3: level 'zwei' (expected a level such as 1, 2, 3 or 4",
    }
    assert body["errors"]["roster"].startswith(expected[lang])

"""Kribbeln blocks: balanced sampling (every constraint, any seed), the PDF, the key, bad input."""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from generator.core.errors import CatalogError
from generator.io.cache import DISK
from generator.kribbeln.balance import Balance, TaskFacts, violations
from generator.kribbeln.block import N_ROWS, ROWS
from generator.kribbeln.build import sample_block_of
from generator.kribbeln.layout import BAND_W, PLAYER_MIN_W, sheet_geometry, sheet_items
from generator.kribbeln.load import load_balance, load_block, load_dice, load_tasks
from generator.kribbeln.pages import sheet_view
from generator.kribbeln.sampler import sample_block
from generator.kribbeln.solver import analyze_tasks
from generator.render.primitives import MM, Text, page_size
from generator.text.words import difficulty_mark, number
from tests.pdfcheck import chars_outside, fonts, overlapping_words, page_sizes, page_texts

NAMES = ("Anna", "Ben", "Cem", "Dörte")


@pytest.fixture(scope="module")
def pool() -> list[TaskFacts]:
    dice = load_dice()[0]
    catalog = load_tasks(dice)
    figures = analyze_tasks(dice, catalog.tasks, catalog.rolls, store=DISK)
    return [TaskFacts(t.id, t.family, t.colors, figures[t.id].p_success) for t in catalog.tasks]


def _check(sheets: tuple[tuple[str, ...], ...], pool: list[TaskFacts], b: Balance) -> None:
    """Every constraint, checked here from scratch (not with the sampler's own code)."""
    facts = {t.id: t for t in pool}
    ids = [i for sheet in sheets for i in sheet]
    assert len(ids) == len(set(ids)), "a task twice in the block"
    means, area_rows = [], []
    for sheet in sheets:
        tasks = [facts[i] for i in sheet]
        assert len(tasks) == 6
        p = [t.p_success for t in tasks]
        assert all(b.p_min <= x for x in p)
        # the easy slot: exactly this many tasks above the cap on every sheet
        assert sum(x > b.p_max for x in p) == b.easy_per_sheet, p
        assert {t.family for t in tasks} >= set(b.families)
        areas = [(p[0] + p[1]) / 2, (p[2] + p[3]) / 2, (p[4] + p[5]) / 2]
        area_rows.append(areas)
        if b.areas == "rising":  # p_success falls: each area harder by at least the step
            assert areas[0] - areas[1] >= b.area_step - 1e-9, areas
            assert areas[1] - areas[2] >= b.area_step - 1e-9, areas
        else:
            mean = sum(areas) / 3
            assert all(abs(a - mean) <= b.area_tolerance + 1e-9 for a in areas), areas
        named = Counter(c for t in tasks for c in t.colors)
        assert max(named.values(), default=0) <= b.max_color_per_sheet
        means.append(sum(p) / 6)
    block = sum(means) / len(means)
    assert all(abs(m - block) <= b.mean_tolerance + 1e-9 for m in means), means
    for a in range(3):  # each area of every sheet near the block's mean for that area
        column = [row[a] for row in area_rows]
        area_block = sum(column) / len(column)
        assert all(abs(m - area_block) <= b.area_mean_tolerance + 1e-9 for m in column), (a, column)


# a failing example is reported as found: shrinking a seed teaches nothing and takes long
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


@settings(max_examples=30, deadline=None, phases=NO_SHRINK)
@given(seed=st.integers(0, 10**9))
def test_every_sampled_block_meets_every_constraint(pool: list[TaskFacts], seed: int) -> None:
    b = load_balance()
    block = sample_block(pool, b, 6, seed)
    _check(block.sheets, pool, b)


@settings(max_examples=12, deadline=None, phases=NO_SHRINK)
@given(seed=st.integers(0, 10**9), pages=st.integers(1, 6))
def test_flat_areas_and_other_page_counts(pool: list[TaskFacts], seed: int, pages: int) -> None:
    # flat areas beside the easy slot leave few sheets (an easy task's area needs a hard
    # partner to stay near the sheet's mean): flat is played with every task in range
    b = dataclasses.replace(
        load_balance(),
        areas="flat",
        area_tolerance=0.04,
        mean_tolerance=0.015,
        easy_per_sheet=0,
        p_max=1.0,
    )
    block = sample_block(pool, b, pages, seed)
    assert len(block.sheets) == pages
    _check(block.sheets, pool, b)


def test_sampling_is_seeded(pool: list[TaskFacts]) -> None:
    b = load_balance()
    assert sample_block(pool, b, 6, 5).sheets == sample_block(pool, b, 6, 5).sheets
    assert sample_block(pool, b, 6, 5).sheets != sample_block(pool, b, 6, 6).sheets


def test_the_shipped_balance_file() -> None:
    b = load_balance()
    assert (b.p_min, b.p_max, b.areas, b.max_color_per_sheet) == (0.45, 0.95, "rising", 2)
    assert (b.mean_tolerance, b.area_mean_tolerance) == (0.01, 0.04)
    assert b.positions["area_mean_tolerance"][0] > 1  # stated in the file, not only a default
    assert b.families == ("exact", "free", "comparison")
    assert b.source == "task_catalog/kribbeln/balance.yaml"
    assert [b.stars_of(p) for p in (0.95, 0.85, 0.8, 0.7, 0.46)] == [1, 1, 2, 2, 3]


@pytest.mark.parametrize(
    ("change", "constraint", "key"),
    [
        ({"p_min": 0.9}, "p_min/p_max", "p_min"),  # too few tasks in range: refused at once
        ({"p_min": 0.7, "p_max": 0.8}, "families", "families"),  # two free tasks in range
        ({"max_color_per_sheet": 0}, "max_color_per_sheet", "max_color_per_sheet"),
        ({"mean_tolerance": 0.0}, "mean_tolerance", "mean_tolerance"),  # needs the search
        ({"area_mean_tolerance": 0.0}, "area_mean_tolerance", "area_mean_tolerance"),
        ({"area_step": 0.15}, "areas", "area_step"),
    ],
)
def test_infeasible_constraints_name_the_one_that_binds(
    pool: list[TaskFacts], change: dict, constraint: str, key: str
) -> None:
    b = dataclasses.replace(load_balance(), attempts=3, positions={key: (7, 1)}, **change)
    with pytest.raises(CatalogError) as info:
        sample_block(pool, b, 6, 1)
    assert str(info.value).startswith("task_catalog/kribbeln/balance.yaml:7:1: " + constraint)


def test_area_means_are_balanced_across_the_block(pool: list[TaskFacts]) -> None:
    """The shipped block of seed 1: no sheet's third area far harder than the others'."""
    b = load_balance()
    facts = {t.id: t.p_success for t in pool}
    block = sample_block(pool, b, 6, 1)
    third = [(facts[s[4]] + facts[s[5]]) / 2 for s in block.sheets]
    assert max(third) - min(third) <= 2 * b.area_mean_tolerance + 1e-9, third


def test_area_mean_violations_are_reported(pool: list[TaskFacts]) -> None:
    """Without the constraint a far harder (or easier) area turns up; the check names it."""
    b = load_balance()
    loose = dataclasses.replace(b, area_mean_tolerance=1.0)
    facts = {t.id: t for t in pool}
    found = []
    for seed in range(1, 11):
        sheets = sample_block(pool, loose, 6, seed).sheets
        found += violations([[facts[i] for i in sheet] for sheet in sheets], b)
    assert found and {v.constraint for v in found} == {"area_mean_tolerance"}
    assert all(v.sheet is not None and "block's area-" in v.message for v in found)


@pytest.mark.parametrize("value", ["-0.1", "1.5", "wide"])
def test_bad_area_mean_tolerance_is_positioned(tmp_path: Path, value: str) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(f"p_min: 0.45\narea_mean_tolerance: {value}\n", encoding="utf-8")
    with pytest.raises(CatalogError) as info:
        load_balance(str(path))
    message = str(info.value)
    assert message.startswith(f"{path}:2:") and "area_mean_tolerance" in message, message


# --- the CLI and the PDF ----------------------------------------------------------------


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, list[str]]:
    from click.testing import CliRunner

    from generator.cli import cli

    out = tmp_path_factory.mktemp("kribbeln") / "pad.pdf"
    result = CliRunner().invoke(
        cli,
        ["kribbeln", "block", "--seed", "3", "--names", ",".join(NAMES), "--out", str(out)],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    manifest = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    return out, manifest, page_texts(out)


def _flat(text: str) -> str:
    return " ".join(text.replace("\u202f", " ").split())


def test_block_pdf_pages_names_and_task_texts(written: tuple[Path, dict, list[str]]) -> None:
    path, manifest, texts = written
    c = manifest["contents"]
    assert c["pages"] == 6 and c["players"] == 4 and c["names"] == list(NAMES)
    assert c["sheet_pages"] == [1, 2, 3, 4, 5, 6] and c["rules_pages"] == [7]
    assert c["pdf_pages"] == 6 + len(c["rules_pages"]) + len(c["key_pages"]) >= 8
    assert page_sizes(path) == [pytest.approx((595.28, 841.89), abs=0.01)] * c["pdf_pages"]
    block = sample_block_of(load_block(), 6, 3)
    with pdfplumber.open(str(path)) as pdf:
        for sheet, sampled in zip(c["sheets"], block.sheets):
            page = pdf.pages[sheet["page"] - 1]
            text = texts[sheet["page"] - 1]
            assert f"Blatt {sheet['number']} von 6" in text
            for name in NAMES:
                assert name in text
            # the title and the three area Kribbeln rows
            assert len(re.findall(r"^Kribbeln$", text, re.MULTILINE)) == 1 + 3
            assert "4. Kribbeln-Feld" in text
            assert "Bei Gleichstand gewinnt das höhere vierte Kribbeln-Feld." in text
            # the ten rows where the layout puts them; every task text in its own row's cell
            view = sheet_view(sampled, 6, block.dice, NAMES, "de", 3, 3)
            geo = sheet_geometry(view, "a4", False)
            tops = geo.row_tops([r.kind for r in view.rows])
            assert len(tops) == 10
            x0, x1 = geo.left + BAND_W, geo.players_x
            tasks = iter(sheet["tasks"])
            for row, top in zip(view.rows, tops):
                bottom = top - geo.row_h(row.kind)
                cell = page.crop((x0, page.height - top, x1, page.height - bottom))
                words = _flat(cell.extract_text())
                if row.kind == "task":
                    task = next(tasks)
                    assert task["row"] == row.number
                    assert _flat(task["text"]) in words, (row.number, words)
                else:
                    assert words.startswith("Kribbeln" if row.area < 4 else "4. Kribbeln-Feld")
    assert "Spielregeln" in texts[6]


def test_block_pdf_is_clean(written: tuple[Path, dict, list[str]]) -> None:
    path, _, _ = written
    assert chars_outside(path) == []
    assert overlapping_words(path) == []
    assert all(fonts(path).values())


def test_key_matches_manifest(written: tuple[Path, dict, list[str]]) -> None:
    _, manifest, texts = written
    c = manifest["contents"]
    key = _flat(" ".join(texts[p - 1] for p in c["key_pages"]))
    assert "Lösungsblatt" in key
    for sheet in c["sheets"]:
        assert f"Blatt {sheet['number']} Mittel: " in key
        for task in sheet["tasks"]:
            p = number(100 * task["p_success"], "de", 1)
            pips = number(task["expected_pips"], "de", 1)
            line = f"{task['area']} {_flat(task['text'])}"  # the key prints no row number
            assert re.search(
                re.escape(line)
                + r" .*? "
                + re.escape(f"{p} % {pips} " + difficulty_mark(task["stars"])),
                key,
            ), line
    # the manifest's own figures agree with the solver and the balance
    dice = load_dice()[0]
    catalog = load_tasks(dice)
    figures = analyze_tasks(dice, catalog.tasks, catalog.rolls, store=DISK)
    b = load_balance()
    for sheet in c["sheets"]:
        p = [figures[t["id"]].p_success for t in sheet["tasks"]]
        assert sheet["mean_p_success"] == pytest.approx(sum(p) / 6, abs=1e-9)
        for t in sheet["tasks"]:
            assert t["p_success"] == pytest.approx(figures[t["id"]].p_success, abs=1e-9)
            assert t["stars"] == b.stars_of(figures[t["id"]].p_success)
    assert c["constraints_met"] and c["violations"] == []
    assert [row["row"] for row in c["sheets"][0]["tasks"]] == [1, 2, 4, 5, 7, 8]


def test_sheet_geometry_has_ten_rows_and_room_to_write() -> None:
    block = sample_block_of(load_block(), 1, 2)
    dice = block.dice
    for players, landscape in ((2, False), (5, False), (8, False), (5, True)):
        names = ("",) * players
        view = sheet_view(block.sheets[0], 1, dice, names, "en", 2, 3)
        geo = sheet_geometry(view, "a4", landscape)
        assert len(view.rows) == N_ROWS == 10
        assert [r.kind for r in view.rows] == [r.kind for r in ROWS]
        tops = geo.row_tops([r.kind for r in view.rows])
        assert len(tops) == 10 and tops == sorted(tops, reverse=True)
        assert geo.pip_w >= 11 * MM and geo.task_h >= 12 * MM  # two handwritten digits
        assert geo.player_w >= PLAYER_MIN_W - 1e-6
        page_w, page_h = page_size("a4", landscape)
        assert 6 * MM - 1e-6 <= geo.left and geo.left + geo.table_w <= page_w - geo.left + 1e-6
        assert geo.table_bottom - geo.bottom_h >= 0
        for item in sheet_items(view, geo):
            if isinstance(item, Text):
                assert 0 <= item.x <= page_w and 0 <= item.y <= page_h


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pages", "0"], "option --pages: expected 1–100 sheets, found 0"),
        (["--players", "9"], "option --players: expected 2–8 players"),
        (["--players", "1"], "option --players: expected 2–8 players"),
        (["--names", "A,B,C", "--players", "2"], "3 names for 2 players"),
        (["--pages", "30"], "p_min/p_max"),
        (["--balance", "missing.yaml"], "option --balance: 'missing.yaml' is not a file"),
    ],
)
def test_block_bad_options_exit_2(run_cli, args: list[str], message: str) -> None:
    result = run_cli("kribbeln", "block", *args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_infeasible_balance_file_exits_2(run_cli, tmp_path: Path) -> None:
    balance = tmp_path / "tight.yaml"
    balance.write_text(
        "mean_tolerance: 0.0\nsearch: {attempts: 2, seconds: 0.5}\n", encoding="utf-8"
    )
    result = run_cli("kribbeln", "block", "--balance", balance, "--seed", "1")
    assert result.exit_code == 2
    assert "tight.yaml:1:1: mean_tolerance:" in result.stderr
    assert "binds" in result.stderr
    assert not (tmp_path / "output").exists()  # nothing written
    areas = tmp_path / "areas.yaml"
    areas.write_text(
        "area_mean_tolerance: 0.0\nsearch: {attempts: 2, seconds: 0.5}\n", encoding="utf-8"
    )
    result = run_cli("kribbeln", "block", "--balance", areas, "--seed", "1")
    assert result.exit_code == 2
    assert "areas.yaml:1:1: area_mean_tolerance:" in result.stderr
    assert "binds" in result.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("areas: upwards\n", encoding="utf-8")
    result = run_cli("kribbeln", "block", "--balance", bad)
    assert result.exit_code == 2 and "bad.yaml:1:1: key 'areas': expected one of" in result.stderr


LONG_NAMES = ("Nguyễn Văn An", "Maximilian-Alexander", "Zoë", "Łukasz Wójcik", "Ömer",
              "Søren Kierkegaard", "Anna-Katharina", "Christopher")  # fmt: skip


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_sheet_says_all_at_eight_points_or_more(lang: str) -> None:
    """The longest tasks of the catalog, 2–8 players, A4/Letter, portrait/landscape."""
    from generator.kribbeln.block import sheets_from_ids
    from generator.kribbeln.layout import PIP_MIN_W, hint_size, task_text_size
    from generator.kribbeln.tasks import TEMPLATE, task_text
    from generator.text.words import Texts

    block = sample_block_of(load_block(), 1, 1)
    texts = Texts(TEMPLATE, lang)
    longest = sorted(block.catalog.tasks, key=lambda t: -len(task_text(t, block.dice, lang, texts)))
    sheet = sheets_from_ids([[t.id for t in longest[:6]]], block.catalog)[0]
    for players in range(2, 9):
        for paper in ("a4", "letter"):
            for landscape in (False, True):
                names = LONG_NAMES[:players]
                view = sheet_view(sheet, 1, block.dice, names, lang, 1, 3)
                geo = sheet_geometry(view, paper, landscape)
                where = (players, paper, landscape)
                assert task_text_size(view, geo) >= 8, where
                assert hint_size(view, geo) >= 8, where
                assert geo.pip_w >= PIP_MIN_W - 1e-6, where
                words = " ".join(i.text for i in sheet_items(view, geo) if isinstance(i, Text))
                for key in ("reminder", "kribbeln_rule", "tiebreak"):  # the same notes always
                    assert " ".join(view.words[key].split()) in " ".join(words.split()), where


def test_names_stay_in_their_cells_at_one_size() -> None:
    from generator.kribbeln.layout import NAME_PAD, name_set
    from generator.render.fonts import text_width

    for width_mm in (16.5, 18, 21, 27, 34):
        width = width_mm * MM
        names = name_set(LONG_NAMES, width)
        assert len(names.lines) == len(LONG_NAMES) and names.size >= 8
        for name, lines in zip(LONG_NAMES, names.lines):
            assert 1 <= len(lines) <= 2, (width_mm, lines)
            for line in lines:
                assert text_width(line, names.size, names.bold) <= width - 2 * NAME_PAD + 1e-6
            if not any(line.endswith("…") for line in lines):  # whole: every letter kept
                assert "".join(lines).replace("-", "").replace(" ", "") == name.replace(
                    "-", ""
                ).replace(" ", ""), lines
    # with room, names are neither broken inside a word nor shortened, and set bold
    roomy = name_set(("Nguyễn Văn An", "Maximilian-Alexander", "Zoë"), 34 * MM)
    expected = (("Nguyễn Văn An",), ("Maximilian-", "Alexander"), ("Zoë",))
    assert roomy.bold and roomy.lines == expected
    # a name no cell can hold is shortened visibly, never cut silently
    tight = name_set(("Bartholomäus-Maximiliane von Hohenzollern-Sigmaringen",), 16.5 * MM)
    assert tight.lines[0][-1].endswith("…") and len(tight.lines[0]) == 2


EIGHT = (
    "Nguyễn Văn An", "Maximilian-Alexander", "Zoë Ölçek-Şahin", "Łukasz Wróblewski",
    "Anne-Sophie Ødegård", "Bartholomäus Müller", "Józef Piłsudski", "Anna",
)  # fmt: skip


@pytest.mark.parametrize(("paper", "landscape"), [("a4", False), ("letter", False), ("a4", True)])
def test_eight_players_keep_their_names_whole_and_a_points_field_to_write_in(
    paper: str, landscape: bool
) -> None:
    """Eight long names on a portrait page: up to three lines each in a taller header row,
    never shortened; a points field of at least 7 mm beside a pip field of 11 mm."""
    block = sample_block_of(load_block(), 1, 2)
    view = sheet_view(block.sheets[0], 1, block.dice, EIGHT, "de", 1, 3)
    geo = sheet_geometry(view, paper, landscape)
    assert geo.points_w >= 7 * MM - 1e-6 and geo.pip_w >= 11 * MM - 1e-6
    assert geo.names is not None and geo.names.whole
    for name, lines in zip(EIGHT, geo.names.lines):
        assert 1 <= len(lines) <= 3
        joined = "".join(line if line.endswith("-") and not name.count(line) else line + " "
                         for line in lines)  # fmt: skip
        assert joined.replace("- ", "-").replace("-", "").split() == name.replace("-", "").split()
    texts = [i for i in sheet_items(view, geo) if isinstance(i, Text)]
    assert all("…" not in i.text for i in texts)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_key_speaks_a_designers_words_about_what_the_sheet_prints(lang: str) -> None:
    """No formula names ("p_success", "E[pips]") and no row numbers, which the sheet does not
    print: a task is found by its area's number and its text. Headers at 7 pt or more."""
    from generator.kribbeln.build import BlockRequest, build_block

    for landscape in (False, True):
        req = BlockRequest(pages=2, players=8, lang=lang, landscape=landscape, seed=1)
        built = build_block(load_block(req), req)
        c = built.contents
        for k in c["key_pages"]:
            texts = [i for i in built.document.pages[k - 1].items if isinstance(i, Text)]
            words = {i.text for i in texts}
            assert not words & {"p_success", "E[pips]", "Row", "Zeile"}, words
            assert all("p_success" not in w for w in words)
            assert all(i.size >= (7.0 if i.bold else 6.0) - 1e-6 for i in texts)

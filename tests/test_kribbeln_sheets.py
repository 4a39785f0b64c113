"""`kribbeln block --sheets FILE`: exactly the sheets listed, their balance checked, bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.kribbeln.load import load_dice, load_tasks
from tests.pdfcheck import page_texts

# two sheets a designer picked: the first meets every constraint of the shipped balance on
# its own; a second of six exact tasks has no free and no comparison task
GOOD = (
    "different_red_orange_green,more_black_than_yellow,one_black_none_yellow,"
    "distinct_5,more_green_than_red,most_orange"
)
EXACT = "exactly1_red,exactly1_blue,exactly1_yellow,exactly2_red,exactly2_black,exactly1_green"


def _texts(ids: list[str], lang: str = "de") -> list[str]:
    """The printed words of the tasks (from the manifest's own rows, checked elsewhere)."""
    from generator.io.catalog import Catalog
    from generator.kribbeln.tasks import TEMPLATE, task_text
    from generator.text.words import Texts

    dice = load_dice()[0]
    catalog = load_tasks(dice)
    words = Texts(TEMPLATE, lang, Catalog.default().templates())
    return [task_text(catalog.task(i), dice, lang, words) for i in ids]


def _flat(text: str) -> str:
    """The words in reading order, without the area numbers the band sets beside a task."""
    words = text.replace("-\n", "").split()
    return " ".join(w for w in words if w not in ("1", "2", "3", "4"))


def test_sheets_from_a_csv_are_printed_exactly(run_cli, tmp_path: Path) -> None:
    sheets = [GOOD.split(","), list(reversed(GOOD.split(",")))]
    # a spreadsheet's file: semicolons, a comment, an empty line, trailing separators
    (tmp_path / "mine.csv").write_text(
        "# my two sheets\n" + ";".join(sheets[0]) + ";;\n\n" + ",".join(sheets[1]) + "\n",
        encoding="utf-8",
    )
    result = run_cli("kribbeln", "block", "--sheets", "mine.csv", "--seed", "3", "--out", "p/")
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "p" / "kribbeln-block-3-de.json").read_text())
    contents = manifest["contents"]
    assert [[t["id"] for t in s["tasks"]] for s in contents["sheets"]] == sheets
    assert contents["pages"] == 2 and contents["sheets_chosen"] is True
    assert manifest["options"]["sheets"] == "mine.csv"
    texts = page_texts(tmp_path / "p" / "kribbeln-block-3-de.pdf")
    assert len(contents["sheet_pages"]) == 2
    for page, ids in zip(texts[:2], sheets, strict=True):
        flat = _flat(page)
        # every task of the sheet is on its page, in row order
        where = [flat.find(_flat(text)) for text in _texts(ids)]
        assert all(w >= 0 for w in where), (ids, flat)
    # the area order is the file's: the first task of area 1 comes before the first of area 3
    first, last = (_flat(t) for t in _texts([sheets[0][0], sheets[0][4]]))
    assert _flat(texts[0]).find(first) < _flat(texts[0]).find(last)


def test_a_pads_manifest_reads_back_as_the_same_pad(run_cli, tmp_path: Path) -> None:
    assert run_cli("kribbeln", "block", "--seed", "5", "--out", "a/").exit_code == 0
    again = run_cli("kribbeln", "block", "--sheets", "a/kribbeln-block-5-de.json", "--seed", "5",
                    "--out", "b/")  # fmt: skip
    assert again.exit_code == 0, again.output
    assert again.stderr == ""  # a sampled pad meets its balance: no warning
    first = json.loads((tmp_path / "a" / "kribbeln-block-5-de.json").read_text())
    second = json.loads((tmp_path / "b" / "kribbeln-block-5-de.json").read_text())
    assert first["contents"]["sheets"] == second["contents"]["sheets"]
    assert second["contents"]["constraints_met"] is True
    assert second["contents"]["warnings"] == []
    assert (tmp_path / "a" / "kribbeln-block-5-de.pdf").read_bytes() == (
        tmp_path / "b" / "kribbeln-block-5-de.pdf"
    ).read_bytes()


def test_sheets_that_miss_a_constraint_warn_once_per_constraint(run_cli, tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(f"sheets:\n  - [{GOOD}]\n  - [{EXACT}]\n", encoding="utf-8")
    result = run_cli("kribbeln", "block", "--sheets", "s.yaml", "--seed", "1", "--lang", "en")
    assert result.exit_code == 0, result.output  # the designer's choice: printed anyway
    warnings = [ln for ln in result.stderr.splitlines() if ln.startswith("dicesheets: warning:")]
    assert warnings[0] == (
        "dicesheets: warning: s.yaml: the chosen sheets miss families: "
        "sheet 2: no task of family free, comparison"
    )
    missed = [w.split(" miss ")[1].split(":")[0] for w in warnings]
    assert missed[0] == "families" and len(set(missed)) == len(missed)
    assert "mean_tolerance" in missed
    contents = json.loads((tmp_path / "output" / "kribbeln-block-1-en.json").read_text())
    contents = contents["contents"]
    assert contents["constraints_met"] is False
    assert contents["warnings"] == [w.removeprefix("dicesheets: warning: ") for w in warnings]
    key = _flat(page_texts(tmp_path / "output" / "kribbeln-block-1-en.pdf")[-1])
    assert "the sheets were chosen by hand; not met: families, " in key
    assert "Constraints, all met" not in key


def test_good_sheets_say_all_met_on_the_key(run_cli, tmp_path: Path) -> None:
    (tmp_path / "s.txt").write_text(GOOD.replace(",", " ") + "\n", encoding="utf-8")
    result = run_cli("kribbeln", "block", "--sheets", "s.txt", "--lang", "en", "--seed", "2")
    assert result.exit_code == 0 and result.stderr == "", result.output
    key = _flat(page_texts(tmp_path / "output" / "kribbeln-block-2-en.pdf")[-1])
    assert "Constraints, all met" in key


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("a.csv", f"{GOOD}\n# two\nnone_red,nope_task,x\n",
         "a.csv:3: sheet 2: expected 6 task ids, found 3"),
        ("b.csv", f"{GOOD}\n{GOOD.replace('distinct_5', 'distinct_9')}\n",
         "b.csv:2:73: sheet 2: no task 'distinct_9' in task_catalog/kribbeln/tasks.yaml"),
        ("c.yaml", f"sheets:\n  - [{GOOD}]\n  - [{GOOD.replace('most_orange', 'most_pink')}]\n",
         "c.yaml:3:5: sheets[1]: no task 'most_pink' in task_catalog/kribbeln/tasks.yaml"),
        ("d.csv", "# nothing but a comment\n\n", "d.csv: sheets: expected at least one sheet"),
        ("e.json", '{"contents": {"kind": "kribbeln-block", "sheets": [{"tasks": [\n'
         + ",\n".join(f'{{"id": "{i}"}}' for i in GOOD.replace("most_orange", "gone").split(","))
         + "]}]}}\n", "e.json:7: sheet 1: no task 'gone' in task_catalog/kribbeln/tasks.yaml"),
    ],
)  # fmt: skip
def test_a_bad_sheets_file_is_one_line_with_its_position(
    run_cli, tmp_path: Path, name: str, text: str, expected: str
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    result = run_cli("kribbeln", "block", "--sheets", name, "--out", "x/")
    assert result.exit_code == 2
    assert result.stderr == f"dicesheets: error: {expected}\n"
    assert not (tmp_path / "x").exists()  # no partial files


def test_sheets_and_pages_together_are_refused(run_cli, tmp_path: Path) -> None:
    (tmp_path / "s.csv").write_text(GOOD + "\n", encoding="utf-8")
    result = run_cli("kribbeln", "block", "--sheets", "s.csv", "--pages", "2")
    assert result.exit_code == 2
    assert result.stderr.startswith("dicesheets: error: option --pages: --sheets decides")
    missing = run_cli("kribbeln", "block", "--sheets", "gone.csv")
    assert missing.exit_code == 2
    assert missing.stderr == "dicesheets: error: option --sheets: 'gone.csv' is not a file\n"

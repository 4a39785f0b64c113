"""Kribbeln tasks from a spreadsheet: CSV in (file:line:column errors), CSV/YAML out, lossless."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.core.errors import CatalogError
from generator.core.resources import catalog_dir
from generator.kribbeln.load import load_dice, load_tasks, load_tasks_file
from generator.kribbeln.taskcsv import COLUMNS, tasks_csv
from generator.kribbeln.tasks import TASK_TYPES

SHIPPED_TASKS = catalog_dir() / "kribbeln" / "tasks.yaml"


@pytest.fixture(scope="module")
def dice():
    return load_dice()[0]


def write(folder: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = folder / name
    path.write_bytes(text.encode(encoding))
    return path


def test_export_then_build_from_the_csv_gives_the_same_pdf_byte_for_byte(
    run_cli, tmp_path: Path, dice
) -> None:
    result = run_cli("kribbeln", "export-tasks", "--csv", "--out", "tasks.csv")
    assert result.exit_code == 0, result.stderr
    csv_path = tmp_path / "tasks.csv"
    header = csv_path.read_text(encoding="utf-8").splitlines()[0]
    assert header == ",".join(COLUMNS)
    from_yaml = load_tasks_file(SHIPPED_TASKS, "tasks.yaml", dice)
    from_csv = load_tasks_file(csv_path, "tasks.csv", dice)
    assert from_csv.tasks == from_yaml.tasks and from_csv.rolls == from_yaml.rolls
    assert len(from_csv.tasks) == 155 and {t.type for t in from_csv.tasks} == set(TASK_TYPES)
    assert from_csv.tasks[5].source == "tasks.csv:7"  # header on line 1
    for args, name in (([], "yaml.pdf"), (["--tasks", "tasks.csv"], "csv.pdf")):
        result = run_cli("kribbeln", "block", "--seed", "3", *args, "--out", name)
        assert result.exit_code == 0, result.stderr
    assert (tmp_path / "csv.pdf").read_bytes() == (tmp_path / "yaml.pdf").read_bytes()


def test_yaml_export_round_trips_too(run_cli, tmp_path: Path, dice) -> None:
    shipped = load_tasks(dice)
    csv_text = run_cli("kribbeln", "export-tasks").stdout  # CSV is the default, to stdout
    csv_path = write(tmp_path, "t.csv", csv_text)
    yaml_text = run_cli("kribbeln", "export-tasks", "--yaml", "--tasks", csv_path).stdout
    again = load_tasks_file(write(tmp_path, "t.yaml", yaml_text), "t.yaml", dice)
    assert again.tasks == shipped.tasks
    # the task lines are the shipped file's lines
    lines = [line for line in yaml_text.splitlines() if line.startswith("  - {")]
    assert lines == [
        line for line in SHIPPED_TASKS.read_text(encoding="utf-8").splitlines()
        if line.startswith("  - {")
    ]  # fmt: skip


def test_rolls_other_than_three_survive_the_round_trip(tmp_path: Path, dice) -> None:
    catalog = load_tasks_file(
        write(tmp_path, "r.yaml", "rolls: 4\ntasks:\n  - {id: a, type: most, color: red}\n"),
        "r.yaml",
        dice,
    )
    text = tasks_csv(catalog.tasks, catalog.rolls, 3)
    assert text.startswith("# rolls: 4\nid,type,")
    again = load_tasks_file(write(tmp_path, "r.csv", text), "r.csv", dice)
    assert again.rolls == 4 and again.tasks == catalog.tasks


def test_a_spreadsheet_in_german_excel_style_reads(tmp_path: Path, dice) -> None:
    # semicolons, a byte-order mark, CRLF, columns in another order and only those needed,
    # colours with commas in a quoted cell, an empty row and a comment row
    text = (
        "\ufeffType;ID;Colors;Count\r\n"
        "# erste Spalte: Aufgabentyp\r\n"
        'none_of;keine_rb;"red, blue";\r\n'
        ";;;\r\n"
        "some_color_exactly;vier;;4\r\n"
    )
    catalog = load_tasks_file(write(tmp_path, "s.csv", text), "s.csv", dice)
    assert [(t.id, t.type, t.colors, t.count) for t in catalog.tasks] == [
        ("keine_rb", "none_of", ("red", "blue"), None),
        ("vier", "some_color_exactly", (), 4),
    ]
    assert [t.family for t in catalog.tasks] == ["exact", "free"]  # from the type
    assert (catalog.tasks[1].line, catalog.tasks[1].column) == (5, 1)


BAD = [
    ("id,type,colour\n", "1:9: unknown column 'colour'"),
    ("id,colors\nx,red\n", "1:1: the header has no column 'type'"),
    ("id,type,id\n", "1:9: column 'id' appears twice"),
    ("id,type,count\nx,exactly,2\n", "2:1: missing key 'tasks[0].color'"),
    ("id,type,color,count\nx,exactly,red,9\n", "2:15: key 'tasks[0].count': expected a whole "
     "number 1–6, found 9"),
    ("id,type,color,count\nx,exactly,red,zwei\n", "2:15: key 'tasks[0].count': expected a "
     "whole number, found the text 'zwei'"),
    ("id,type,colors\nx,none_of,red purple\n", "2:11: key 'tasks[0].colors': unknown color "
     "'purple'"),
    ("id,type,colors,count\nx,none_of,red,3\n", "2:15: unknown key 'tasks[0].count'"),
    ('id,type,colors\nx,none_of,"red\n', "2:11: a quoted cell is not closed"),
    ("id,type\nx,most,red\n", "2:8: a cell outside the named columns: 'red'"),
    ("# rolls: many\nid,type\n", "1:1: '# rolls:' expects a whole number, found 'many'"),
    ("# rolls: 9\nid,type,color\nx,most,red\n", "1:1: '# rolls:' expects a whole number 1–6"),
    ("id,type\n", "t.csv: expected at least one task row"),
    ("", "t.csv: no header row"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), BAD)
def test_csv_mistakes_name_file_line_and_column(tmp_path: Path, dice, text, message) -> None:
    with pytest.raises(CatalogError) as err:
        load_tasks_file(write(tmp_path, "t.csv", text), "t.csv", dice)
    assert message in str(err.value), str(err.value)
    if message[0].isdigit():
        assert str(err.value).startswith(f"t.csv:{message}")


def test_a_csv_that_is_not_utf8_is_one_line_exit_2(run_cli, tmp_path: Path) -> None:
    write(tmp_path, "latin.csv", "id,type,color\ngrün,most,red\n", encoding="latin-1")
    result = run_cli("kribbeln", "analyze", "--tasks", "latin.csv")
    assert result.exit_code == 2
    assert result.stderr == (
        "dicesheets: error: latin.csv: not UTF-8 text (byte 16); save the sheet as 'CSV UTF-8'\n"
    )


def test_validate_reports_every_csv_problem_at_once(run_cli, tmp_path: Path) -> None:
    write(tmp_path, "t.csv",
          "id;type;colors;color;count\n"
          "a;none_of;red;;\n"
          "b;exactly;;red;7\n"
          "a;most;;blue;\n"
          "c;none_of;teal;;\n")  # fmt: skip
    result = run_cli("validate", "t.csv")
    assert result.exit_code == 2
    assert [line.split(":", 3)[1:3] for line in result.stderr.splitlines()] == [
        ["3", "16"], ["4", "1"], ["5", "11"]
    ]  # fmt: skip
    assert result.stdout == "1 file checked: 3 problems, 0 warnings\n"


def test_a_catalog_folder_may_keep_its_tasks_as_csv(run_cli, tmp_path: Path) -> None:
    folder = tmp_path / "mine" / "kribbeln"
    folder.mkdir(parents=True)
    result = run_cli("kribbeln", "export-tasks", "--out", folder / "tasks.csv")
    assert result.exit_code == 0, result.stderr
    text = (
        (folder / "tasks.csv")
        .read_text(encoding="utf-8")
        .replace("none_red,none_of,red,", "none_red,none_of,purple,")
    )
    (folder / "tasks.csv").write_text(text, encoding="utf-8")
    result = run_cli("validate", "--catalog", tmp_path / "mine")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{folder / 'tasks.csv'}:2:18: key 'tasks[0].colors'")
    result = run_cli("kribbeln", "analyze", "--catalog", tmp_path / "mine")
    assert result.exit_code == 2 and "tasks.csv:2:18" in result.stderr
    write(folder, "tasks.yaml", "tasks:\n  - {id: a, type: most, color: red}\n")
    result = run_cli("kribbeln", "analyze", "--catalog", tmp_path / "mine")
    assert result.exit_code == 2 and "keep one of the two task files" in result.stderr


def test_export_takes_the_tasks_of_the_catalog_in_force(run_cli, tmp_path: Path) -> None:
    folder = tmp_path / "mine" / "kribbeln"
    folder.mkdir(parents=True)
    write(folder, "tasks.yaml", "rolls: 2\ntasks:\n  - {id: a, type: equal, colors: [red, blue]}\n")
    result = run_cli("kribbeln", "export-tasks", "--catalog", tmp_path / "mine")
    assert result.exit_code == 0, result.stderr
    # the figures are those of the catalog's two rolls (kribbeln analyze says the same)
    import json

    analysis = run_cli("kribbeln", "analyze", "--catalog", tmp_path / "mine", "--json").stdout
    (task,) = json.loads(analysis)["tasks"]
    assert result.stdout == (
        "# rolls: 2\n" + ",".join(COLUMNS) + "\na,equal,red blue,,,,,,,1,comparison,"
        '"Gleich viele Würfel zeigen Rot und Blau, mindestens je einer.",'
        '"As many dice show red as blue, at least one each.",'
        f"{task['p_success']:.4f},{task['expected_pips']:.2f}\n"
    )


def _rows(text: str) -> list[dict[str, str]]:
    import csv
    import io

    return list(csv.DictReader(io.StringIO(text)))


def test_the_export_carries_each_task_s_words_and_difficulty(run_cli, tmp_path: Path) -> None:
    import json

    text = run_cli("kribbeln", "export-tasks").stdout
    assert text.splitlines()[0].endswith(",family,text_de,text_en,p_success,expected_pips")
    rows = {row["id"]: row for row in _rows(text)}
    analysis = json.loads(run_cli("kribbeln", "analyze", "--json").stdout)["tasks"]
    assert len(rows) == len(analysis) == 155
    for task in analysis:
        row = rows[task["id"]]
        assert (row["text_de"], row["text_en"]) == (task["text"]["de"], task["text"]["en"])
        assert row["p_success"] == f"{task['p_success']:.4f}"
        assert row["expected_pips"] == f"{task['expected_pips']:.2f}"
    # restated: a die ends without the colours when one of its three rolls misses them
    # (the best play re-rolls exactly the dice that show them): (1 − (k/6)³)⁶
    for task_id, k in (("none_red", 1), ("none_red_orange", 2), ("none_blue_green", 2)):
        assert float(rows[task_id]["p_success"]) == pytest.approx((1 - (k / 6) ** 3) ** 6, abs=5e-5)
    assert rows["none_red"]["text_de"] == "Kein Würfel zeigt Rot."


def test_the_new_columns_round_trip_and_change_no_task(run_cli, tmp_path: Path, dice) -> None:
    first = run_cli("kribbeln", "export-tasks", "--out", "one.csv")
    assert first.exit_code == 0, first.stderr
    again = run_cli("kribbeln", "export-tasks", "--tasks", "one.csv", "--out", "two.csv")
    assert again.exit_code == 0, again.stderr
    assert (tmp_path / "two.csv").read_bytes() == (tmp_path / "one.csv").read_bytes()
    # a spreadsheet's stale or edited words and figures are not read into the tasks
    text = (tmp_path / "one.csv").read_text(encoding="utf-8")
    edited = text.replace("Kein Würfel zeigt Rot.", "Rot ist verboten!").replace(
        ",0.9725,22.57\n", ",0.5,x\n", 1
    )
    assert edited != text
    write(tmp_path, "edited.csv", edited)
    shipped = load_tasks(dice).tasks
    assert load_tasks_file(tmp_path / "edited.csv", "edited.csv", dice).tasks == shipped
    # … and a list without them (an older export, or a hand-made one) reads as before
    old = "\n".join(",".join(line.split(",")[: len(COLUMNS) - 4]) for line in text.splitlines())
    assert "text_de" not in old and "p_success" not in old
    write(tmp_path, "old.csv", old + "\n")
    assert load_tasks_file(tmp_path / "old.csv", "old.csv", dice).tasks == shipped
    for args, name in (([], "yaml.pdf"), (["--tasks", "edited.csv"], "edited.pdf"),
                       (["--tasks", "old.csv"], "old.pdf")):  # fmt: skip
        result = run_cli("kribbeln", "block", "--seed", "3", *args, "--out", name)
        assert result.exit_code == 0, result.stderr
    pdf = (tmp_path / "yaml.pdf").read_bytes()
    assert (tmp_path / "edited.pdf").read_bytes() == pdf == (tmp_path / "old.pdf").read_bytes()

"""A playtester's session, as the issue tells it: a Kribbeln-only catalog with five mistakes
found by one `validate`, and a block built from the exported CSV equal to the YAML one."""

from __future__ import annotations

from pathlib import Path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path: Path, fragment: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if fragment in line)


def test_five_mistakes_in_one_validate(run_cli, tmp_path: Path) -> None:
    assert run_cli("init", "mine", "--game", "kribbeln").exit_code == 0
    mine = tmp_path / "mine"
    assert sorted(p.name for p in mine.iterdir()) == [
        "README.txt", "kribbeln", "rules.md", "templates"
    ]  # fmt: skip
    assert run_cli("validate", "--catalog", "mine").exit_code == 0
    tasks, balance = mine / "kribbeln" / "tasks.yaml", mine / "kribbeln" / "balance.yaml"
    sheet = mine / "templates" / "de" / "kribbeln_sheet.j2"
    # three mistakes in the tasks: an unknown colour, a count out of range, an id used twice
    edit(tasks, "{id: none_blue, type: none_of, colors: [blue]", "{id: none_blue, type: none_of, "
         "colors: [purple]")  # fmt: skip
    edit(tasks, "{id: exactly2_red, type: exactly, color: red, count: 2",
         "{id: exactly2_red, type: exactly, color: red, count: 7")  # fmt: skip
    edit(tasks, "{id: exactly1_green,", "{id: exactly1_black,")
    # one in a template: a name the program does not give (only rendering finds it)
    edit(sheet, "Blatt {{ number }} von {{ of }}", "Blatt {{ number }} von {{ off }}")
    # one in the balance file
    edit(balance, "p_max: 0.95", "p_max: 1.5")
    result = run_cli("validate", "--catalog", "mine")
    assert result.exit_code == 2
    problems = result.stderr.splitlines()
    assert len(problems) == 5, problems
    expected = [
        (balance, line_of(balance, "p_max: 1.5"), "key 'p_max': expected a number 0–1, found 1.5"),
        (tasks, line_of(tasks, "colors: [purple]"), "unknown color 'purple'"),
        (tasks, line_of(tasks, "{id: exactly1_black, type: exactly, color: green"),
         "task id 'exactly1_black' appears twice"),
        (tasks, line_of(tasks, "count: 7"), "key 'tasks[27].count': expected a whole number 1–6"),
        (sheet, line_of(sheet, "{{ off }}"), "'off' is undefined"),
    ]  # fmt: skip
    for (path, line, message), problem in zip(expected, problems):
        assert problem.startswith(f"{path.relative_to(tmp_path)}:{line}:") or problem.startswith(
            f"{path}:{line}:"
        ), (problem, line)
        assert message in problem, problem
    assert result.stdout.endswith("16 files checked: 5 problems, 0 warnings\n"), result.stdout


def test_a_block_from_the_exported_csv_is_the_same_pdf(run_cli, tmp_path: Path) -> None:
    assert run_cli("init", "mine", "--game", "kribbeln").exit_code == 0
    result = run_cli("kribbeln", "export-tasks", "--csv", "--out", "mine/kribbeln/tasks.csv")
    assert result.exit_code == 0, result.stderr
    (tmp_path / "mine" / "kribbeln" / "tasks.yaml").unlink()  # the spreadsheet replaces it
    assert run_cli("validate", "--catalog", "mine").exit_code == 0
    for catalog, name in (([], "shipped.pdf"), (["--catalog", "mine"], "csv.pdf")):
        result = run_cli("kribbeln", "block", "--seed", "5", *catalog, "--out", name)
        assert result.exit_code == 0, result.stderr
    assert (tmp_path / "csv.pdf").read_bytes() == (tmp_path / "shipped.pdf").read_bytes()

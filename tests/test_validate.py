"""`dicesheets validate` and `init`: every problem with file:line:column, loaders never crash."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.core.resources import catalog_dir
from generator.validate.checks import validate

SHIPPED = catalog_dir()


def shipped(rel: str) -> str:
    return (SHIPPED / rel).read_text(encoding="utf-8")


def write(folder: Path, rel: str, text: str) -> Path:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# (file, broken text, expected line, message fragment)
BROKEN = [
    ("kniffel/kniffel.yaml",
     shipped("kniffel/kniffel.yaml").replace("face: 6,", "face: 7,"),
     20, "key 'categories[5].face': expected a whole number 1–6, found 7"),
    ("kniffel/kniffel.yaml",
     shipped("kniffel/kniffel.yaml").replace("joker: none", "joker: wild"),
     8, "key 'joker': expected one of none, free, forced, found 'wild'"),
    ("kribbeln/dice.yaml",
     shipped("kribbeln/dice.yaml").replace("5: yellow, 6: green}", "5: yellow, 6: yellow}", 1),
     30, "color 'yellow' repeated"),
    ("kribbeln/tasks.yaml",
     "tasks:\n  - {id: a, type: none_of, colors: [purple]}\n", 2, "unknown color 'purple'"),
    ("kribbeln/tasks.yaml",
     "tasks:\n  - {id: a, type: nine_of, colors: [red]}\n", 2, "found 'nine_of'"),
    ("kribbeln/tasks.yaml",
     "tasks:\n  - {id: a, type: exactly, color: red, count: 9}\n", 2,
     "key 'tasks[0].count': expected a whole number 1–6, found 9"),
    ("koepfchen/plus-minus.yaml",
     shipped("koepfchen/plus-minus.yaml").replace("length: 30", "length: 0"),
     11, "track.length"),
    ("worksheet/koepfchen.yaml",
     shipped("worksheet/koepfchen.yaml").replace("levels:", "levls:", 1),
     None, "unknown key 'levls'"),
    ("templates/de/kniffel_block.j2", "{% macro name_label() %}Name{% endmacro\n", 1,
     "template syntax error"),
]  # fmt: skip


@pytest.mark.parametrize(("rel", "text", "line", "message"), BROKEN)
def test_broken_file_reports_file_line_and_message(
    tmp_path: Path, rel, text, line, message
) -> None:
    path = write(tmp_path, rel, text)
    report = validate(tmp_path)
    matching = [e for e in report.errors if message in e]
    assert matching, report.errors
    if line is not None:
        assert matching[0].startswith(f"{path}:{line}:"), matching[0]


def test_all_problems_of_a_file_in_one_run(tmp_path: Path) -> None:
    write(tmp_path, "kribbeln/tasks.yaml",
          "tasks:\n  - {id: ok, type: none_of, colors: [red]}\n"
          "  - {id: a, type: none_of, colors: [purple]}\n"
          "  - {id: b, type: nine_of}\n"
          "  - {id: c, type: exactly, color: red, count: 9}\n")  # fmt: skip
    write(tmp_path, "kniffel/kniffel.yaml", "id: x\n")
    report = validate(tmp_path)
    lines = sorted(e.split(":")[1] for e in report.errors if "tasks.yaml" in e)
    assert lines == ["3", "4", "5"]
    assert any("kniffel.yaml" in e for e in report.errors)


def test_a_duplicate_id_is_found_in_the_same_pass_as_the_other_problems(
    run_cli, tmp_path: Path
) -> None:
    write(tmp_path, "kribbeln/tasks.yaml",
          "tasks:\n  - {id: ok, type: none_of, colors: [red]}\n"
          "  - {id: a, type: none_of, colors: [purple]}\n"
          "  - {id: ok, type: most, color: blue}\n"
          "  - {id: c, type: exactly, color: red, count: 9}\n")  # fmt: skip
    result = run_cli("validate", "--catalog", tmp_path)
    assert result.exit_code == 2
    problems = result.stderr.splitlines()
    assert [p.split(":")[1] for p in problems] == ["3", "4", "5"], problems
    assert "task id 'ok' appears twice (first as tasks[0])" in problems[1]
    assert problems[1].startswith(f"{tmp_path}/kribbeln/tasks.yaml:4:6:")  # at the id
    assert result.stdout.endswith(": 3 problems, 0 warnings\n")


def test_the_summary_counts_in_good_english(run_cli, tmp_path: Path) -> None:
    one = write(tmp_path, "kribbeln/tasks.yaml", "tasks:\n  - {id: a, type: most, color: x}\n")
    result = run_cli("validate", one)
    assert result.stdout == "1 file checked: 1 problem, 0 warnings\n"


def test_a_file_is_recognised_by_its_content(run_cli, tmp_path: Path) -> None:
    tasks = write(tmp_path, "my-list.yaml", "tasks:\n  - {id: a, type: most, color: x}\n")
    result = run_cli("validate", tasks)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{tasks}:2:") and "unknown color 'x'" in result.stderr
    balance = write(tmp_path, "hard.yaml", "p_min: 0.4\np_max: 0.9\n")
    assert run_cli("validate", balance).exit_code == 0
    for text in ("colours: 6\n", "- a\n", ""):
        other = write(tmp_path, "notes.yaml", text)
        result = run_cli("validate", other)
        assert result.exit_code == 2, result.output
        assert f"{other}: not a catalog file dicesheets knows (expected " in result.stderr
        assert "a Kribbeln task catalog (tasks:)" in result.stderr


def test_a_file_found_by_content_in_a_folder_is_checked_with_a_warning(tmp_path: Path) -> None:
    write(tmp_path, "kribbel/tasks.yaml", "tasks:\n  - {id: a, type: most, color: blue}\n")
    report = validate(tmp_path)
    assert report.errors == []
    assert any("checked as a Kribbeln task catalog by its content" in w for w in report.warnings)


def test_missing_macro_in_a_user_template(tmp_path: Path) -> None:
    write(tmp_path, "templates/de/kniffel_block.j2", "{% macro name_label() %}Name{% endmacro %}\n")
    report = validate(tmp_path)
    assert any("lacks the macro 'grand_total'" in e for e in report.errors)


def test_not_a_latin_square_is_a_warning(tmp_path: Path) -> None:
    text = shipped("kribbeln/dice.yaml")
    lines = text.splitlines(keepends=True)
    dice = [i for i, line in enumerate(lines) if line.lstrip().startswith("- {1:")]
    lines[dice[1]], lines[dice[0]] = lines[dice[0]], lines[dice[0]]  # two equal dice
    write(tmp_path, "kribbeln/dice.yaml", "".join(lines))
    report = validate(tmp_path)
    assert report.errors == []
    assert any("not a Latin square" in w for w in report.warnings)


def test_infeasible_balance_is_named(tmp_path: Path) -> None:
    text = shipped("kribbeln/balance.yaml")
    write(tmp_path, "kribbeln/balance.yaml", text.replace("p_max: ", "p_max: 0.5 #", 1))
    report = validate(tmp_path)
    assert any("balance.yaml" in e for e in report.errors), report.errors


def test_shipped_catalog_is_clean_and_cli_exit_codes(run_cli, tmp_path: Path) -> None:
    result = run_cli("validate")
    assert result.exit_code == 0, result.output + result.stderr
    assert "0 problems" in result.output
    write(tmp_path / "bad", "kniffel/kniffel.yaml", "id: [\n")
    result = run_cli("validate", "--catalog", tmp_path / "bad")
    assert result.exit_code == 2
    assert "kniffel.yaml:" in result.stderr
    single = write(tmp_path, "loose/rules.yaml", "categories: 5\n")
    result = run_cli("validate", single)
    assert result.exit_code == 2 and "rules.yaml" in result.stderr


def test_init_writes_a_starter_catalog_that_validates(run_cli, tmp_path: Path) -> None:
    result = run_cli("init", tmp_path / "mine")
    assert result.exit_code == 0, result.output
    assert (
        (tmp_path / "mine" / "kniffel" / "kniffel.yaml").read_text(encoding="utf-8").startswith("#")
    )
    assert (tmp_path / "mine" / "templates" / "de" / "kniffel_block.j2").is_file()
    assert run_cli("validate", "--catalog", tmp_path / "mine").exit_code == 0
    again = run_cli("init", tmp_path / "mine")  # (tests/test_init.py: what a second run keeps)
    assert again.exit_code == 0 and "nothing to write" in again.stdout
    assert run_cli("init", tmp_path / "mine", "--force").exit_code == 0


def test_init_for_one_game_copies_only_what_it_uses(run_cli, tmp_path: Path) -> None:
    result = run_cli("init", tmp_path / "k", "--game", "kribbeln")
    assert result.exit_code == 0, result.output
    files = sorted(p.relative_to(tmp_path / "k").as_posix() for p in (tmp_path / "k").rglob("*.*"))
    templates = ["kribbeln_key", "kribbeln_rules", "kribbeln_sheet", "kribbeln_tasks", "report"]
    templates.append("page")
    assert files == sorted(
        [
            "README.txt",
            "rules.md",
            "kribbeln/balance.yaml",
            "kribbeln/dice.yaml",
            "kribbeln/tasks.yaml",
            "kribbeln/tasks/variants.yaml",
        ]
        + [f"templates/{lang}/{name}.j2" for lang in ("de", "en") for name in templates]
    )
    readme = (tmp_path / "k" / "README.txt").read_text(encoding="utf-8")
    assert "kribbeln/" in readme and "kniffel/" not in readme
    # a second game is added beside the first; the note then names both
    result = run_cli("init", tmp_path / "k", "--game", "worksheet", "--game", "kniffel")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "k" / "worksheet" / "specs" / "mixed.yaml").is_file()
    assert (tmp_path / "k" / "templates" / "en" / "kniffel_odds.j2").is_file()
    assert not (tmp_path / "k" / "koepfchen").exists()
    assert "kniffel/" in (tmp_path / "k" / "README.txt").read_text(encoding="utf-8")
    assert run_cli("validate", "--catalog", tmp_path / "k").exit_code == 0
    assert run_cli("init", tmp_path / "x", "--game", "chess").exit_code == 2


def test_every_game_and_template_belongs_somewhere() -> None:
    from generator.core.resources import templates_dir
    from generator.io.starter import GAMES, starter_files
    from generator.registry import STARTER_GAMES as CLI_GAMES  # init --game's choices

    assert set(CLI_GAMES) == set(GAMES)
    copied = {rel.as_posix() for _, rel in starter_files(GAMES)}
    # web.j2, cli.j2: the words of the web page and the command line, which a catalog
    # does not change
    shipped = {f"templates/{p.relative_to(templates_dir()).as_posix()}"
               for p in templates_dir().rglob("*.j2")
               if p.name not in ("web.j2", "cli.j2", "errors.j2")}  # fmt: skip
    shipped |= {p.relative_to(SHIPPED).as_posix() for p in SHIPPED.rglob("*.yaml")}
    assert copied == shipped


yaml_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.floats(allow_nan=False, width=32)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["id", "type", "colors", "count", "tasks", "dice", "levels",
                                       "categories", "track", "length", "kind", "label", "p_min",
                                       "sections", "name", "rules", "targets", "balance"]),
                      inner, max_size=5),
    max_leaves=12,
)  # fmt: skip
KINDS = [
    "kniffel/kniffel.yaml",
    "kribbeln/dice.yaml",
    "kribbeln/tasks.yaml",
    "koepfchen/classic.yaml",
    "worksheet/koepfchen.yaml",
    "worksheet/specs/mixed.yaml",
]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(kind=st.sampled_from(KINDS), data=yaml_values)
def test_fuzzed_yaml_never_crashes_a_loader(tmp_path: Path, kind: str, data: object) -> None:
    folder = tmp_path / "fuzz"
    if folder.exists():
        import shutil

        shutil.rmtree(folder)
    write(folder, kind, yaml.safe_dump(data, allow_unicode=True))
    validate(folder)  # raises only on a bug: every user mistake becomes a report line

"""`dicesheets kribbeln analyze|hold|row`: JSON and tables, sorting, bad options → exit 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from generator.io.cache import DISK
from generator.kribbeln.load import load_dice, load_tasks
from generator.kribbeln.solver import analyze_tasks
from generator.kribbeln.tasks import FAMILIES


@pytest.fixture(scope="module")
def analysis() -> dict:
    """`analyze --json` once per module (the solver cache makes reruns cheap anyway)."""
    from click.testing import CliRunner

    from generator.cli import cli

    result = CliRunner().invoke(cli, ["kribbeln", "analyze", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # the shipped dice are a Latin square: no warnings
    return json.loads(result.stdout)


def test_analyze_json_has_every_task_with_both_texts(analysis: dict) -> None:
    dice = load_dice()[0]
    catalog = load_tasks(dice)
    rows = analysis["tasks"]
    assert [r["id"] for r in rows] == [t.id for t in catalog.tasks]
    assert analysis["rolls"] == 3
    assert analysis["dice_file"] == "task_catalog/kribbeln/dice.yaml"
    figures = analyze_tasks(dice, catalog.tasks, store=DISK)
    for r in rows:
        assert set(r) >= {"id", "family", "text", "p_success", "expected_pips", "colors"}
        assert set(r["text"]) == {"de", "en"} and all(r["text"].values())
        assert r["family"] in FAMILIES
        assert abs(r["p_success"] - figures[r["id"]].p_success) <= 1e-9
        assert abs(r["expected_pips"] - figures[r["id"]].expected_pips) <= 1e-9
    none_red = rows[0]
    assert none_red["id"] == "none_red"
    assert none_red["text"] == {"de": "Kein Würfel zeigt Rot.", "en": "No die shows red."}
    assert abs(none_red["p_success"] - (1 - 1 / 216) ** 6) <= 1e-9


@pytest.mark.parametrize("sort", ["p_success", "expected_pips", "id", "family"])
def test_analyze_sorts(run_cli, sort: str) -> None:
    result = run_cli("kribbeln", "analyze", "--json", "--sort", sort)
    assert result.exit_code == 0
    rows = json.loads(result.stdout)["tasks"]
    if sort == "id":
        keys = [r["id"] for r in rows]
        assert keys == sorted(keys)
    elif sort == "family":
        keys = [FAMILIES.index(r["family"]) for r in rows]
        assert keys == sorted(keys)
    else:
        keys = [r[sort] for r in rows]
        assert keys == sorted(keys, reverse=True)


def test_analyze_table_is_aligned(run_cli, analysis: dict) -> None:
    result = run_cli("kribbeln", "analyze", "--lang", "en")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 1 + len(analysis["tasks"])
    assert lines[0].split() == ["id", "family", "p_success", "expected_pips", "task"]
    start = lines[0].index("task")
    for line, row in zip(lines[1:], analysis["tasks"]):
        assert line.startswith(row["id"] + " ")
        assert line[start:] == row["text"]["en"]
        assert f"{row['p_success']:.4f}" in line
    german = run_cli("kribbeln", "analyze").stdout.splitlines()
    assert german[1].endswith("Kein Würfel zeigt Rot.")


def test_hold_the_issue_example(run_cli) -> None:
    # 3 5 1 6 2 2 shows blue green blue blue green red: re-roll the red die
    result = run_cli(
        "kribbeln", "hold", "--task", "none_red", "--roll", "3 5 1 6 2 2", "--rolls-left", "2",
        "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [d["color"] for d in data["roll"]] == ["blue", "green", "blue", "blue", "green", "red"]
    assert data["fulfilled"] is False
    options = data["options"]
    assert len(options) == 64
    assert options[0]["keep"] == [1, 2, 3, 4, 5] and options[0]["reroll"] == [6]
    assert abs(options[0]["value"] - 35 / 36) <= 1e-9  # not red within two re-rolls
    stop = next(o for o in options if o["stop"])
    assert stop["value"] == 0.0 and stop["keep"] == [1, 2, 3, 4, 5, 6]
    values = [o["value"] for o in options]
    assert values == sorted(values, reverse=True)

    text = run_cli(
        "kribbeln", "hold", "--task", "none_red", "--roll", "3,5,1,6,2,2", "--rolls-left", "2"
    ).stdout
    assert "Kein Würfel zeigt Rot." in text
    assert "6:2 rot" in text
    lines = text.splitlines()
    best = next(i for i, line in enumerate(lines) if line.strip().startswith("0.9722"))
    assert lines[best].rstrip().endswith("6")
    assert "1:3 blau, 2:5 grün, 3:1 blau, 4:6 blau, 5:2 grün" in lines[best]


def test_hold_for_pips_with_no_rolls_left_is_the_roll_itself(run_cli) -> None:
    result = run_cli(
        "kribbeln", "hold", "--task", "none_red", "--roll", "6 5 6 6 6 6", "--rolls-left", "0",
        "--goal", "pips", "--json",
    )  # fmt: skip
    data = json.loads(result.stdout)
    assert "red" not in [d["color"] for d in data["roll"]]
    assert data["fulfilled"] is True
    assert data["options"] == [
        {"keep": [1, 2, 3, 4, 5, 6], "reroll": [], "stop": True, "value": 35.0}
    ]


COLORS = ("red", "orange", "blue", "black", "yellow", "green")


def _color(die: int, value: int) -> str:
    """The shipped dice, restated from their file's comment: die d shows v in colour (v+d−2)%6."""
    return COLORS[(value + die - 2) % 6]


@pytest.mark.parametrize("roll", ["6 5 6 6 6 6", "3 5 1 6 2 2", "1 1 1 1 1 1"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_hold_with_no_re_roll_left_says_so_instead_of_a_table(run_cli, roll, lang) -> None:
    values = [int(v) for v in roll.split()]
    fulfilled = "red" not in [_color(d, v) for d, v in enumerate(values, start=1)]
    out = run_cli(
        "kribbeln", "hold", "--task", "none_red", "--roll", roll, "--rolls-left", "0",
        "--lang", lang,
    ).stdout  # fmt: skip
    assert "re-roll(s) left" not in out and "(stop)" not in out and "P(success)" not in out
    last = out.splitlines()[-1]
    words = {
        ("en", True): f"the roll stands as it lies and fulfils the task ({sum(values)} pips",
        ("en", False): "the roll stands as it lies and does not fulfil the task (an X, or",
        ("de", True): f"wie er liegt, und erfüllt die Aufgabe ({sum(values)} Augen eintragen)",
        ("de", False): "wie er liegt, und erfüllt die Aufgabe nicht (ein X oder das Kribbeln",
    }
    assert words[lang, fulfilled] in last
    # with a re-roll left the table stays
    more = run_cli("kribbeln", "hold", "--task", "none_red", "--roll", roll, "--rolls-left", "1")
    assert "1 re-roll(s) left" in more.stdout and "all (stop)" in more.stdout


def test_row(run_cli) -> None:
    data = json.loads(run_cli("kribbeln", "row", "--json").stdout)
    assert abs(data["expected_max"] - 28) <= 1e-9
    assert data["p_beat"]["5"] == 1.0 and data["p_beat"]["36"] == 0.0
    assert abs(data["p_beat"]["35"] - (91 / 216) ** 6) <= 1e-9
    text = run_cli("kribbeln", "row").stdout
    assert "28.0000" in text


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["--task", "none_red", "--roll", "1 2 3", "--rolls-left", "1"], ["--roll", "6 values"]),
        (["--task", "none_red", "--roll", "1 2 3 4 5 7", "--rolls-left", "1"], ["--roll"]),
        (["--task", "none_red", "--roll", "a b c d e f", "--rolls-left", "1"], ["--roll"]),
        (["--task", "none_red", "--roll", "1 2 3 4 5 6", "--rolls-left", "3"],
         ["--rolls-left", "0–2"]),
        (["--task", "none_red", "--roll", "1 2 3 4 5 6", "--rolls-left", "-1"], ["--rolls-left"]),
        (["--task", "none_rde", "--roll", "1 2 3 4 5 6", "--rolls-left", "1"],
         ["--task", "did you mean none_red"]),
        (["--task", "none_red", "--roll", "1 2 3 4 5 6", "--rolls-left", "1", "--goal", "win"],
         ["--goal"]),
        (["--roll", "1 2 3 4 5 6", "--rolls-left", "1"], ["--task"]),
    ],
)  # fmt: skip
def test_bad_hold_options_exit_2(run_cli, args, names) -> None:
    result = run_cli("kribbeln", "hold", *args)
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1, err
    for name in names:
        assert name in err


def test_help_imports_no_numpy() -> None:
    code = (
        "import sys\n"
        "from generator.cli import cli\n"
        "try:\n"
        "    cli.main(['kribbeln', 'hold', '--help'], standalone_mode=False)\n"
        "finally:\n"
        "    print('NUMPY', 'numpy' in sys.modules, file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "--rolls-left" in proc.stdout
    assert "NUMPY False" in proc.stderr, proc.stderr

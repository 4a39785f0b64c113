"""`dicesheets numbers …`: outputs checked as values against generator.numbers, the batch
format and its exit status, the odds and hold tables, and every bad input."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.core.errors import UserError
from generator.numbers import GAME_24, KOEPFCHEN, Rules, count_solutions, evaluate, solve
from generator.numbers.batch import parse_line, parse_targets
from generator.numbers.odds import hold_options, odds_table
from tests import numbers_bruteforce as brute


def _json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _lines(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


# --- solve ---------------------------------------------------------------------------------


def test_solve_json_agrees_with_the_solver(run_cli) -> None:
    data = _json(run_cli("numbers", "solve", "3", "6", "1", "--target", "8", "--json"))
    assert data["numbers"] == [3, 6, 1] and data["target"] == 8
    assert data["count"] == count_solutions((3, 6, 1), 8, KOEPFCHEN) == 1
    assert data["solvable"] is True
    assert data["simplest"] == solve((3, 6, 1), 8, KOEPFCHEN)[0].text
    assert evaluate(data["simplest"], KOEPFCHEN) == 8
    assert "solutions" not in data


@pytest.mark.parametrize(
    ("args", "numbers", "target", "rules"),
    [
        ([], (3, 6, 1), 8, {}),
        ([], (2, 3, 4), 12, {}),
        (["--ops", "+-"], (2, 3, 4, 5), 7, {"ops": "+-"}),
        (["--use-all", "--division", "rational"], (1, 5, 5, 5), 24,
         {"use_all": True, "rational": True}),
        (["--division", "rational", "--ops", "*/"], (2, 3, 6), 1, {"ops": "*/", "rational": True}),
    ],
)  # fmt: skip
def test_solve_count_agrees_with_the_brute_force(run_cli, args, numbers, target, rules) -> None:
    expected = brute.solutions(numbers, target, ops_filter="printed", **rules)
    data = _json(
        run_cli(
            "numbers", "solve", *map(str, numbers), "--target", target, *args, "--all", "--json"
        )
    )
    assert data["count"] == len(data["solutions"]) == len(expected) > 0
    assert len(set(data["solutions"])) == len(expected)


def test_solve_prints_the_equation_with_real_symbols(run_cli) -> None:
    result = run_cli("numbers", "solve", "3", "1", "2", "--target", "8")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "3 1 2 → 8: solvable, 1 distinct solution",
        "  simplest: (3 + 1) × 2 = 8",
    ]


def test_solve_unsolvable(run_cli) -> None:
    data = _json(run_cli("numbers", "solve", "1", "2", "--target", "100", "--json"))
    assert (data["solvable"], data["count"], data["simplest"]) == (False, 0, None)
    result = run_cli("numbers", "solve", "1", "2", "--target", "100")
    assert result.exit_code == 0 and "not solvable" in result.stdout


def test_solve_all_use_all_rational(run_cli) -> None:
    args = ("3", "3", "8", "8", "--target", "24", "--use-all", "--division", "rational")
    data = _json(run_cli("numbers", "solve", *args, "--all", "--json"))
    assert (
        data["solutions"]
        == ["8 ÷ (3 − 8 ÷ 3)"]
        == [s.text for s in solve((3, 3, 8, 8), 24, GAME_24)]
    )
    assert data["count"] == 1
    # integer division cannot make it
    data = _json(
        run_cli("numbers", "solve", "3", "3", "8", "8", "--target", "24", "--use-all", "--json")
    )
    assert data["count"] == 0


def test_solve_all_lists_every_solution_simplest_first(run_cli) -> None:
    rules = Rules(ops="+-*")
    expected = [s.text for s in solve((2, 3, 4, 6), 12, rules)]
    assert len(expected) > 5
    data = _json(
        run_cli(
            "numbers",
            "solve",
            "2",
            "3",
            "4",
            "6",
            "--target",
            "12",
            "--ops",
            "+-*",
            "--all",
            "--json",
        )
    )
    assert data["solutions"] == expected and data["count"] == len(expected)
    assert all(evaluate(text, rules) == 12 for text in data["solutions"])
    text = run_cli(
        "numbers", "solve", "2", "3", "4", "6", "--target", "12", "--ops", "+-*", "--all"
    )
    assert text.stdout.splitlines()[1:] == [f"  {t} = 12" for t in expected]


def test_ops_restrict_the_solutions(run_cli) -> None:
    assert _json(run_cli("numbers", "solve", "2", "2", "--target", "4", "--all", "--json"))[
        "solutions"
    ] == ["2 + 2", "2 × 2"]
    for ops in ("+", "+-"):
        data = _json(
            run_cli("numbers", "solve", "2", "2", "--target", "4", "--all", "--ops", ops, "--json")
        )
        assert data["solutions"] == ["2 + 2"]
    data = _json(run_cli("numbers", "solve", "2", "2", "--target", "4", "--ops", "×", "--json"))
    assert data["simplest"] == "2 × 2"


# --- batch ---------------------------------------------------------------------------------

BATCH = """\
# Köpfchen rolls
3 6 1 -> 8

1 2 -> 100   # cannot be done
3 x -> 4
2,2 → 4
0 1 -> 1
3 4
1 2 3 4 5 6 7 -> 3
5 5 -> 25
"""


def test_batch_reports_bad_lines_and_solves_the_rest(run_cli) -> None:
    result = run_cli("numbers", "solve", "--batch", "-", input=BATCH)
    assert result.exit_code == 2
    assert result.stderr == ""
    records = _lines(result)
    assert records[0] == {"numbers": [3, 6, 1], "target": 8, "solvable": True, "count": 1,
                          "simplest": "6 + 3 − 1"}  # fmt: skip
    assert records[1] == {"numbers": [1, 2], "target": 100, "solvable": False, "count": 0,
                          "simplest": None}  # fmt: skip
    assert records[2]["line"] == 5 and "'x'" in records[2]["error"]
    assert records[3] == {"numbers": [2, 2], "target": 4, "solvable": True, "count": 2,
                          "simplest": "2 + 2"}  # fmt: skip
    assert records[4]["line"] == 7 and "1–1000000" in records[4]["error"]
    assert records[5]["line"] == 8 and "NUMBERS -> TARGET" in records[5]["error"]
    assert records[6]["line"] == 9 and "at most 6 numbers" in records[6]["error"]
    assert records[7]["numbers"] == [5, 5] and records[7]["count"] == 1
    assert len(records) == 8
    assert all(set(r) == {"line", "error"} for r in records if "error" in r)


def test_batch_from_a_file_with_the_options_applied_to_every_line(run_cli, tmp_path: Path) -> None:
    (tmp_path / "puzzles.txt").write_text("3 3 8 8 -> 24\n1 2 3 4 -> 24\n", encoding="utf-8")
    args = ("numbers", "solve", "--batch", "puzzles.txt", "--use-all", "--division", "rational")
    result = run_cli(*args, "--all")
    assert result.exit_code == 0, result.output
    records = _lines(result)
    for record, hand in zip(records, [(3, 3, 8, 8), (1, 2, 3, 4)], strict=True):
        found = solve(hand, 24, GAME_24)
        assert record["count"] == len(found) and record["solutions"] == [s.text for s in found]
    assert records[0]["simplest"] == "8 ÷ (3 − 8 ÷ 3)"


def test_batch_file_with_bom_and_crlf_and_one_that_is_not_utf8(run_cli, tmp_path: Path) -> None:
    (tmp_path / "windows.txt").write_bytes("\ufeff3 6 1 -> 8\r\n2 2 → 4\r\n".encode())
    result = run_cli("numbers", "solve", "--batch", "windows.txt")
    assert result.exit_code == 0, result.output
    assert [r["count"] for r in _lines(result)] == [1, 2]
    (tmp_path / "latin1.txt").write_bytes("3 6 1 -> 8 # Köpfchen\n".encode("latin-1"))
    result = run_cli("numbers", "solve", "--batch", "latin1.txt")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "dicesheets: error: option --batch: expected UTF-8 text, found bytes that are not"
    ]


def test_batch_exit_status_in_a_real_process(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "numbers", "solve", "--batch", "-"],
        input="3 6 1 -> 8\nbad\n2 2 -> 4\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 2, proc.stderr
    assert [json.loads(line).get("count", "error") for line in proc.stdout.splitlines()] == [
        1,
        "error",
        2,
    ]


@pytest.mark.parametrize(
    "args",
    [
        ["3", "1", "2", "--target", "8"],
        ["1", "3", "7", "10", "25", "50", "--target", "765", "--all", "--json"],
        ["--batch", "-", "--use-all", "--division", "rational"],
    ],
)
def test_solve_never_imports_numpy(args: list[str]) -> None:
    """Solving is pure Python: numpy (40 ms to import) stays out of its start-up."""
    code = (
        "import sys\n"
        "from generator.cli import cli\n"
        "try:\n"
        "    cli.main(sys.argv[1:], prog_name='dicesheets')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('HEAVY', sorted(m for m in sys.modules if m.split('.')[0] == 'numpy'), "
        "file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, "numbers", "solve", *args],
        input="3 3 8 8 -> 24\n",
        capture_output=True,
        text=True,
    )
    assert "HEAVY []" in proc.stderr, proc.stderr
    assert "= " in proc.stdout or '"solvable": true' in proc.stdout, proc.stdout


def test_census_of_24_through_the_batch(run_cli) -> None:
    hands = list(itertools.combinations_with_replacement(range(1, 14), 4))
    text = "".join(f"{' '.join(map(str, hand))} -> 24\n" for hand in hands)
    result = run_cli(
        "numbers", "solve", "--batch", "-", "--use-all", "--division", "rational", input=text
    )
    assert result.exit_code == 0
    records = _lines(result)
    assert [tuple(r["numbers"]) for r in records] == hands
    assert sum(r["solvable"] for r in records) == 1362


def test_parse_line() -> None:
    assert parse_line("  # only a comment") is None
    assert parse_line("   ") is None
    puzzle = parse_line("1, 3 7\t10 25 50 -> 765 # Countdown")
    assert puzzle is not None
    assert (puzzle.numbers, puzzle.target) == ((1, 3, 7, 10, 25, 50), 765)
    for bad in ("3 6 1", "3 6 -> 1 -> 2", "-> 8", "3 6 ->", "3 6 -> 1.5", "3 6 -> 8 9"):
        with pytest.raises(UserError):
            parse_line(bad)


def test_parse_targets() -> None:
    assert parse_targets("1-40") == list(range(1, 41))
    assert parse_targets("9,1,2,5-9, 2") == [1, 2, 5, 6, 7, 8, 9]
    assert parse_targets("0 - 2") == [0, 1, 2]
    for bad in ("", "a", "5-1", "1-", "-1", "1,,2", "1-2000", "2-3-4", "1000001"):
        with pytest.raises(UserError):
            parse_targets(bad)


# --- odds and hold -------------------------------------------------------------------------


def test_odds_json_equals_odds_table(run_cli) -> None:
    data = _json(run_cli("numbers", "odds", "--json"))
    assert (data["dice"], data["faces"], data["rolls"]) == (3, 6, 3)
    expected = odds_table(list(range(1, 41)))
    assert data["targets"] == [
        {"target": o.target, "single_roll": o.single_roll, "within": o.within} for o in expected
    ]


def test_odds_with_every_option(run_cli) -> None:
    args = ["--dice", "2", "--faces", "4", "--rolls", "2", "--targets", "1,2,5-9,16"]
    data = _json(
        run_cli("numbers", "odds", *args, "--division", "rational", "--ops", "+-", "--json")
    )
    rules = Rules(ops="+-", division="rational")
    expected = odds_table([1, 2, 5, 6, 7, 8, 9, 16], 2, 4, 2, rules)
    assert [(r["target"], r["single_roll"], r["within"]) for r in data["targets"]] == [
        (o.target, o.single_roll, o.within) for o in expected
    ]
    # two d4 with + and − cannot make 9 or 16 (4 + 4 = 8 at most)
    assert data["targets"][-1]["within"] == data["targets"][-2]["within"] == 0
    assert data["ops"] == "+-" and data["division"] == "rational"


def test_odds_table_is_aligned_percentages(run_cli) -> None:
    result = run_cli("numbers", "odds", "--targets", "1,37,100-101")
    assert result.exit_code == 0
    title, header, *rows = result.stdout.splitlines()
    assert "3 dice with 6 faces" in title and "3 rolls" in title
    assert header.split() == ["target", "1", "roll", "within", "3", "rolls"]
    assert len(rows) == 4
    assert len({len(line) for line in [header, *rows]}) == 1  # right-aligned columns
    assert rows[0].split() == ["1", "100.00%", "100.00%"]
    (o37,) = odds_table([37])
    assert rows[1].split() == ["37", f"{100 * o37.single_roll:.2f}%", f"{100 * o37.within:.2f}%"]


def test_hold_best_first(run_cli) -> None:
    data = _json(
        run_cli("numbers", "hold", "2", "5", "6", "--target", "37", "--rolls-left", "2", "--json")
    )
    expected = hold_options([2, 5, 6], 37, 2)
    assert [(tuple(o["keep"]), o["probability"]) for o in data["options"]] == expected
    assert data["options"][0]["keep"] == [6] and data["options"][0]["reroll"] == [2, 5]
    probabilities = [o["probability"] for o in data["options"]]
    assert probabilities == sorted(probabilities, reverse=True)
    assert all(sorted(o["keep"] + o["reroll"]) == [2, 5, 6] for o in data["options"])
    assert data["made"] is False and data["simplest"] is None
    result = run_cli("numbers", "hold", "2", "5", "6", "--target", "37", "--rolls-left", "2")
    head, _, *rows = result.stdout.splitlines()
    assert "not made yet" in head
    assert [row.split()[0] for row in rows][:2] == ["6", "2"]  # keep 6, then keep 2 6
    assert rows[-1].split()[-1] == "0.00%" and "stop" in rows[-1]


def test_hold_when_the_roll_already_makes_the_target(run_cli) -> None:
    data = _json(
        run_cli("numbers", "hold", "2", "5", "6", "--target", "13", "--rolls-left", "1", "--json")
    )
    assert data["made"] is True and data["simplest"] == "6 + 5 + 2"
    assert data["options"][0] == {"keep": [2, 5, 6], "reroll": [], "probability": 1.0}
    data = _json(
        run_cli("numbers", "hold", "2", "5", "6", "--target", "37", "--rolls-left", "0", "--json")
    )
    assert data["options"] == [{"keep": [2, 5, 6], "reroll": [], "probability": 0.0}]


# --- bad input -----------------------------------------------------------------------------

SOLVE = ["numbers", "solve"]
ODDS = ["numbers", "odds"]
HOLD = ["numbers", "hold"]
BAD = [
    ([*SOLVE, "3", "0", "--target", "4"], "argument NUMBERS"),
    ([*SOLVE, "-3", "6", "--target", "4"], "argument NUMBERS"),
    ([*SOLVE, "2.5", "6", "--target", "4"], "argument NUMBERS"),
    (
        [*SOLVE, "1", "2", "3", "4", "5", "6", "7", "--target", "4"],
        "argument NUMBERS: expected at most 6 numbers",
    ),
    ([*SOLVE, "--target", "4"], "argument NUMBERS"),
    ([*SOLVE, "1", "2", "--target", "4", "--ops", ""], "option --ops"),
    ([*SOLVE, "1", "2", "--target", "4", "--ops", "+%"], "option --ops"),
    ([*SOLVE, "1", "2", "--target", "-1"], "option --target"),
    ([*SOLVE, "1", "2", "--target", "1000001"], "option --target"),
    ([*SOLVE, "1", "2", "--target", "x"], "option --target"),
    ([*SOLVE, "1", "2"], "option --target"),
    ([*SOLVE, "1", "2", "--tagret", "3"], "--tagret"),
    ([*SOLVE, "1", "2", "--target", "3", "--division", "half"], "--division"),
    ([*SOLVE, "--batch", "missing.txt"], "--batch"),
    ([*SOLVE, "1", "2", "--batch", "-"], "argument NUMBERS"),
    ([*SOLVE, "--batch", "-", "--target", "3"], "option --target"),
    ([*ODDS, "--targets", "5-1"], "option --targets"),
    ([*ODDS, "--targets", "abc"], "option --targets"),
    ([*ODDS, "--targets", ""], "option --targets"),
    ([*ODDS, "--targets", "1-5000"], "option --targets"),
    ([*ODDS, "--targets", "-3"], "option --targets"),
    ([*ODDS, "--dice", "0"], "option --dice"),
    ([*ODDS, "--dice", "6"], "option --dice"),
    ([*ODDS, "--dice", "5", "--faces", "10"], "option --dice"),
    ([*ODDS, "--faces", "1"], "option --faces"),
    ([*ODDS, "--faces", "21"], "option --faces"),
    ([*ODDS, "--rolls", "0"], "option --rolls"),
    ([*ODDS, "--rolls", "7"], "option --rolls"),
    ([*ODDS, "--ops", ""], "option --ops"),
    ([*HOLD, "2", "5", "7", "--target", "3", "--rolls-left", "2"], "argument DICE"),
    ([*HOLD, "-2", "5", "6", "--target", "3", "--rolls-left", "2"], "argument DICE"),
    ([*HOLD, "2", "x", "6", "--target", "3", "--rolls-left", "2"], "argument DICE"),
    ([*HOLD, "--target", "3", "--rolls-left", "2"], "argument DICE"),
    ([*HOLD, "1", "2", "3", "4", "5", "6", "--target", "3", "--rolls-left", "1"], "argument DICE"),
    ([*HOLD, "2", "5", "6", "--target", "3", "--rolls-left", "9"], "option --rolls-left"),
    ([*HOLD, "2", "5", "6", "--target", "3", "--rolls-left", "-1"], "option --rolls-left"),
    ([*HOLD, "2", "5", "6", "--target", "-3", "--rolls-left", "1"], "option --target"),
    (
        [*HOLD, "2", "5", "6", "--target", "3", "--rolls-left", "1", "--faces", "1"],
        "option --faces",
    ),
    ([*HOLD, "2", "5", "6", "--rolls-left", "1"], "--target"),
]


@pytest.mark.parametrize(("args", "names"), BAD)
def test_bad_input_exit_2_one_line(run_cli, args: list[str], names: str) -> None:
    result = run_cli(*args)
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("dicesheets: error: ") and names in err
    assert "Traceback" not in result.output
    assert result.stdout == ""

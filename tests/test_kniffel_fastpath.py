"""The console entry's own reading of `kniffel advise`: the same bytes as the click command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import fastpath

PLAIN = [
    ["--roll", "13356"],
    ["--roll", "1,3,3,5,6"],
    ["--rules", "yahtzee", "--joker", "free", "--roll", "1", "3", "3", "5", "6", "--json"],
    ["--roll", "66666", "--rolls-left", "0", "--filled", "Einser=3,Kniffel=0"],
    ["--roll=12345", "--rolls-left=1", "--upper", "3", "--filled", "Einser=3"],
    [
        "--rules",
        "yahtzee",
        "--roll",
        "22233",
        "--filled",
        "ones=3,twos=6,yahtzee=50",
        "--rolls-left",
        "0",
        "--joker",
        "forced",
    ],
    ["--roll", "1", "1", "2", "2", "3", "--upper", "009", "--filled", "Dreier=9", "--json"],
]
# command lines it hands to click (which then answers, or says what is wrong)
OTHERS = [
    [],
    ["--roll", "13356", "--help"],
    ["--roll", "1234"],  # four dice
    ["--roll", "13356", "--upper", "200"],
    ["--roll", "13356", "--upper", "-1"],
    ["--roll", "13356", "--rolls-left", "3"],
    ["--roll", "13356", "--joker", "bogus"],
    ["--roll", "13356", "--joker", "FREE"],
    ["--roll", "13356", "--rules", "nope"],
    ["--roll", "13356", "--filled", "Quatsch=3"],
    ["--roll", "13356", "--roll", "13356"],
    ["--roll", "13356", "--catalog", "."],
    ["--roll", "13356", "--json=yes"],
]


@pytest.mark.parametrize("args", PLAIN)
def test_a_plain_advice_prints_what_the_command_prints(args, run_cli, capsys) -> None:
    expected = run_cli("kniffel", "advise", *args)  # (solves the table if it is missing)
    assert expected.exit_code == 0, expected.output
    capsys.readouterr()
    assert fastpath.run(["kniffel", "advise", *args])
    assert capsys.readouterr().out == expected.stdout


@pytest.mark.parametrize("args", OTHERS)
def test_everything_else_goes_to_the_command(args, run_cli, capsys) -> None:
    run_cli("kniffel", "advise", "--roll", "13356")  # the table is there
    capsys.readouterr()
    assert not fastpath.run(["kniffel", "advise", *args])
    assert capsys.readouterr() == ("", "")


def test_a_table_still_to_solve_goes_to_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.setenv("DICESHEETS_CACHE", str(tmp_path / "empty"))
    assert not fastpath.run(["kniffel", "advise", "--rules", "yahtzee", "--roll", "13356"])
    assert capsys.readouterr() == ("", "")
    assert not (tmp_path / "empty").exists()  # nothing solved or stored on the way


def test_a_real_process_imports_no_click_and_errors_stay_the_commands(run_cli) -> None:
    run_cli("kniffel", "advise", "--roll", "13356")  # the table is there
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('CLICK', 'click' in sys.modules, file=sys.stderr))\n"
        "from generator.__main__ import run\n"
        "run()\n"
    )

    def dicesheets(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", code, "kniffel", "advise", *args], capture_output=True, text=True
        )

    plain = dicesheets("--roll", "13356")
    assert plain.returncode == 0 and "CLICK False" in plain.stderr, plain.stderr
    assert plain.stdout == run_cli("kniffel", "advise", "--roll", "13356").stdout
    wrong = dicesheets("--roll", "1234")
    assert wrong.returncode == 2 and "CLICK True" in wrong.stderr
    assert wrong.stderr.startswith("dicesheets: error:")

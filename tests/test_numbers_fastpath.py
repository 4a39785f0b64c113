"""The console entry's own reading of `numbers solve`: the same bytes as the click command."""

from __future__ import annotations

import subprocess
import sys

import pytest

from generator.cli import fastpath

PLAIN = [
    ["3", "1", "2", "--target", "8"],
    ["1", "3", "7", "10", "25", "50", "--target", "765", "--all"],
    ["100", "25", "8", "3", "1", "1", "--target=984", "--json"],
    ["3", "3", "8", "8", "--target", "24", "--use-all", "--division", "rational", "--all"],
    ["--ops", "+-", "6", "3", "1", "--target", "8", "--json", "--all"],
    ["--ops=*", "2", "3", "--target", "7"],  # unsolvable: still an answer, not an error
    ["007", "2", "--target", "0009"],
]
# command lines it hands to click (which then answers, or says what is wrong)
OTHERS = [
    [],
    ["--help"],
    ["3", "1", "2", "--target", "8", "-h"],
    ["3", "1", "2"],  # no target
    ["3", "1", "2", "--target", "8", "--target", "9"],  # twice: click takes the last
    ["3", "1", "2", "--target", "-8"],
    ["3", "1", "2", "--target="],
    ["3", "-1", "2", "--target", "8"],
    ["3", "1", "2", "--target", "8", "--division", "RATIONAL"],
    ["3", "1", "2", "--target", "8", "--ops", " "],
    ["3", "1", "2", "--target", "8", "--ops", "+^"],
    ["3", "1", "2", "--target", "2000000"],
    ["1", "2", "3", "4", "5", "6", "7", "--target", "8"],
    ["0", "2", "--target", "8"],
    ["3", "1", "2", "--target", "8", "--all=yes"],
    ["3", "1", "2", "--target", "8", "--catalog", "."],
    ["--batch", "-"],
    ["3", "1", "2", "--", "--target", "8"],
    ["٣", "1", "--target", "4"],  # an Arabic-Indic digit: not plain ASCII
]


@pytest.mark.parametrize("args", PLAIN)
def test_a_plain_solve_prints_what_the_command_prints(args, run_cli, capsys) -> None:
    expected = run_cli("numbers", "solve", *args)
    assert expected.exit_code == 0, expected.output
    capsys.readouterr()
    assert fastpath.run(["numbers", "solve", *args])
    assert capsys.readouterr().out == expected.stdout


@pytest.mark.parametrize("args", OTHERS)
def test_everything_else_goes_to_the_command(args, capsys) -> None:
    assert not fastpath.run(["numbers", "solve", *args])
    assert capsys.readouterr() == ("", "")


def test_other_commands_go_to_the_command(capsys) -> None:
    for args in (["numbers", "odds"], ["solve", "3", "--target", "3"], ["--version"], []):
        assert not fastpath.run(args)
    assert capsys.readouterr() == ("", "")


def test_a_real_process_imports_no_click_and_errors_stay_the_commands() -> None:
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('CLICK', 'click' in sys.modules, file=sys.stderr))\n"
        "from generator.__main__ import run\n"
        "run()\n"
    )

    def dicesheets(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", code, "numbers", "solve", *args], capture_output=True, text=True
        )

    plain = dicesheets("3", "1", "2", "--target", "8")
    assert plain.returncode == 0 and "CLICK False" in plain.stderr, plain.stderr
    assert plain.stdout.startswith("3 1 2 → 8: solvable")
    wrong = dicesheets("3", "1", "2", "--target", "x")
    assert wrong.returncode == 2 and "CLICK True" in wrong.stderr
    assert wrong.stderr.startswith("dicesheets: error: option --target: expected a whole number")


# what a plain integer solve's start does without (click ~30 ms; the others 1–6 ms each
# of a 30 ms process, but only the import of what was not used at all)
NOT_IMPORTED = {"click", "fractions", "decimal", "numpy", "json"}


@pytest.mark.parametrize(
    ("args", "needed"),
    [
        (["3", "1", "2", "--target", "8"], set()),
        (["100", "25", "8", "3", "1", "1", "--target", "984", "--all"], set()),
        (["1", "3", "7", "10", "25", "50", "--target", "765", "--json"], {"json"}),
        (  # a quotient that is not whole: fractions
            ["3", "3", "8", "8", "--target", "24", "--use-all", "--division", "rational"],
            {"fractions", "decimal"},
        ),
    ],
)
def test_a_plain_solve_imports_only_what_it_uses(args: list[str], needed: set[str]) -> None:
    code = (
        "import atexit, sys\n"
        "print('BEFORE', *sorted(sys.modules), file=sys.stderr)\n"
        "atexit.register(lambda: print('AFTER', *sorted(sys.modules), file=sys.stderr))\n"
        "from generator.__main__ import run\n"
        "run()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "numbers", "solve", *args], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    before, after = (set(part.split()) for part in done.stderr.split("BEFORE", 1)[1].split("AFTER"))
    assert "generator.numbers.solver" in after  # it did solve, without click
    # what the run imported (a site's .pth files may have imported some of them already)
    assert (after - before) & NOT_IMPORTED == needed - before

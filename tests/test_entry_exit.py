"""The console entry: a finished command ends without the interpreter's teardown."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# a fresh interpreter running the entry point with a stand-in command: `code` is its exit
# status; an exit function and an object's teardown say whether each ran
ENTRY = (
    "import atexit, sys, threading, time\n"
    "import generator.cli\n"
    "from generator.__main__ import run\n"
    "class Late:\n"
    "    def __del__(self):\n"
    "        sys.stdout.write(' teardown')\n"
    "late = Late()\n"
    "atexit.register(lambda: sys.stdout.write(' exitfunc'))\n"
    "def main():\n"
    "    if sys.argv[-1] == 'thread':\n"
    "        threading.Thread(target=time.sleep, args=(0.2,)).start()\n"
    "    sys.stdout.write('wrote')\n"
    "    sys.exit(int(sys.argv[2]))\n"
    "generator.cli.main = main\n"
    "sys.argv = ['dicesheets', *sys.argv[1:]]\n"
    "run()\n"
)


def _entry(*args: str) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-c", ENTRY, *args], capture_output=True, text=True)
    return done.returncode, done.stdout


@pytest.mark.parametrize("args", [("all", "0"), ("kniffel", "0"), ("kniffel", "2")])
def test_a_finished_command_ends_at_once_after_its_exit_functions(
    args: tuple[str, ...],
) -> None:
    assert _entry(*args) == (int(args[1]), "wrote exitfunc")


@pytest.mark.parametrize(
    "args",
    [
        ("all", "130"),  # interrupted
        ("kniffel", "143"),  # terminated
        ("all", "0", "thread"),  # a thread still running: it is waited for
    ],
)
def test_anything_else_ends_as_python_ends(args: tuple[str, ...]) -> None:
    code, out = _entry(*args)
    assert code == int(args[1])
    assert out == "wrote exitfunc teardown"


def test_the_entry_lets_openblas_threads_sleep_unless_told_otherwise() -> None:
    show = "import os, sys; sys.argv = ['dicesheets', 'kniffel']; import generator.cli\n"
    show += "generator.cli.main = lambda: print(os.environ['OPENBLAS_THREAD_TIMEOUT'])\n"
    show += "from generator.__main__ import run; run()\n"
    base = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    for env, expected in [({}, "4\n"), ({"OPENBLAS_THREAD_TIMEOUT": "20"}, "20\n")]:
        done = subprocess.run(
            [sys.executable, "-c", show], capture_output=True, text=True, env={**base, **env}
        )
        assert done.stdout == expected, done.stderr

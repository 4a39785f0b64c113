"""What every start pays for: YAML parsing, template compiling, ReportLab's number formatting.

Run: `make bench` (or `python -m bench bench_startup`). Each figure has its baseline in
the same run: the pure-Python YAML parser, compiling the templates from source, and
ReportLab's Python fallbacks (the C accelerator hidden) for whole commands.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from bench.common import dicesheets, line, median_time, process_times
from generator.core.resources import catalog_dir
from generator.io import yamlload
from generator.io.templates import read_templates
from generator.text import words as text
from generator.text.words import Texts

# the CLI with ReportLab's C accelerator hidden, for the baseline
HIDE_ACCEL = (
    "import sys; sys.modules['_rl_accel'] = None\n"
    "from generator.cli import cli\n"
    "cli.main(sys.argv[1:], prog_name='dicesheets')\n"
)


def yaml_figures() -> None:
    path = catalog_dir() / "kribbeln" / "tasks.yaml"
    text = path.read_text(encoding="utf-8")
    fast, data = median_time(lambda: yamlload.load_text(text, "tasks.yaml"), repeat=15)
    saved = yamlload._CParser
    yamlload._CParser = None  # the pure-Python path
    try:
        pure, again = median_time(lambda: yamlload.load_text(text, "tasks.yaml"), repeat=7)
    finally:
        yamlload._CParser = saved
    assert again == data
    line("YAML kribbeln/tasks.yaml, libyaml", fast, baseline=pure, extra="baseline: pure Python")


def template_figures() -> None:
    templates = read_templates(())  # the shipped ones, with the disk's compiled cache
    names = sorted(name for name, _, _ in templates.sources)

    def load_all(bytecode: bool) -> None:
        text._ENVIRONMENTS.clear()  # as in a new process
        if not bytecode:
            templates.environment().bytecode_cache = None
        for name in names:
            lang, file = name.split("/")
            Texts(file.removesuffix(".j2"), lang, templates)

    load_all(True)  # fills the bytecode cache
    cached, _ = median_time(lambda: load_all(True), repeat=7)
    compiled, _ = median_time(lambda: load_all(False), repeat=5)
    line(
        f"templates, all {len(names)} files, bytecode cache",
        cached,
        baseline=compiled,
        extra="baseline: compiled from source",
    )


def accel_figures() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {"DICESHEETS_CACHE": str(Path(tmp) / "cache")}
        out = str(Path(tmp) / "out")
        subprocess_args = ["all", "--out", out + "/"]
        # warm the solver cache once: the figures are about drawing and writing
        process_times(dicesheets(*subprocess_args), dicesheets(*subprocess_args), 1, env)
        for label, args in [
            ("dicesheets all (warm solver cache)", subprocess_args),
            (
                "kniffel block, 6 players, 1000 copies (6000 pages)",
                ["kniffel", "block", "--players", "6", "--copies", "1000", "--out", out + "/"],
            ),
        ]:
            ours, theirs, ratio, *_ = process_times(
                dicesheets(*args), [sys.executable, "-c", HIDE_ACCEL, *args], 5, env
            )
            print(
                f"{label}: median {ours * 1000:.0f} ms with the C accelerator | "
                f"{theirs * 1000:.0f} ms without | ratio {ratio:.3g}×",
                flush=True,
            )


def main() -> None:
    yaml_figures()
    template_figures()
    accel_figures()


if __name__ == "__main__":
    main()

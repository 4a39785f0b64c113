"""Fresh sheets without --seed, the same bytes with it; choices in any case."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest

from generator.cli import COMMANDS, cli
from tests.pdfcheck import page_texts

SAMPLING = [
    (["worksheet", "--problems", "4"], "de", "Blatt-Nr. {}"),
    (["koepfchen", "board", "--profile", "plus-minus", "--no-key", "--lang", "en"], "en",
     "board no. {}"),
    (["kribbeln", "block", "--pages", "1", "--no-rules", "--no-key"], "de", "Block-Nr. {}"),
]  # fmt: skip
MESSAGE = {
    "de": r"Seed (\d+) – mit --seed \1 entsteht genau dieses Blatt wieder",
    "en": r"seed (\d+) — add --seed \1 to make this sheet again",
}


def run(run_cli, tmp_path: Path, args: list[str], out: str):
    result = run_cli(*args, "--out", out)
    assert result.exit_code == 0, result.output
    pdf = tmp_path / out
    manifest = json.loads(pdf.with_suffix(".json").read_text(encoding="utf-8"))
    return result, pdf, manifest


@pytest.mark.parametrize(("args", "lang", "footer"), SAMPLING, ids=lambda a: str(a)[:20])
def test_without_seed_a_new_sheet_that_the_printed_seed_remakes(
    run_cli, tmp_path, args, lang, footer
) -> None:
    seeds = []
    for i in range(3):
        result, pdf, manifest = run(run_cli, tmp_path, args, f"fresh{i}.pdf")
        match = re.fullmatch(MESSAGE[lang], result.stderr.strip())
        assert match, result.stderr
        seed = int(match.group(1))
        assert 1 <= seed <= 99_999
        assert manifest["seed"] == seed
        assert footer.format(seed) in page_texts(pdf)[0]
        seeds.append(seed)
    assert len(set(seeds)) >= 2  # three draws from 99,999 seeds
    again, pdf, _ = run(run_cli, tmp_path, [*args, "--seed", str(seeds[0])], "again.pdf")
    assert again.stderr == ""  # a given seed is not announced
    assert pdf.read_bytes() == (tmp_path / "fresh0.pdf").read_bytes()


def test_the_fixed_classic_board_needs_no_seed(run_cli, tmp_path) -> None:
    result, _, manifest = run(run_cli, tmp_path, ["koepfchen", "board"], "classic.pdf")
    assert result.stderr == "" and manifest["seed"] == 1


def all_choice_options() -> list[tuple[str, click.Parameter]]:
    found = []

    def visit(command: click.Command, path: str) -> None:
        for param in command.params:
            if isinstance(param.type, click.Choice):
                found.append((f"{path} {param.name}", param))
        if isinstance(command, click.Group):
            for name in command.list_commands(click.Context(command)):
                sub = command.get_command(click.Context(command), name)
                if sub is not None:
                    visit(sub, f"{path} {name}")

    for name in COMMANDS:
        command = cli.get_command(click.Context(cli), name)
        assert command is not None
        visit(command, name)
    return found


def test_every_choice_takes_any_case() -> None:
    choices = all_choice_options()
    assert len(choices) >= 10
    for where, param in choices:
        assert param.type.case_sensitive is False, where  # type: ignore[attr-defined]


def test_upper_case_choices_work(run_cli, tmp_path) -> None:
    result = run_cli("worksheet", "--problems", "4", "--lang", "EN", "--paper", "Letter",
                     "--family", "KOEPFCHEN", "--seed", "2", "--out", "up.pdf")  # fmt: skip
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "up.json").read_text(encoding="utf-8"))
    assert manifest["options"]["lang"] == "en" and manifest["options"]["paper"] == "letter"

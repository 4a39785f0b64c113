"""Errors without flag names in the core: domain errors carry the input; the CLI names it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import generator
from generator.core.errors import DoesNotFit, InputError

PACKAGE = Path(generator.__file__).parent
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]+")
# values of the manifest/JSON format that spell a command line (`sheets_from`), not messages
FORMAT_VALUES = {"kribbeln block --pages ", " --seed ", "kribbeln block --seed "}


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    """String constants outside docstrings (f-string parts included)."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings
    ]  # fmt: skip


def test_no_module_outside_cli_names_a_command_line_option() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        # the registry declares every option once; the CLI's actions name theirs in messages
        if path.relative_to(PACKAGE).parts[0] in ("cli", "registry.py"):
            continue
        for line, text in _strings(ast.parse(path.read_text(encoding="utf-8"))):
            if FLAG.search(text) and text not in FORMAT_VALUES:
                found.append(f"{path.relative_to(PACKAGE)}:{line}: {text!r}")
    assert found == []


def test_a_layout_that_does_not_fit_says_what_it_needed_and_what_the_page_has() -> None:
    from generator.kniffel.block import make_spec
    from generator.kniffel.block_layout import layout_block
    from generator.kniffel.load import load_rules

    spec = make_spec(load_rules("kniffel"), "de", 2, 6, None, 1)
    with pytest.raises(DoesNotFit) as caught:
        layout_block(spec, "a4", False, "2")
    exc = caught.value
    assert exc.subject == "per_page" and exc.remedies == ("landscape", "games")
    assert exc.needed > exc.available == pytest.approx(210 - 2 * 10, abs=15)
    assert f"need {exc.needed:.0f} mm, the page has {exc.available:.0f} mm" in exc.message
    assert "--" not in exc.message


def test_the_cli_names_the_option_and_the_remedies(run_cli) -> None:
    result = run_cli("kniffel", "block", "--players", "2", "--per-page", "2")
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("dicesheets: error: option --per-page: 2 blocks of 6 games need ")
    assert line.endswith("(try --landscape or --games)")


@pytest.mark.parametrize(
    ("subject", "where"),
    [("players", "option --players"), ("rolls_left", "option --rolls-left"),
     ("pdf", "option --out"), ("key", "option --key-file"), ("folder", "argument DIR")],
)  # fmt: skip
def test_input_errors_map_to_their_option(subject: str, where: str) -> None:
    from generator.cli.options import user_message

    assert user_message(InputError(subject, "bad")) == f"{where}: bad"


def _param(command: list[str], name: str):
    import click

    from generator.cli import cli

    ctx = click.Context(cli)
    found = cli
    for word in command:
        found = found.get_command(ctx, word)
    return next(p for p in found.params if p.name == name)


def test_players_ranges_are_declared_once_and_agree_with_the_games() -> None:
    from generator.cli import options
    from generator.kniffel import block
    from generator.kribbeln import build, simulate

    assert (options.KNIFFEL_PLAYERS.lo, options.KNIFFEL_PLAYERS.hi) == (1, block.MAX_PLAYERS)
    kribbeln = (options.KRIBBELN_PLAYERS.lo, options.KRIBBELN_PLAYERS.hi)
    assert kribbeln == (build.MIN_PLAYERS, build.MAX_PLAYERS)
    assert kribbeln == (simulate.MIN_PLAYERS, simulate.MAX_PLAYERS)
    assert _param(["kniffel", "block"], "players").type is options.KNIFFEL_PLAYERS
    assert _param(["kribbeln", "block"], "players").type is options.KRIBBELN_PLAYERS
    assert _param(["kribbeln", "simulate"], "players").type is options.KRIBBELN_PLAYERS
    assert _param(["koepfchen", "analyze"], "players").type is options.KOEPFCHEN_PLAYERS
    assert _param(["report"], "players").type is options.REPORT_PLAYERS


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["kniffel", "block", "--players", "9"], "option --players: expected 1–8 players, found 9"),
        (["kribbeln", "block", "--players", "1"],
         "option --players: expected 2–8 players (2–5 in the real game), found 1"),
        (["koepfchen", "analyze", "--players", "7"], "option --players: expected 1–6 players"),
        (["report", "--game", "koepfchen", "--players", "7"],
         "option --players: expected 2–6 players, found 7"),
        (["kniffel", "block", "--copies", "x"], "option --copies: expected a whole number"),
    ],
)  # fmt: skip
def test_out_of_range_is_one_line_naming_the_option(run_cli, args: list[str], message: str) -> None:
    result = run_cli(*args)
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith(f"dicesheets: error: {message}")

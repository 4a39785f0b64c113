"""`dicesheets kniffel …`: score blocks and the scoring check."""

from __future__ import annotations

import click

from generator.cli.options import echo_json, lang_option, report_written, sheet_options


@click.group()
def kniffel() -> None:
    """Kniffel / Yahtzee: score blocks, scoring."""


@kniffel.command()
@click.option(
    "--players", type=int, default=None, help="Number of players, 1–8 (default: names or 1)."
)
@click.option(
    "--games", type=int, default=6, show_default=True, help="Game columns per player, 1–6."
)
@click.option("--rules", default="kniffel", show_default=True, help="Rule set: kniffel or yahtzee.")
@click.option("--names", default=None, help='Player names, comma-separated: "Anna,Jörg".')
@click.option(
    "--copies", type=int, default=1, show_default=True, help="How many copies of the set."
)
@click.option(
    "--per-page",
    type=click.Choice(["auto", "1", "2"]),
    default="auto",
    show_default=True,
    help="Blocks side by side on a page.",
)
@lang_option(default=None)
@sheet_options
def block(
    players: int | None,
    games: int,
    rules: str,
    names: str | None,
    copies: int,
    per_page: str,
    lang: str | None,
    out: str | None,
    paper: str,
    landscape: bool,
    seed: int,
) -> None:
    """A printable score block (one block per player; --lang defaults to the rule set's)."""
    from generator.kniffel.sheet import BlockRequest, write_block

    req = BlockRequest(rules, lang, players, games, names, copies, per_page, paper, landscape, seed)
    report_written(write_block(req, out))


@kniffel.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def score(file: str, as_json: bool) -> None:
    """Check a filled-in game (YAML) and print the totals and the winner."""
    from generator.kniffel.scorefile import check_score_file, format_result

    result = check_score_file(file)
    if as_json:
        echo_json(result)
    else:
        click.echo(format_result(result))

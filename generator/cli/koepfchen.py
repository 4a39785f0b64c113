"""`dicesheets koepfchen …`: printable boards (board, rules page, answer key) and their analysis."""

from __future__ import annotations

import click

from generator.cli.options import (
    KOEPFCHEN_PLAYERS,
    echo_json,
    json_option,
    lang_option,
    run_catalog,
    seed_option,
    sheet_options,
    write_out,
)

profile_option = click.option(
    "--profile",
    default="classic",
    show_default=True,
    help="Board profile: classic, plus-minus, einmaleins, challenge, or a path to a .yaml file.",
)


@click.group()
def koepfchen() -> None:
    """Schlaues Köpfchen: balanced boards, rules page, answer key, game-length analysis."""


@koepfchen.command()
@profile_option
@click.option("--key/--no-key", default=True, show_default=True, help="Add the answer key.")
@click.option("--rules/--no-rules", default=True, show_default=True, help="Add the rules page.")
@lang_option(default="de")
@sheet_options
def board(
    profile: str,
    key: bool,
    rules: bool,
    lang: str,
    out: str | None,
    paper: str,
    landscape: bool,
    seed: int,
) -> None:
    """A printable board (one page, or two to glue), with rules page and answer key."""
    from generator.koepfchen.build import BoardRequest, build_board, load_board

    req = BoardRequest(profile, seed, lang, paper.lower(), landscape, key, rules)
    write_out(build_board(load_board(req, run_catalog()), req), out)


@koepfchen.command()
@profile_option
@seed_option(help="Board and simulation seed.")
@click.option(
    "--players",
    type=KOEPFCHEN_PLAYERS,
    default=4,
    show_default=True,
    help="Players in the simulated race, 1–6.",
)
@click.option(
    "--games",
    type=int,
    default=20000,
    show_default=True,
    help="Simulated races (Monte Carlo), 1–1,000,000.",
)
@json_option
def analyze(profile: str, seed: int, players: int, games: int, as_json: bool) -> None:
    """Every field's odds, exact game length (Markov chain) and a Monte Carlo cross-check."""
    from generator.koepfchen.build import analyze as run
    from generator.koepfchen.build import format_analysis

    data = run(profile, seed, players, games, run_catalog())
    if as_json:
        echo_json(data)
    else:
        click.echo(format_analysis(data))


@koepfchen.command()
def profiles() -> None:
    """List the board profiles."""
    from generator.koepfchen.profile import load_profile, profile_names

    catalog = run_catalog()
    for name in profile_names(catalog):
        p = load_profile(name, catalog)
        kind = "fixed" if p.fixed else "sampled"
        click.echo(f"{name}: {p.length} fields, {p.dice} d{p.faces}, ops {p.rules.ops}, {kind}")

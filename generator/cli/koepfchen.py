"""`dicesheets koepfchen …`: printable boards (board, rules page, answer key) and their analysis."""

from __future__ import annotations

import click

from generator.cli.options import (
    KOEPFCHEN_PLAYERS,
    announce_seed,
    echo_json,
    fresh_seed,
    fresh_seed_option,
    json_option,
    lang_option,
    out_option,
    paper_options,
    run_catalog,
    seed_option,
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
@out_option
@paper_options
@fresh_seed_option
def board(
    profile: str,
    key: bool,
    rules: bool,
    lang: str,
    out: str | None,
    paper: str,
    landscape: bool,
    seed: int | None,
) -> None:
    """A printable board (one page, or two to glue), with rules page and answer key.

    A sampled profile draws a new board each run unless --seed is given; the fixed
    classic board needs no seed.
    """
    from dataclasses import replace

    from generator.koepfchen.build import BoardRequest, build_board
    from generator.koepfchen.load import load_board

    chosen, drawn = fresh_seed(seed)
    req = BoardRequest(profile, chosen, lang, paper.lower(), landscape, key, rules)
    inputs = load_board(req, run_catalog())
    if inputs.profile.fixed:
        drawn = False
        req = replace(req, seed=1 if seed is None else seed)  # nothing is sampled
    built = build_board(inputs, req)
    write_out(built, out)
    if drawn:  # after writing, so an error stays the only line
        announce_seed(chosen, lang)


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
    from generator.koepfchen.load import load_profile

    analysis = run(load_profile(profile, run_catalog()), seed, players, games)
    if as_json:
        echo_json(analysis.to_json())
    else:
        click.echo(format_analysis(analysis))


@koepfchen.command()
def profiles() -> None:
    """List the board profiles."""
    from generator.koepfchen.load import load_profile, profile_names

    catalog = run_catalog()
    for name in profile_names(catalog):
        p = load_profile(name, catalog)
        kind = "fixed" if p.fixed else "sampled"
        click.echo(f"{name}: {p.length} fields, {p.dice} d{p.faces}, ops {p.rules.ops}, {kind}")

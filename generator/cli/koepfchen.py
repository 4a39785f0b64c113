"""`dicesheets koepfchen …`: printable boards and their analysis (options: `generator.registry`)."""

from __future__ import annotations

import click

from generator.cli.options import announce_seed, echo_json, fresh_seed, run_catalog, write_out


def board(
    profile: str,
    key: bool,
    rules: bool,
    lang: str,
    out: str | None,
    paper: str,
    landscape: bool,
    seed: int | None,
    targets: str | None = None,
) -> None:
    """A printable board; a fixed profile (classic) or typed targets sample nothing, so they
    draw no seed."""
    from dataclasses import replace

    from generator.koepfchen.build import BoardRequest, build_board
    from generator.koepfchen.load import load_board

    chosen, drawn = fresh_seed(seed)
    req = BoardRequest(profile, chosen, lang, paper.lower(), landscape, key, rules, targets)
    inputs = load_board(req, run_catalog())
    if inputs.profile.fixed or targets:
        drawn = False
        req = replace(req, seed=1 if seed is None else seed)  # nothing is sampled
    built = build_board(inputs, req)
    write_out(built, out)
    if drawn:  # after writing, so an error stays the only line
        announce_seed(chosen, lang)


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


def profiles() -> None:
    """List the board profiles."""
    from generator.koepfchen.load import load_profile, profile_names

    catalog = run_catalog()
    for name in profile_names(catalog):
        p = load_profile(name, catalog)
        kind = "fixed" if p.fixed else "sampled"
        click.echo(f"{name}: {p.length} fields, {p.dice} d{p.faces}, ops {p.rules.ops}, {kind}")

"""`dicesheets kniffel …`: score blocks, the scoring check, and the optimal strategy."""

from __future__ import annotations

from typing import Any

import click

from generator.cli.options import (
    COPIES,
    KNIFFEL_GAMES,
    KNIFFEL_PLAYERS,
    echo_json,
    json_option,
    lang_option,
    run_catalog,
    seed_option,
    sheet_options,
    write_out,
)
from generator.kniffel.simsize import DEFAULT_GAMES, check_games


@click.group()
def kniffel() -> None:
    """Kniffel / Yahtzee: score blocks, scoring, coach, expected score, odds card."""


@kniffel.command()
@click.option(
    "--players",
    type=KNIFFEL_PLAYERS,
    default=None,
    help="Number of players, 1–8 (default: names or 1).",
)
@click.option(
    "--games",
    type=KNIFFEL_GAMES,
    default=6,
    show_default=True,
    help="Game columns per player, 1–6.",
)
@click.option("--rules", default="kniffel", show_default=True, help="Rule set: kniffel or yahtzee.")
@click.option("--names", default=None, help='Player names, comma-separated: "Anna,Jörg".')
@click.option(
    "--copies",
    type=COPIES,
    default=1,
    show_default=True,
    help="How many copies of the set, 1–1000.",
)
@click.option(
    "--per-page",
    type=click.Choice(["auto", "1", "2"], case_sensitive=False),
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
    from generator.kniffel.build import BlockRequest, build_block
    from generator.kniffel.load import load_block

    req = BlockRequest(rules, lang, players, games, names, copies, per_page, paper, landscape, seed)
    write_out(build_block(load_block(req, run_catalog()), req), out)


@kniffel.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def score(file: str, as_json: bool) -> None:
    """Check a filled-in game (YAML) and print the totals and the winner."""
    from generator.kniffel.load import check_score_file
    from generator.kniffel.scorefile import format_result

    result = check_score_file(file, run_catalog())
    if as_json:
        echo_json(result.to_json())
    else:
        click.echo(format_result(result))


# --- the optimal strategy: coach, expected score, odds card (issue 8) ---


def _rules_options(f: Any) -> Any:
    f = click.option(
        "--joker",
        type=click.Choice(["none", "free", "forced"], case_sensitive=False),
        default=None,
        help="Joker rule instead of the rule set's own: none; free (any open box; Full House "
        "and straights at full value once the matching upper box is filled — the published "
        "254.5896); forced (Hasbro).",
    )(f)
    return click.option(
        "--rules", default="kniffel", show_default=True, help="Rule set: kniffel or yahtzee."
    )(f)


def _games_option(f: Any) -> Any:
    return click.option(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        show_default=True,
        help="Simulated games for the score distribution, 100–1,000,000 "
        "(a million take ~45 s and 1 GB of memory).",
    )(f)


def _strategy(rules: str, joker: str | None) -> Any:
    from generator.io.progress import progress
    from generator.kniffel.load import load_rules, load_strategy
    from generator.kniffel.solver import with_joker

    ruleset = with_joker(load_rules(rules, run_catalog()), joker)
    with progress(len(ruleset.boxes), "solving the optimal strategy") as tick:
        return load_strategy(ruleset, tick, team=_team())


def _team() -> Any:
    """Who computes a cold table or simulation: this process and a helper where possible."""
    from generator.core.team import ALONE
    from generator.io.pair import pair_if_spare

    return pair_if_spare() or ALONE


@kniffel.command()
@_rules_options
@click.option(
    "--filled",
    default="",
    help='Boxes filled so far with their points: "Einser=3,Kniffel=0" (ids or labels, de/en).',
)
@click.option(
    "--upper",
    type=int,
    default=None,
    help="Upper-section sum so far, 0–105; default and check: the sum of the filled upper boxes.",
)
@click.option("--roll", required=True, help="The five dice lying now: --roll 1 3 3 4 6.")
@click.argument("more_dice", nargs=-1, metavar="")
@click.option(
    "--rolls-left",
    type=int,
    default=2,
    show_default=True,
    help="Re-rolls left, 0–2: 2 after the first roll, 0 after the last (then: which box).",
)
@json_option
def advise(
    rules: str,
    joker: str | None,
    filled: str,
    upper: int | None,
    roll: str,
    more_dice: tuple[str, ...],
    rolls_left: int,
    as_json: bool,
) -> None:
    """What to keep (or, with no roll left, which box to fill) under optimal play."""
    from generator.kniffel.coach import advise as make_advice
    from generator.kniffel.coach import format_advice, make_position, parse_roll
    from generator.kniffel.load import load_rules
    from generator.kniffel.solver import with_joker

    ruleset = with_joker(load_rules(rules, run_catalog()), joker)
    dice = parse_roll((roll, *more_dice))
    position = make_position(ruleset, filled, upper)
    if not 0 <= rolls_left <= 2:
        from generator.core.errors import OptionError

        raise OptionError("--rolls-left", f"expected 0, 1 or 2, found {rolls_left}")
    advice = make_advice(_strategy(rules, joker), position, dice, rolls_left)
    if as_json:
        echo_json(advice.to_json())
    else:
        click.echo(format_advice(advice))


@kniffel.command()
@_rules_options
@_games_option
@seed_option(help="Seed of the simulation.")
@json_option
def solve(rules: str, joker: str | None, games: int, seed: int, as_json: bool) -> None:
    """The optimal expected score (exact) and the score spread (seeded simulation)."""
    from generator.io.cache import DISK
    from generator.io.progress import progress
    from generator.kniffel.simulate import format_report, solve_report

    check_games(games)
    strategy = _strategy(rules, joker)
    with progress(len(strategy.rules.boxes), "simulating games") as tick:
        report = solve_report(strategy, games, seed, tick, store=DISK, team=_team())
    if as_json:
        echo_json(report.to_json())
    else:
        click.echo(format_report(report))


@kniffel.command()
@_rules_options
@_games_option
@lang_option(default=None)
@sheet_options
def odds(
    rules: str,
    joker: str | None,
    games: int,
    lang: str | None,
    out: str | None,
    paper: str,
    landscape: bool,
    seed: int,
) -> None:
    """A one-page odds card: pattern odds, optimal expected score, score histogram."""
    from generator.kniffel.build import OddsRequest, build_odds
    from generator.kniffel.load import load_odds

    req = OddsRequest(rules, joker, lang, games, paper, landscape, seed)
    write_out(build_odds(load_odds(req, run_catalog(), team=_team()), req), out)

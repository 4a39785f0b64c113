"""`dicesheets kniffel …`: the scoring check, the coach, the optimal strategy and the odds card.

The commands' options are declared in `generator.registry`; these are their actions
(`kniffel block` is a plain product: `generator.cli.products`).
"""

from __future__ import annotations

from typing import Any

import click

from generator.cli.options import echo_json, run_catalog, write_out
from generator.kniffel.simsize import check_games


def score(file: str, lang: str | None, as_json: bool) -> None:
    """Check a filled-in game (YAML) and print the totals and the winner."""
    from generator.kniffel.load import check_score_file
    from generator.kniffel.scorefile import format_result

    result = check_score_file(file, run_catalog())
    if as_json:
        echo_json(result.to_json())
    else:
        click.echo(format_result(result, lang))


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
    from generator.kniffel.load import load_rules, load_table
    from generator.kniffel.table import with_joker

    ruleset = with_joker(load_rules(rules, run_catalog()), joker)
    dice = parse_roll((roll, *more_dice))
    position = make_position(ruleset, filled, upper)
    if not 0 <= rolls_left <= 2:
        from generator.core.errors import Msg, OptionError

        raise OptionError("--rolls-left", Msg("rolls_left", found=rolls_left))
    table = load_table(ruleset, lambda _: _strategy(rules, joker))  # (solved only if missing)
    advice = make_advice(table, position, dice, rolls_left)
    if as_json:
        echo_json(advice.to_json())
    else:
        click.echo(format_advice(advice))


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


def odds(
    rules: str,
    joker: str | None,
    games: int,
    rules_page: bool,
    lang: str | None,
    out: str | None,
    paper: str,
    landscape: bool,
    seed: int,
) -> None:
    """A one-page odds card and its rules page (the table and simulation shared with a
    helper process)."""
    from generator.kniffel.build import OddsRequest, build_odds
    from generator.kniffel.load import load_odds

    req = OddsRequest(rules, joker, lang, games, rules_page, paper, landscape, seed)
    write_out(build_odds(load_odds(req, run_catalog(), team=_team()), req), out)

"""`dicesheets kribbeln …`: task difficulty, best holds, rows, scoring and whole games.

The commands' options are declared in `generator.registry`; these are their actions
(`kribbeln block` is a plain product: `generator.cli.products`).
"""

from __future__ import annotations

import click

from generator.cli.options import echo_json, run_catalog, warn


def analyze(
    dice_file: str | None, tasks_file: str | None, sort: str, lang: str, as_json: bool
) -> None:
    """Every task: family, text, p_success and expected_pips under optimal play (3 rolls)."""
    from generator.io.cache import DISK
    from generator.kribbeln.load import load_files
    from generator.kribbeln.report import analyze as run
    from generator.kribbeln.report import format_analysis

    catalog = run_catalog()
    dice, tasks, warnings = load_files(dice_file, tasks_file, catalog)
    result = run(dice, tasks, catalog.templates(), sort, store=DISK)
    warn(warnings)
    if as_json:
        echo_json(result.to_json())
    else:
        click.echo(format_analysis(result, lang))


def hold(
    task_id: str,
    roll: str,
    rolls_left: int,
    goal: str,
    dice_file: str | None,
    tasks_file: str | None,
    lang: str,
    as_json: bool,
) -> None:
    """The best dice to keep from a roll, and the value of every option, best first."""
    from generator.kribbeln.load import load_files
    from generator.kribbeln.report import format_hold
    from generator.kribbeln.report import hold as run

    catalog = run_catalog()
    dice, tasks, warnings = load_files(dice_file, tasks_file, catalog)
    advice = run(dice, tasks, catalog.templates(), task_id, roll, rolls_left, goal)
    warn(warnings)
    if as_json:
        echo_json(advice.to_json())
    else:
        click.echo(format_hold(advice, lang))


def row(dice_file: str | None, tasks_file: str | None, as_json: bool) -> None:
    """A Kribbeln row (no task): expected best pip sum and P(beating a previous value k)."""
    from generator.io.cache import DISK
    from generator.kribbeln.load import load_files
    from generator.kribbeln.report import format_row
    from generator.kribbeln.report import row as run

    dice, tasks, warnings = load_files(dice_file, tasks_file, run_catalog())
    report = run(dice, tasks, store=DISK)
    warn(warnings)
    if as_json:
        echo_json(report.to_json())
    else:
        click.echo(format_row(report))


def export_tasks(fmt: str, target: str, dice_file: str | None, tasks_file: str | None) -> None:
    """Write the task catalog (shipped, --catalog's or --tasks) as CSV or YAML."""
    from generator.kribbeln.load import export_tasks as run

    text, warnings = run(fmt, dice_file, tasks_file, run_catalog())
    warn(warnings)
    from generator.io.files import is_stdout, write_stream_or_file

    if is_stdout(target):
        click.echo(text, nl=False)  # (in the encoding of standard output)
        return
    write_stream_or_file(
        target, text.encode("utf-8"), "out", announce=lambda: click.echo(f"wrote {target}")
    )


def score(file: str, as_json: bool) -> None:
    """Score a filled sheet (YAML: names, ten rows of pips or X): points, totals, winner."""
    from generator.kribbeln.load import check_score_file
    from generator.kribbeln.scorefile import format_report

    result = check_score_file(file)
    if as_json:
        echo_json(result.to_json())
    else:
        click.echo(format_report(result))


def simulate(
    players: int,
    games: int,
    seed: int,
    pages_file: str | None,
    block_file: str | None,
    goal: str,
    balance_file: str | None,
    dice_file: str | None,
    tasks_file: str | None,
    as_json: bool,
) -> None:
    """Whole games with the rules (without --pages or --block: the block of --seed)."""
    from generator.kribbeln.load import playtest as run
    from generator.kribbeln.playtest import format_result

    result, warnings = run(
        players,
        games,
        seed,
        goal,
        pages_file,
        block_file,
        balance_file,
        dice_file,
        tasks_file,
        run_catalog(),
    )
    warn(warnings)
    if as_json:
        echo_json(result.to_json())
    else:
        click.echo(format_result(result))

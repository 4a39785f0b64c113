"""`dicesheets kribbeln …`: task difficulty (analyze), best dice to keep (hold), Kribbeln rows."""

from __future__ import annotations

import click

from generator.cli.options import echo_json, json_option, lang_option

dice_option = click.option(
    "--dice",
    "dice_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Your own dice (YAML, as task_catalog/kribbeln/dice.yaml; default: the shipped dice).",
)
tasks_option = click.option(
    "--tasks",
    "tasks_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Your own task catalog (YAML, as task_catalog/kribbeln/tasks.yaml).",
)


def _warn(warnings: list[str]) -> None:
    for warning in warnings:
        click.echo(f"dicesheets: warning: {warning}", err=True)


@click.group()
def kribbeln() -> None:
    """Kribbeln: task difficulty under optimal play, best holds, Kribbeln rows."""


@kribbeln.command()
@dice_option
@tasks_option
@click.option(
    "--sort",
    type=click.Choice(["catalog", "p_success", "expected_pips", "id", "family"]),
    default="catalog",
    show_default=True,
    help="Order of the tasks (p_success and expected_pips: highest first).",
)
@lang_option(default="de")
@json_option
def analyze(
    dice_file: str | None, tasks_file: str | None, sort: str, lang: str, as_json: bool
) -> None:
    """Every task: family, text, p_success and expected_pips under optimal play (3 rolls).

    p_success: the probability of fulfilling the task, playing for that.
    expected_pips: the expected score (pip sum if fulfilled, else 0), playing for that.
    """
    from generator.kribbeln.report import analyze as run
    from generator.kribbeln.report import format_analysis

    data, warnings = run(dice_file, tasks_file, sort)
    _warn(warnings)
    if as_json:
        echo_json(data)
    else:
        click.echo(format_analysis(data, lang))


@kribbeln.command()
@click.option("--task", "task_id", required=True, help="Task id (see `kribbeln analyze`).")
@click.option(
    "--roll", required=True, help='The value on die 1…6, e.g. "3 5 1 6 2 2" (colours follow).'
)
@click.option(
    "--rolls-left",
    type=int,
    required=True,
    help="Re-rolls still allowed after this roll (0–2 with three rolls per turn).",
)
@click.option(
    "--goal",
    type=click.Choice(["success", "pips"]),
    default="success",
    show_default=True,
    help="Play for the probability of success, or for the expected pips.",
)
@dice_option
@tasks_option
@lang_option(default="de")
@json_option
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
    from generator.kribbeln.report import format_hold
    from generator.kribbeln.report import hold as run

    data, warnings = run(task_id, roll, rolls_left, goal, dice_file, tasks_file)
    _warn(warnings)
    if as_json:
        echo_json(data)
    else:
        click.echo(format_hold(data, lang))


@kribbeln.command()
@dice_option
@tasks_option
@json_option
def row(dice_file: str | None, tasks_file: str | None, as_json: bool) -> None:
    """A Kribbeln row (no task): expected best pip sum and P(beating a previous value k)."""
    from generator.kribbeln.report import format_row
    from generator.kribbeln.report import row as run

    data, warnings = run(dice_file, tasks_file)
    _warn(warnings)
    if as_json:
        echo_json(data)
    else:
        click.echo(format_row(data))

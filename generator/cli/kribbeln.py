"""`dicesheets kribbeln …`: task difficulty (analyze), best dice to keep (hold), Kribbeln rows,
balanced task-sheet blocks (block), scoring a filled sheet (score) and whole games (simulate)."""

from __future__ import annotations

import click

from generator.cli.options import (
    KRIBBELN_PAGES,
    KRIBBELN_PLAYERS,
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
    warn,
    write_out,
)

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
    help="Your own task catalog (YAML as task_catalog/kribbeln/tasks.yaml, or CSV).",
)


@click.group()
def kribbeln() -> None:
    """Kribbeln: task difficulty, best holds, Kribbeln rows, task-sheet blocks, scoring, games."""


@kribbeln.command()
@dice_option
@tasks_option
@click.option(
    "--sort",
    type=click.Choice(
        ["catalog", "p_success", "expected_pips", "id", "family"], case_sensitive=False
    ),
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


@kribbeln.command()
@click.option("--task", "task_id", required=True, help="Task id (see `kribbeln analyze`).")
@click.option(
    "--roll", required=True, help='The value on die 1…6, e.g. "3 5 1 6 2 2" (colors follow).'
)
@click.option(
    "--rolls-left",
    type=int,
    required=True,
    help="Re-rolls still allowed after this roll (0–2 with three rolls per turn).",
)
@click.option(
    "--goal",
    type=click.Choice(["success", "pips"], case_sensitive=False),
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


@kribbeln.command()
@dice_option
@tasks_option
@json_option
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


@kribbeln.command("export-tasks")
@click.option(
    "--csv",
    "fmt",
    flag_value="csv",
    default=True,
    help="As CSV for a spreadsheet (default): id, type, parameters, family.",
)
@click.option("--yaml", "fmt", flag_value="yaml", help="As a YAML task catalog.")
@click.option(
    "--out",
    "target",
    type=click.Path(dir_okay=False, allow_dash=True),
    default="-",
    show_default=True,
    help="The file to write (- for standard output).",
)
@dice_option
@tasks_option
def export_tasks(fmt: str, target: str, dice_file: str | None, tasks_file: str | None) -> None:
    """Write the task catalog (shipped, --catalog's or --tasks) as CSV or YAML.

    Reading the file back with --tasks gives the same tasks, so a catalog can be
    kept in a spreadsheet and turned back into YAML (or the other way round).
    """
    from generator.kribbeln.load import export_tasks as run

    text, warnings = run(fmt, dice_file, tasks_file, run_catalog())
    warn(warnings)
    from generator.io.writer import is_stdout, write_stream_or_file

    if is_stdout(target):
        click.echo(text, nl=False)  # (in the encoding of standard output)
        return
    if not write_stream_or_file(target, text.encode("utf-8"), "out"):
        click.echo(f"wrote {target}")


balance_option = click.option(
    "--balance",
    "balance_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Your own balance constraints (YAML, as task_catalog/kribbeln/balance.yaml).",
)


@kribbeln.command()
@click.option(
    "--pages",
    type=KRIBBELN_PAGES,
    default=6,
    show_default=True,
    help="Task sheets in the block (one a page), 1–100.",
)
@balance_option
@dice_option
@tasks_option
@click.option(
    "--players",
    type=KRIBBELN_PLAYERS,
    default=None,
    help="Player columns, 2–8 (2–5 in the real game; default: the names given, else 5).",
)
@click.option("--names", default=None, help='Player names for the top row: "Anna,Ben,Cem".')
@click.option("--rules/--no-rules", default=True, show_default=True, help="Add the rules page.")
@click.option(
    "--key/--no-key", default=True, show_default=True, help="Add the answer key (last pages)."
)
@lang_option(default="de")
@out_option
@paper_options
@fresh_seed_option
def block(
    pages: int,
    balance_file: str | None,
    dice_file: str | None,
    tasks_file: str | None,
    players: int | None,
    names: str | None,
    rules: bool,
    key: bool,
    lang: str,
    out: str | None,
    paper: str,
    landscape: bool,
    seed: int | None,
) -> None:
    """A pad of balanced task sheets (seeded), with rules page and answer key.

    Every sheet meets the constraints of the balance file; when they cannot all
    be met the command stops (exit 2) and names the constraint that binds.
    """
    from generator.kribbeln.build import BlockRequest, build_block
    from generator.kribbeln.load import load_block

    seed, drawn = fresh_seed(seed)
    req = BlockRequest(
        pages,
        seed,
        balance_file,
        dice_file,
        tasks_file,
        players,
        names,
        lang,
        paper.lower(),
        landscape,
        rules,
        key,
    )
    built = build_block(load_block(req, run_catalog()), req)
    write_out(built, out)
    if drawn:  # after writing, so an error stays the only line
        announce_seed(seed, lang)


@kribbeln.command()
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
def score(file: str, as_json: bool) -> None:
    """Score a filled sheet (YAML: names, ten rows of pips or X): points, totals, winner.

    Checks the Kribbeln rising rule: a Kribbeln value not higher than the same
    player's previous one is reported with its row and scored as X.
    """
    from generator.kribbeln.load import check_score_file
    from generator.kribbeln.scorefile import format_report

    result = check_score_file(file)
    if as_json:
        echo_json(result.to_json())
    else:
        click.echo(format_report(result))


@kribbeln.command()
@click.option(
    "--players",
    type=KRIBBELN_PLAYERS,
    default=4,
    show_default=True,
    help="Players, 2–8 (2–5 in the real game).",
)
@click.option(
    "--games", type=int, default=10_000, show_default=True, help="Games to play, 1–1,000,000."
)
@seed_option
@click.option(
    "--pages",
    "pages_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Sheets to play (YAML: `sheets:` lists of six task ids in row order).",
)
@click.option(
    "--block",
    "block_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Play the sheets of a block: the manifest (.json) `kribbeln block` wrote.",
)
@click.option(
    "--goal",
    type=click.Choice(["pips", "success"], case_sensitive=False),
    default="pips",
    show_default=True,
    help="What every player plays for: the expected pips, or the probability of success.",
)
@balance_option
@dice_option
@tasks_option
@json_option
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
    """Whole games with the rules: points per seat, X rates, Kribbeln use, ties, per sheet.

    Without --pages or --block the block of `kribbeln block --seed S` is played.
    Every player plays optimally for --goal; a failed task uses the area's
    Kribbeln field whenever that is allowed (empty, and higher than the last
    Kribbeln value), then tries the task again.
    """
    from generator.kribbeln.load import playtest as run
    from generator.kribbeln.playtest import format_result

    if pages_file and block_file:
        from generator.core.errors import OptionError

        raise OptionError("--block", "give --pages FILE or --block FILE, not both")
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

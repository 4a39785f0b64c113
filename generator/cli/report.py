"""`dicesheets report`: a balance report (PDF + JSON) for playtesters."""

from __future__ import annotations

import click

from generator.cli.options import (
    KRIBBELN_PAGES,
    REPORT_PLAYERS,
    echo_json,
    lang_option,
    run_catalog,
    sheet_options,
    write_out,
)


@click.command("report")
@click.option(
    "--game",
    type=click.Choice(["kribbeln", "koepfchen"], case_sensitive=False),
    required=True,
    help="Which game's balance to report.",
)
@click.option("--profile", default="classic", show_default=True, help="Köpfchen board profile.")
@click.option(
    "--players",
    type=REPORT_PLAYERS,
    default=4,
    show_default=True,
    help="Players: Köpfchen 2–6, Kribbeln 2–8 (2–5 in the real game).",
)
@click.option(
    "--pages", type=KRIBBELN_PAGES, default=6, show_default=True, help="Kribbeln: sheets, 1–100."
)
@click.option(
    "--games",
    type=int,
    default=2000,
    show_default=True,
    help="Kribbeln: simulated games, 1–1,000,000.",
)
@click.option("--balance", "balance_file", default=None, help="Kribbeln: balance file.")
@click.option("--dice", "dice_file", default=None, help="Kribbeln: dice file.")
@click.option("--tasks", "tasks_file", default=None, help="Kribbeln: task file.")
@click.option("--json", "as_json", is_flag=True, help="Also print the figures as JSON.")
@lang_option()
@sheet_options
def report_command(
    game: str,
    profile: str,
    players: int,
    pages: int,
    games: int,
    balance_file: str | None,
    dice_file: str | None,
    tasks_file: str | None,
    as_json: bool,
    lang: str,
    out: str | None,
    paper: str,
    landscape: bool,
    seed: int,
) -> None:
    """Charts and figures that show how a board or a block plays."""
    from generator.report.balance import ReportRequest, build_report, load_report

    req = ReportRequest(
        game,
        profile,
        players,
        pages,
        games,
        balance_file,
        dice_file,
        tasks_file,
        lang,
        paper,
        landscape,
        seed,
    )
    built = build_report(load_report(req, run_catalog()), req)
    written = write_out(built, out, report=not as_json)
    if as_json:
        data = {k: v for k, v in built.contents.items() if k != "kind"}
        echo_json({"pdf": str(written.pdfs[0]), **data})

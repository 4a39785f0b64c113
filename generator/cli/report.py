"""`dicesheets report`: a balance report (PDF + JSON) for playtesters."""

from __future__ import annotations

from generator.cli.options import echo_json, run_catalog, write_out


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
    data = {k: v for k, v in built.contents.items() if k != "kind"}
    # (the JSON is said before the files are in place: a full stdout leaves none)
    then = (lambda written: echo_json({"pdf": str(written.pdfs[0]), **data})) if as_json else None
    write_out(built, out, report=not as_json, then=then)

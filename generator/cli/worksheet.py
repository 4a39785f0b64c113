"""`dicesheets worksheet`: maths worksheets with versions, rosters and an answer key."""

from __future__ import annotations

import click

from generator.cli.options import lang_option, out_option, run_catalog, seed_option, write_out

SINGLE_SECTION = ("family", "level", "problems", "impossible")


@click.command()
@click.option("--level", type=int, default=2, show_default=True, help="Level of the family, 1–4.")
@click.option(
    "--problems", type=int, default=20, show_default=True, help="Problems per sheet (1–100)."
)
@click.option(
    "--versions", type=int, default=1, show_default=True, help="Versions A, B, C … (1–26)."
)
@click.option(
    "--family",
    default="koepfchen",
    show_default=True,
    help="koepfchen (2–3 dice, whole numbers) or 24 (four numbers, all used, fractions allowed).",
)
@click.option(
    "--impossible",
    type=int,
    default=0,
    show_default=True,
    help="How many problems have no solution (marked in the key), 0–100, at most --problems.",
)
@click.option("--title", default=None, help="Title printed on every sheet.")
@click.option(
    "--roster",
    type=click.Path(dir_okay=False),
    default=None,
    help="UTF-8 file, one pupil per line: one named sheet each, versions dealt in turn.",
)
@click.option(
    "--large-print", is_flag=True, default=False, help="Text ≥ 16 pt, bigger dice and lines."
)
@click.option(
    "--key-file",
    type=click.Path(dir_okay=True),
    default=None,
    help="Write the answer key to this PDF instead of after the sheets.",
)
@click.option(
    "--spec",
    default=None,
    help="A worksheet spec (YAML, or a shipped one: mixed) with sections that mix families "
    "and levels; replaces --family --level --problems --impossible.",
)
@click.option(
    "--paper",
    type=click.Choice(["a4", "letter"], case_sensitive=False),
    default="a4",
    show_default=True,
    help="Paper size.",
)
@lang_option(default="de")
@seed_option
@out_option
@click.pass_context
def worksheet(
    ctx: click.Context,
    level: int,
    problems: int,
    versions: int,
    family: str,
    impossible: int,
    title: str | None,
    roster: str | None,
    large_print: bool,
    key_file: str | None,
    spec: str | None,
    paper: str,
    lang: str,
    seed: int,
    out: str | None,
) -> None:
    """Maths worksheets: make the target from the dice, checked by the solver.

    Each version (A, B, …) has its own problems with the same difficulty profile;
    the answer key lists the simplest solution and how many solutions each has.
    """
    from generator.errors import OptionError
    from generator.worksheet.build import WorksheetRequest, build_worksheet, load_worksheet

    if spec is not None:
        for name in SINGLE_SECTION:
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE:
                raise OptionError(
                    f"--{name}", "the spec names the sections; leave out --" + name + " with --spec"
                )
    req = WorksheetRequest(
        family=family,
        level=level,
        problems=problems,
        impossible=impossible,
        versions=versions,
        seed=seed,
        title=title,
        lang=lang,
        paper=paper.lower(),
        large_print=large_print,
        roster=roster,
        spec=spec,
        key_file=key_file,
    )
    from generator.progress import staged_progress

    with staged_progress() as progress:
        built = build_worksheet(load_worksheet(req, run_catalog(), progress), req, progress)
    write_out(built, out, {"key": key_file})

"""`dicesheets worksheet`: maths worksheets with versions, rosters and an answer key."""

from __future__ import annotations

import click

from generator.cli.options import (
    announce_seed,
    fresh_seed,
    fresh_seed_option,
    lang_option,
    out_option,
    run_catalog,
    write_out,
)

SINGLE_SECTION = ("family", "level", "problems", "impossible", "ops", "targets")


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
@click.option(
    "--ops",
    default=None,
    help="Operations instead of the level's: any of + - * / (− × ÷ · : too), e.g. +-.",
)
@click.option("--targets", default=None, help="Target range instead of the level's, e.g. 1-20.")
@click.option("--title", default=None, help="Title printed on every sheet.")
@click.option(
    "--roster",
    type=click.Path(dir_okay=False),
    default=None,
    help="Class list: one name per line, or a CSV/text table as Excel saves it (with a header "
    "row such as Vorname;Nachname;Klasse;Großdruck). One named sheet per pupil.",
)
@click.option("--names", default=None, help='The class as "Anna, Ben, Cem" instead of --roster.')
@click.option(
    "--large-print", is_flag=True, default=False, help="Text ≥ 16 pt, bigger dice and lines."
)
@click.option(
    "--large-print-for",
    default=None,
    help='Large print only for these pupils of the class list: "Cem, Hannes".',
)
@click.option("--class", "klass", default=None, help='Written on the class line: "3b".')
@click.option("--date", default=None, help='Written on the date line: "KW 12".')
@click.option("--per-page", type=int, default=None, help="At most N problems on a page (1–100).")
@click.option(
    "--one-page", is_flag=True, default=False, help="Every sheet on one page (or an error)."
)
@click.option(
    "--duplex",
    is_flag=True,
    default=False,
    help="Double-sided printing: every pupil's sheet gets an even number of pages.",
)
@click.option("--key/--no-key", default=True, show_default=True, help="Print the answer key.")
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
@fresh_seed_option
@out_option
@click.pass_context
def worksheet(
    ctx: click.Context,
    level: int,
    problems: int,
    versions: int,
    family: str,
    impossible: int,
    ops: str | None,
    targets: str | None,
    title: str | None,
    roster: str | None,
    names: str | None,
    large_print: bool,
    large_print_for: str | None,
    klass: str | None,
    date: str | None,
    per_page: int | None,
    one_page: bool,
    duplex: bool,
    key: bool,
    key_file: str | None,
    spec: str | None,
    paper: str,
    lang: str,
    seed: int | None,
    out: str | None,
) -> None:
    """Maths worksheets: make the target from the dice, checked by the solver.

    Each version (A, B, …) has its own problems with the same difficulty profile;
    the answer key lists the simplest solution and how many solutions each has.
    """
    from generator.core.errors import OptionError
    from generator.worksheet.build import WorksheetRequest, build_worksheet
    from generator.worksheet.load import load_worksheet

    if spec is not None:
        for name in SINGLE_SECTION:
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE:
                raise OptionError(
                    f"--{name}", "the spec names the sections; leave out --" + name + " with --spec"
                )
    seed, drawn = fresh_seed(seed)
    req = WorksheetRequest(
        family=family.lower(),
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
        names=names,
        large_print_for=large_print_for,
        spec=spec,
        key_file=key_file,
        key=key,
        klass=klass,
        date=date,
        per_page=per_page,
        one_page=one_page,
        duplex=duplex,
        ops=ops,
        targets=targets,
    )
    from generator.io.progress import staged_progress

    with staged_progress() as progress:
        built = build_worksheet(load_worksheet(req, run_catalog(), progress), req, progress)
    write_out(built, out, {"key": key_file})
    if drawn:  # after writing, so an error stays the only line
        announce_seed(seed, lang)

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
FAMILY_ONLY = ("family", "level", "impossible", "ops", "targets")
TOPIC_ONLY = ("range", "carry", "unknown", "rows", "dice")


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
@click.option(
    "--topic",
    default=None,
    help="A topic of Klasse 1–4 instead of --family/--level, e.g. add-20-carry, number-wall-3 "
    "(all of them: --topics).",
)
@click.option(
    "--topics",
    "list_topics",
    is_flag=True,
    default=False,
    help="List the topics with their names, Klasse and controls, and stop.",
)
@click.option(
    "--json", "as_json", is_flag=True, default=False, help="With --topics: the list as JSON."
)
@click.option(
    "--range",
    "number_range",
    default=None,
    help="Topics: the largest number of each problem in A-B, e.g. 20-100.",
)
@click.option(
    "--carry",
    type=click.Choice(["yes", "no", "mixed"], case_sensitive=False),
    default=None,
    help="Topics: with carry/borrow (Zehnerübergang) in some column, none, or half each.",
)
@click.option(
    "--unknown",
    type=click.Choice(["result", "operand", "mixed"], case_sensitive=False),
    default=None,
    help="Topics: where the blank goes.",
)
@click.option("--rows", default=None, help="Topics: the times-table rows, e.g. 2,5,10.")
@click.option(
    "--dice", is_flag=True, default=False, help="Klasse 1 topics: numbers 1–6 drawn as dice pips."
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
    topic: str | None,
    list_topics: bool,
    as_json: bool,
    number_range: str | None,
    carry: str | None,
    unknown: str | None,
    rows: str | None,
    dice: bool,
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
    from generator.worksheet.topics import parse_range, parse_rows

    if list_topics:
        print_topics(as_json)
        return
    if as_json:
        raise OptionError("--json", "lists the topics: use it with --topics")

    def given(name: str) -> bool:
        return ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE

    if topic is not None:
        if not given("problems"):  # a tally sheet holds two experiments, a drill twenty
            from generator.worksheet.topics import BY_ID

            problems = BY_ID[topic].default_problems if topic in BY_ID else problems
        for name in (*FAMILY_ONLY, "spec"):
            if given(name):
                raise OptionError(f"--{name}", f"--topic chooses the problems; leave out --{name}")
    else:
        for name, option in zip(("number_range", *TOPIC_ONLY[1:]), TOPIC_ONLY):
            if given(name):
                raise OptionError(f"--{option}", "a topic's control: use it with --topic")
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
        topic=topic,
        range=parse_range(number_range) if number_range is not None else None,
        carry=carry.lower() if carry else None,
        unknown=unknown.lower() if unknown else None,
        rows=parse_rows(rows) if rows is not None else None,
        dice=dice,
    )
    from generator.io.progress import staged_progress

    topic_spec = None
    if spec is not None:
        from generator.worksheet.load import load_spec

        topic_spec = load_spec(spec, run_catalog())
        if not topic_spec.topics:
            topic_spec = None
    if topic is not None or topic_spec is not None:
        from generator.worksheet.load import class_list
        from generator.worksheet.topicsheet import build_topic_worksheet

        catalog = run_catalog()
        built = build_topic_worksheet(req, class_list(req), catalog.templates(), topic_spec)
        write_out(built, out, {"key": key_file})
        if drawn:
            announce_seed(seed, lang)
        return
    with staged_progress() as progress:
        built = build_worksheet(load_worksheet(req, run_catalog(), progress), req, progress)
    write_out(built, out, {"key": key_file})
    if drawn:  # after writing, so an error stays the only line
        announce_seed(seed, lang)


def print_topics(as_json: bool) -> None:
    """`--topics`: every topic with its names, Klasse and controls (or as JSON)."""
    import json

    from generator.worksheet.topics import TOPICS

    if as_json:
        click.echo(json.dumps([t.as_json() for t in TOPICS], ensure_ascii=False, indent=2))
        return
    for t in TOPICS:
        controls = " ".join(f"--{c}" for c in t.controls)
        click.echo(f"Klasse {t.klasse}  {t.id:<17} {t.name['de']} / {t.name['en']}  {controls}")

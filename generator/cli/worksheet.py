"""`dicesheets worksheet`: maths worksheets with versions, rosters and an answer key.

The options (and the check that a spec stands alone) are declared in `generator.registry`.
"""

from __future__ import annotations

from generator.cli.options import announce_seed, fresh_seed, run_catalog, write_out


def worksheet(
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
    """Maths worksheets, with a progress line while the pools are dealt."""
    from generator.worksheet.build import WorksheetRequest
    from generator.worksheet.load import load_worksheet
    from generator.worksheet.sheet import build_sheet

    if list_topics:
        print_topics(as_json)
        return
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
        topic=topic.lower() if topic else None,
        number_range=number_range,
        carry=carry.lower() if carry else None,
        unknown=unknown.lower() if unknown else None,
        rows=rows,
        dice=dice,
    )
    from generator.io.progress import staged_progress

    with staged_progress() as progress:
        built = build_sheet(load_worksheet(req, run_catalog(), progress), req, progress)
    write_out(built, out, {"key": key_file})
    if drawn:  # after writing, so an error stays the only line
        announce_seed(seed, lang)


def print_topics(as_json: bool) -> None:
    """`--topics`: every topic with its names, Klasse and controls (or as JSON)."""
    import json

    import click

    from generator.worksheet.topics import TOPICS

    if as_json:
        click.echo(json.dumps([t.as_json() for t in TOPICS], ensure_ascii=False, indent=2))
        return
    for t in TOPICS:
        controls = " ".join(f"--{c}" for c in t.controls)
        click.echo(f"Klasse {t.klasse}  {t.id:<17} {t.name['de']} / {t.name['en']}  {controls}")

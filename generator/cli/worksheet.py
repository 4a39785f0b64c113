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
    lang: str,
    seed: int | None,
    out: str | None,
) -> None:
    """Maths worksheets, with a progress line while the pools are dealt."""
    from generator.worksheet.build import WorksheetRequest, build_worksheet
    from generator.worksheet.load import load_worksheet

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

"""`dicesheets validate`: every problem of a catalog folder or of single files."""

from __future__ import annotations

import click


def validate_command(files: tuple[str, ...], folder: str | None, strict: bool) -> int:
    """Check catalog files for form and meaning; list every problem as file:line:column."""
    from pathlib import Path

    from generator.validate.checks import counted, validate

    report = validate(Path(folder) if folder else None, [Path(f) for f in files])
    for line in report.errors:
        click.echo(line, err=True)
    for line in report.warnings:
        click.echo(f"warning: {line}", err=True)
    for line in report.notes:  # no problem: not counted, not even with --strict
        click.echo(f"note: {line}", err=True)
    bad = len(report.errors) + (len(report.warnings) if strict else 0)
    click.echo(
        f"{counted(report.files, 'file')} checked: {counted(len(report.errors), 'problem')}, "
        f"{counted(len(report.warnings), 'warning')}"
    )
    return 2 if bad else 0

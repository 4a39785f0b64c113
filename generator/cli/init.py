"""`dicesheets init DIR`: write a starter catalog folder to edit."""

from __future__ import annotations

import click


@click.command("init")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=True))
@click.option("--force", is_flag=True, help="Overwrite starter files in a non-empty folder.")
def init_command(folder: str, force: bool) -> None:
    """Write commented copies of the shipped catalog and templates into DIR."""
    from pathlib import Path

    from generator.starter import write_starter

    files = write_starter(Path(folder), force)
    click.echo(f"wrote {len(files)} files into {folder}; use them with --catalog {folder}")

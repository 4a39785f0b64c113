"""`dicesheets all`: the default set of sheets (what `make run` writes)."""

from __future__ import annotations

import click

from generator.cli.options import report_written, seed_option


@click.command("all")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default="output",
    show_default=True,
    help="Folder for the sheets.",
)
@seed_option(help="Random seed.")
def all_command(out: str, seed: int) -> None:
    """Write the default set of sheets into a folder."""
    from generator.defaults import write_default_set

    for path in write_default_set(out, seed):
        report_written(path)

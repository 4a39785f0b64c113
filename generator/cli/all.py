"""`dicesheets all`: the default set of sheets (what `make run` writes)."""

from __future__ import annotations

import click

from generator.cli.options import run_catalog, seed_option, write_out


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
    from pathlib import Path

    from generator.defaults import default_builds

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for build in default_builds(seed, run_catalog()):
        write_out(build(), folder)

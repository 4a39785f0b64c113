"""`dicesheets init DIR`: write a starter catalog folder to edit."""

from __future__ import annotations

import click

GAMES = ("kribbeln", "kniffel", "koepfchen", "worksheet")  # generator.starter.GAMES, kept light


@click.command("init")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=True))
@click.option("--game", "games", multiple=True, type=click.Choice(GAMES),
              help="Only the files this game uses (repeat for several; default: all).")  # fmt: skip
@click.option("--force", is_flag=True, help="Overwrite starter files that already exist.")
def init_command(folder: str, games: tuple[str, ...], force: bool) -> None:
    """Write commented copies of the shipped catalog and templates into DIR."""
    from pathlib import Path

    from generator.starter import write_starter

    files = write_starter(Path(folder), games, force)
    click.echo(f"wrote {len(files)} files into {folder}; use them with --catalog {folder}")

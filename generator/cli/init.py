"""`dicesheets init DIR`: write a starter catalog folder to edit."""

from __future__ import annotations

import click

# the README.txt of a starter folder: how to use it on the command line
NOTE = """\
dicesheets catalog folder
=========================

Use it with any command: `dicesheets … --catalog {folder}`.

Every file here is a copy of a shipped default. A file replaces the shipped
file with the same path; a new file (a new rule set, board profile, level …)
adds an entry. Delete the files you do not change, so that later versions of
dicesheets can improve the defaults for you.

{contents}
- templates/de, templates/en   the printed words of these games (Jinja2 macros)
- rules.md                     the games as dicesheets plays them, every decision
                               (a copy of docs/rules.md; the catalog comments say
                               which section a file follows)

Check your edits with `dicesheets validate --catalog {folder}`.
Add another game's files with `dicesheets init {folder} --game NAME`: it writes
only what is missing or still as shipped and keeps every file you changed
(`--force` replaces those too, after saving each beside it as NAME.bak).
"""


def init_command(folder: str, games: tuple[str, ...], force: bool) -> None:
    """Write commented copies of the shipped catalog and templates into DIR."""
    from pathlib import Path

    from generator.core.errors import Note
    from generator.io.starter import write_starter

    def announce(files: list[Path]) -> None:
        many = "file" if len(files) == 1 else "files"
        click.echo(f"wrote {len(files)} {many} into {folder}; use them with --catalog {folder}")

    def tell(note: Note, warning: bool) -> None:
        click.echo(f"dicesheets: warning: {note}" if warning else note, err=warning)

    write_starter(Path(folder), games, force, NOTE, announce, tell)

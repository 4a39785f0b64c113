"""`dicesheets init DIR`: a starter catalog folder — commented copies of the shipped defaults."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.errors import UserError
from generator.resources import catalog_dir, templates_dir

NOTE = """\
dicesheets catalog folder
=========================

Use it with any command: `dicesheets … --catalog {folder}`.

Every file here is a copy of a shipped default. A file replaces the shipped
file with the same path; a new file (a new rule set, board profile, level …)
adds an entry. Delete the files you do not change, so that later versions of
dicesheets can improve the defaults for you.

- kniffel/        Kniffel/Yahtzee rule sets (categories, bonus, joker)
- kribbeln/       Kribbeln dice, task catalog and balance constraints
- koepfchen/      Schlaues Köpfchen board profiles
- worksheet/      worksheet levels and worksheet specs
- templates/de, templates/en   all printed words (Jinja2 macros)

Check your edits with `dicesheets validate --catalog {folder}`.
"""


def write_starter(folder: Path, force: bool = False) -> list[Path]:
    """Copy the shipped catalog and templates into `folder`; return the files written."""
    if folder.exists() and not folder.is_dir():
        raise UserError(f"'{folder}' is a file, expected a folder", where="argument DIR")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise UserError(
            f"folder '{folder}' is not empty (use --force to overwrite the starter files)",
            where="argument DIR",
        )
    written: list[Path] = []
    for source_root, target_root in (
        (catalog_dir(), folder),
        (templates_dir(), folder / "templates"),
    ):
        for source in sorted(source_root.rglob("*")):
            if source.is_file() and source.suffix in (".yaml", ".j2"):
                target = target_root / source.relative_to(source_root)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
                written.append(target)
    readme = folder / "README.txt"
    readme.write_text(NOTE.format(folder=folder), encoding="utf-8")
    written.append(readme)
    return written

"""`dicesheets init DIR`: a starter catalog folder — commented copies of the shipped defaults."""

from __future__ import annotations

from pathlib import Path

from generator.errors import UserError, shown
from generator.output import write_files_atomic
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
    """Copy the shipped catalog and templates into `folder`; return the files written.

    Like every output, each file is written to a temporary file and renamed; a
    link in `folder` is replaced by the file, never written through, and a
    linked sub-folder is refused.
    """
    if folder.exists() and not folder.is_dir():
        raise UserError(f"'{shown(folder)}' is not a folder", where="argument DIR")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise UserError(
            f"folder '{shown(folder)}' is not empty (use --force to overwrite the starter files)",
            where="argument DIR",
        )
    files: list[tuple[Path, bytes]] = []
    for source_root, target_root in (
        (catalog_dir(), folder),
        (templates_dir(), folder / "templates"),
    ):
        for source in sorted(source_root.rglob("*")):
            if source.is_file() and source.suffix in (".yaml", ".j2"):
                files.append((target_root / source.relative_to(source_root), source.read_bytes()))
    files.append((folder / "README.txt", NOTE.format(folder=folder).encode()))
    for target, _ in files:
        for parent in target.relative_to(folder).parents:
            inside = folder / parent
            if inside != folder and (
                inside.is_symlink() or (inside.exists() and not inside.is_dir())
            ):
                raise UserError(
                    f"'{shown(inside)}' is a link or a file, expected a folder",
                    where="argument DIR",
                )
    write_files_atomic(files, option="DIR")
    return [target for target, _ in files]

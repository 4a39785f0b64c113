"""`dicesheets init DIR`: a starter catalog folder — commented copies of the shipped defaults."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from generator.errors import UserError, shown
from generator.io.writer import write_files_atomic
from generator.resources import catalog_dir, templates_dir

# What each game reads: its catalog folder (named like the game) and its templates.
# The balance report (`report.j2`) belongs to both games that have one.
GAMES: dict[str, tuple[tuple[str, ...], str]] = {
    "kniffel": (("kniffel_block", "kniffel_odds"), "Kniffel/Yahtzee rule sets"),
    "kribbeln": (
        ("kribbeln_key", "kribbeln_rules", "kribbeln_sheet", "kribbeln_tasks", "report"),
        "Kribbeln dice, task catalog and balance constraints",
    ),
    "koepfchen": (
        ("koepfchen_board", "koepfchen_key", "koepfchen_rules", "report"),
        "Schlaues Köpfchen board profiles",
    ),
    "worksheet": (("worksheet",), "worksheet levels and worksheet specs"),
}

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

Check your edits with `dicesheets validate --catalog {folder}`.
Add another game's files with `dicesheets init {folder} --game NAME`.
"""


def starter_files(games: Iterable[str]) -> list[tuple[Path, Path]]:
    """(shipped file, path inside the starter folder) for everything the games use."""
    pairs: list[tuple[Path, Path]] = []
    chosen = [g for g in GAMES if g in set(games)]
    for game in chosen:
        for source in sorted((catalog_dir() / game).rglob("*.yaml")):
            pairs.append((source, source.relative_to(catalog_dir())))
    stems = {stem for game in chosen for stem in GAMES[game][0]}
    for source in sorted(templates_dir().rglob("*.j2")):
        if source.stem in stems:
            pairs.append((source, Path("templates") / source.relative_to(templates_dir())))
    return pairs


def write_starter(folder: Path, games: Iterable[str] = (), force: bool = False) -> list[Path]:
    """Copy what the games use (all games if none is named) into `folder`; the files written.

    A folder that already holds other files is fine (add a game later); a file that
    would be overwritten needs `force`.
    """
    games = list(games) or list(GAMES)
    for game in games:
        if game not in GAMES:
            raise UserError(f"expected one of {', '.join(GAMES)}, found '{game}'", where="--game")
    if folder.exists() and not folder.is_dir():
        raise UserError(f"'{shown(folder)}' is a file, expected a folder", where="argument DIR")
    pairs = starter_files(games)
    present = [rel for _, rel in pairs if (folder / rel).exists() or (folder / rel).is_symlink()]
    if present and not force:
        more = f" and {len(present) - 1} more" if len(present) > 1 else ""
        raise UserError(
            f"'{shown(folder / present[0])}'{more} already exist (use --force to overwrite them)",
            where="argument DIR",
        )
    # like every output: temporary file + rename, so a link in the folder is replaced by
    # the file, never written through; a linked or blocked sub-folder is refused
    for _, rel in pairs:
        for parent in rel.parents:
            inside = folder / parent
            if parent != Path(".") and (inside.is_symlink() or inside.is_file()):
                raise UserError(
                    f"'{shown(inside)}' is a link or a file, expected a folder",
                    where="argument DIR",
                )
    files = [(folder / rel, source.read_bytes()) for source, rel in pairs]
    readme = NOTE.format(folder=folder, contents=_contents(folder, games))
    files.append((folder / "README.txt", readme.encode()))
    write_files_atomic(files)
    return [target for target, _ in files]


def _contents(folder: Path, games: list[str]) -> str:
    """One line per game folder in `folder` once written (earlier `init` runs included)."""
    lines = [
        f"- {game + '/':<14}{what}"
        for game, (_, what) in GAMES.items()
        if game in games or (folder / game).is_dir()
    ]
    return "\n".join(lines)

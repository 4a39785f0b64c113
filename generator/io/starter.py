"""`dicesheets init DIR`: a starter catalog folder — commented copies of the shipped defaults."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from generator.core.errors import Input, Msg, UserError, shown
from generator.core.resources import catalog_dir, rules_file, templates_dir
from generator.io.files import write_files_atomic

# What each game reads: its catalog folder (named like the game) and its templates.
# The balance report (`report.j2`) belongs to both games that have one, the footers' page
# label (`page.j2`) to both whose rules and keys run over pages.
GAMES: dict[str, tuple[tuple[str, ...], str]] = {
    "kniffel": (("kniffel_block", "kniffel_odds", "kniffel_rules"), "Kniffel/Yahtzee rule sets"),
    "kribbeln": (
        ("kribbeln_key", "kribbeln_rules", "kribbeln_sheet", "kribbeln_tasks", "report", "page"),
        "Kribbeln dice, task catalog and balance constraints",
    ),
    "koepfchen": (
        ("koepfchen_board", "koepfchen_key", "koepfchen_rules", "report", "page"),
        "Schlaues Köpfchen board profiles",
    ),
    "worksheet": (("worksheet",), "worksheet levels and worksheet specs"),
}


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


class AlreadyThere(UserError):
    """Starter files exist where they would be written (the CLI says how to overwrite them)."""


def write_starter(
    folder: Path,
    games: Iterable[str] = (),
    force: bool = False,
    note: str = "",
    announce: Callable[[list[Path]], None] | None = None,
) -> list[Path]:
    """Copy what the games use (all games if none is named) into `folder`; the files written.

    `note` is the README.txt written beside them: a format string with `{folder}`
    and `{contents}` (the CLI's, which says how to use the folder on the command line).

    A folder that already holds other files is fine (add a game later); a file that
    would be overwritten needs `force`.
    """
    games = list(games) or list(GAMES)
    for game in games:
        if game not in GAMES:
            raise UserError(Msg("one_of", known=", ".join(GAMES), found=game), where=Input("game"))
    if folder.exists() and not folder.is_dir():
        raise UserError(Msg("file_expected_folder", folder=shown(folder)), where=Input("folder"))
    pairs = starter_files(games)
    present = [rel for _, rel in pairs if (folder / rel).exists() or (folder / rel).is_symlink()]
    if present and not force:
        more = f" and {len(present) - 1} more" if len(present) > 1 else ""
        raise AlreadyThere(
            f"'{shown(folder / present[0])}'{more} already exist", where=Input("folder")
        )
    # like every output: temporary file + rename, so a link in the folder is replaced by
    # the file, never written through; a linked or blocked sub-folder is refused
    for _, rel in pairs:
        for parent in rel.parents:
            inside = folder / parent
            if parent != Path(".") and (inside.is_symlink() or inside.is_file()):
                raise UserError(
                    Msg("link_file_expected_folder", inside=shown(inside)),
                    where=Input("folder"),
                )
    files = [(folder / rel, source.read_bytes()) for source, rel in pairs]
    readme = note.format(folder=folder, contents=_contents(folder, games))
    files.append((folder / "rules.md", rules_file().read_bytes()))  # the rules they follow
    files.append((folder / "README.txt", readme.encode()))
    paths = [target for target, _ in files]
    # (`announce` says them before they are renamed into place: a full stdout leaves none)
    write_files_atomic(files, announce=None if announce is None else lambda: announce(paths))
    return paths


def _contents(folder: Path, games: list[str]) -> str:
    """One line per game folder in `folder` once written (earlier `init` runs included)."""
    lines = [
        f"- {game + '/':<14}{what}"
        for game, (_, what) in GAMES.items()
        if game in games or (folder / game).is_dir()
    ]
    return "\n".join(lines)

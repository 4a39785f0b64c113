"""`dicesheets init DIR`: a starter catalog folder — commented copies of the shipped defaults."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from generator.core.errors import Input, Msg, Note, UserError, shown
from generator.core.resources import catalog_dir, rules_file, templates_dir
from generator.io.files import check_replaceable, write_files_atomic

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


TASKS_YAML, TASKS_CSV = "kribbeln/tasks.yaml", "kribbeln/tasks.csv"  # either holds the tasks
MAX_BACKUPS = 99  # NAME.bak … NAME.99.bak: past that, the folder wants tidying first


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


def write_starter(
    folder: Path,
    games: Iterable[str] = (),
    force: bool = False,
    note: str = "",
    announce: Callable[[list[Path]], None] | None = None,
    tell: Callable[[Note, bool], None] | None = None,
) -> list[Path]:
    """Copy what the games use (all games if none is named) into `folder`; the files written.

    `note` is the README.txt written beside them: a format string with `{folder}`
    and `{contents}` (the CLI's, which says how to use the folder on the command line).

    A folder that already holds a catalog is fine (add a game later): a file that
    is there as shipped stays as it is, a file the user changed — one that differs
    from what this version would write — is kept and `tell` says so; with `force`
    it is replaced, after a copy of it has been written beside it as `NAME.bak`
    (`tell` names each; its flag: a warning, not news). A task list kept as
    `kribbeln/tasks.csv` stands for `tasks.yaml`, which is then not written.
    """
    games = list(games) or list(GAMES)
    for game in games:
        if game not in GAMES:
            raise UserError(Msg("one_of", known=", ".join(GAMES), found=game), where=Input("game"))
    if folder.exists() and not folder.is_dir():
        raise UserError(Msg("file_expected_folder", folder=shown(folder)), where=Input("folder"))
    say = tell or (lambda note, warning: None)
    files = _starter_contents(folder, games, note, say)
    # like every output: temporary file + rename, so a link in the folder is replaced by
    # the file, never written through; a linked or blocked sub-folder is refused
    for target, _, _ in files:
        for parent in target.relative_to(folder).parents:
            inside = folder / parent
            if parent != Path(".") and (inside.is_symlink() or inside.is_file()):
                raise UserError(
                    Msg("link_file_expected_folder", inside=shown(inside)),
                    where=Input("folder"),
                )
        check_replaceable(target, "folder")  # (a FIFO or a device: neither read nor replaced)
        if target.is_dir() and not target.is_symlink():
            raise UserError(
                Msg("folder_where_starter_file_goes", path=shown(target)), where=Input("folder")
            )
    writes: list[tuple[Path, bytes]] = []
    replaced: list[Path] = []  # the user's files that --force replaces (a .bak first)
    for target, data, ours in files:
        state = _state(target, data, ours)
        if state == "same":
            continue
        if state == "changed" and not force:
            say(Note(Msg("init_kept_changed_file", path=shown(target))), True)
            continue
        if state == "changed":
            replaced.append(target)
        writes.append((target, data))
    if replaced:
        _back_up(replaced, say)
    paths = [target for target, _ in writes]
    if not writes:
        say(Note(Msg("init_nothing_to_write", folder=shown(folder))), False)
        return []
    # (`announce` says them before they are renamed into place: a full stdout leaves none)
    write_files_atomic(
        writes, "folder", announce=None if announce is None else lambda: announce(paths)
    )
    return paths


def _starter_contents(
    folder: Path, games: list[str], note: str, say: Callable[[Note, bool], None]
) -> list[tuple[Path, bytes, tuple[bytes, ...]]]:
    """Every file `init` writes for `games`: (path in `folder`, bytes, and the texts of it
    that are dicesheets' own, not the user's: an earlier run's README named fewer games)."""
    files: list[tuple[Path, bytes, tuple[bytes, ...]]] = []
    for source, rel in starter_files(games):
        if rel == Path(TASKS_YAML) and _present(folder / TASKS_CSV):
            say(Note(Msg("init_tasks_csv_stands", path=shown(folder / TASKS_CSV))), True)
            continue
        data = source.read_bytes()
        files.append((folder / rel, data, (data,)))
    rules = rules_file().read_bytes()  # the rules they follow
    files.append((folder / "rules.md", rules, (rules,)))
    readme = note.format(folder=folder, contents=_contents(folder, games)).encode()
    before = note.format(folder=folder, contents=_contents(folder, [])).encode()
    files.append((folder / "README.txt", readme, (readme, before)))
    return files


def _present(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _state(target: Path, data: bytes, ours: tuple[bytes, ...]) -> str:
    """ "new" (missing), "same" (holds `data`), "ours" (a text dicesheets wrote, to renew)
    or "changed": other bytes, a link, anything but a plain file — the user's."""
    if not _present(target):
        return "new"
    if target.is_symlink() or not target.is_file():
        return "changed"
    held = target.read_bytes()
    return "same" if held == data else "ours" if held in ours else "changed"


def _back_up(paths: list[Path], say: Callable[[Note, bool], None]) -> None:
    """Write a copy of each file beside it as NAME.bak (NAME.2.bak … when that is taken by
    another text), before anything is replaced; a link is copied as the link."""
    copies: list[tuple[Path, bytes]] = []
    links: list[tuple[str, Path]] = []
    saved: list[Note] = []
    for path in paths:
        link = os.readlink(path) if path.is_symlink() else None
        data = path.read_bytes() if link is None else b""
        for n in range(1, MAX_BACKUPS + 1):
            bak = path.with_name(f"{path.name}.bak" if n == 1 else f"{path.name}.{n}.bak")
            if not _present(bak):
                break
            plain = link is None and bak.is_file() and not bak.is_symlink()
            if plain and bak.read_bytes() == data:
                break  # this copy is saved already
        else:
            raise UserError(Msg("init_backups_full", path=shown(path)), where=Input("folder"))
        if link is not None and not _present(bak):
            links.append((link, bak))
        elif not _present(bak):
            copies.append((bak, data))
        saved.append(Note(Msg("init_backed_up", path=shown(path), bak=bak.name)))
    if copies:
        write_files_atomic(copies, "folder")
    for link, bak in links:
        os.symlink(link, bak)
    for note in saved:
        say(note, False)


def _contents(folder: Path, games: list[str]) -> str:
    """One line per game folder in `folder` once written (earlier `init` runs included)."""
    lines = [
        f"- {game + '/':<14}{what}"
        for game, (_, what) in GAMES.items()
        if game in games or (folder / game).is_dir()
    ]
    return "\n".join(lines)

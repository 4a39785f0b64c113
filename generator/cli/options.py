"""What every command's action shares: the run's catalog, writing, warnings, seeds, JSON.

The options themselves are declared once in `generator.registry`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import click

from generator import registry
from generator.surface.messages import user_message
from generator.surface.params import click_type

if TYPE_CHECKING:
    from pathlib import Path

    from generator.core.built import Built
    from generator.io.catalog import Catalog
    from generator.io.writer import Written

# the click types of the ranges several commands share (declared in the registry)
KNIFFEL_PLAYERS = click_type(registry.KNIFFEL_PLAYERS)
KRIBBELN_PLAYERS = click_type(registry.KRIBBELN_PLAYERS)
KOEPFCHEN_PLAYERS = click_type(registry.KOEPFCHEN_PLAYERS)
REPORT_PLAYERS = click_type(registry.REPORT_PLAYERS)
SEED = click_type(registry.SEED_TYPE)


def fresh_seed(seed: int | None) -> tuple[int, bool]:
    """The seed to use, and whether it was drawn just now (no --seed given).

    Under --watch the first seed of the session is kept for every rebuild, so the
    pad, its file name and its preview stay the same while the catalog is edited.
    """
    from generator.cli.runopts import SETTINGS

    if seed is not None:
        SETTINGS.seed = seed
        return seed, False
    if SETTINGS.watch and SETTINGS.seed is not None:
        return SETTINGS.seed, False
    import secrets

    low, high = registry.FRESH_SEEDS
    SETTINGS.seed = low + secrets.randbelow(high - low + 1)
    return SETTINGS.seed, True


def announce_seed(seed: int, lang: str) -> None:
    """Tell the user how to make the same sheet again (stderr, in the sheet's language)."""
    from generator.io.templates import read_templates
    from generator.text.words import Texts

    # the command line's own words (templates/<lang>/cli.j2), which a catalog does not change
    click.echo(Texts("cli", lang, read_templates(()))("fresh_seed", seed=seed), err=True)


def echo_json(data: Any) -> None:
    """Print deterministic JSON to stdout."""
    from generator.io.writer import dumps_json

    click.echo(dumps_json(data), nl=False)


def report_written(path: Any) -> None:
    """One line per written file."""
    click.echo(f"wrote {path}")


def run_catalog() -> Catalog:
    """The catalog of this run: the shipped one, under the `--catalog` folder if given."""
    from generator.cli.runopts import SETTINGS
    from generator.io.catalog import Catalog

    return Catalog.default(SETTINGS.catalog)


def warn(warnings: Any) -> None:
    """One line per warning on stderr (an input's warning names its option)."""
    from generator.core.errors import UserError

    for warning in warnings:
        text = user_message(warning) if isinstance(warning, UserError) else warning
        click.echo(f"dicesheets: warning: {text}", err=True)


def write_out(
    built: Built,
    out: str | Path | None,
    targets: Mapping[str, str | Path | None] | None = None,
    report: bool = True,
    pdfs: Sequence[bytes] | None = None,
    then: Callable[[Written], None] | None = None,
) -> Written:
    """Write a build through the one writer (with the `--png` previews); report each file
    (unless `report` is false: a command that prints JSON keeps stdout for it), then
    `then(written)` prints the rest. Both are said before the files are renamed into
    place: a standard output that cannot take them fails the run with nothing written.
    `pdfs`: its documents rendered already."""
    from generator.cli.runopts import SETTINGS, note_previews, preview_folder
    from generator.io.writer import Previews, resolve_out, write_built

    folder = preview_folder(resolve_out(out, built.name))
    previews = Previews(folder, SETTINGS.dpi) if folder is not None else None
    warn(built.warnings)

    def announce(written: Written) -> None:
        for path in (*written.pdfs, *written.pngs) if report else ():
            report_written(path)
        if then is not None:
            then(written)

    written = write_built(built, out, targets, previews, pdfs, announce)
    if folder is not None:
        note_previews(folder, written.pdfs, written.pngs)
    return written

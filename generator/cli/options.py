"""Options shared by every command, so they are spelled and checked the same everywhere."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from pathlib import Path

    from generator.built import Built
    from generator.errors import UserError
    from generator.io.catalog import Catalog
    from generator.io.writer import Written

F = Callable[..., Any]

# the option that sets each input a build or the writer names (`InputError.subject`);
# a subject not listed is its own option name (`players` → --players)
OPTION_FOR = {"pdf": "--out", "key": "--key-file", "large_print": "--large-print"}


def option_for(subject: str) -> str:
    """The command-line option behind an input's name."""
    return OPTION_FOR.get(subject, "--" + subject.replace("_", "-"))


def user_message(exc: UserError) -> str:
    """The one-line error text, with an input error's subject turned into its option."""
    from generator.errors import InputError

    if isinstance(exc, InputError):
        return f"option {option_for(exc.subject)}: {exc.message}"
    return str(exc)


def out_option(f: F) -> F:
    return click.option(
        "--out",
        type=click.Path(dir_okay=True, file_okay=True),
        default=None,
        help="Output file, or a folder for the default file name (default: output/).",
    )(f)


def paper_options(f: F) -> F:
    f = click.option(
        "--landscape", is_flag=True, default=False, help="Turn the page to landscape."
    )(f)
    return click.option(
        "--paper",
        type=click.Choice(["a4", "letter"], case_sensitive=False),
        default="a4",
        show_default=True,
        help="Paper size.",
    )(f)


def lang_option(default: str | None = "de") -> Callable[[F], F]:
    def decorate(f: F) -> F:
        return click.option(
            "--lang",
            type=click.Choice(["de", "en"]),
            default=default,
            show_default=default is not None,
            help="Language of the printed text.",
        )(f)

    return decorate


# one seed type for every command: numpy's generators take no negative seed, and a bound
# keeps seeds printable and portable (the seed is recorded in every manifest)
MAX_SEED = 2**32 - 1
SEED = click.IntRange(0, MAX_SEED)


def seed_option(f: F | None = None, *, help: str = "Random seed (same seed, same PDF).") -> Any:
    """--seed 0–4294967295 (bare `@seed_option`, or `@seed_option(help=…)`)."""

    def decorate(g: F) -> F:
        return click.option("--seed", type=SEED, default=1, show_default=True, help=help)(g)

    return decorate(f) if f is not None else decorate


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")(f)


def sheet_options(f: F) -> F:
    """--out, --paper, --landscape, --seed: every command that writes a PDF has them."""
    return out_option(paper_options(seed_option(f)))


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
    """One line per warning on stderr."""
    for warning in warnings:
        click.echo(f"dicesheets: warning: {warning}", err=True)


def write_out(
    built: Built,
    out: str | Path | None,
    targets: Mapping[str, str | Path | None] | None = None,
    report: bool = True,
) -> Written:
    """Write a build through the one writer (with the `--png` previews); report each file
    (unless `report` is false: a command that prints JSON keeps stdout for it)."""
    from generator.cli.runopts import SETTINGS, note_previews, preview_folder
    from generator.io.writer import Previews, resolve_out, write_built

    folder = preview_folder(resolve_out(out, built.name))
    previews = Previews(folder, SETTINGS.dpi) if folder is not None else None
    warn(built.warnings)
    written = write_built(built, out, targets, previews)
    if folder is not None:
        note_previews(folder, written.pdfs, written.pngs)
    for path in (*written.pdfs, *written.pngs) if report else ():
        report_written(path)
    return written

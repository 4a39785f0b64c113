"""Options shared by every command, so they are spelled and checked the same everywhere."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from pathlib import Path

    from generator.core.built import Built
    from generator.core.errors import UserError
    from generator.io.catalog import Catalog
    from generator.io.writer import Written

F = Callable[..., Any]


class Count(click.ParamType):
    """A whole number lo–hi; anything else is today's one line: `expected lo–hi NOUN, found N`."""

    name = "integer"

    def __init__(self, lo: int, hi: int, noun: str, note: str = "") -> None:
        self.lo, self.hi, self.noun, self.note = lo, hi, noun, note

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = int(str(value).strip())
            except ValueError:
                self.fail(f"expected a whole number of {self.noun}, found '{value}'", param, ctx)
        if not self.lo <= number <= self.hi:
            found = f"expected {self.lo}–{self.hi} {self.noun}{self.note}, found {number}"
            self.fail(found, param, ctx)
        return number


# The ranges of the options several commands share, declared once. Players per game:
# Kniffel's pad has one block per player (1 = solitaire, at most 8 blocks in a set);
# Kribbeln is a game for 2–5, a sheet has room for 8 columns, the simulation plays
# as many; Köpfchen's race is exact for up to 6 players (1: one player alone).
KNIFFEL_PLAYERS = Count(1, 8, "players")
KRIBBELN_PLAYERS = Count(2, 8, "players", " (2–5 in the real game)")
KOEPFCHEN_PLAYERS = Count(1, 6, "players")
REPORT_PLAYERS = Count(2, 8, "players")  # Köpfchen's report: 2–6, checked by the report
KNIFFEL_GAMES = Count(1, 6, "game columns")
COPIES = Count(1, 1000, "copies")
KRIBBELN_PAGES = Count(1, 100, "sheets")

# what sets each input a build or the writer names (`InputError.subject`, `Input`);
# a subject not listed is its own option (`rolls_left` → option --rolls-left)
WHERE_FOR = {"pdf": "option --out", "key": "option --key-file", "folder": "argument DIR"}


def where_for(subject: str) -> str:
    """The command-line option (or argument) behind an input's name."""
    return WHERE_FOR.get(subject, "option --" + subject.replace("_", "-"))


def option_for(subject: str) -> str:
    """The option alone: `players` → --players."""
    return where_for(subject).removeprefix("option ")


def user_message(exc: UserError) -> str:
    """The one-line error text, with an input error's subject turned into its option
    (and for a layout that does not fit, the options that would make room)."""
    from generator.core.errors import DoesNotFit, Input, InputError

    if isinstance(exc, DoesNotFit) and exc.remedies:
        remedies = " or ".join(option_for(r) for r in exc.remedies)
        return f"{where_for(exc.subject)}: {exc.message} (try {remedies})"
    if isinstance(exc, InputError) or isinstance(exc.where, Input):
        subject = exc.subject if isinstance(exc, InputError) else str(exc.where)
        return f"{where_for(subject)}: {exc.message}"
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
            type=click.Choice(["de", "en"], case_sensitive=False),
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


FRESH_SEEDS = (1, 99_999)  # five digits at most: easy to copy from a footer


def fresh_seed_option(f: F) -> F:
    """--seed for commands that sample a new sheet: without it, a new seed every run."""
    return click.option(
        "--seed",
        type=SEED,
        default=None,
        help="Random seed: the same seed gives the same PDF byte for byte. Without it a new "
        "one is drawn, printed on stderr, on the sheet and in the manifest.",
    )(f)


def fresh_seed(seed: int | None) -> tuple[int, bool]:
    """The seed to use, and whether it was drawn just now (no --seed given)."""
    if seed is not None:
        return seed, False
    import secrets

    low, high = FRESH_SEEDS
    return low + secrets.randbelow(high - low + 1), True


def announce_seed(seed: int, lang: str) -> None:
    """Tell the user how to make the same sheet again (stderr, in the sheet's language)."""
    from generator.text.words import Texts

    # the command line's own words (templates/<lang>/cli.j2), which a catalog does not change
    click.echo(Texts("cli", lang)("fresh_seed", seed=seed), err=True)


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
) -> Written:
    """Write a build through the one writer (with the `--png` previews); report each file
    (unless `report` is false: a command that prints JSON keeps stdout for it). `pdfs`:
    its documents rendered already."""
    from generator.cli.runopts import SETTINGS, note_previews, preview_folder
    from generator.io.writer import Previews, resolve_out, write_built

    folder = preview_folder(resolve_out(out, built.name))
    previews = Previews(folder, SETTINGS.dpi) if folder is not None else None
    warn(built.warnings)
    written = write_built(built, out, targets, previews, pdfs)
    if folder is not None:
        note_previews(folder, written.pdfs, written.pngs)
    for path in (*written.pdfs, *written.pngs) if report else ():
        report_written(path)
    return written

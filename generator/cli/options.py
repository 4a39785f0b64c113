"""Options shared by every command, so they are spelled and checked the same everywhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

F = Callable[..., Any]


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
    from generator.output import dumps_json

    click.echo(dumps_json(data), nl=False)


def report_written(path: Any) -> None:
    """One line per written file."""
    click.echo(f"wrote {path}")

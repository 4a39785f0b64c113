"""Options every command gets from the root group: --catalog, and on commands that write
PDFs --png DIR (previews) and --watch (rebuild when a catalog file or template changes).

They are added to each command when it is loaded, so no command can forget them, and
handled around the command's run in `RootGroup.main`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from pathlib import Path

POLL_SECONDS = 0.3


class RunSettings:
    """What the run options asked for (plain attributes: no dataclass import at start-up)."""

    def __init__(self) -> None:
        self.png: Path | None = None
        self.dpi = 100
        self.watch = False
        self.catalog_set = False


SETTINGS = RunSettings()


def _set(name: str) -> Callable[[click.Context, click.Parameter, Any], None]:
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        from pathlib import Path

        if name == "catalog":
            from generator.catalog import set_user_catalog

            set_user_catalog(Path(value) if value else None)
            SETTINGS.catalog_set = True
        elif name == "png" and value is not None:
            from generator.output import check_folder

            check_folder(Path(value), "--png")  # before any PDF is written
            SETTINGS.png = Path(value)
        elif value is not None:
            setattr(SETTINGS, name, value)

    return callback


def _option(*decls: str, name: str, **kwargs: Any) -> click.Option:
    return click.Option(list(decls), expose_value=False, callback=_set(name), **kwargs)


def add_run_options(command: click.Command) -> click.Command:
    """Give `command` (and its subcommands) --catalog, and --png/--dpi/--watch if it writes PDFs."""
    if getattr(command, "_run_options", False):
        return command
    command._run_options = True  # type: ignore[attr-defined]
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            add_run_options(sub)
        return command
    names = {p.name for p in command.params}
    flags = {opt for p in command.params for opt in getattr(p, "opts", ())}
    if "--catalog" not in flags:
        command.params.append(
            _option(
                "--catalog",
                name="catalog",
                type=click.Path(file_okay=False),
                help="Your own catalog folder, laid over the shipped one.",
            )
        )
    if "out" in names:
        command.params.append(
            _option(
                "--png",
                name="png",
                type=click.Path(file_okay=False),
                help="Also write every page as PNG into this folder.",
            )
        )
        if "dpi" not in names:
            command.params.append(
                _option(
                    "--dpi",
                    name="dpi",
                    type=click.IntRange(20, 600),
                    default=None,
                    help="Resolution of the --png previews (default 100).",
                )
            )
        command.params.append(
            _option(
                "--watch",
                name="watch",
                is_flag=True,
                default=None,
                help="Rebuild whenever a catalog file, template or input file changes.",
            )
        )
    return command


def reset() -> None:
    """Forget the settings of a previous run (tests run many commands in one process)."""
    if SETTINGS.catalog_set:
        from generator.catalog import set_user_catalog

        set_user_catalog(None)
    SETTINGS.__init__()  # type: ignore[misc]


def write_previews(pdfs: Iterable[Path]) -> None:
    """The --png previews of every PDF the run wrote."""
    if SETTINGS.png is None:
        return
    from generator.preview import pdf_to_png

    for pdf in pdfs:
        for png in pdf_to_png(pdf, SETTINGS.png, SETTINGS.dpi):
            click.echo(f"wrote {png}")


def watched_files(args: Iterable[str]) -> list[Path]:
    """Catalog files, templates, and any existing file named on the command line."""
    from pathlib import Path

    from generator.catalog import user_catalog
    from generator.resources import catalog_dir, templates_dir

    roots = [catalog_dir(), templates_dir()]
    if (user := user_catalog()) is not None:
        roots.append(user)
    files = [p for root in roots if root.is_dir() for p in root.rglob("*") if p.is_file()]
    files += [Path(a) for a in args if not a.startswith("-") and Path(a).is_file()]
    return sorted(set(files))


def snapshot(files: Iterable[Path]) -> dict[Path, float]:
    stamps = {}
    for path in files:
        try:
            stamps[path] = path.stat().st_mtime_ns
        except OSError:
            stamps[path] = -1
    return stamps


def wait_for_change(args: list[str], before: dict[Path, float]) -> list[Path]:
    """Block until a watched file changes; return the changed files."""
    while True:
        time.sleep(POLL_SECONDS)
        now = snapshot(watched_files(args))
        changed = [p for p in now.keys() | before.keys() if now.get(p) != before.get(p)]
        if changed:
            return sorted(changed)

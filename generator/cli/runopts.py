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
        self.catalog: Path | None = None
        # what this run previewed: the folder and each PDF with its PNGs (the --watch page)
        self.preview_dir: Path | None = None
        self.previewed: list[tuple[Path, tuple[Path, ...]]] = []
        # the seed of this run (--seed, or the one drawn first): --watch keeps it for the
        # whole session, so every rebuild replaces the same file
        self.seed: int | None = None


SETTINGS = RunSettings()


def _set(name: str) -> Callable[[click.Context, click.Parameter, Any], None]:
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        if value is None:
            return  # not given: nothing to import (pathlib costs `numbers solve` 3 ms)
        from pathlib import Path

        if name == "catalog" and not Path(value).is_dir():
            from generator.core.errors import Msg, OptionError

            raise OptionError("--catalog", Msg("not_a_folder", path=value))
        if name == "png":
            from generator.io.files import check_folder

            check_folder(Path(value), "--png")  # before any PDF is written
        setattr(SETTINGS, name, Path(value) if name in ("png", "catalog") else value)

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
    SETTINGS.__init__()  # type: ignore[misc]


def preview_folder(first_pdf: Path) -> Path | None:
    """Where PNG previews go: `--png DIR`; with `--watch` alone, `preview/` beside the PDF."""
    if SETTINGS.png is not None:
        return SETTINGS.png
    return first_pdf.parent / "preview" if SETTINGS.watch else None


def note_previews(folder: Path, pdfs: Iterable[Path], pngs: Iterable[Path]) -> None:
    """Remember this run's previews: each PDF with its own pages (`<stem>-<n>.png`)."""
    import re

    SETTINGS.preview_dir = folder
    pngs = list(pngs)
    for pdf in pdfs:
        own = re.compile(rf"{re.escape(pdf.stem)}-\d+\.png")
        SETTINGS.previewed.append((pdf, tuple(p for p in pngs if own.fullmatch(p.name))))


class PreviewPage:
    """The --watch page (`index.html` beside the previews): the newest good build, the error."""

    def __init__(self, args: list[str]) -> None:
        self.title = " ".join(["dicesheets", *args])
        self.folder: Path | None = None
        self.shown: list[tuple[Path, tuple[Path, ...]]] = []

    def update(self, error: str | None) -> None:
        """After a run: show its previews, or (it failed) the last good ones under the error."""
        from generator.io.previewpage import write_page

        first = self.folder is None
        self.folder = SETTINGS.preview_dir or self.folder or SETTINGS.png
        if error is None:
            self.shown = list(SETTINGS.previewed)
        if self.folder is None:
            return
        clock = time.strftime("%H:%M:%S")
        status = f"{clock}: built" if error is None else f"{clock}: the build failed"
        if SETTINGS.seed is not None:
            status += f" (seed {SETTINGS.seed}, kept for every rebuild)"
        documents = [(pdf.name, list(pngs)) for pdf, pngs in self.shown]
        page = write_page(self.folder, self.title, status, documents, error)
        if first:
            click.echo(
                f"[watch] preview: {page.resolve().as_uri()} (open it once; it "
                "follows every rebuild)",
                err=True,
            )


def session_line() -> str:
    """What a --watch status line says besides the time: the session's seed and files."""
    parts = []
    if SETTINGS.seed is not None:
        parts.append(f"seed {SETTINGS.seed} (kept for every rebuild)")
    files = [str(pdf) for pdf, _ in SETTINGS.previewed]
    if files:
        parts.append("file " + ", ".join(files) + " (replaced in place)")
    return "; ".join(parts)


def watched_files(args: Iterable[str], skip: Path | None = None) -> list[Path]:
    """Catalog files, templates, and any existing file named on the command line.

    `skip`: the preview folder; the run's own previews are no reason to rebuild
    (it may sit inside the catalog folder).
    """
    from pathlib import Path

    from generator.core.resources import catalog_dir, templates_dir

    roots = [catalog_dir(), templates_dir()]
    if SETTINGS.catalog is not None:
        roots.append(SETTINGS.catalog)
    files = [p for root in roots if root.is_dir() for p in root.rglob("*") if p.is_file()]
    files += [Path(a) for a in args if not a.startswith("-") and Path(a).is_file()]
    if skip is not None:
        skip = skip.resolve()
        files = [p for p in files if p.parent.resolve() != skip]
    return sorted(set(files))


def snapshot(files: Iterable[Path]) -> dict[Path, int]:
    """Each file's modification time in ns (-1: gone)."""
    stamps = {}
    for path in files:
        try:
            stamps[path] = path.stat().st_mtime_ns
        except OSError:
            stamps[path] = -1
    return stamps


def wait_for_change(
    args: list[str], before: dict[Path, int], skip: Path | None = None
) -> list[Path]:
    """Block until a watched file changes; return the changed files."""
    while True:
        time.sleep(POLL_SECONDS)
        now = snapshot(watched_files(args, skip))
        changed = [p for p in now.keys() | before.keys() if now.get(p) != before.get(p)]
        if changed:
            return sorted(changed)

"""The one writer: a `Built` → PDF(s) + manifest, written atomically, then the PNG previews.

A PDF and its manifest are first written to temporary files beside their
targets and renamed only when all are complete, so an error or Ctrl-C never
leaves a half-written or partial file behind. Every command (and `dicesheets
all`) writes through `write_built`, so every PDF gets its manifest and previews.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import __version__
from generator.errors import InputError

if TYPE_CHECKING:
    from generator.built import Built

DEFAULT_OUT = Path("output")


def resolve_out(out: str | Path | None, default_name: str, role: str = "pdf") -> Path:
    """The file to write: `out` as a file, or `default_name` inside the folder `out`.

    Errors are `InputError(role, …)`: the CLI names the option that set the target.
    """
    path = Path(out) if out is not None else DEFAULT_OUT
    as_dir = path.is_dir() or str(out).endswith(("/", os.sep)) or out is None or not path.suffix
    target = path / default_name if as_dir else path
    folder = target.parent
    if as_dir:
        # the folder is created when the file is written; check that it can be
        existing = folder
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if not existing.is_dir():
            raise InputError(role, f"'{existing}' is not a folder")
        if not os.access(existing, os.W_OK | os.X_OK):
            raise InputError(role, f"folder '{existing}' is not writable")
    elif not folder.is_dir():
        raise InputError(role, f"folder '{folder}' does not exist")
    elif not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(role, f"folder '{folder}' is not writable")
    if target.is_dir():
        raise InputError(role, f"'{target}' is a folder, expected a file name")
    return target


def manifest_path(pdf_path: Path) -> Path:
    """The manifest beside a PDF: same stem, `.json`."""
    return pdf_path.with_suffix(".json")


def dumps_json(data: Any) -> str:
    """Deterministic JSON text: sorted keys, UTF-8, two-space indent, final newline."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def write_files_atomic(files: Iterable[tuple[Path, bytes]]) -> None:
    """Write every (path, bytes) to a temporary file first, then rename them all."""
    pending: list[tuple[str, Path]] = []
    try:
        for path, data in files:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            pending.append((tmp, path))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)
        for tmp, path in pending:
            os.replace(tmp, path)
        pending.clear()
    finally:
        for tmp, _ in pending:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def build_manifest(
    command: str, options: dict[str, Any], seed: int | None, contents: dict[str, Any]
) -> dict[str, Any]:
    """The manifest: what was generated, by which command, options and version."""
    return {
        "generator": "dicesheets",
        "version": __version__,
        "command": command,
        "options": options,
        "seed": seed,
        "contents": contents,
    }


@dataclass(frozen=True)
class Previews:
    """Where the PNG previews go (`--png DIR`) and at what resolution."""

    folder: Path
    dpi: int = 100


@dataclass(frozen=True)
class Written:
    """The files one `write_built` call wrote, PDFs in the order of `Built.roles`."""

    pdfs: tuple[Path, ...]
    manifest: Path
    pngs: tuple[Path, ...] = ()


def write_built(
    built: Built,
    out: str | Path | None,
    targets: Mapping[str, str | Path | None] | None = None,
    previews: Previews | None = None,
) -> Written:
    """Render every document of `built`, write the PDFs and the manifest, then the previews.

    `out` is the main PDF (a file, or a folder for `built.name`); `targets` maps
    an extra document's role to its file or folder (default: beside the main
    PDF as `<stem>-<role>.pdf`).
    """
    from generator.render.draw import render_pdf

    path = resolve_out(out, built.name)
    paths = [path]
    for role, _ in built.extra:
        target = (targets or {}).get(role)
        extra = resolve_out(
            target if target is not None else path.parent, f"{path.stem}-{role}.pdf", role
        )
        if extra.resolve() in {p.resolve() for p in paths}:
            raise InputError(role, f"'{extra}' is also the {built.command}'s file")
        paths.append(extra)
    pdfs = [render_pdf(doc) for doc in built.documents]
    contents = dict(built.contents)
    for (role, _), extra in zip(built.extra, paths[1:]):
        contents[f"{role}_pdf"] = extra.name
    manifest = build_manifest(built.command, dict(built.options), built.seed, contents)
    manifest = {**manifest, "pdf": path.name, "pdf_bytes": len(pdfs[0])}
    files = [*zip(paths, pdfs), (manifest_path(path), dumps_json(manifest).encode())]
    write_files_atomic(files)
    pngs: list[Path] = []
    if previews is not None:
        from generator.io.preview import pdf_to_png

        for target, pdf in zip(paths, pdfs):
            pngs += pdf_to_png(pdf, previews.folder, previews.dpi, stem=target.stem)
    return Written(tuple(paths), manifest_path(path), tuple(pngs))

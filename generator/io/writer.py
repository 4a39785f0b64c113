"""The one writer: a `Built` → PDF(s), manifest and PNG previews, written atomically together.

The files of one product are written together by `generator.io.files.write_files_atomic`
(never a half-written file, never one run's PDF beside another's manifest). Every
command (and `dicesheets all`) writes through `write_built`, so every PDF gets its
manifest and previews.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import __version__
from generator.core.errors import InputError, Msg, shown
from generator.io.files import (
    check_distinct,
    check_folder,
    check_replaceable,
    write_files_atomic,
)

if TYPE_CHECKING:
    from generator.core.built import Built

DEFAULT_OUT = Path("output")
# a default file name: one plain name, never a folder part, a hidden file or a control character
SAFE_FILE_NAME = re.compile(r"[^/\\.\x00-\x1f\x7f][^/\\\x00-\x1f\x7f]{0,200}")


def resolve_out(out: str | Path | None, default_name: str, role: str = "pdf") -> Path:
    """The file to write: `out` as a file, or `default_name` inside the folder `out`.

    Errors are `InputError(role, …)`: the CLI names the option that set the target.
    """
    if not SAFE_FILE_NAME.fullmatch(default_name):
        # every id that reaches a name is checked where it is read; this is the last guard
        raise InputError(role, Msg("unsafe_output_file_name", default_name=shown(default_name)))
    path = Path(out) if out is not None else DEFAULT_OUT
    as_dir = path.is_dir() or str(out).endswith(("/", os.sep)) or out is None or not path.suffix
    target = path / default_name if as_dir else path
    # a missing folder is created when the file is written, for a file name and a folder
    # name alike (--out, --key-file); check now that it can be
    check_folder(target.parent, role)
    if target.is_dir():
        raise InputError(role, Msg("folder_expected_file_name", target=shown(target)))
    check_replaceable(target, role)
    if manifest_path(target) == target:
        raise InputError(role, Msg("name_manifest_beside_pdf", target=shown(target)))
    return target


def manifest_path(pdf_path: Path) -> Path:
    """The manifest beside a PDF: same stem, `.json`."""
    return pdf_path.with_suffix(".json")


def dumps_json(data: Any) -> str:
    """Deterministic JSON text: sorted keys, UTF-8, two-space indent, final newline."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


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


def render_all(built: Built) -> list[bytes]:
    """The PDF bytes of every document of `built`, the main one first."""
    from generator.render.draw import render_pdf

    return [render_pdf(doc) for doc in built.documents]


def write_built(
    built: Built,
    out: str | Path | None,
    targets: Mapping[str, str | Path | None] | None = None,
    previews: Previews | None = None,
    pdfs: Sequence[bytes] | None = None,
    announce: Callable[[Written], None] | None = None,
) -> Written:
    """Render every document of `built` and its previews, then write them all as one group.

    `out` is the main PDF (a file, or a folder for `built.name`); `targets` maps
    an extra document's role to its file or folder (default: beside the main
    PDF as `<stem>-<role>.pdf`). `pdfs`: the documents rendered already (`render_all`).
    `announce(written)` says what is written before the files are renamed into place
    (`write_files_atomic`): if it fails, nothing is written.
    """
    path = resolve_out(out, built.name)
    paths = [path]
    for role, _ in built.extra:
        target = (targets or {}).get(role)
        extra = resolve_out(
            target if target is not None else path.parent, f"{path.stem}-{role}.pdf", role
        )
        paths.append(extra)
        check_distinct([*paths, manifest_path(path)], role)  # before any work
    pdfs = list(pdfs) if pdfs is not None else render_all(built)
    contents = dict(built.contents)
    for (role, _), extra in zip(built.extra, paths[1:]):
        contents[f"{role}_pdf"] = extra.name
    manifest = build_manifest(built.command, dict(built.options), built.seed, contents)
    manifest = {**manifest, "pdf": path.name, "pdf_bytes": len(pdfs[0])}
    files = [*zip(paths, pdfs), (manifest_path(path), dumps_json(manifest).encode())]
    pngs: list[tuple[Path, bytes]] = []
    if previews is not None:
        from generator.io.preview import png_files

        for target, pdf in zip(paths, pdfs):
            pngs += png_files(pdf, previews.folder, previews.dpi, stem=target.stem)
    written = Written(tuple(paths), manifest_path(path), tuple(p for p, _ in pngs))
    # one group: a preview that cannot be written (a full disk) leaves no PDF behind either
    say = None if announce is None else lambda: announce(written)
    write_files_atomic([*files, *pngs], announce=say)
    return written

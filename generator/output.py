"""Writing results: where a file goes, atomic replacement, and the JSON manifest.

A PDF and its manifest are first written to temporary files beside their
targets and renamed only when both are complete, so an error or Ctrl-C never
leaves a half-written or partial file behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from generator import __version__
from generator.errors import OptionError
from generator.written import note_written

DEFAULT_OUT = Path("output")


def resolve_out(out: str | Path | None, default_name: str, option: str = "--out") -> Path:
    """The file to write: `out` as a file, or `default_name` inside the folder `out`."""
    path = Path(out) if out is not None else DEFAULT_OUT
    as_dir = path.is_dir() or str(out).endswith(("/", os.sep)) or out is None or not path.suffix
    target = path / default_name if as_dir else path
    # a missing folder (of a file or a folder name alike) is created when the file is
    # written; check now that it can be
    existing = target.parent
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise OptionError(option, f"'{existing}' is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise OptionError(option, f"folder '{existing}' is not writable")
    if target.is_dir():
        raise OptionError(option, f"'{target}' is a folder, expected a file name")
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


def write_pdf(path: Path, pdf: bytes, manifest: dict[str, Any]) -> None:
    """Write a PDF and its manifest, both atomically."""
    manifest = {**manifest, "pdf": path.name, "pdf_bytes": len(pdf)}
    write_files_atomic([(path, pdf), (manifest_path(path), dumps_json(manifest).encode())])
    note_written(path)

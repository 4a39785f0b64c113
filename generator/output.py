"""Writing results: where a file goes, atomic replacement, and the JSON manifest.

A PDF and its manifest are first written to temporary files beside their
targets and renamed only when both are complete, so an error or Ctrl-C never
leaves a half-written or partial file behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from generator import __version__, interrupts
from generator.errors import OptionError, UserError, os_error, shown
from generator.written import note_written

DEFAULT_OUT = Path("output")
# a default file name: one plain name, never a folder part, a hidden file or a control character
SAFE_FILE_NAME = re.compile(r"[^/\\.\x00-\x1f\x7f][^/\\\x00-\x1f\x7f]{0,200}")


def check_folder(folder: Path, option: str) -> None:
    """Refuse early a folder that cannot be created or written (before any work is done)."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise OptionError(option, f"'{shown(existing)}' is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise OptionError(option, f"folder '{shown(existing)}' is not writable")


def resolve_out(out: str | Path | None, default_name: str, option: str = "--out") -> Path:
    """The file to write: `out` as a file, or `default_name` inside the folder `out`."""
    if not SAFE_FILE_NAME.fullmatch(default_name):
        # every id that reaches a name is checked where it is read; this is the last guard
        raise UserError(
            f"unsafe output file name '{shown(default_name)}'", where=f"option {option}"
        )
    path = Path(out) if out is not None else DEFAULT_OUT
    as_dir = path.is_dir() or str(out).endswith(("/", os.sep)) or out is None or not path.suffix
    target = path / default_name if as_dir else path
    folder = target.parent
    if as_dir:
        check_folder(folder, option)  # the folder is created when the file is written
    elif not folder.is_dir():
        raise OptionError(option, f"folder '{shown(folder)}' does not exist")
    elif not os.access(folder, os.W_OK | os.X_OK):
        raise OptionError(option, f"folder '{shown(folder)}' is not writable")
    if target.is_dir():
        raise OptionError(option, f"'{shown(target)}' is a folder, expected a file name")
    if manifest_path(target) == target:
        raise OptionError(
            option, f"'{shown(target)}' is the name of the manifest beside the PDF; use a .pdf name"
        )
    return target


def manifest_path(pdf_path: Path) -> Path:
    """The manifest beside a PDF: same stem, `.json`."""
    return pdf_path.with_suffix(".json")


def dumps_json(data: Any) -> str:
    """Deterministic JSON text: sorted keys, UTF-8, two-space indent, final newline."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def _identity(path: Path) -> str:
    """The real place a name stands for (links in the folder resolved, not the name itself)."""
    return os.path.join(os.path.realpath(path.parent), path.name)


def check_distinct(paths: Iterable[Path], option: str = "--out") -> None:
    """Refuse two outputs of one run that would land on the same file (one would be lost)."""
    seen: dict[str, Path] = {}
    for path in paths:
        key = _identity(path)
        if key in seen:
            raise OptionError(
                option,
                f"'{shown(path)}' would be written twice (a PDF, its .json manifest and an "
                "answer key need different names)",
            )
        seen[key] = path


@contextlib.contextmanager
def _folder_locks(folders: Iterable[Path]) -> Iterator[None]:
    """Exclusive locks on the output folders: concurrent runs replace their files one at a time.

    The lock is taken on the folder itself (flock on its descriptor), so no lock
    file is ever left behind; it ends with the process, even after `kill -9`.
    """
    try:
        import fcntl
    except ImportError:  # no flock (Windows): renames stay atomic one by one
        yield
        return
    fds: list[int] = []
    try:
        for folder in sorted({os.path.realpath(f) for f in folders}):  # one order: no deadlock
            fd = os.open(folder, os.O_RDONLY)
            fds.append(fd)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        for fd in fds:
            os.close(fd)  # closing releases the lock


def write_files_atomic(files: Iterable[tuple[Path, bytes]], option: str = "--out") -> None:
    """Write every (path, bytes) to a temporary file first, then rename them all.

    The files of one call are replaced as a group: signals wait until every
    temporary file is renamed or removed, and the folders are locked, so a kill
    or a concurrent run never leaves a PDF beside another run's manifest.
    """
    files = list(files)
    check_distinct([path for path, _ in files], option)
    folders = []
    for path, _ in files:
        path.parent.mkdir(parents=True, exist_ok=True)
        folders.append(path.parent)
    pending: list[tuple[str, Path]] = []
    with interrupts.deferred():
        try:
            for path, data in files:
                try:
                    fd, tmp = tempfile.mkstemp(
                        prefix=f".{path.name}.", suffix=".tmp", dir=path.parent
                    )
                    pending.append((tmp, path))
                    with os.fdopen(fd, "wb") as handle:
                        handle.write(data)
                        handle.flush()
                        os.fsync(handle.fileno())
                    os.chmod(tmp, 0o644)
                except OSError as exc:  # full disk, quota, a file system without our rights
                    raise os_error(exc, path) from None
            with _folder_locks(folders):
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

"""The one writer: a `Built` → PDF(s), manifest and PNG previews, written atomically together.

A PDF and its manifest are first written to temporary files beside their
targets and renamed only when all are complete, so an error, Ctrl-C or SIGTERM
never leaves a half-written or partial file behind. The renames of one run
happen together under a lock on the output folder, so concurrent runs never
leave one run's PDF beside another's manifest; output names that would land on
the same file are refused. Every command (and `dicesheets
all`) writes through `write_built`, so every PDF gets its manifest and previews.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import __version__
from generator.core.errors import InputError, os_error, shown
from generator.io import signals

if TYPE_CHECKING:
    from generator.core.built import Built

DEFAULT_OUT = Path("output")
# a default file name: one plain name, never a folder part, a hidden file or a control character
SAFE_FILE_NAME = re.compile(r"[^/\\.\x00-\x1f\x7f][^/\\\x00-\x1f\x7f]{0,200}")


def check_folder(folder: Path, role: str) -> None:
    """Refuse early a folder that cannot be created or written (before any work is done)."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise InputError(role, f"'{shown(existing)}' is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(role, f"folder '{shown(existing)}' is not writable")


def resolve_out(out: str | Path | None, default_name: str, role: str = "pdf") -> Path:
    """The file to write: `out` as a file, or `default_name` inside the folder `out`.

    Errors are `InputError(role, …)`: the CLI names the option that set the target.
    """
    if not SAFE_FILE_NAME.fullmatch(default_name):
        # every id that reaches a name is checked where it is read; this is the last guard
        raise InputError(role, f"unsafe output file name '{shown(default_name)}'")
    path = Path(out) if out is not None else DEFAULT_OUT
    as_dir = path.is_dir() or str(out).endswith(("/", os.sep)) or out is None or not path.suffix
    target = path / default_name if as_dir else path
    # a missing folder is created when the file is written, for a file name and a folder
    # name alike (--out, --key-file); check now that it can be
    check_folder(target.parent, role)
    if target.is_dir():
        raise InputError(role, f"'{shown(target)}' is a folder, expected a file name")
    check_replaceable(target, role)
    if manifest_path(target) == target:
        raise InputError(
            role, f"'{shown(target)}' is the name of the manifest beside the PDF; use a .pdf name"
        )
    return target


# names of standard output itself: written into, never replaced
STDOUT_NAMES = ("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")


def _special_kind(path: Path) -> str | None:
    """What `path` names when it exists and is not a regular file or folder ("a FIFO" …)."""
    try:
        mode = os.stat(path).st_mode  # (a link is followed: a link to /dev/full is a device)
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def check_replaceable(path: Path, role: str = "pdf") -> None:
    """Refuse an existing target that is not a regular file: a rename would replace it.

    (As root, renaming a temporary file onto /dev/full replaces the machine's device.)
    """
    kind = _special_kind(path)
    if kind is not None:
        raise InputError(
            role, f"'{shown(path)}' is {kind}, not a regular file; expected a file name"
        )


def is_stdout(target: str | Path) -> bool:
    """Whether `target` names standard output ('-', /dev/stdout, or the pipe stdout is)."""
    if str(target) in STDOUT_NAMES:
        return True
    if _special_kind(Path(target)) is None:
        return False
    try:
        return os.path.samestat(os.stat(target), os.fstat(1))
    except (OSError, ValueError):
        return False


def write_stream_or_file(target: str | Path, data: bytes, role: str) -> bool:
    """Write `data` into standard output or a FIFO, else as a file (atomically).

    True when `target` was a stream; any other target that is not a regular file
    (a device, a socket) is refused, never replaced.
    """
    path = Path(target)
    if is_stdout(target):
        out = sys.stdout
        if out is not None:
            out.flush()
            out.buffer.write(data)
            out.buffer.flush()
        return True
    if _special_kind(path) == "a FIFO":
        try:
            with open(path, "wb") as handle:  # (waits for a reader, as any writer of a FIFO)
                handle.write(data)
        except OSError as exc:
            raise os_error(exc, path) from None
        return True
    write_files_atomic([(path, data)], role)
    return False


def manifest_path(pdf_path: Path) -> Path:
    """The manifest beside a PDF: same stem, `.json`."""
    return pdf_path.with_suffix(".json")


def dumps_json(data: Any) -> str:
    """Deterministic JSON text: sorted keys, UTF-8, two-space indent, final newline."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def _identity(path: Path) -> str:
    """The real place a name stands for (links in the folder resolved, not the name itself)."""
    return os.path.join(os.path.realpath(path.parent), path.name)


def check_distinct(paths: Iterable[Path], role: str = "pdf") -> None:
    """Refuse two outputs of one run that would land on the same file (one would be lost)."""
    seen: dict[str, Path] = {}
    for path in paths:
        key = _identity(path)
        if key in seen:
            raise InputError(
                role,
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


def write_files_atomic(files: Iterable[tuple[Path, bytes]], role: str = "pdf") -> None:
    """Write every (path, bytes) to a temporary file first, then rename them all.

    The files of one call are replaced as a group: signals wait until every
    temporary file is renamed or removed, and the folders are locked, so a kill
    or a concurrent run never leaves a PDF beside another run's manifest.
    """
    files = list(files)
    check_distinct([path for path, _ in files], role)
    for path, _ in files:
        check_replaceable(path, role)
    folders = [path.parent for path, _ in files]
    pending: list[tuple[str, Path]] = []
    created: list[Path] = []  # folders this call made: removed again if it fails
    with signals.deferred():
        try:
            for folder in folders:
                _make_folder(folder, created)
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
            created.clear()
        finally:
            for tmp, _ in pending:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            for folder in reversed(created):
                with contextlib.suppress(OSError):
                    folder.rmdir()


def _make_folder(folder: Path, created: list[Path]) -> None:
    """Create `folder` and its missing parents, noting each one made in `created`."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        try:
            path.mkdir()
        except FileExistsError:
            continue  # made meanwhile by a concurrent run: not ours to remove
        except OSError as exc:
            raise os_error(exc, path) from None
        created.append(path)


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
) -> Written:
    """Render every document of `built` and its previews, then write them all as one group.

    `out` is the main PDF (a file, or a folder for `built.name`); `targets` maps
    an extra document's role to its file or folder (default: beside the main
    PDF as `<stem>-<role>.pdf`). `pdfs`: the documents rendered already (`render_all`).
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
    # one group: a preview that cannot be written (a full disk) leaves no PDF behind either
    write_files_atomic([*files, *pngs])
    return Written(tuple(paths), manifest_path(path), tuple(p for p, _ in pngs))

"""Files written atomically: temporary files first, renamed together under a folder lock.

A PDF and its manifest are first written to temporary files beside their
targets and renamed only when all are complete, so an error, Ctrl-C or SIGTERM
never leaves a half-written or partial file behind. The renames of one call
happen together under a lock on the output folder, so concurrent runs never
leave one run's PDF beside another's manifest; output names that would land on
the same file are refused. The writer, the previews and the starter catalog all
write through `write_files_atomic`.

What a run says about its files ("wrote …", a JSON report) is said by `announce`
after the temporary files are complete and before they are renamed: standard output
that cannot take it (full, a pipe nobody reads) fails the run with nothing written.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from generator.core.errors import InputError, Msg, os_error, shown
from generator.io import signals


def check_folder(folder: Path, role: str) -> None:
    """Refuse early a folder that cannot be created or written (before any work is done)."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise InputError(role, Msg("not_a_folder", path=shown(existing)))
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(role, Msg("folder_writable", existing=shown(existing)))


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
        raise InputError(role, Msg("regular_file_expected_file", path=shown(path), kind=kind))


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


def write_stream_or_file(
    target: str | Path, data: bytes, role: str, announce: Callable[[], None] | None = None
) -> bool:
    """Write `data` into standard output or a FIFO, else as a file (atomically; `announce`
    as in `write_files_atomic`).

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
    write_files_atomic([(path, data)], role, announce)
    return False


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
                Msg("would_written_twice_pdf", path=shown(path)),
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


def write_files_atomic(
    files: Iterable[tuple[Path, bytes]],
    role: str = "pdf",
    announce: Callable[[], None] | None = None,
) -> None:
    """Write every (path, bytes) to a temporary file first, then rename them all.

    The files of one call are replaced as a group: signals wait until every
    temporary file is renamed or removed, and the folders are locked, so a kill
    or a concurrent run never leaves a PDF beside another run's manifest.
    `announce()` runs between the two (it prints what was written): if it raises
    (standard output full), the temporary files are removed and nothing is replaced.
    """
    files = list(files)
    check_distinct([path for path, _ in files], role)
    for path, _ in files:
        check_replaceable(path, role)
    folders = [path.parent for path, _ in files]
    pending: list[tuple[str, Path]] = []
    created: list[Path] = []  # folders this call made: removed again if it fails
    try:
        with signals.deferred():
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
        if announce is not None:
            # with the signals live: a pipe nobody reads may block, and Ctrl-C must end it
            announce()
        with signals.deferred():
            with _folder_locks(folders):
                for tmp, path in pending:
                    os.replace(tmp, path)
            pending.clear()
            created.clear()
    finally:
        if pending or created:
            with signals.deferred():
                _discard(pending, created)


def _discard(pending: list[tuple[str, Path]], created: list[Path]) -> None:
    """Remove a failed call's temporary files and the folders it made."""
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

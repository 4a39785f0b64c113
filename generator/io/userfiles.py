"""Reading a file the user named: regular files only, a size limit, one-line errors, and
never a file outside its catalog folder (`confined`).

A FIFO, a device such as /dev/zero or a folder would hang or exhaust memory if
read blindly; every input file (YAML, manifests, rosters) is read through here.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from generator.core.errors import CatalogError, os_error


def read_bytes(path: Path, name: str, max_bytes: int) -> bytes:
    """The bytes of the regular file `path`, at most `max_bytes`; messages call it `name`."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise CatalogError(f"cannot read: {kind}", file=name)
        if info.st_size > max_bytes:
            raise CatalogError(f"file is larger than {max_bytes:,} bytes", file=name)
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise CatalogError(f"cannot read: {os_error(exc).message}", file=name) from None
    except ValueError:  # a NUL in the path
        raise CatalogError(
            "cannot read: the file name contains a NUL character", file=name
        ) from None
    if len(data) > max_bytes:  # it grew while we looked
        raise CatalogError(f"file is larger than {max_bytes:,} bytes", file=name)
    return data


def read_text(path: Path, name: str, max_bytes: int, advice: str = "save it as UTF-8") -> str:
    """The UTF-8 text of the regular file `path` (a byte-order mark is dropped)."""
    data = read_bytes(path, name, max_bytes)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CatalogError(f"not UTF-8 text (byte {exc.start}); {advice}", file=name) from None


def inside(path: Path, folder: Path) -> bool:
    """Whether `path` is a regular file that, links resolved, lies inside `folder`."""
    real = Path(os.path.realpath(path))
    return real.is_file() and real.is_relative_to(os.path.realpath(folder))


def confined_error(path: Path) -> CatalogError:
    """The error for a file that lies outside its catalog folder (a link or `..`)."""
    return CatalogError(
        "is a link (or a path) out of the catalog folder; copy the file into the folder",
        file=str(path),
    )


def confined(path: Path, folder: Path) -> Path:
    """`path` if it stays inside `folder`; a link out of the catalog (or `..`) is refused."""
    if not inside(path, folder):
        raise confined_error(path)
    return path

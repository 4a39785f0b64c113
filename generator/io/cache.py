"""A small on-disk cache for solver results (numpy arrays or JSON), keyed by a content hash.

Location: $DICESHEETS_CACHE, else $XDG_CACHE_HOME/dicesheets, else ~/.cache/dicesheets.
Keys must include everything the result depends on (inputs, rules and a code
version), so a stale entry is never read.

An entry is `dicesheets-cache 2 <sha256 of the payload>\\n` and the payload. On load
an entry must be a regular file (never a link, FIFO or device), its checksum must
match and the caller's `valid` check must accept the value; anything else — missing,
truncated, edited, of the wrong structure, an entry from an older format — is
recomputed and rewritten. Writing is atomic and waits out Ctrl-C / SIGTERM, so a kill
leaves no temporary file; a read-only or full cache only costs time.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.io import signals
from generator.io.heap import keep_freed_memory

if TYPE_CHECKING:
    import numpy as np

FORMAT = b"dicesheets-cache 2 "  # bump the number when the entry layout changes
MAX_ENTRY_BYTES = 256_000_000  # the largest entry (the Yahtzee table) is ~8 MB


def cache_dir() -> Path:
    """The cache folder (not created until something is stored)."""
    if env := os.environ.get("DICESHEETS_CACHE"):
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dicesheets"


def _seal(payload: bytes) -> bytes:
    return FORMAT + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload


def read_entry(path: Path) -> bytes | None:
    """The checked payload of an entry, or None (missing, not a regular file, damaged)."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; O_NOFOLLOW: no links
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            return None
        with os.fdopen(fd, "rb") as handle:
            fd = -1
            data = handle.read(MAX_ENTRY_BYTES + 1)
    except OSError:
        return None
    finally:
        if fd >= 0:
            os.close(fd)
    header, _, payload = data.partition(b"\n")
    if not header.startswith(FORMAT):
        return None
    if header[len(FORMAT) :] != hashlib.sha256(payload).hexdigest().encode():
        return None
    return payload


def store_entry(path: Path, payload: bytes) -> None:
    """Write an entry atomically; a read-only or full cache folder only costs time."""
    data = _seal(payload)
    with signals.deferred():  # a kill waits until the temporary file is renamed or gone
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _accepted(valid: Callable[[Any], bool] | None, value: Any) -> bool:
    if valid is None:
        return True
    try:
        return bool(valid(value))
    except Exception:  # a check that trips over a malformed value: not valid
        return False


def cached_arrays(
    namespace: str,
    key: str,
    compute: Callable[[], dict[str, np.ndarray]],
    valid: Callable[[dict[str, np.ndarray]], bool] | None = None,
) -> dict[str, np.ndarray]:
    """The arrays stored under (namespace, key) if sound and `valid`, else computed and stored."""
    import numpy as np  # only array users pay for numpy

    stored = stored_arrays(namespace, key, valid)
    if stored is not None:
        return stored
    keep_freed_memory()  # the computation is about to make many large temporaries
    arrays = compute()
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]  # numpy's stub types **kwds oddly
    store_entry(cache_dir() / namespace / f"{key}.npz", buffer.getvalue())
    return arrays


def stored_arrays(
    namespace: str,
    key: str,
    valid: Callable[[dict[str, np.ndarray]], bool] | None = None,
) -> dict[str, np.ndarray] | None:
    """The arrays stored under (namespace, key) if there, sound and `valid`; never computed."""
    import numpy as np

    payload = read_entry(cache_dir() / namespace / f"{key}.npz")
    if payload is not None:
        try:
            with np.load(io.BytesIO(payload), allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
            if _accepted(valid, arrays):
                return arrays
        except Exception:  # a sound checksum over a payload numpy cannot read: recompute
            pass
    return None


def cached_json(
    namespace: str,
    key: str,
    compute: Callable[[], Any],
    valid: Callable[[Any], bool] | None = None,
) -> Any:
    """The JSON value under (namespace, key) if sound and `valid`, else computed and stored."""
    path = cache_dir() / namespace / f"{key}.json"
    payload = read_entry(path)
    if payload is not None:
        try:
            value = json.loads(payload.decode("utf-8"))
            if _accepted(valid, value):
                return value
        except (ValueError, RecursionError):
            pass
    keep_freed_memory()
    value = compute()
    store_entry(path, json.dumps(value, sort_keys=True).encode())
    return value


class DiskStore:
    """The on-disk cache as a `generator.core.store.Store`: what the edge gives the solvers."""

    arrays = staticmethod(cached_arrays)
    json = staticmethod(cached_json)


DISK = DiskStore()


class NotStored(Exception):
    """What `STORED_ONLY` raises for a result the cache does not hold (yet)."""


class StoredOnly:
    """The on-disk cache as a `Store` that only reads: a missing result raises `NotStored`.

    For a look at what another process may have stored already, without computing it.
    """

    @staticmethod
    def arrays(
        namespace: str,
        key: str,
        compute: Callable[[], dict[str, np.ndarray]],
        valid: Callable[[dict[str, np.ndarray]], bool] | None = None,
    ) -> dict[str, np.ndarray]:
        stored = stored_arrays(namespace, key, valid)
        if stored is None:
            raise NotStored(f"{namespace}/{key}")
        return stored

    @staticmethod
    def json(
        namespace: str,
        key: str,
        compute: Callable[[], Any],
        valid: Callable[[Any], bool] | None = None,
    ) -> Any:
        raise NotStored(f"{namespace}/{key}")  # (no JSON result is looked at early)


STORED_ONLY = StoredOnly()

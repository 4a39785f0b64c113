"""A small on-disk cache for solver results (numpy arrays or JSON), keyed by a content hash.

Location: $DICESHEETS_CACHE, else $XDG_CACHE_HOME/dicesheets, else ~/.cache/dicesheets.
Keys must include everything the result depends on (inputs, rules and a code
version), so a stale entry is never read.

An entry is `dicesheets-cache 2 <sha256 of the payload>\\n` and the payload. On load
an entry must be a regular file (never a link, FIFO or device), its checksum must
match and the caller's `valid` check must accept the value; anything else — missing,
truncated, edited, of the wrong structure, an entry from an older format — is
recomputed and rewritten. A table (`cached_table`: one large float64 array of which an
answer reads a few values, the Kniffel table) is kept memory-mappable instead, its
checksums per block of 16 KiB (see `StoredTable`): a reader checks the blocks it reads.
Writing is atomic and waits out Ctrl-C / SIGTERM, so a kill leaves no temporary file; a
read-only or full cache only costs time.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import mmap
import os
import stat
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.io import signals

if TYPE_CHECKING:
    import numpy as np

MMAP_THRESHOLD = 64 << 20  # blocks at least this large get their own mapping
TRIM_THRESHOLD = 128 << 20  # free memory kept at the end of the heap
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameter numbers (malloc.h)
_TUNED: list[bool] = []
FORMAT = b"dicesheets-cache 2 "  # bump the number when the entry layout changes
MAX_ENTRY_BYTES = 256_000_000  # the largest entry (the Yahtzee table) is ~8 MB


def keep_freed_memory() -> bool:
    """Keep freed memory inside the process while the solvers run (glibc's malloc only).

    The solvers make and drop numpy temporaries of 1–14 MB thousands of times. With its
    default, self-adjusting thresholds glibc hands such blocks back to the kernel and the
    next one is faulted in again page by page: a cold Kniffel table took 445,000 page
    faults and 0.8 s of system time beside 1.4 s of work. Fixed thresholds keep blocks
    below 64 MB in the heap and at most 128 MB of free heap at its end; the peak memory
    stays the same. Set once per process; False where the C library is not glibc.
    """
    if not _TUNED:
        _TUNED.append(_mallopt())
    return _TUNED[0]


def _mallopt() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
        libc.gnu_get_libc_version  # noqa: B018  # glibc's, absent from musl
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )


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
    _write_atomic(path, _seal(payload))


def _write_atomic(path: Path, data: bytes) -> None:
    import tempfile  # (~5 ms with shutil and random: a command that only reads does without)

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


TABLE_FORMAT = b"dicesheets-table 1 "  # bump the number when the table layout changes
TABLE_BLOCK = 1 << 14  # bytes per checksummed block: an answer checks only what it reads
_ALIGN = 64  # the array starts at a multiple of this (aligned for numpy)


class DamagedTable(Exception):
    """A table entry's block whose checksum or value is wrong: recompute and rewrite it."""


class StoredTable:
    """A table entry, memory-mapped: float64 values read one by one (no numpy) or all at once.

    The entry is `dicesheets-table 1 <sha256 of the index>\\n`, the index — `<f8 <dims>
    <block bytes>\\n` and the sha256 of every block of the array —, zeros up to a multiple
    of 64 bytes, then the array's bytes (C order, little-endian). Opening checks the
    index and the file's size; `at` checks a block the first time it reads from it and
    each value it returns (a number ≥ 0, or NaN for a state no game reaches), `array` checks
    every block. A check that fails raises `DamagedTable`.
    """

    def __init__(self, view: memoryview, dims: tuple[int, ...], offset: int, digests: bytes):
        self.dims = dims
        self._view = view
        self._offset = offset
        self._digests = digests
        self._size = 8 * math.prod(dims)
        self._checked: set[int] = set()

    def _check(self, block: int) -> None:
        lo = self._offset + block * TABLE_BLOCK
        hi = min(lo + TABLE_BLOCK, self._offset + self._size)
        digest = hashlib.sha256(self._view[lo:hi]).digest()
        if digest != self._digests[32 * block : 32 * block + 32]:
            raise DamagedTable(f"block {block}")
        self._checked.add(block)

    def at(self, index: int) -> float:
        """The value at a flat (C-order) index."""
        byte = 8 * index
        if not 0 <= byte < self._size:
            raise IndexError(index)
        if byte // TABLE_BLOCK not in self._checked:
            self._check(byte // TABLE_BLOCK)
        (value,) = struct.unpack_from("<d", self._view, self._offset + byte)
        if value < 0 or value == float("inf"):  # (NaN passes: an unreachable state)
            raise DamagedTable(f"value {value} at {index}")
        return float(value)

    def array(self) -> np.ndarray:
        """The whole table as a read-only array on the mapping, every block checked."""
        import numpy as np

        for block in range(-(-self._size // TABLE_BLOCK)):
            if block not in self._checked:
                self._check(block)
        flat = np.frombuffer(self._view, dtype="<f8", count=self._size // 8, offset=self._offset)
        return flat.reshape(self.dims)


def stored_table(namespace: str, key: str) -> StoredTable | None:
    """The table entry under (namespace, key), mapped and its index checked; None if unsound."""
    path = cache_dir() / namespace / f"{key}.table"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not 0 < info.st_size <= MAX_ENTRY_BYTES:
            return None
        mapped = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
    view = memoryview(mapped)
    try:
        return _parse_table(view, info.st_size)
    except (ValueError, IndexError):
        return None


def _parse_table(view: memoryview, size: int) -> StoredTable | None:
    first = bytes(view[:200]).partition(b"\n")[0]
    if not first.startswith(TABLE_FORMAT):
        return None
    start = len(first) + 1
    line = bytes(view[start : start + 200]).partition(b"\n")[0]
    dtype, dims_text, block_text = line.decode("ascii").split(" ")
    dims = tuple(int(d) for d in dims_text.split(","))
    if dtype != "<f8" or int(block_text) != TABLE_BLOCK or min(dims) < 1:
        return None
    n_blocks = -(-8 * math.prod(dims) // TABLE_BLOCK)
    end = start + len(line) + 1 + 32 * n_blocks
    if hashlib.sha256(view[start:end]).hexdigest().encode() != first[len(TABLE_FORMAT) :]:
        return None
    offset = -(-end // _ALIGN) * _ALIGN
    if size != offset + 8 * math.prod(dims):
        return None
    return StoredTable(view, dims, offset, bytes(view[end - 32 * n_blocks : end]))


def table_entry(array: np.ndarray) -> bytes:
    """The bytes of a table entry for a float64 array (see `StoredTable`)."""
    data = array.astype("<f8").tobytes(order="C")
    digests = b"".join(
        hashlib.sha256(data[lo : lo + TABLE_BLOCK]).digest()
        for lo in range(0, len(data), TABLE_BLOCK)
    )
    dims = ",".join(str(d) for d in array.shape)
    index = f"<f8 {dims} {TABLE_BLOCK}\n".encode() + digests
    first = TABLE_FORMAT + hashlib.sha256(index).hexdigest().encode() + b"\n"
    head = first + index
    return head + bytes(-len(head) % _ALIGN) + data


def cached_table(
    namespace: str,
    key: str,
    compute: Callable[[], np.ndarray],
    valid: Callable[[np.ndarray], bool] | None = None,
) -> np.ndarray:
    """The table stored under (namespace, key) if sound and `valid`, else computed and stored."""
    stored = stored_table_array(namespace, key, valid)
    if stored is not None:
        return stored
    keep_freed_memory()
    array = compute()
    _write_atomic(cache_dir() / namespace / f"{key}.table", table_entry(array))
    return array


def stored_table_array(
    namespace: str, key: str, valid: Callable[[np.ndarray], bool] | None = None
) -> np.ndarray | None:
    """The whole table under (namespace, key) if there, sound and `valid`; never computed."""
    table = stored_table(namespace, key)
    if table is None:
        return None
    try:
        array = table.array()
    except DamagedTable:
        return None
    return array if _accepted(valid, array) else None


class DiskStore:
    """The on-disk cache as a `generator.core.store.Store`: what the edge gives the solvers."""

    arrays = staticmethod(cached_arrays)
    json = staticmethod(cached_json)
    table = staticmethod(cached_table)


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

    @staticmethod
    def table(
        namespace: str,
        key: str,
        compute: Callable[[], np.ndarray],
        valid: Callable[[np.ndarray], bool] | None = None,
    ) -> np.ndarray:
        stored = stored_table_array(namespace, key, valid)
        if stored is None:
            raise NotStored(f"{namespace}/{key}")
        return stored


STORED_ONLY = StoredOnly()

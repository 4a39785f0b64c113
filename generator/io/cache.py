"""A small on-disk cache for solver results (numpy arrays or JSON), keyed by a content hash.

Location: $DICESHEETS_CACHE, else $XDG_CACHE_HOME/dicesheets, else ~/.cache/dicesheets.
Entries are written atomically; a missing, unreadable or corrupted entry is simply
recomputed. Keys must include everything the result depends on (inputs, rules and
a code version), so a stale entry is never read.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


def cache_dir() -> Path:
    """The cache folder (not created until something is stored)."""
    if env := os.environ.get("DICESHEETS_CACHE"):
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dicesheets"


def key_for(*parts: Any) -> str:
    """A stable hex key for JSON-serialisable parts."""
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _store(path: Path, data: bytes) -> None:
    """Write an entry atomically; a read-only or full cache folder only costs time."""
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


def cached_arrays(
    namespace: str, key: str, compute: Callable[[], dict[str, np.ndarray]]
) -> dict[str, np.ndarray]:
    """Load the arrays stored under (namespace, key), or compute and store them."""
    import numpy as np  # only array users pay for numpy

    path = cache_dir() / namespace / f"{key}.npz"
    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in data.files}
    except Exception:  # missing or corrupted: recompute
        pass
    arrays = compute()
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]  # numpy's stub types **kwds oddly
    _store(path, buffer.getvalue())
    return arrays


def cached_json(namespace: str, key: str, compute: Callable[[], Any]) -> Any:
    """Load the JSON value stored under (namespace, key), or compute and store it."""
    path = cache_dir() / namespace / f"{key}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except Exception:  # missing or corrupted: recompute
        pass
    value = compute()
    _store(path, json.dumps(value, sort_keys=True).encode())
    return value

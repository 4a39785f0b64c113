"""What a solver may keep between runs: the interface the edge fills (`generator.io.cache`).

A solver that would take seconds is given a `Store` by its caller and asks it
for a result by namespace and key, with the function that computes it and a check
of a stored value. The games never choose where results are kept: the edge passes
`generator.io.cache.DISK` (the on-disk cache), a test or the web page may pass
another store, and `NO_STORE` computes every time.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np


def key_for(*parts: Any) -> str:
    """A stable hex key for JSON-serialisable parts."""
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class Store(Protocol):
    """Where solver results are kept: computed once, then read while sound and `valid`."""

    def arrays(
        self,
        namespace: str,
        key: str,
        compute: Callable[[], dict[str, np.ndarray]],
        valid: Callable[[dict[str, np.ndarray]], bool] | None = None,
    ) -> dict[str, np.ndarray]: ...

    def json(
        self,
        namespace: str,
        key: str,
        compute: Callable[[], Any],
        valid: Callable[[Any], bool] | None = None,
    ) -> Any: ...

    def table(
        self,
        namespace: str,
        key: str,
        compute: Callable[[], np.ndarray],
        valid: Callable[[np.ndarray], bool] | None = None,
    ) -> np.ndarray:
        """One large float64 array, kept so that a reader may take a few values of it."""
        ...


class NoStore:
    """Keeps nothing: every result is computed."""

    def arrays(
        self,
        namespace: str,
        key: str,
        compute: Callable[[], dict[str, np.ndarray]],
        valid: Callable[[dict[str, np.ndarray]], bool] | None = None,
    ) -> dict[str, np.ndarray]:
        return compute()

    def json(
        self,
        namespace: str,
        key: str,
        compute: Callable[[], Any],
        valid: Callable[[Any], bool] | None = None,
    ) -> Any:
        return compute()

    def table(
        self,
        namespace: str,
        key: str,
        compute: Callable[[], np.ndarray],
        valid: Callable[[np.ndarray], bool] | None = None,
    ) -> np.ndarray:
        return compute()


NO_STORE = NoStore()

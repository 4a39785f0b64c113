"""Collecting every problem of a file instead of stopping at the first (for `validate`).

Loaders parse list items through `each()`. Normally the first bad item raises its
`CatalogError` as usual; inside `collecting()` each bad item is recorded and skipped,
so one run reports all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from generator.errors import CatalogError

T = TypeVar("T")
Item = TypeVar("Item")

_FOUND: ContextVar[list[CatalogError] | None] = ContextVar("catalog_problems", default=None)


@contextmanager
def collecting() -> Iterator[list[CatalogError]]:
    """Record item-level problems instead of raising them."""
    found: list[CatalogError] = []
    token = _FOUND.set(found)
    try:
        yield found
    finally:
        _FOUND.reset(token)


def each(items: Iterable[Item], parse: Callable[[int, Item], T]) -> list[T]:
    """`parse(index, item)` for every item; bad items raise, or are recorded while collecting."""
    found = _FOUND.get()
    results: list[T] = []
    for index, item in enumerate(items):
        if found is None:
            results.append(parse(index, item))
            continue
        try:
            results.append(parse(index, item))
        except CatalogError as exc:
            found.append(exc)
    return results


def report_problem(problem: CatalogError) -> None:
    """A problem found outside `each()`: raised, or recorded while collecting."""
    found = _FOUND.get()
    if found is None:
        raise problem
    found.append(problem)


class Incomplete(CatalogError):
    """Raised after items were skipped while collecting; their problems are already recorded."""


def require_all(parsed: list[T], raw: Iterable[object], file: str) -> None:
    """Stop a loader whose later checks would only repeat the recorded item problems."""
    if len(parsed) != len(list(raw)):
        raise Incomplete("items with problems were skipped", file=file)

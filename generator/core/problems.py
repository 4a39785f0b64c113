"""Collecting every problem of a file instead of stopping at the first (for `validate`).

Loaders parse list items through `each()`. Without a collector the first bad item
raises its `CatalogError` as usual; given a `Problems` collector (validate passes
one down the loader it calls) each bad item is recorded and skipped, so one run
reports all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from generator.core.errors import CatalogError

T = TypeVar("T")
Item = TypeVar("Item")


class Problems:
    """The problems recorded so far, in the order they were found."""

    def __init__(self) -> None:
        self.found: list[CatalogError] = []

    def __iter__(self) -> Iterator[CatalogError]:
        return iter(self.found)

    def __len__(self) -> int:
        return len(self.found)


def each(
    items: Iterable[Item], parse: Callable[[int, Item], T], problems: Problems | None = None
) -> list[T]:
    """`parse(index, item)` for every item; bad items raise, or are recorded in `problems`."""
    results: list[T] = []
    for index, item in enumerate(items):
        if problems is None:
            results.append(parse(index, item))
            continue
        try:
            results.append(parse(index, item))
        except CatalogError as exc:
            problems.found.append(exc)
    return results


def report_problem(problem: CatalogError, problems: Problems | None = None) -> None:
    """A problem found outside `each()`: raised, or recorded in `problems`."""
    if problems is None:
        raise problem
    problems.found.append(problem)


class Incomplete(CatalogError):
    """Raised after items were skipped while collecting; their problems are already recorded."""


def require_all(parsed: list[T], raw: Iterable[object], file: str) -> None:
    """Stop a loader whose later checks would only repeat the recorded item problems."""
    if len(parsed) != len(list(raw)):
        raise Incomplete("items with problems were skipped", file=file)

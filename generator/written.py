"""Which PDFs a run wrote (for `--png` previews); tiny on purpose, imported at start-up."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_WRITTEN: ContextVar[list[Any] | None] = ContextVar("written_pdfs", default=None)


@contextmanager
def collect_written() -> Iterator[list[Any]]:
    """Collect the paths of every PDF written inside the block."""
    written: list[Any] = []
    token = _WRITTEN.set(written)
    try:
        yield written
    finally:
        _WRITTEN.reset(token)


def note_written(path: Any) -> None:
    """Record a written PDF if a run is collecting."""
    written = _WRITTEN.get()
    if written is not None:
        written.append(path)

"""Standard output that cannot fail with a traceback: full, closed, or in another encoding.

`prepare()` runs first thing in the console entry:

- a closed stream (`>&-`) is opened on the null device, so no file the run opens takes
  its number (a helper process or a library writing to fd 1 would write into it);
  what the run prints then goes nowhere, as into `/dev/null`, and sys.stdout is a
  stream as always (Python makes it None);
- an encoding that cannot say every character (`PYTHONIOENCODING=latin-1`, a cp1252
  console) gets what it can: `→` as `->`, `−` as `-`, `é` as `é` or `e`, else `?`;
- a write or flush of standard output that fails (a full disk behind `> file`,
  `/dev/full`, a closed pipe) raises `StreamError`, a `UserError` naming
  "standard output": one line on stderr, exit 2. `finish()` flushes what is left
  at the end, where Python's own shutdown would print "Exception ignored".
"""

from __future__ import annotations

import io
import os
import sys

from generator.core.errors import UserError, os_reason

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (3 ms); mypy reads True
if TYPE_CHECKING:
    from typing import Any

FALLBACK = "dicesheets-plain"  # the codec error handler that writes a plain stand-in
STDOUT = "standard output"

# what a narrow encoding gets for the few signs the program prints beyond Latin-1
PLAIN = {
    "→": "->", "←": "<-", "−": "-", "–": "-", "—": "-", "…": "...", "“": '"', "”": '"',
    "„": '"', "‘": "'", "’": "'", "‚": "'", "×": "x", "·": ".", "÷": ":", "≈": "~",
    "≤": "<=", "≥": ">=", "≠": "!=", "●": "*", "○": "o", "✓": "v", "✔": "v", "\u00a0": " ",
    "\u202f": " ",
}  # fmt: skip


class StreamError(UserError):
    """Standard output could not be written (full, closed pipe, I/O error)."""

    def __init__(self, exc: OSError) -> None:
        super().__init__(os_reason(exc), where=STDOUT)


def _plain(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: each character the encoding lacks as its plain stand-in."""
    import unicodedata

    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for char in exc.object[exc.start : exc.end]:
        plain = PLAIN.get(char)
        if plain is None:  # é → e + accent: the letter the encoding has, else "?"
            decomposed = unicodedata.normalize("NFKD", char)
            plain = decomposed.encode(exc.encoding, "ignore").decode(exc.encoding) or "?"
        out.append(plain)
    return "".join(out), exc.end


class _Stdout(io.TextIOWrapper):
    """sys.stdout whose failed writes are one `StreamError` instead of an OSError."""

    def write(self, text: str) -> int:
        try:
            return super().write(text)
        except OSError as exc:
            raise StreamError(exc) from None

    def flush(self) -> None:
        try:
            super().flush()
        except OSError as exc:
            raise StreamError(exc) from None


def silence() -> None:
    """What is still buffered goes to the null device (Python's flush at exit would fail)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass


def _utf8(encoding: str | None) -> bool:
    return (encoding or "").replace("-", "").replace("_", "").lower() == "utf8"


def _reserve_closed() -> None:
    """Open the null device on each of fds 0–2 that is closed (`>&-`)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: this one
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


def prepare() -> None:
    """Set up the standard streams of a `dicesheets` process (see the module docstring)."""
    _reserve_closed()
    # a closed stream is now the null device on its number: a stream over it, so that
    # code which flushes sys.stdout (before a fork, say) finds one
    if sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
    if sys.stdout is None:
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115 (for the run)
    out: Any = sys.stdout
    if not isinstance(out, io.TextIOWrapper) or isinstance(out, _Stdout):
        return  # a stand-in (a test's capture): left as it is
    errors = out.errors
    if not _utf8(out.encoding):
        import codecs

        codecs.register_error(FALLBACK, _plain)
        errors = FALLBACK
        if isinstance(sys.stderr, io.TextIOWrapper):
            sys.stderr.reconfigure(errors=FALLBACK)
    out.flush()
    encoding, line_buffering, write_through = out.encoding, out.line_buffering, out.write_through
    wrapped = _Stdout(
        out.detach(),
        encoding=encoding,
        errors=errors,
        line_buffering=line_buffering,
        write_through=write_through,
    )
    sys.stdout = wrapped
    # (Python's shutdown puts sys.__stdout__ back as sys.stdout: the wrapper, not the
    # detached original, so what an object's teardown prints is still written)
    setattr(sys, "__stdout__", wrapped)  # noqa: B010 (a "final" name for mypy)


def finish() -> None:
    """Flush standard output at the end of a run: `StreamError` if that fails."""
    if sys.stdout is not None:
        try:
            sys.stdout.flush()
        except (OSError, StreamError) as exc:
            silence()
            raise exc if isinstance(exc, StreamError) else StreamError(exc) from None

"""The one base exception for "the user gave us something wrong".

The CLI turns a `UserError` into a single line on stderr and exit status 2.
Every other exception is a bug and may show a traceback (exit status 1).
A message is always one line of bounded length: control characters are shown
escaped and long values are shortened, whatever the caller put in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import re
    from typing import Any

SHOWN_CHARS = 60  # a quoted value: enough to recognise it, never a wall of text
MESSAGE_CHARS = 400  # a whole message (position + what was found + what was expected)

_CONTROL = r"[\x00-\x1f\x7f-\x9f\u2028\u2029]"  # compiled on the first message, not at start


def _escape(char: re.Match[str]) -> str:
    code = ord(char.group())
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char.group(), f"\\x{code:02x}")


def one_line(text: str, limit: int = MESSAGE_CHARS) -> str:
    """`text` on one line (control characters escaped), at most `limit` characters."""
    import re  # a plain `numbers solve` makes no message: its start does without `re`

    text = re.sub(_CONTROL, _escape, text)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")  # lone surrogates from argv
    if len(text) <= limit:
        return text
    head = limit * 3 // 4
    return f"{text[:head]} … {text[len(text) - (limit - head - 3) :]}"


def shown(value: Any, limit: int = SHOWN_CHARS) -> str:
    """A value as messages quote it: one line, shortened in the middle when long."""
    return one_line(str(value), limit)


class Input(str):
    """A `where` that is an input of a build (`Input("level")`), not a file position.

    The CLI names the option that sets it; elsewhere it reads as the input's name.
    """

    __slots__ = ()


class UserError(Exception):
    """Bad input: an option, a file, a line or a key that is not what was expected."""

    def __init__(self, message: str, *, where: str | None = None) -> None:
        super().__init__(message)
        self.message = one_line(message)
        # an input's name is short and ours; a position may quote what the user typed
        self.where = where if isinstance(where, Input) or not where else one_line(where, 200)

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class OptionError(UserError):
    """A command-line option has a value that cannot be used."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message, where=f"option {option}")
        self.option = option


class CatalogError(UserError):
    """A YAML file (shipped catalog or a user's own) is malformed or means nothing sensible."""

    def __init__(
        self, message: str, *, file: str, line: int | None = None, column: int | None = None
    ) -> None:
        where = file if line is None else f"{file}:{line}" + (f":{column}" if column else "")
        super().__init__(message, where=where)
        self.file = file
        self.line = line
        self.column = column


def os_error(exc: OSError, path: Any = None) -> UserError:
    """An operating-system error as one line naming the path and the reason."""
    name = path if path is not None else (exc.filename or "?")
    return UserError(exc.strerror or type(exc).__name__, where=str(name))


class InputError(UserError):
    """One input of a build has a value that cannot be used.

    `subject` says which input ("players", "paper", "pdf" for the output file …);
    the CLI maps it to the option that sets it, so the core never names a flag.
    """

    def __init__(self, subject: str, message: str) -> None:
        super().__init__(message, where=Input(subject))
        self.subject = subject


class DoesNotFit(InputError):
    """A layout that does not fit its page: what needed how much room, and what the page has.

    `needed` and `available` are in millimetres (a length across or down the page);
    `remedies` names other inputs that would make room (the CLI turns them into options).
    """

    def __init__(
        self,
        subject: str,
        message: str,
        needed: float,
        available: float,
        remedies: tuple[str, ...] = (),
    ) -> None:
        super().__init__(subject, message)
        self.needed = needed
        self.available = available
        self.remedies = remedies

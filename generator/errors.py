"""The one base exception for "the user gave us something wrong".

The CLI turns a `UserError` into a single line on stderr and exit status 2.
Every other exception is a bug and may show a traceback (exit status 1).
"""

from __future__ import annotations


class Input(str):
    """A `where` that is an input of a build (`Input("level")`), not a file position.

    The CLI names the option that sets it; elsewhere it reads as the input's name.
    """

    __slots__ = ()


class UserError(Exception):
    """Bad input: an option, a file, a line or a key that is not what was expected."""

    def __init__(self, message: str, *, where: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where

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

"""A user error as the web page says it: in the page's language, at the field it concerns.

An error carries a code and its parameters (`generator.core.errors.Msg`); the
page says it with `templates/<lang>/errors.j2`, as the CLI does in English.
Where the CLI names an option (`option --players`), the page shows the message
at that field, or names the field by its label; a file position stays as it is.
"""

from __future__ import annotations

from collections.abc import Container

from generator.core.errors import Input, InputError, Note, UserError
from generator.web.pages import words


def subject_of(exc: UserError) -> str | None:
    """The input (a form field's name) an error concerns, or None (a file, the whole form)."""
    if isinstance(exc, InputError):
        return exc.subject
    if isinstance(exc.where, Input):
        return str(exc.where)
    return None


def field_errors(exc: UserError, fields: Container[str], lang: str) -> dict[str | None, str]:
    """The error's message by the field it concerns (None: above the form), in `lang`."""
    subject = subject_of(exc)
    if subject is not None and subject in fields:
        return {subject: exc.say(lang)}
    return {None: whole(exc, lang)}


def whole(exc: UserError, lang: str) -> str:
    """The message with where it applies: the field's label, or the file's position."""
    subject = subject_of(exc)
    t = words(lang)
    if subject is not None:
        key = f"label_{subject}"
        where = str(t(key)) if t.has(key) else None
    else:
        where = exc.where
    message = exc.say(lang)
    return f"{where}: {message}" if where else message


def warning_text(warning: str | UserError, lang: str) -> str:
    """A build's warning as the page shows it (a `Note` or one about an input: in `lang`)."""
    if isinstance(warning, UserError):
        return whole(warning, lang)
    return warning.msg.say(lang) if isinstance(warning, Note) else warning

"""An error's words as both surfaces say them: an input's name turned into its option.

A build names the input it refuses (`InputError("players", …)`); the CLI prints the
option that sets it (`option --players: …`) and the web page shows the message beside
that option's field. The table (`registry.WHERE_FOR`) is the spelling of the few inputs whose
option has another name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.registry import WHERE_FOR

if TYPE_CHECKING:
    from generator.core.errors import UserError


def where_for(subject: str) -> str:
    """The command-line option (or argument) behind an input's name."""
    return WHERE_FOR.get(subject, "option --" + subject.replace("_", "-"))


def option_for(subject: str) -> str:
    """The option alone: `players` → --players."""
    return where_for(subject).removeprefix("option ")


def user_message(exc: UserError) -> str:
    """The one-line error text, with an input error's subject turned into its option
    (and for a layout that does not fit, the options that would make room)."""
    from generator.core.errors import DoesNotFit, Input, InputError

    if isinstance(exc, DoesNotFit) and exc.remedies:
        remedies = " or ".join(option_for(r) for r in exc.remedies)
        return f"{where_for(exc.subject)}: {exc.message} (try {remedies})"
    if isinstance(exc, InputError) or isinstance(exc.where, Input):
        subject = exc.subject if isinstance(exc, InputError) else str(exc.where)
        return f"{where_for(subject)}: {exc.message}"
    return str(exc)

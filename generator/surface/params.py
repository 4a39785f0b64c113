"""The registry's parameters as click parameters, and a command's checks across options.

Both surfaces parse with these: the CLI's commands are made of them
(`generator.cli.commands`), and the web page parses a submitted form with a command
made of the same parameters (`generator.web.forms`), so a value is accepted or
refused, with the same words, on both. `check` runs a command's `rules` (for the CLI
after click parsed the line, for the web after the form was parsed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

import click

from generator.surface.model import (
    MISSING,
    Argument,
    Choice,
    Command,
    Count,
    File,
    OptionType,
    Param,
    Range,
    Stream,
    Whole,
)


class CountType(click.ParamType):
    """A whole number lo–hi; anything else is one line: `expected lo–hi NOUN, found N`."""

    name = "integer"

    def __init__(self, lo: int, hi: int, noun: str, note: str = "") -> None:
        self.lo, self.hi, self.noun, self.note = lo, hi, noun, note

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = int(str(value).strip())
            except ValueError:
                self.fail(f"expected a whole number of {self.noun}, found '{value}'", param, ctx)
        if not self.lo <= number <= self.hi:
            found = f"expected {self.lo}–{self.hi} {self.noun}{self.note}, found {number}"
            self.fail(found, param, ctx)
        return number


def click_type(kind: OptionType) -> Any:
    """The click type of a registry type (None: click's text); one object per type, so
    every command's --seed has the same type (a test asks)."""
    return _click_type(type(kind).__name__, kind)


@cache
def _click_type(cls: str, kind: OptionType) -> Any:
    if kind is None:
        return None
    if isinstance(kind, Count):
        return CountType(kind.lo, kind.hi, kind.noun, kind.note)
    if isinstance(kind, Range):
        if kind.real:
            return click.FloatRange(kind.lo, kind.hi)
        return click.IntRange(int(kind.lo), int(kind.hi))
    if isinstance(kind, Whole):
        return int
    if isinstance(kind, Choice):
        return click.Choice(list(kind.values), case_sensitive=False)
    if isinstance(kind, File):
        return click.Path(
            file_okay=kind.file_okay,
            dir_okay=kind.dir_okay,
            exists=kind.exists,
            allow_dash=kind.allow_dash,
        )
    if isinstance(kind, Stream):
        return click.File("r", encoding=kind.encoding)
    raise TypeError(f"no click type for {kind!r}")


def click_param(param: Param, **changes: Any) -> click.Parameter:
    """The click parameter a registry parameter declares (`changes`: attributes to replace)."""
    if isinstance(param, Argument):
        attrs: dict[str, Any] = {"nargs": param.nargs}
        if param.type is not None:
            attrs["type"] = click_type(param.type)
        if param.metavar is not None:
            attrs["metavar"] = param.metavar
        return click.Argument([param.name], **attrs)
    attrs = {}
    if param.type is not None:
        attrs["type"] = click_type(param.type)
    # only what is declared: click's own defaults differ from an explicit None (a flag)
    for key in ("default", "flag_value"):
        value = getattr(param, key)
        if value is not MISSING:
            attrs[key] = value
    for key, value in (
        ("help", param.help),
        ("metavar", param.metavar),
        ("show_default", param.show_default or None),
        ("required", param.required or None),
        ("is_flag", param.is_flag or None),
        ("multiple", param.multiple or None),
    ):
        if value is not None:
            attrs[key] = value
    attrs.update(changes)
    return click.Option(list(param.flags), **attrs)


def click_params(params: Iterable[Param]) -> list[click.Parameter]:
    return [click_param(p) for p in params]


def check(command: Command, params: Mapping[str, Any], given: Iterable[str]) -> None:
    """Run the command's checks across options (a `UserError` names the option)."""
    chosen = frozenset(given)
    for rule in command.rules:
        rule(params, chosen)

"""Web forms made from the registry: every field is an option of the product's command.

A product's form is read from its command in `generator.registry` (`--level` → a
number field, a choice → a menu, a flag → a tick box, `--key/--no-key` → a tick box
that is on by default), so an option added there appears on the page without web
code; only options that name files are left out (nothing from the browser is ever a
path). A submitted form is turned back into command-line arguments and parsed by a
command made of the same click parameters as the CLI's (`generator.surface.params`),
then checked by the command's rules across options, so the web page checks values
exactly as the CLI does and gives the same messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import click

from generator.core.errors import OptionError, UserError
from generator.surface.model import (
    MISSING,
    Choice,
    Command,
    File,
    Option,
    Range,
    Stream,
    Whole,
)
from generator.surface.params import check, click_param

# options every command gets from the root group (runopts): never on a web form
RUN_OPTIONS = frozenset({"catalog", "png", "dpi", "watch"})
# options that name files or folders on the server: never taken from a browser
PATH_OPTIONS = frozenset({"out"})


@dataclass(frozen=True)
class Field:
    """One form field: a click option seen as an HTML control."""

    name: str  # the parameter name, also the HTML name: "large_print"
    flag: str  # the CLI spelling: "--large-print"
    kind: str  # "number" | "text" | "choice" | "flag" | "switch" (--x/--no-x)
    default: Any
    choices: tuple[str, ...] = ()
    off_flag: str | None = None  # switch: "--no-key"
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def value_text(self, value: Any) -> str:
        """The value as the form shows it ("" for none)."""
        if value is None or value is False:
            return ""
        return str(value)


@dataclass(frozen=True)
class Form:
    """A product's fields and the parse-only copy of its command."""

    command_name: str  # "worksheet", "kniffel block" (messages, the CLI line shown)
    fields: tuple[Field, ...]
    parser: click.Command = field(repr=False)
    command: Command = field(repr=False)  # its registry entry (the checks across options)

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)

    def by_flag(self, flag: str) -> Field | None:
        return next((f for f in self.fields if flag in (f.flag, f.off_flag)), None)

    def defaults(self) -> dict[str, Any]:
        return {f.name: f.default for f in self.fields}


def _field(option: Option, choices: Mapping[str, Iterable[str]]) -> Field:
    name, flag, help_text = option.name, option.flag, option.help or ""
    if name in choices:
        options = tuple(choices[name])
        default = option.default
        if default is not None and default not in options:
            default = options[0]
        return Field(name, flag, "choice", default, options, help=help_text)
    default = None if option.default is MISSING else option.default
    if option.off_flag:  # --key/--no-key
        return Field(name, flag, "switch", bool(default), (), option.off_flag, help=help_text)
    if option.is_flag:
        return Field(name, flag, "flag", bool(default), help=help_text)
    if isinstance(option.type, Choice):
        return Field(name, flag, "choice", default, option.type.values, help=help_text)
    if isinstance(option.type, Range) and not option.type.real:
        low, high = int(option.type.lo), int(option.type.hi)
        return Field(name, flag, "number", default, (), None, low, high, help_text)
    if isinstance(option.type, Whole):
        return Field(name, flag, "number", default, help=help_text)
    return Field(name, flag, "text", default, help=help_text)


def make_form(
    command: Command,
    skip: Iterable[str] = (),
    choices: Mapping[str, Iterable[str]] | None = None,
) -> Form:
    """The form of a registry `command`: its options less run options, file options, `skip`.

    `choices` turns free-text options into menus (a rule set, a profile), so a
    browser can only pick what the catalog has — never a path.
    """
    choices = choices or {}
    left_out = RUN_OPTIONS | PATH_OPTIONS | set(skip)
    shown: list[Option] = []
    params: list[click.Parameter] = []
    for option in command.options():
        if option.name in left_out or isinstance(option.type, (File, Stream)):
            continue  # a file on the server: not from a browser
        shown.append(option)
        if option.name in choices:
            # only the listed values (the CLI's option also takes a file)
            menu = click.Choice(list(choices[option.name]))
            params.append(click_param(option, type=menu, show_default=False))
        else:
            params.append(click_param(option))
    fields = tuple(_field(o, choices) for o in shown)
    parser = click.Command(command.words[-1], params=params, add_help_option=False)
    return Form(command.path, fields, parser, command)


class FormErrors(Exception):
    """Messages for the fields they concern (`None`: the form as a whole)."""

    def __init__(self, errors: dict[str | None, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = errors


def to_args(form: Form, values: Mapping[str, str]) -> list[str]:
    """The command-line arguments a submitted form stands for (empty fields: the default)."""
    args: list[str] = []
    for f in form.fields:
        raw = values.get(f.name)
        if f.kind == "flag":
            if raw not in (None, "", "0", "off"):
                args.append(f.flag)
        elif f.kind == "switch":
            # an unticked box sends nothing; a form sends `<name>=` "present" markers for switches
            present = values.get(f"{f.name}__shown") is not None
            if raw not in (None, "", "0", "off"):
                args.append(f.flag)
            elif present and f.off_flag:
                args.append(f.off_flag)
        elif raw is not None and raw.strip() != "":
            args += [f.flag, raw.strip()]
    return args


def parse(form: Form, values: Mapping[str, str]) -> tuple[dict[str, Any], list[str]]:
    """The command's parameters for a submitted form, checked as the CLI checks them.

    Returns the parameters and the arguments they came from; FormErrors if a value is wrong.
    """
    args = to_args(form, values)
    try:
        ctx = form.parser.make_context(form.command_name, list(args))
    except click.BadParameter as exc:
        name = exc.param.name if exc.param is not None else None
        # the field shows where: its message is the CLI's after "option --x: "
        raise FormErrors({name: exc.message if name else exc.format_message()}) from None
    except click.UsageError as exc:
        raise FormErrors({None: exc.format_message()}) from None
    params = dict(ctx.params)
    given = {f.name for f in form.fields if {f.flag, f.off_flag} & set(args)}
    try:
        check(form.command, params, given)  # the CLI's own checks across options
    except UserError as exc:
        flag = exc.option if isinstance(exc, OptionError) else None
        found = form.by_flag(flag) if flag else None
        where = found.name if found else None
        raise FormErrors({where: exc.message if found else str(exc)}) from None
    return params, args


def flag_of(command: Command, name: str) -> str:
    """How the CLI spells parameter `name` of `command` ("roster" → its long option)."""
    return command.option(name).flag


def name_of(command: Command, flag: str) -> str | None:
    """The parameter of `command` that `flag` (an error's option) spells, or None."""
    for option in command.options():
        if flag in (option.flag, option.off_flag):
            return option.name
    return None


def error_field(form: Form, option: str | None) -> str | None:
    """The field of the CLI option an error concerns (`--versions` → "versions"), or None."""
    found = form.by_flag(option) if option else None
    return found.name if found else None

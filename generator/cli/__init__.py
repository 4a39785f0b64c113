"""The `dicesheets` command: a click group whose subcommands load only when used.

Heavy imports (ReportLab, numpy) happen inside commands, so `--help` is instant.
Errors: a `UserError` or a click usage error prints one line on stderr and
exits 2; any other exception is a bug (traceback, exit 1).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from generator import __version__
from generator.errors import UserError

# command name → "module:attribute"; each module imports only click at load time
COMMANDS = {
    "all": "generator.cli.all:all_command",
    "worksheet": "generator.cli.worksheet:worksheet",
    "kribbeln": "generator.cli.kribbeln:kribbeln",
    "numbers": "generator.cli.numbers:numbers",
    "kniffel": "generator.cli.kniffel:kniffel",
    "preview": "generator.cli.preview:preview",
}


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when that subcommand is needed."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            module_name, attr = self.lazy[cmd_name].split(":")
            return getattr(importlib.import_module(module_name), attr)
        return super().get_command(ctx, cmd_name)


class RootGroup(LazyGroup):
    """The top-level group: turns user errors into one line and exit status 2."""

    def main(self, args: Any = None, prog_name: Any = None, complete_var: Any = None,
             standalone_mode: bool = True, **extra: Any) -> Any:  # fmt: skip
        try:
            result = super().main(
                args, prog_name or "dicesheets", complete_var, standalone_mode=False, **extra
            )
        except UserError as exc:
            click.echo(f"dicesheets: error: {exc}", err=True)
            sys.exit(2)
        except click.exceptions.Abort:
            click.echo("dicesheets: interrupted", err=True)
            sys.exit(130)
        except click.ClickException as exc:
            click.echo(f"dicesheets: error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        sys.exit(result if isinstance(result, int) else 0)


@click.group(cls=RootGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dicesheets")
def cli() -> None:
    """Printable, solver-verified sheets for Kribbeln, Kniffel and Schlaues Köpfchen.

    Commands are `dicesheets GAME ACTION [options]`; `dicesheets all` writes the
    default set of sheets into output/.
    """


def main() -> None:
    """Console-script entry point."""
    cli.main(prog_name="dicesheets")

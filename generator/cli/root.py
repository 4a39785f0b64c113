"""The `dicesheets` command: a click group whose commands are made from `generator.registry`.

A command's action module is imported only when it runs, and heavy imports (ReportLab,
numpy) happen inside the actions, so `--help` imports only click and the registry.
Errors: a `UserError` or a click usage error prints one line on stderr and
exits 2; any other exception is a bug (traceback, exit 1).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from typing import Any

import click

from generator import __version__, registry
from generator.cli.fastpath import HELP_OPTIONS
from generator.core.errors import Msg, UserError

# every command and group `dicesheets` takes, as the registry declares them
COMMANDS = tuple(registry.top_names())


class RegistryGroup(click.Group):
    """A group whose commands are made from the registry when first asked for."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.made: dict[str, click.Command] = {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        if cmd_name not in self.made:
            from generator.cli.commands import make
            from generator.cli.runopts import add_run_options

            self.made[cmd_name] = add_run_options(make(cmd_name))
        return self.made[cmd_name]


class RootGroup(RegistryGroup):
    """The top-level group: turns user errors into one line and exit status 2."""

    def main(
        self,
        args: Any = None,
        prog_name: Any = None,
        complete_var: Any = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        from generator.cli import runopts
        from generator.io import signals

        args = list(sys.argv[1:] if args is None else args)
        runopts.reset()
        with signals.install():
            try:
                code, started, error = self._run_once(args, prog_name, complete_var, extra)
                if not runopts.SETTINGS.watch or code in INTERRUPTED:
                    sys.exit(code)
                # --watch: rebuild on every change, keep watching after an error, Ctrl-C ends;
                # a page beside the previews always shows the newest good build (and the error)
                page = runopts.PreviewPage(args)
                while True:
                    page.update(error)
                    stamps = runopts.snapshot(runopts.watched_files(args, page.folder))
                    took = time.monotonic() - started
                    session = runopts.session_line()
                    click.echo(
                        f"[watch] built in {took:.2f} s (exit {code}); "
                        f"{session + '; ' if session else ''}waiting for changes",
                        err=True,
                    )
                    changed = runopts.wait_for_change(args, stamps, page.folder)
                    names = ", ".join(p.name for p in changed[:3])
                    click.echo(
                        f"[watch] changed: {names}{' …' if len(changed) > 3 else ''}", err=True
                    )
                    code, started, error = self._run_once(args, prog_name, complete_var, extra)
                    if code in INTERRUPTED:
                        sys.exit(code)
            except KeyboardInterrupt:
                sys.exit(0)  # Ctrl-C while --watch waits for a change ends the watch
            except signals.Terminated:
                sys.exit(143)
            finally:
                runopts.reset()  # a run's --catalog must not outlive it (tests, benchmarks)

    def _run_once(
        self, args: list[str], prog_name: Any, complete_var: Any, extra: dict[str, Any]
    ) -> tuple[int, float, str | None]:
        """Run the command once: its exit status, start time and error line (errors → status)."""
        from generator.io import signals

        started = time.monotonic()
        try:
            code, error = self._invoke(args, prog_name, complete_var, extra)
            return code, started, error
        except BaseException as exc:
            # a signal wins over whatever a library made of it (e.g. a KeyError from ReportLab)
            signalled = signals.exit_code()
            if signalled is None and isinstance(exc, (KeyboardInterrupt, click.exceptions.Abort)):
                signalled = 130
            if signalled is None:
                raise
            click.echo("dicesheets: interrupted", err=True)
            return signalled, started, "interrupted"

    def _invoke(
        self, args: list[str], prog_name: Any, complete_var: Any, extra: dict[str, Any]
    ) -> tuple[int, str | None]:
        """Run the command; a user error, an OS error or bad arguments become one line, status 2."""
        from generator.cli import runopts
        from generator.core.errors import os_error

        runopts.SETTINGS.preview_dir, runopts.SETTINGS.previewed = None, []
        try:
            check_arguments(args)
            result = super().main(
                args, prog_name or "dicesheets", complete_var, standalone_mode=False, **extra
            )
        except UserError as exc:
            from generator.cli.options import user_message

            return self._failed(2, user_message(exc))
        except click.BadParameter as exc:  # one line naming the option, as for a UserError
            opts = getattr(exc.param, "opts", None)
            where = f"option {max(opts, key=len)}" if opts else (exc.param_hint or "argument")
            message = exc.message
            if isinstance(exc, click.MissingParameter) and not message:
                message = _missing(exc.param)  # click leaves it empty for a required option
            return self._failed(exc.exit_code, f"{where}: {message}")
        except OSError as exc:  # a file or folder the user named: full disk, permissions …
            return self._failed(2, str(os_error(exc)))
        except click.exceptions.Abort:
            raise
        except click.ClickException as exc:
            return self._failed(exc.exit_code, exc.format_message())
        return (result if isinstance(result, int) else 0), None

    @staticmethod
    def _failed(code: int, message: str) -> tuple[int, str]:
        from generator.core.errors import one_line

        message = one_line(message)  # whatever the source: one line of bounded length
        click.echo(f"dicesheets: error: {message}", err=True)
        return code, message


def _missing(param: click.Parameter | None) -> str:
    """A required option left out: say so, and what it takes (its choices where it has some)."""
    choices = getattr(getattr(param, "type", None), "choices", None)
    if choices:
        return Msg("missing_value_one_of", known=", ".join(map(str, choices))).say("en")
    return Msg("missing_value").say("en")


INTERRUPTED = (130, 143)


def check_arguments(args: list[str]) -> None:
    """Refuse arguments that are not text (bytes the terminal's encoding could not decode)."""
    for number, arg in enumerate(args, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as exc:
            byte = ord(arg[exc.start]) & 0xFF
            raise UserError(
                Msg("byte_x_utf_text", byte=f"{byte:02x}"),
                where=f"argument {number}",
            ) from None


@click.group(cls=RootGroup, context_settings={"help_option_names": list(HELP_OPTIONS)})
@click.version_option(__version__, prog_name="dicesheets")
def cli() -> None:
    """Printable, solver-verified sheets for Kribbeln, Kniffel and Schlaues Köpfchen.

    Commands are `dicesheets GAME ACTION [options]`; `dicesheets all` writes the
    default set of sheets into output/.
    """


def command_words() -> list[list[str]]:
    """Each group's and command's words, the root group's ([]) first."""

    def words_of(group: click.Group, ctx: click.Context, words: list[str]) -> Iterator[list[str]]:
        yield words
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if isinstance(command, click.Group):
                yield from words_of(command, click.Context(command, ctx, name), [*words, name])
            elif command is not None:
                yield [*words, name]

    return list(words_of(cli, click.Context(cli, info_name="dicesheets"), []))


def main() -> None:
    """Console-script entry point."""
    cli.main(prog_name="dicesheets")

"""The click commands, made from the registry: each command's parameters, help and action.

A command's action ("module:function" in `Command.run`) is imported when the command
runs, and called with the parsed parameters after the registry's checks across options;
a product command without an action of its own runs `generator.cli.products.run`.
Making a command imports only click and the registry, so `--help` stays light.
"""

from __future__ import annotations

from typing import Any

import click

from generator import registry
from generator.surface.model import Command, resolve
from generator.surface.params import check, click_params


def make_command(command: Command) -> click.Command:
    """The click command of one registry command."""

    def callback(**params: Any) -> Any:
        ctx = click.get_current_context()
        given = [
            name
            for name in params
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE
        ]
        check(command, params, given)
        if command.run is None:
            from generator.cli.products import run

            product = registry.product_of(command.path)
            assert product is not None, command.path
            return run(product, params)
        return resolve(command.run)(**params)

    return click.Command(
        command.words[-1],
        context_settings=dict(command.context) or None,
        callback=callback,
        params=click_params(command.params),
        help=command.help,
    )


def make_group(name: str) -> click.Group:
    """The click group of `name` ("kniffel") with its subcommands."""
    group = click.Group(name, help=registry.GROUPS[name].help)
    for command in registry.subcommands(name):
        group.add_command(make_command(command))
    return group


def make(name: str) -> click.Command:
    """The command or group `dicesheets NAME` runs."""
    if name in registry.GROUPS:
        return make_group(name)
    return make_command(registry.COMMANDS[name])

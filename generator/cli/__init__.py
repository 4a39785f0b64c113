"""The `dicesheets` command line: the click group (`generator.cli.root`) and its commands.

The group's names (`cli`, `main`, `COMMANDS`, …) are importable from here as well; they
load on first use, so `generator.cli.fastpath` (a plain `numbers solve` read without
click) starts without importing click.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

# the names of `generator.cli.root` (any other name may be a submodule still to import)
_ROOT = {
    "COMMANDS",
    "INTERRUPTED",
    "RegistryGroup",
    "RootGroup",
    "check_arguments",
    "cli",
    "command_words",
    "main",
}


def __getattr__(name: str) -> Any:
    if name not in _ROOT:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from generator.cli import root

    return getattr(root, name)

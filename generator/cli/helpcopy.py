"""Write (or check) the shipped copy of every command's help: `python -m generator.cli.helpcopy`."""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from generator.io.startup import HELP_COPY, HELP_WIDTH


def captured_help(run: Callable[[], object]) -> str:
    """What `run` (a click run of a help request, ending in SystemExit) prints."""
    out, kept = sys.stdout, io.BytesIO()
    sys.stdout = io.TextIOWrapper(kept, encoding="utf-8", newline="")
    try:
        run()
    except SystemExit as done:
        if done.code not in (0, None):
            raise RuntimeError(f"help ended with {done.code}") from None
    finally:
        captured, sys.stdout = sys.stdout, out
        captured.flush()
    return kept.getvalue().decode("utf-8")


def current() -> dict[str, object]:
    """The copy as the code prints it now: each command's help and the modules it comes from."""
    from generator.cli.root import cli, command_words

    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(HELP_WIDTH + 2)
    try:
        helps = {
            " ".join(words): captured_help(partial(cli.main, [*words, "--help"], "dicesheets"))
            for words in command_words()
        }
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    package = Path(HELP_COPY).parent.parent
    sources = {}
    for module in sorted(sys.modules):
        path = getattr(sys.modules[module], "__file__", None)
        if module.split(".")[0] == "generator" and path:
            rel = Path(path).resolve().relative_to(package.resolve()).as_posix()
            sources[rel] = Path(path).stat().st_size
    return {"width": HELP_WIDTH, "sources": sources, "helps": helps}


def render(copy: dict[str, object]) -> str:
    return json.dumps(copy, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main() -> None:
    """Write the copy; with `--check`, exit 1 if the shipped one is not the current one."""
    text = render(current())
    target = Path(HELP_COPY)
    if "--check" in sys.argv[1:]:
        sys.exit(0 if target.is_file() and target.read_text(encoding="utf-8") == text else 1)
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()

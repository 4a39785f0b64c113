"""`python -m generator` is the same as the `dicesheets` command (the console script's entry).

Ctrl-C and SIGTERM are caught from the first moment, before click and the
commands are imported, so even an early kill ends with 130 / 143 and one line.
"""

from __future__ import annotations

import sys


def forget_caught_interrupt() -> None:
    """Clear CPython's mark of a KeyboardInterrupt that ended a string `exec`, caught or not.

    `dataclasses` and `namedtuple` make their methods with `exec(source)`; a Ctrl-C
    landing there leaves a mark that `python -m` acts on after our exit status: it
    kills the process with SIGINT (exit −2). A string `exec` that ends normally clears it.
    """
    exec("")


def run() -> None:
    """Console-script entry point: the CLI with signals handled from start-up on."""
    from generator import interrupts

    interrupts.catch_early()
    try:
        from generator.cli import fastpath

        if fastpath.run(sys.argv[1:]):  # a plain `numbers solve`: done without click
            sys.exit(0)
        from generator.cli import main

        main()
    except SystemExit:
        # the run is over: Python's own shutdown would die of a late signal (exit −2)
        interrupts.ignore()
        forget_caught_interrupt()
        raise
    except (KeyboardInterrupt, interrupts.Terminated):
        # a signal during start-up, or after the run while it exits (its files are complete)
        interrupts.ignore()
        forget_caught_interrupt()
        sys.stderr.write("dicesheets: interrupted\n")
        sys.exit(interrupts.exit_code() or 130)


if __name__ == "__main__":
    run()

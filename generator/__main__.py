"""`python -m generator` is the same as the `dicesheets` command (the console script's entry).

Ctrl-C and SIGTERM are caught from the first moment, before click and the
commands are imported, so even an early kill ends with 130 / 143 and one line.
"""

from __future__ import annotations

import sys


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
        raise
    except (KeyboardInterrupt, interrupts.Terminated):
        # a signal during start-up, or after the run while it exits (its files are complete)
        interrupts.ignore()
        sys.stderr.write("dicesheets: interrupted\n")
        sys.exit(interrupts.exit_code() or 130)


if __name__ == "__main__":
    run()

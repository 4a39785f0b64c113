"""`python -m generator` is the same as the `dicesheets` command (the console script's entry).

Ctrl-C and SIGTERM are caught from the first moment, before click and the
commands are imported, so even an early kill ends with 130 / 143 and one line.
"""

from __future__ import annotations

import sys

INTERRUPTED = (130, 143)  # (Python ends these itself: a late signal may still arrive)


def forget_caught_interrupt() -> None:
    """Clear CPython's mark of a KeyboardInterrupt that ended a string `exec`, caught or not.

    `dataclasses` and `namedtuple` make their methods with `exec(source)`; a Ctrl-C
    landing there leaves a mark that `python -m` acts on after our exit status: it
    kills the process with SIGINT (exit −2). A string `exec` that ends normally clears it.
    """
    exec("")


def run() -> None:
    """Console-script entry point: the CLI with signals handled from start-up on."""
    from generator.io import startup

    startup.prepare()
    from generator.io import signals, streams

    signals.catch_early()
    streams.prepare()
    args = sys.argv[1:]
    try:
        from generator.cli import fastpath

        # a plain `numbers solve` or a help the package ships: done without click
        if fastpath.run(args) or startup.stored_help(args, fastpath.HELP_OPTIONS):
            sys.exit(0)
        from generator.cli import main

        main()
    except streams.StreamError as exc:  # (a plain `numbers solve` printing to a full disk)
        streams.silence()
        sys.stderr.write(f"dicesheets: error: {exc}\n")
        sys.exit(2)
    except SystemExit as done:
        # the run is over: Python's own shutdown would die of a late signal (exit −2)
        signals.ignore()
        forget_caught_interrupt()
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        try:
            streams.finish()  # what is still buffered: its error here, not at Python's exit
        except streams.StreamError as exc:
            if code == 0:  # (a failed run has said what failed)
                sys.stderr.write(f"dicesheets: error: {exc}\n")
                done, code = SystemExit(2), 2
        if code not in INTERRUPTED and not isinstance(done.code, str):
            startup.quick_exit(code)
        raise done from None
    except (KeyboardInterrupt, signals.Terminated):
        # a signal during start-up, or after the run while it exits (its files are complete)
        signals.ignore()
        forget_caught_interrupt()
        sys.stderr.write("dicesheets: interrupted\n")
        sys.exit(signals.exit_code() or 130)


if __name__ == "__main__":
    run()

"""`python -m generator` is the same as the `dicesheets` command (the console script's entry).

Ctrl-C and SIGTERM are caught from the first moment, before click and the
commands are imported, so even an early kill ends with 130 / 143 and one line.
"""

from __future__ import annotations

import os
import sys


def forget_caught_interrupt() -> None:
    """Clear CPython's mark of a KeyboardInterrupt that ended a string `exec`, caught or not.

    `dataclasses` and `namedtuple` make their methods with `exec(source)`; a Ctrl-C
    landing there leaves a mark that `python -m` acts on after our exit status: it
    kills the process with SIGINT (exit −2). A string `exec` that ends normally clears it.
    """
    exec("")


def leave_now() -> None:
    """End the process at once, without the interpreter's teardown (for a finished `all`).

    When `dicesheets all` returns, every file is written, closed and renamed; what
    Python's shutdown would still do is free ~450 modules' objects and numpy's buffers
    one by one and end OpenBLAS's threads (~60 ms on the one busy processor at the end
    of a cold run). The exit functions still run (a library may flush something there)
    and the output is flushed; with another thread still running, or output that cannot
    be written, Python ends as usual (and reports it as usual).
    """
    import atexit
    import threading

    if threading.active_count() > 1:
        return
    streams = [stream for stream in (sys.stdout, sys.stderr) if stream is not None]
    try:
        for stream in streams:
            stream.flush()
        atexit._run_exitfuncs()  # (and forgotten: Python's shutdown would not run them twice)
        for stream in streams:
            stream.flush()
    except (OSError, ValueError):
        return
    os._exit(0)


def run() -> None:
    """Console-script entry point: the CLI with signals handled from start-up on."""
    # OpenBLAS's idle workers spin for ~0.1 s of processor time before they sleep, at the
    # library's load and after each threaded call; in `dicesheets all` that time is taken
    # from the other processes. A short timeout lets them sleep at once; the thread count
    # is unchanged, so every dot product is split (and rounded) as before. (Set before
    # numpy is loaded; a value the user set is kept.)
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")
    from generator.io import signals, streams

    signals.catch_early()
    streams.prepare()
    try:
        from generator.cli import fastpath

        if fastpath.run(sys.argv[1:]):  # a plain `numbers solve`: done without click
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
        try:
            streams.finish()  # what is still buffered: its error here, not at Python's exit
        except streams.StreamError as exc:
            sys.stderr.write(f"dicesheets: error: {exc}\n")
            if done.code in (0, None):
                sys.exit(2)
        if done.code in (0, None) and sys.argv[1:2] == ["all"]:
            leave_now()
        raise
    except (KeyboardInterrupt, signals.Terminated):
        # a signal during start-up, or after the run while it exits (its files are complete)
        signals.ignore()
        forget_caught_interrupt()
        sys.stderr.write("dicesheets: interrupted\n")
        sys.exit(signals.exit_code() or 130)


if __name__ == "__main__":
    run()

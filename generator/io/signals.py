"""Ctrl-C and `kill`: one exception per signal, and short stretches where they must wait.

The CLI installs `install()` for a run: SIGINT raises `KeyboardInterrupt`, SIGTERM
raises `Terminated`, and the signal is remembered, so the run ends with 130 / 143
even when a library catches the exception and raises something else instead.
`deferred()` holds both signals back while files are created, renamed or removed:
a kill then arrives just after, when every temporary file is gone and either the
old files or the complete new ones are in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import signal
    from collections.abc import Callable
    from types import FrameType
    from typing import Any
else:
    try:  # the C module `signal` wraps (loaded with the interpreter): the same calls, with int
        import _signal as signal  # constants instead of enums (`signal` imports `enum`, 3 ms)
    except ImportError:  # an interpreter without it
        import signal

SIGNALS = (signal.SIGINT, signal.SIGTERM)
EXIT_CODES: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}


class Terminated(BaseException):
    """SIGTERM arrived (a BaseException like KeyboardInterrupt: `except Exception` lets it by)."""


_received: list[int] = []  # the signals of this run, in order


def _raise_for(signum: int) -> None:
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Terminated


def _handler(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    _raise_for(signum)


def _in_main_thread() -> bool:
    import threading  # only a run's `install` / `deferred` ask: the console's start does without

    return threading.current_thread() is threading.main_thread()


def catch_early() -> None:
    """Route both signals through `_handler` for the rest of the process (the console script)."""
    import sys  # (loaded with the interpreter)

    for sig in SIGNALS:
        signal.signal(sig, _handler)
    sys.unraisablehook = _Unraisable(sys.unraisablehook)


class _Unraisable:
    """`sys.unraisablehook` for a signal's exception that Python could not pass on.

    A signal may arrive while Python runs a weakref callback or a `__del__` (the import
    system's module locks have such callbacks): the exception `_handler` raises there
    is only printed, as "Exception ignored" with a traceback, and the run goes on as if
    nothing had come. Instead the signal is sent to the main thread again, from a thread
    of its own: from this hook, `raise_signal` or `interrupt_main` would run the handler
    at once, inside the hook, and lose it again. That thread runs once this one lets go
    (at its next wait, or after Python's switch interval of a few ms), long after the
    hook, so the handler runs at an ordinary line and the run ends as for any signal.
    Anything else is shown as usual.
    """

    def __init__(self, previous: Callable[[Any], object]) -> None:
        self.previous = previous

    def __call__(self, unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, (KeyboardInterrupt, Terminated)) and _received:
            import _thread  # (built in: `threading` would count the thread as running)

            try:
                # (typeshed asks for a signal.Signals; it takes the int, as `signal` does)
                _thread.start_new_thread(_thread.interrupt_main, (_received[-1],))  # type: ignore[arg-type]
                return
            except RuntimeError:  # no new thread (the interpreter is ending): say it as usual
                pass
        self.previous(unraisable)


def ignore() -> None:
    """Ignore both signals from now on (the process is only exiting)."""
    for sig in SIGNALS:
        signal.signal(sig, signal.SIG_IGN)


def install() -> _Swap:
    """Route SIGINT and SIGTERM through `_handler` for the duration of a run (a `with` block)."""
    _received.clear()
    return _Swap(_handler)


def received() -> int | None:
    """The first signal that arrived during this run, if any."""
    return _received[0] if _received else None


def exit_code() -> int | None:
    """130 after SIGINT, 143 after SIGTERM, None when no signal arrived."""
    sig = received()
    return EXIT_CODES.get(sig) if sig is not None else None


def deferred() -> _Swap:
    """Hold SIGINT and SIGTERM back inside the block (`with deferred():`); act on them after.

    Outside the main thread (a web worker) signals never reach this code, so
    there is nothing to defer.
    """
    return _Held()


class _Swap:
    """A `with` block in which both signals go to `handler`; the old handlers come back after.

    Outside the main thread nothing changes (signals only reach the main thread). A class,
    not a `contextlib` generator: the console's start does without importing contextlib.
    """

    def __init__(self, handler: Callable[[int, FrameType | None], None]) -> None:
        self.handler = handler
        self.old: dict[int, Any] = {}

    def __enter__(self) -> None:
        if not _in_main_thread():
            return
        try:
            for sig in SIGNALS:
                self.old[sig] = signal.signal(sig, self.handler)
        except BaseException:
            self.__exit__()
            raise

    def __exit__(self, *exc: object) -> None:
        for sig, previous in self.old.items():
            signal.signal(sig, previous)


class _Held(_Swap):
    """`deferred()`: signals in the block are noted, and raised once the old handlers are back."""

    def __init__(self) -> None:
        super().__init__(self._hold)
        self.pending: list[int] = []

    def _hold(self, signum: int, frame: FrameType | None) -> None:
        self.pending.append(signum)

    def __exit__(self, *exc: object) -> None:
        super().__exit__()
        if self.pending:
            signal.raise_signal(self.pending[0])  # now to whatever handler is back in force

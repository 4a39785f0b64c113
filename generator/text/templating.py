"""The Jinja2 sandbox every template runs in, with limits a user's template cannot break.

Templates are rendered in Jinja2's sandbox (no Python internals) with
`StrictUndefined`. On top of that, because `--catalog` lets anyone hand us
templates, every render is bounded:

- size: a text a template builds (a macro's result, a string from `*`, `+`,
  `%`, `format`, a filter or a string method) has at most `MAX_TEXT` characters;
  sizes are checked *before* the operation where Python would allocate them
  (repetition, concatenation, format widths), and after it otherwise;
- numbers: format widths and every whole-number argument of a filter or a
  string method at most `MAX_WIDTH`; `range` at most `MAX_RANGE` items; powers
  and products of huge integers are refused; `lipsum` is not offered;
- work: a user's template may execute `MAX_STEPS` lines of its code per `Texts`
  (all its macro calls together) — a count, not a clock, so the same template
  passes or fails alike on any machine under any load.

Any error a template causes — syntax, a missing include, the sandbox refusing
something, a division by zero, a wrong macro call, bytes that are not UTF-8,
a limit — becomes one `CatalogError` naming the template file and line.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from generator.core.errors import CatalogError, shown
from generator.core.resources import templates_dir

MAX_TEXT = 200_000  # characters; the longest shipped text (a rules page) has ~5,000
MAX_WIDTH = 10_000
MAX_RANGE = 10_000
MAX_INT_BITS = 10_000
MAX_STEPS = 10_000_000  # lines of a user's template code per Texts (about a second here)

_WIDE_PERCENT = re.compile(r"%[-+ #0]*(\*|\d{5,})|%[-+ #0]*\d*\.(\*|\d{5,})")
_WIDE_FORMAT = re.compile(r"\{[^{}]*:[^{}]*\d{5,}[^{}]*\}|\{[^{}]*:[^{}]*\{")


class TemplateLimit(Exception):
    """A template went past one of the limits (turned into a CatalogError with its line)."""


def _check_text(value: Any) -> Any:
    if isinstance(value, (str, list, tuple)) and len(value) > MAX_TEXT:
        raise TemplateLimit(f"a text or list longer than {MAX_TEXT:,} items")
    return value


def _check_int_args(args: Iterable[Any]) -> None:
    for arg in args:
        if isinstance(arg, int) and not isinstance(arg, bool) and abs(arg) > MAX_WIDTH:
            raise TemplateLimit(f"the number {shown(arg, 20)} is above the limit {MAX_WIDTH:,}")


def _check_format(text: Any) -> None:
    if isinstance(text, str) and (_WIDE_PERCENT.search(text) or _WIDE_FORMAT.search(text)):
        raise TemplateLimit(f"a format width above {MAX_WIDTH:,} (or one taken from a value)")


def bounded(func: Callable[..., Any]) -> Callable[..., Any]:
    """A filter or global with whole-number arguments and its result bounded."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        # the first argument of a filter is its value (or the context/environment)
        _check_int_args(args[1:])
        _check_int_args(kwargs.values())
        return _check_text(func(*args, **kwargs))

    return wrapper


def _format_filter(value: Any, *args: Any, **kwargs: Any) -> str:
    _check_format(value)
    _check_int_args(args)
    return _check_text(jinja2.filters.do_format(value, *args, **kwargs))


def _range(*args: int) -> range:
    rng = range(*args)
    if len(rng) > MAX_RANGE:
        raise TemplateLimit(f"a range of more than {MAX_RANGE:,} items")
    return rng


def _length(value: Any) -> int | None:
    return len(value) if isinstance(value, (str, list, tuple)) else None


class LimitedSandbox(SandboxedEnvironment):
    """Jinja2's sandbox with bounded sizes (see the module docstring)."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.filters = {name: bounded(f) for name, f in self.filters.items()}
        self.filters["format"] = _format_filter
        self.globals = {
            name: bounded(value) if callable(value) else value
            for name, value in self.globals.items()
            if name != "lipsum"
        }
        self.globals["range"] = _range

    @staticmethod
    def concat(parts: Iterable[str]) -> str:
        """Join a render's pieces, refusing a text longer than MAX_TEXT."""
        out, total = [], 0
        for part in parts:
            total += len(part)
            if total > MAX_TEXT:
                raise TemplateLimit(f"the text is longer than {MAX_TEXT:,} characters")
            out.append(part)
        return "".join(out)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            for seq, count in ((left, right), (right, left)):
                n = _length(seq)
                if n is not None and isinstance(count, int) and n * max(count, 0) > MAX_TEXT:
                    raise TemplateLimit(f"a repetition longer than {MAX_TEXT:,} items")
            both_ints = isinstance(left, int) and isinstance(right, int)
            if both_ints and left.bit_length() + right.bit_length() > MAX_INT_BITS:
                raise TemplateLimit("a product of huge numbers")
        elif operator == "**":
            if isinstance(left, int) and isinstance(right, int) and abs(left) > 1:
                if right > 0 and left.bit_length() * right > MAX_INT_BITS:
                    raise TemplateLimit("a power of more than 10,000 bits")
            elif isinstance(right, (int, float)) and abs(right) > MAX_WIDTH:
                raise TemplateLimit(f"an exponent above {MAX_WIDTH:,}")
        elif operator == "+":
            a, b = _length(left), _length(right)
            if a is not None and b is not None and a + b > MAX_TEXT:
                raise TemplateLimit(f"a text longer than {MAX_TEXT:,} characters")
        elif operator == "%" and isinstance(left, str):
            _check_format(left)
            _check_int_args(right if isinstance(right, tuple) else (right,))
        return _check_text(super().call_binop(context, operator, left, right))

    def getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, str) and attribute in ("format", "format_map"):
            _check_format(obj)
        return super().getattr(obj, attribute)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(getattr(__obj, "__self__", None), (str, bytes, list, tuple)):
            _check_int_args(args)  # str.center(10**9), str.zfill, list.pop …
            _check_int_args(kwargs.values())
        return _check_text(super().call(__context, __obj, *args, **kwargs))


def is_shipped(filename: str | None) -> bool:
    """Whether a template file is one of ours (not bounded in time: it is trusted)."""
    if not filename:
        return False
    return Path(os.path.realpath(filename)).is_relative_to(os.path.realpath(templates_dir()))


class Budget:
    """Lines of template code left for one user's template (shared by its macro calls)."""

    def __init__(self, steps: int | None = None) -> None:
        self.left = MAX_STEPS if steps is None else steps

    @contextmanager
    def running(self) -> Iterator[None]:
        """Count the lines the template executes; stop it when the budget is spent."""
        previous = sys.gettrace()

        def on_line(frame: FrameType, event: str, arg: Any) -> Any:
            self.left -= 1
            if self.left < 0:
                raise TemplateLimit(f"the template ran more than {MAX_STEPS:,} lines of code")
            return on_line

        def on_call(frame: FrameType, event: str, arg: Any) -> Any:
            # only the template's own compiled code is followed line by line
            return on_line if "__jinja_template__" in frame.f_globals else None

        sys.settrace(on_call)
        try:
            yield
        finally:
            sys.settrace(previous)


def template_position(tb: TracebackType | None) -> tuple[str | None, int | None]:
    """The innermost template file and line of a traceback (Jinja's own line mapping)."""
    file, line = None, None
    while tb is not None:
        template = tb.tb_frame.f_globals.get("__jinja_template__")
        if template is not None:
            file = template.filename or template.name
            line = template.get_corresponding_lineno(tb.tb_lineno)
        tb = tb.tb_next
    return file, line


def template_error(exc: Exception, file: str, label: Callable[[str], str] = str) -> CatalogError:
    """Any exception a template raised, as one line naming the template file and line."""
    if isinstance(exc, CatalogError):
        return exc
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = exc.filename or file
        return CatalogError(f"template syntax error: {exc.message}", file=label(where),
                            line=exc.lineno)  # fmt: skip
    found, line = template_position(exc.__traceback__)
    where = label(found or file)
    if isinstance(exc, jinja2.TemplateNotFound):
        what = f"includes or imports '{shown(exc.name)}', which does not exist"
    elif isinstance(exc, jinja2.exceptions.SecurityError):
        what = f"not allowed in a template: {exc}"
    elif isinstance(exc, TemplateLimit):
        what = f"template too big or too slow: {exc}"
    elif isinstance(exc, MemoryError):
        what = "template too big: out of memory"
    elif isinstance(exc, (jinja2.TemplateError,)):
        what = f"template error: {exc.message or type(exc).__name__}"
    else:
        what = f"template error: {type(exc).__name__}: {exc}"
    return CatalogError(what, file=where, line=line)


@contextmanager
def guarded(file: str, budget: Budget | None = None,
            label: Callable[[str], str] = str) -> Iterator[None]:  # fmt: skip
    """Run template code: bounded in work by `budget` (if given), errors as one CatalogError."""
    try:
        if budget is None:
            yield
        else:
            with budget.running():
                yield
    except Exception as exc:
        raise template_error(exc, file, label) from None

"""The Jinja2 sandbox every template runs in, with limits a user's template cannot break.

Templates are rendered in Jinja2's sandbox (no Python internals) with
`StrictUndefined`. On top of that, because `--catalog` lets anyone hand us
templates, every render is bounded:

- size: a text a template builds (a macro's result, a string from `~`, `*`, `+`,
  `%`, `format`, a filter, a string or list method, a `{{ value }}`) has at most
  `MAX_TEXT` characters, checked *before* the operation allocates it: `_size`
  bounds the length of a value's text (a list of long texts included) without
  building it, and every operator, filter and method that can make a text longer
  than its input is estimated first (`join`, `replace`, `indent`, `wordwrap`,
  `sum`, `translate`, `expandtabs`, `append`/`extend` …); all the texts one macro
  call makes together are at most `MAX_MADE` characters (a `map` over many long
  texts, a loop);
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
from contextvars import ContextVar
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.sandbox import SandboxedEnvironment

from generator.core.errors import CatalogError, Msg, shown
from generator.core.resources import templates_dir

MAX_TEXT = 200_000  # characters; the longest shipped text (a rules page) has ~5,000
MAX_WIDTH = 10_000
MAX_RANGE = 10_000
MAX_INT_BITS = 10_000
MAX_STEPS = 10_000_000  # lines of a user's template code per Texts (about a second here)
MAX_MADE = 50 * MAX_TEXT  # characters of all texts one macro call makes, kept or not
# the compiled code's own version: part of the bytecode cache's key (a change of the
# code generator below must not load code compiled without it)
COMPILED = 2

_WIDE_PERCENT = re.compile(r"%[-+ #0]*(\*|\d{5,})|%[-+ #0]*\d*\.(\*|\d{5,})")
_WIDE_FORMAT = re.compile(r"\{[^{}]*:[^{}]*\d{5,}[^{}]*\}|\{[^{}]*:[^{}]*\{")


class TemplateLimit(Exception):
    """A template went past one of the limits (turned into a CatalogError with its line)."""


_made: ContextVar[list[int] | None] = ContextVar("template_made", default=None)


def _size(value: Any, limit: int = MAX_TEXT) -> int:
    """An upper bound of `len(str(value))`, found without building it (stops past `limit`)."""
    total = 0
    seen: set[int] = set()
    stack = [(value, False)]
    while stack and total <= limit:
        item, inner = stack.pop()
        if isinstance(item, str):
            if inner and not (item.isprintable() and "\\" not in item and "'" not in item):
                total += len(repr(item)) if len(item) <= limit else 4 * len(item)
            else:
                total += len(item) + (2 if inner else 0)
        elif isinstance(item, bool) or item is None:
            total += 5
        elif isinstance(item, int):
            total += item.bit_length() // 3 + 2
        elif isinstance(item, float):
            total += 25
        elif isinstance(item, (list, tuple, set, frozenset, dict)):
            if id(item) in seen:  # a list that contains itself: "[...]"
                total += 5
                continue
            seen.add(id(item))
            total += 2 + 2 * len(item)
            if len(item) > limit:
                return limit + 1
            parts = [p for kv in item.items() for p in kv] if isinstance(item, dict) else item
            stack.extend((part, True) for part in parts)
        else:
            total += len(str(item))
    return total


def _made_now(size: int, what: str = "a text") -> None:
    """Refuse a text of `size` characters before it is made, and count it for the call."""
    if size > MAX_TEXT:
        raise TemplateLimit(f"{what} longer than {MAX_TEXT:,} characters")
    made = _made.get()
    if made is not None:
        made[0] += size
        if made[0] > MAX_MADE:
            raise TemplateLimit(f"more than {MAX_MADE:,} characters of text made in one call")


def _check_text(value: Any) -> Any:
    if isinstance(value, (str, list, tuple)) and len(value) > MAX_TEXT:
        raise TemplateLimit(f"a text or list longer than {MAX_TEXT:,} items")
    return value


def _replaced(text: str, old: Any, new: Any, count: Any = None) -> int:
    """The length of `text.replace(old, new, count)`."""
    old, new = str(old), str(new)
    found = len(text) + 1 if not old else text.count(old)
    if isinstance(count, int) and count >= 0:
        found = min(found, count)
    return len(text) + found * max(0, len(new) - len(old))


def _items(value: Any) -> list[Any] | None:
    """The items of a sequence a filter or method would walk (None: not one)."""
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        return list(value)
    return None


def _join_size(items: list[Any], sep: Any) -> int:
    return sum(_size(item) for item in items) + len(str(sep)) * max(0, len(items) - 1)


def _text_of(value: Any) -> str:
    """`value` as the text a filter works on, refused before it is made when too long."""
    if isinstance(value, str):
        return value
    _made_now(_size(value))  # a list's text can be far longer than the list itself
    return str(value)


def _filter_size(name: str, value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    """The most characters filter `name` can make of `value` (0: it makes no long text)."""
    if name == "join":
        items = _items(value)
        sep = args[0] if args else kwargs.get("d", "")
        return _join_size(items, sep) if items is not None else _size(value)
    if name == "replace" and len(args) >= 2:
        return _replaced(_text_of(value), *args[:3])
    if name == "indent":
        width = args[0] if args else kwargs.get("width", 4)
        width = len(width) if isinstance(width, str) else int(width)
        text = _text_of(value)
        return len(text) + (text.count("\n") + 1) * max(0, width)
    if name == "wordwrap":
        text = _text_of(value)
        width = args[0] if args else kwargs.get("width", 79)
        wrap = args[2] if len(args) > 2 else kwargs.get("wrapstring") or "\n"
        breaks = text.count(" ") + text.count("\n") + len(text) // max(1, int(width)) + 1
        return len(text) + breaks * len(str(wrap))
    if name == "sum":
        start = args[1] if len(args) > 1 else kwargs.get("start", 0)
        items = _items(value)
        if isinstance(start, (list, tuple)) and items is not None:
            return len(start) + sum(len(i) if isinstance(i, (list, tuple)) else 1 for i in items)
        return 0
    if name in ("urlencode",):
        return 12 * _size(value)
    if name in ("e", "escape", "forceescape", "tojson", "xmlattr", "urlize"):
        return 6 * _size(value)
    if name in ("length", "count", "first", "last", "default", "d", "random", "attr"):
        return 0
    return _size(value)


def _method_size(obj: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    """The most characters (or items) method `name` of `obj` can make (0: none of note)."""
    if isinstance(obj, str):
        if name == "join" and args:
            items = _items(args[0])
            return _join_size(items, obj) if items is not None else 0
        if name == "replace" and len(args) >= 2:
            return _replaced(obj, *args[:3])
        if name == "expandtabs":
            size = args[0] if args else kwargs.get("tabsize", 8)
            return len(obj) + obj.count("\t") * max(0, int(size))
        if name in ("format", "format_map"):
            values = [*args, *kwargs.values()]
            if name == "format_map" and args and isinstance(args[0], dict):
                values = list(args[0].values())
            longest = max((_size(v) for v in values), default=0)
            return len(obj) + obj.count("{") * longest
        if name == "translate" and args and isinstance(args[0], dict):
            longest = max((_size(v) for v in args[0].values() if isinstance(v, str)), default=1)
            return len(obj) * max(1, longest)
        return len(obj)
    if isinstance(obj, (list, set, dict)):
        if name in ("append", "add", "insert", "setdefault"):
            return len(obj) + 1
        if name in ("extend", "update") and args:
            items = _items(args[0])
            return len(obj) + (len(items) if items is not None else 0)
    return 0


def _check_int_args(args: Iterable[Any]) -> None:
    for arg in args:
        if isinstance(arg, int) and not isinstance(arg, bool) and abs(arg) > MAX_WIDTH:
            raise TemplateLimit(f"the number {shown(arg, 20)} is above the limit {MAX_WIDTH:,}")


def _check_format(text: Any) -> None:
    if isinstance(text, str) and (_WIDE_PERCENT.search(text) or _WIDE_FORMAT.search(text)):
        raise TemplateLimit(f"a format width above {MAX_WIDTH:,} (or one taken from a value)")


def bounded(func: Callable[..., Any], name: str = "") -> Callable[..., Any]:
    """A filter or global with whole-number arguments and its result bounded.

    `name`: the filter's, whose result is estimated (`_filter_size`) before it is made.
    """
    # the first argument of a filter is its value, after the context or environment
    value_at = 1 if getattr(func, "jinja_pass_arg", None) is not None else 0

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _check_int_args(args[1:])
        _check_int_args(kwargs.values())
        if name and len(args) > value_at:
            size = _filter_size(name, args[value_at], args[value_at + 1 :], kwargs)
            _made_now(size, f"the {name} filter: a text")
        return _check_text(func(*args, **kwargs))

    return wrapper


def _format_filter(value: Any, *args: Any, **kwargs: Any) -> str:
    _check_format(value)
    _check_int_args(args)
    _made_now(_method_size(str(value), "format", args, kwargs), "the format filter: a text")
    return _check_text(jinja2.filters.do_format(value, *args, **kwargs))


def _output(value: Any) -> Any:
    """Every `{{ value }}`: its text bounded before it is made (a list of long texts)."""
    if not isinstance(value, str):
        _made_now(_size(value), "a printed value")
    return value


class _CodeGenerator(CodeGenerator):
    """Jinja2's code generator with `~` bounded: its pieces are measured before the join."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        if frame.eval_ctx.volatile:
            func_name = "(markup_join if context.eval_ctx.volatile else str_join)"
        elif frame.eval_ctx.autoescape:
            func_name = "markup_join"
        else:
            func_name = "str_join"
        self.write(f"{func_name}(environment.concat_parts((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write(")))")


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
    code_generator_class = _CodeGenerator

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, finalize=_output, **kwargs)
        self.filters = {name: bounded(f, name) for name, f in self.filters.items()}
        self.filters["format"] = _format_filter
        self.globals = {
            name: bounded(value) if callable(value) else value
            for name, value in self.globals.items()
            if name != "lipsum"
        }
        self.globals["range"] = _range

    @staticmethod
    def concat_parts(parts: tuple[Any, ...]) -> tuple[Any, ...]:
        """The pieces of a `~`, refused before the join when their text is too long."""
        _made_now(sum(_size(part) for part in parts), "a ~ of texts")
        return parts

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
            values = right if isinstance(right, tuple) else (right,)
            _check_int_args(values)
            longest = max((_size(v) for v in values), default=0)
            _made_now(len(left) + left.count("%") * longest, "a % format: a text")
        return _check_text(super().call_binop(context, operator, left, right))

    def getattr(self, obj: Any, attribute: str) -> Any:
        found = super().getattr(obj, attribute)
        if isinstance(obj, str) and attribute in ("format", "format_map") and callable(found):
            _check_format(obj)

            # (the sandbox's own formatter, not a str method: `call` cannot measure it)
            def measured(*args: Any, **kwargs: Any) -> Any:
                _made_now(_method_size(obj, attribute, args, kwargs), f"{attribute}(): a text")
                return _check_text(found(*args, **kwargs))

            return measured
        return found

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        owner = getattr(__obj, "__self__", None)
        if isinstance(owner, (str, bytes, list, tuple, set, dict)):
            _check_int_args(args)  # str.center(10**9), str.zfill, list.pop …
            _check_int_args(kwargs.values())
            name = getattr(__obj, "__name__", "")
            first = args[0] if args else None
            walked = name in ("join", "extend", "update") and _items(first) is None
            if walked and isinstance(first, Iterable) and not isinstance(first, str):
                args = (list(first), *args[1:])  # (a generator: walked once, to be measured)
            _made_now(_method_size(owner, name, args, kwargs), f"{name}(): a text or list")
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
            if file == "<template>":  # compiled from a string, nameless: the caller's name
                file = None
            line = template.get_corresponding_lineno(tb.tb_lineno)
        tb = tb.tb_next
    return file, line


def template_error(exc: Exception, file: str, label: Callable[[str], str] = str) -> CatalogError:
    """Any exception a template raised, as one line naming the template file and line."""
    if isinstance(exc, CatalogError):
        return exc
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = exc.filename or file
        return CatalogError(Msg("template_syntax_error", message=exc.message), file=label(where),
                            line=exc.lineno)  # fmt: skip
    found, line = template_position(exc.__traceback__)
    where = label(found or file)
    if isinstance(exc, jinja2.TemplateNotFound):
        what = Msg("template_not_found", name=shown(exc.name))
    elif isinstance(exc, jinja2.exceptions.SecurityError):
        what = Msg("template_not_allowed", reason=str(exc))
    elif isinstance(exc, TemplateLimit):
        what = Msg("template_too_big_or_slow", reason=str(exc))
    elif isinstance(exc, MemoryError):
        what = Msg("template_out_of_memory")
    elif isinstance(exc, (jinja2.TemplateError,)):
        what = Msg("template_error", reason=exc.message or type(exc).__name__)
    else:
        what = Msg("template_error", reason=f"{type(exc).__name__}: {exc}")
    return CatalogError(what, file=where, line=line)


@contextmanager
def guarded(file: str, budget: Budget | None = None,
            label: Callable[[str], str] = str) -> Iterator[None]:  # fmt: skip
    """Run template code: bounded in work by `budget` (if given), errors as one CatalogError."""
    token = _made.set([0])
    try:
        if budget is None:
            yield
        else:
            with budget.running():
                yield
    except Exception as exc:
        raise template_error(exc, file, label) from None
    finally:
        _made.reset(token)

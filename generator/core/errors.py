"""The one base exception for "the user gave us something wrong", and its message.

The CLI turns a `UserError` into a single line on stderr and exit status 2.
Every other exception is a bug and may show a traceback (exit status 1).
What went wrong is a `Msg`: a code and its parameters (the value, the limits …);
its words are the macro of that code in `templates/<lang>/errors.j2` (`say`), so the
CLI says it in English and the web page in the page's language. A message is always
one line of bounded length: control characters are shown escaped and long values
are shortened, whatever the caller put in.
"""

from __future__ import annotations

import errno
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import re
    from typing import Any

SHOWN_CHARS = 60  # a quoted value: enough to recognise it, never a wall of text
MESSAGE_CHARS = 400  # a whole message (position + what was found + what was expected)

_CONTROL = r"[\x00-\x1f\x7f-\x9f\u2028\u2029]"  # compiled on the first message, not at start


def _escape(char: re.Match[str]) -> str:
    code = ord(char.group())
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char.group(), f"\\x{code:02x}")


def one_line(text: str, limit: int = MESSAGE_CHARS) -> str:
    """`text` on one line (control characters escaped), at most `limit` characters."""
    import re  # a plain `numbers solve` makes no message: its start does without `re`

    text = re.sub(_CONTROL, _escape, text)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")  # lone surrogates from argv
    if len(text) <= limit:
        return text
    head = limit * 3 // 4
    return f"{text[:head]} … {text[len(text) - (limit - head - 3) :]}"


def shown(value: Any, limit: int = SHOWN_CHARS) -> str:
    """A value as messages quote it: one line, shortened in the middle when long."""
    return one_line(str(value), limit)


class Msg:
    """What went wrong, as a code and its parameters: `Msg("range", low=1, high=8, found=9)`.

    The words are the macro `code` of `templates/<lang>/errors.j2` (a parameter may be a
    `Msg` itself, said in the same language); a test checks that every code has its
    macro in every language.
    """

    __slots__ = ("code", "params")

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params

    def say(self, lang: str = "en") -> str:
        """The message in `lang` (one line, bounded)."""
        return one_line(say(self, lang))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.code, self.params) == (other.code, other.params)

    def __hash__(self) -> int:
        return hash(self.code)

    def __repr__(self) -> str:
        return f"Msg({self.code!r}, **{self.params!r})"


_SOURCES: dict[str, tuple[str, dict[str, str]]] = {}  # lang → errors.j2's preamble, macros
_MACROS: dict[tuple[str, str], Any] = {}  # (lang, code) → the compiled macro, made on first use


def thousands(value: int, lang: str) -> str:
    """A whole number with its thousands marked as the language writes them (1,000 / 1.000)."""
    text = f"{value:,}"
    return text.replace(",", ".") if lang == "de" else text


def _source(lang: str) -> tuple[str, dict[str, str]]:
    """errors.j2 of `lang`: what every macro may use (a `{% set %}`), and each macro's line."""
    found = _SOURCES.get(lang)
    if found is None:
        import re

        import jinja2

        # the program's own words, shipped beside the code like its fonts (a catalog does not
        # change them); read when the first message is said, so a run without one does without
        from generator.core.resources import templates_dir

        loader = jinja2.FileSystemLoader(str(templates_dir()))
        text = loader.get_source(jinja2.Environment(), f"{lang}/errors.j2")[0]
        text = re.sub(r"\{#.*?#\}", "", text, flags=re.S)
        line = r"^\{% macro (\w+)\(.*$"  # one macro a line (a test checks)
        macros = {m.group(1): m.group(0) for m in re.finditer(line, text, re.M)}
        preamble = re.sub(line, "", text, flags=re.M)
        found = _SOURCES[lang] = (preamble, macros)
    return found


def _macro(lang: str, code: str) -> Any:
    """The macro `code` of `lang`'s errors.j2, compiled alone (the whole file takes far
    longer, and a run says one message or a few)."""
    macro = _MACROS.get((lang, code))
    if macro is None:
        import jinja2

        preamble, macros = _source(lang)
        if code not in macros:
            raise KeyError(f"templates/{lang}/errors.j2 has no macro {code!r}")
        env = jinja2.Environment(
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=False,
        )
        env.filters["thousands"] = lambda value: thousands(value, lang)
        module = env.from_string(preamble + macros[code]).module
        macro = _MACROS[(lang, code)] = getattr(module, code)
    return macro


def _said(value: Any, lang: str) -> Any:
    if isinstance(value, Msg):
        return say(value, lang)
    if isinstance(value, (list, tuple)):
        return [_said(v, lang) for v in value]
    return value


def say(msg: Msg, lang: str) -> str:
    """The words of `msg` in `lang` (`en` or `de`): the macro `msg.code` of
    `templates/<lang>/errors.j2`; a `Msg` among its parameters (or in a list of them) is
    said first, in the same language."""
    params = {k: _said(v, lang) for k, v in msg.params.items()}
    return str(_macro(lang, msg.code)(**params))


def codes(lang: str) -> dict[str, tuple[str, ...]]:
    """Every code of `lang`'s errors.j2 with its parameters' names (the tests compare them)."""
    return {code: tuple(_macro(lang, code).arguments) for code in _source(lang)[1]}


class Note(str):
    """A warning: its line in English (as the CLI prints it), and its `msg` for a page in
    another language. Made only when there is something to warn about."""

    msg: Msg

    def __new__(cls, msg: Msg) -> Note:
        note = super().__new__(cls, msg.say("en"))
        note.msg = msg
        return note

    @classmethod
    def of(cls, exc: UserError) -> Note:
        """An error as a line of a list of problems (`validate`): `where: message`."""
        note = super().__new__(cls, str(exc))
        note.msg = Msg("at", where=exc.where, what=exc.msg) if exc.where else exc.msg
        return note

    def __reduce__(self) -> tuple[Any, ...]:
        return (Note, (self.msg,))


def text_of(message: Msg | str) -> Msg:
    """A message as a `Msg` (a plain string, as a test or a caller outside may give, is
    the code `text`: shown as it is, in every language)."""
    return message if isinstance(message, Msg) else Msg("text", text=message)


class Input(str):
    """A `where` that is an input of a build (`Input("level")`), not a file position.

    The CLI names the option that sets it; elsewhere it reads as the input's name.
    """

    __slots__ = ()


class UserError(Exception):
    """Bad input: an option, a file, a line or a key that is not what was expected."""

    def __init__(self, message: Msg | str, *, where: str | None = None) -> None:
        self.msg = text_of(message)
        super().__init__(self.msg)
        # an input's name is short and ours; a position may quote what the user typed
        self.where = where if isinstance(where, Input) or not where else one_line(where, 200)

    def __reduce__(self) -> tuple[Any, ...]:
        # to cross a process boundary (the web page's build pool) with every attribute
        return (_rebuilt, (type(self), self.__dict__))

    @property
    def code(self) -> str:
        return self.msg.code

    @property
    def params(self) -> dict[str, Any]:
        return self.msg.params

    @property
    def message(self) -> str:
        """The message in English, as the CLI prints it after the `where`."""
        return self.msg.say("en")

    def say(self, lang: str) -> str:
        """The message (without the `where`) in `lang`."""
        return self.msg.say(lang)

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


def _rebuilt(cls: type[UserError], state: dict[str, Any]) -> UserError:
    exc = cls.__new__(cls)
    Exception.__init__(exc, state["msg"])
    exc.__dict__.update(state)
    return exc


class OptionError(UserError):
    """A command-line option has a value that cannot be used."""

    def __init__(self, option: str, message: Msg | str) -> None:
        super().__init__(message, where=f"option {option}")
        self.option = option


class CatalogError(UserError):
    """A YAML file (shipped catalog or a user's own) is malformed or means nothing sensible."""

    def __init__(
        self, message: Msg | str, *, file: str, line: int | None = None, column: int | None = None
    ) -> None:
        where = file if line is None else f"{file}:{line}" + (f":{column}" if column else "")
        super().__init__(message, where=where)
        self.file = file
        self.line = line
        self.column = column


def os_reason(exc: OSError) -> Msg:
    """The reason of an operating-system error: its errno's name (`ENOENT`), which the
    templates say in their language, and the system's own English words as a fallback."""
    code = errno.errorcode.get(exc.errno or 0, "") if isinstance(exc.errno, int) else ""
    return Msg("os_error", reason=exc.strerror or type(exc).__name__, code=code)


def os_error(exc: OSError, path: Any = None) -> UserError:
    """An operating-system error as one line naming the path and the reason."""
    name = path if path is not None else (exc.filename or "?")
    return UserError(os_reason(exc), where=str(name))


class InputError(UserError):
    """One input of a build has a value that cannot be used.

    `subject` says which input ("players", "paper", "pdf" for the output file …);
    the CLI maps it to the option that sets it, so the core never names a flag.
    """

    def __init__(self, subject: str, message: Msg | str) -> None:
        super().__init__(message, where=Input(subject))
        self.subject = subject


class DoesNotFit(InputError):
    """A layout that does not fit its page: what needed how much room, and what the page has.

    `needed` and `available` are in millimetres (a length across or down the page);
    `remedies` names other inputs that would make room (the CLI turns them into options).
    """

    def __init__(
        self,
        subject: str,
        message: Msg | str,
        needed: float,
        available: float,
        remedies: tuple[str, ...] = (),
    ) -> None:
        super().__init__(subject, message)
        self.needed = needed
        self.available = available
        self.remedies = remedies

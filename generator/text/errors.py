"""An error's words: the macro of its code in `templates/<lang>/errors.j2`.

A `generator.core.errors.Msg` is a code and its parameters; `say(msg, lang)`
calls the macro of that code with the parameters (a parameter that is a `Msg`
is said first, in the same language). The CLI says every message in English,
the web page in the page's language. These are the program's own words: a
user's catalog does not change them (like `cli.j2`), so they are read from the
shipped templates, once per language, when the first message is said.
"""

from __future__ import annotations

from generator.core import errors

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy reads True
if TYPE_CHECKING:
    from typing import Any

    from generator.core.errors import Msg

_MODULES: dict[str, Any] = {}  # lang → the template module of errors.j2, made on first use


def thousands(value: int, lang: str) -> str:
    """A whole number with its thousands marked as the language writes them (1,000 / 1.000)."""
    text = f"{value:,}"
    return text.replace(",", ".") if lang == "de" else text


def _module(lang: str) -> Any:
    module = _MODULES.get(lang)
    if module is None:
        import jinja2  # only when a message is said: a run without errors does without

        from generator.io.resources import templates_dir

        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(templates_dir())),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=False,
        )
        env.filters["thousands"] = lambda value: thousands(value, lang)
        module = _MODULES[lang] = env.get_template(f"{lang}/errors.j2").module
    return module


def _said(value: Any, lang: str) -> Any:
    if isinstance(value, errors.Msg):
        return say(value, lang)
    if isinstance(value, (list, tuple)):
        return [_said(v, lang) for v in value]
    return value


def say(msg: Msg, lang: str) -> str:
    """The words of `msg` in `lang` (`en` or `de`); a `Msg` among its parameters (or in a
    list of them) is said first."""
    params = {k: _said(v, lang) for k, v in msg.params.items()}
    macro = getattr(_module(lang), msg.code, None)
    if macro is None:
        raise KeyError(f"templates/{lang}/errors.j2 has no macro {msg.code!r}")
    return str(macro(**params))


def codes(lang: str) -> dict[str, tuple[str, ...]]:
    """Every code of `lang`'s errors.j2 with its parameters' names (the tests compare them)."""
    module = _module(lang)
    return {
        name: tuple(macro.arguments)
        for name in dir(module)
        if not name.startswith("_") and callable(macro := getattr(module, name))
        and hasattr(macro, "arguments")
    }  # fmt: skip


errors.SAY = say

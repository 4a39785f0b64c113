"""All visible words come from Jinja2 templates in `templates/<lang>/`.

A template file holds one macro per piece of text; `Texts` calls them by
name. The environment is sandboxed and uses `StrictUndefined`, so a typo in a
template is an error, not a blank, and a template cannot reach Python internals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generator.errors import CatalogError, UserError
from generator.templating import (
    Budget,
    LimitedSandbox,
    guarded,
    is_shipped,
    make_environment,
    number,
    percent,
)

__all__ = ["LANGS", "Texts", "default_environment", "make_environment", "number", "percent"]

LANGS = ("de", "en")

_ENVIRONMENTS: dict[Path | None, LimitedSandbox] = {}


def default_environment() -> LimitedSandbox:
    """The environment for this run: the user's `<catalog>/templates` first, if present."""
    from generator.catalog import user_catalog

    user = user_catalog()
    if user not in _ENVIRONMENTS:
        extra = [user / "templates"] if user is not None and (user / "templates").is_dir() else []
        _ENVIRONMENTS[user] = make_environment(extra)
    return _ENVIRONMENTS[user]


class Texts:
    """The macros of one template file (`templates/<lang>/<name>.j2`), called by name."""

    def __init__(self, name: str, lang: str, env: LimitedSandbox | None = None) -> None:
        if lang not in LANGS:
            raise UserError(f"expected one of {', '.join(LANGS)}, found '{lang}'", where="--lang")
        self.lang = lang
        self.env = env or default_environment()
        self.path = f"{lang}/{name}.j2"
        with guarded(self.path):
            template = self.env.get_template(self.path)
        # a user's template is bounded in time; the shipped ones are trusted (and fast)
        self._budget = None if is_shipped(template.filename) else Budget()
        self._file = template.filename or self.path
        with guarded(self._file, self._budget):
            self._module = template.make_module({"lang": lang})

    def _render(self, key: str, values: dict[str, Any]) -> str:
        macro = getattr(self._module, key, None)
        if macro is None:
            raise CatalogError(f"template has no macro '{key}'", file=self._file)
        with guarded(self._file, self._budget):
            return str(macro(**values))

    def __call__(self, key: str, **values: Any) -> str:
        """The text of macro `key`, rendered with `values`, whitespace-trimmed."""
        return " ".join(self._render(key, values).split())

    def paragraphs(self, key: str, **values: Any) -> list[str]:
        """A longer text split into paragraphs at blank lines (each paragraph one line)."""
        blocks = [" ".join(block.split()) for block in self._render(key, values).split("\n\n")]
        return [b for b in blocks if b]

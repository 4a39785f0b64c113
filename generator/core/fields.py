"""Typed access to loaded catalog data, with the position of every key (no file is read here).

`LocDict` / `LocList` are what `generator.io.yamlload` makes of a YAML file's
mappings and lists; `Fields` checks one mapping key by key and raises a
`CatalogError` that points at the line. The games parse their files' data with
these; reading the files is the edge's work (`generator.io`, `generator.load`).
"""

from __future__ import annotations

import re
from typing import Any

from generator.core.errors import CatalogError, shown
from generator.core.langs import LANGS

# every id that can reach a file name (rule sets, profiles, families): one safe pattern
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


class LocDict(dict):
    """A dict that knows the file position of each key."""

    file: str = "?"
    line: int = 0
    column: int = 0
    key_pos: dict[Any, tuple[int, int]]

    def where(self, key: Any = None) -> tuple[int, int]:
        if key is not None and key in self.key_pos:
            return self.key_pos[key]
        return (self.line, self.column)


class LocList(list):
    """A list that knows the file position of each item."""

    file: str = "?"
    line: int = 0
    column: int = 0
    item_pos: list[tuple[int, int]]

    def where(self, index: int | None = None) -> tuple[int, int]:
        if index is not None and 0 <= index < len(self.item_pos):
            return self.item_pos[index]
        return (self.line, self.column)


Position = tuple[int | None, int | None]


def position(data: object, key: Any = None) -> Position:
    """Where `key` of a loaded mapping or list stood (else the node itself); unknown: None."""
    if isinstance(data, (LocDict, LocList)):
        return data.where(key)
    return (None, None)


class Fields:
    """Typed access to one mapping of a YAML file, with positioned error messages."""

    _MISSING = object()

    def __init__(self, data: Any, file: str, context: str = "") -> None:
        self.file = getattr(data, "file", file)
        self.context = context
        if not isinstance(data, dict):
            line, col = getattr(data, "line", None), getattr(data, "column", None)
            raise CatalogError(
                f"{context or 'document'}: expected a mapping, found {_kind(data)}",
                file=self.file,
                line=line,
                column=col,
            )
        self.data = data

    def position(self, key: Any = None) -> Position:
        """Where `key` stood in the file (the mapping itself without a key, or if absent)."""
        return position(self.data, key)

    def place(self, key: str) -> str:
        """`file:line:column (context.key)`: a `where` for errors raised after loading."""
        line, column = self.position(key)
        at = f"{self.file}:{line}:{column}" if line else self.file
        return f"{at} ({self._label(key)})"

    def error(self, key: Any, message: str) -> CatalogError:
        line, col = self.position(key)
        return CatalogError(message, file=self.file, line=line, column=col)

    def _label(self, key: Any) -> str:
        return f"{self.context}.{key}" if self.context else str(key)

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = _MISSING) -> Any:
        """The value under `key`, checked to be of `kind` (bool is never an int)."""
        if key not in self.data:
            if default is not self._MISSING:
                return default
            raise self.error(None, f"missing key '{self._label(key)}'")
        value = self.data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            names = " or ".join(_type_name(k) for k in kinds)
            raise self.error(
                key, f"key '{self._label(key)}': expected {names}, found {_kind(value)}"
            )
        return value

    def int_in(self, key: str, low: int, high: int, default: Any = _MISSING) -> int:
        value = self.get(key, int, default)
        if not low <= value <= high:
            raise self.error(
                key,
                f"key '{self._label(key)}': expected a whole number {low}–{high}, found {value}",
            )
        return value

    def ident(self, key: str, kind: type | tuple[type, ...] = str) -> str:
        """An id under `key` that is safe in a file name: lower-case letters, digits, - and _."""
        value = str(self.get(key, kind))
        if not ID_PATTERN.fullmatch(value):
            raise self.error(
                key,
                f"key '{self._label(key)}': expected an id of 1–40 lower-case letters, digits, "
                f"'-' and '_' (starting with a letter or digit), found '{shown(value)}'",
            )
        return value

    def choice(self, key: str, choices: tuple[str, ...], default: Any = _MISSING) -> str:
        value = self.get(key, str, default)
        if value not in choices:
            raise self.error(
                key,
                f"key '{self._label(key)}': expected one of {', '.join(choices)}, found '{value}'",
            )
        return value

    def texts(self, key: str, default: Any = _MISSING, plain: bool = False) -> dict[str, str]:
        """The text under `key` in every language, `{de: …, en: …}` (`plain`: or one for all)."""
        if key not in self.data and default is not self._MISSING:
            return default
        value = self.get(key, (str, dict) if plain else dict)
        if isinstance(value, dict):
            sub = Fields(value, self.file, self._label(key))
            sub.unknown_keys(set(LANGS))
            return sub.lang_texts()
        if not value.strip():
            raise self.error(key, f"key '{self._label(key)}': expected a text, found nothing")
        return dict.fromkeys(LANGS, value)

    def lang_texts(self) -> dict[str, str]:
        """This mapping's keys `de`, `en` …: a text in every language, none blank."""
        texts = {lang: self.get(lang, str) for lang in LANGS}
        for lang, text in texts.items():
            if not text.strip():
                raise self.error(lang, f"key '{self._label(lang)}': expected a text, found nothing")
        return texts

    def unknown_keys(self, allowed: set[str]) -> None:
        for key in self.data:
            if key not in allowed:
                expected = ", ".join(sorted(allowed))
                raise self.error(
                    key, f"unknown key '{self._label(key)}' (expected one of {expected})"
                )


def _type_name(kind: type) -> str:
    return {
        int: "a whole number",
        float: "a number",
        str: "text",
        bool: "true or false",
        dict: "a mapping",
        list: "a list",
    }.get(kind, kind.__name__)


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"'{str(value).lower()}'"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text '{shown(value)}'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__

"""Safe YAML loading that remembers where every key and item stood.

Mappings load as `LocDict`, sequences as `LocList`; both can say `where(key)`
as `file:line:column`, so validation messages point at the exact spot.
Hostile files (huge, alias bombs, deep nesting, Python object tags) are
refused quickly with a `CatalogError`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner

from generator.errors import CatalogError, shown
from generator.text import LANGS

MAX_BYTES = 2_000_000
MAX_DEPTH = 40
MAX_ALIASES = 100
# values after aliases are expanded: a few aliases can stand for 10**10 items, and every
# consumer (validation, cache keys, JSON) walks the expanded tree
MAX_NODES = 200_000
# control characters in a text value (tab and line breaks are text); a NUL would also
# break any file name the value reaches
# every id that can reach a file name (rule sets, profiles, families): one safe pattern
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_CONTROL_IN_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


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


def _pos(node: yaml.Node) -> tuple[int, int]:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


_CParser: Any
try:  # libyaml, PyYAML's optional C parser: the same events about 8× faster
    from yaml import _yaml

    _CParser = _yaml.CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _CParser = None


class _Constructor(SafeConstructor):
    """The safe constructor building LocDict/LocList (constructors registered below)."""


class _Checks(Composer):
    """Composes the nodes in Python on either parser, counting aliases and depth.

    Composing here rather than in libyaml's own composer keeps these checks (and a
    Python recursion limit instead of C recursion) on both paths.
    """

    file: str
    alias_count: int
    # provided by the parser the composer is mixed with (PyYAML's stubs do not say so)
    check_event: Callable[..., bool]
    peek_event: Callable[[], Any]

    def _start(self, file: str) -> None:
        self.file = file
        self.alias_count = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            self.alias_count += 1
            if self.alias_count > MAX_ALIASES:
                event = self.peek_event()
                raise CatalogError(
                    f"more than {MAX_ALIASES} YAML aliases; refusing a possible alias bomb",
                    file=self.file,
                    line=event.start_mark.line + 1,
                    column=event.start_mark.column + 1,
                )
        depth = getattr(self, "_depth", 0)
        if depth > MAX_DEPTH:
            event = self.peek_event()
            raise CatalogError(
                f"nesting deeper than {MAX_DEPTH} levels",
                file=self.file,
                line=event.start_mark.line + 1,
                column=event.start_mark.column + 1,
            )
        self._depth = depth + 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth = depth


class _Loader(_Checks, Reader, Scanner, Parser, _Constructor, Resolver):
    """The pure-Python path: PyYAML's own reader, scanner and parser."""

    def __init__(self, stream: str, file: str) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        _Checks.__init__(self)
        _Constructor.__init__(self)
        Resolver.__init__(self)
        self._start(file)


if _CParser is not None:

    class _FastLoader(_Checks, _CParser, _Constructor, Resolver):
        """libyaml's parser under the same composer, constructor and resolver."""

        def __init__(self, stream: str, file: str) -> None:
            _CParser.__init__(self, stream)
            _Checks.__init__(self)
            _Constructor.__init__(self)
            Resolver.__init__(self)
            self._start(file)


def _loader_class(text: str) -> type[_Loader] | type[_Checks]:
    """libyaml when present, else pure Python.

    Text with characters the pure reader refuses, or with tabs (libyaml accepts a tab
    after "key:", PyYAML does not), goes the pure way: a file loads or fails alike on
    every machine, with the same message.
    """
    if _CParser is None or "\t" in text or Reader.NON_PRINTABLE.search(text):
        return _Loader
    return _FastLoader


def _construct_mapping(loader: Any, node: yaml.MappingNode) -> LocDict:
    result = LocDict()
    result.file = loader.file
    result.line, result.column = _pos(node)
    result.key_pos = {}
    loader.flatten_mapping(node)
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            line, col = _pos(key_node)
            raise CatalogError(
                "a mapping key must be a plain value", file=loader.file, line=line, column=col
            ) from None
        if key in result:
            line, col = _pos(key_node)
            raise CatalogError(
                f"key '{key}' appears twice", file=loader.file, line=line, column=col
            )
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_pos[key] = _pos(key_node)
    return result


def _construct_sequence(loader: Any, node: yaml.SequenceNode) -> LocList:
    result = LocList(loader.construct_object(child, deep=True) for child in node.value)
    result.file = loader.file
    result.line, result.column = _pos(node)
    result.item_pos = [_pos(child) for child in node.value]
    return result


def _construct_text(loader: Any, node: yaml.ScalarNode) -> str:
    value = loader.construct_scalar(node)
    if bad := _CONTROL_IN_TEXT.search(value):
        line, col = _pos(node)
        raise CatalogError(
            f"control character U+{ord(bad.group()):04X} in a text value", file=loader.file,
            line=line, column=col,
        )  # fmt: skip
    return value


def _expanded_size(root: yaml.Node) -> int:
    """How many nodes the document has once every alias is replaced by what it names."""
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        if isinstance(node, yaml.ScalarNode):
            sizes[id(node)] = 1
            continue
        children = (
            [n for pair in node.value for n in pair]
            if isinstance(node, yaml.MappingNode)
            else list(node.value)
        )
        if children_done:
            sizes[id(node)] = min(MAX_NODES + 1, 1 + sum(sizes[id(c)] for c in children))
        else:
            stack.append((node, True))
            stack.extend((c, False) for c in children if id(c) not in sizes)
    return sizes[id(root)]


def _document(loader: Any, file: str) -> Any:
    """The one document of `loader`, refused when its aliases expand it beyond MAX_NODES."""
    node = loader.get_single_node()
    if node is None:
        return None
    if _expanded_size(node) > MAX_NODES:
        line, col = _pos(node)
        raise CatalogError(
            f"more than {MAX_NODES} values once aliases are expanded; refusing a possible "
            "alias bomb", file=file, line=line, column=col,
        )  # fmt: skip
    return loader.construct_document(node)


_Constructor.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Constructor.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
_Constructor.add_constructor("tag:yaml.org,2002:str", _construct_text)


def load_text(text: str, file: str) -> Any:
    """Parse YAML text; `file` is the name used in messages."""
    if len(text) > MAX_BYTES:
        raise CatalogError(f"file is larger than {MAX_BYTES} bytes", file=file)
    if _loader_class(text) is not _Loader:
        fast = _FastLoader(text, file)
        try:
            return _document(fast, file)
        except (yaml.YAMLError, RecursionError):
            pass  # parsed again below, so that every message is worded as on the pure path
        finally:
            fast.dispose()
    loader: _Loader | None = None
    try:
        loader = _Loader(text, file)  # the reader checks the characters here already
        return _document(loader, file)
    except CatalogError:
        raise
    except yaml.reader.ReaderError as exc:
        line, col = _line_column(text, exc.position)
        raise CatalogError(
            f"control character U+{exc.character:04X} is not allowed in YAML"
            if isinstance(exc.character, int)
            else "invalid character",
            file=file, line=line, column=col,
        ) from None  # fmt: skip
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = shown(exc.problem or "YAML syntax error", 200)
        if mark is None:
            raise CatalogError(f"invalid YAML: {problem}", file=file) from None
        raise CatalogError(
            f"invalid YAML: {problem}", file=file, line=mark.line + 1, column=mark.column + 1
        ) from None
    except yaml.YAMLError as exc:
        raise CatalogError(f"invalid YAML: {shown(exc, 200)}", file=file) from None
    except RecursionError:
        raise CatalogError(f"nesting deeper than {MAX_DEPTH} levels", file=file) from None
    finally:
        if loader is not None:
            loader.dispose()


def _line_column(text: str, position: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    before = text[:position]
    return before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1


def load_file(path: Path, name: str | None = None) -> Any:
    """Read and parse one YAML file (UTF-8); `name` is how messages call it (default: the path)."""
    from generator.io.userfiles import read_text

    name = name or str(path)
    return load_text(read_text(path, name, MAX_BYTES), name)


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

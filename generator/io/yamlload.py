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

from generator.core.errors import CatalogError, shown
from generator.core.fields import LocDict, LocList

MAX_BYTES = 2_000_000
MAX_DEPTH = 40
MAX_ALIASES = 100
# values after aliases are expanded: a few aliases can stand for 10**10 items, and every
# consumer (validation, cache keys, JSON) walks the expanded tree
MAX_NODES = 200_000
# control characters in a text value (tab and line breaks are text); a NUL would also
# break any file name the value reaches
_CONTROL_IN_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


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
            f"control character U+{ord(bad.group()):04X} in a text value",
            file=loader.file,
            line=line,
            column=col,
        )
    return value


def _expanded_size(root: yaml.Node, file: str) -> int:
    """How many nodes the document has once every alias is replaced by what it names.

    A node that contains itself (`a: &a [*a]`, allowed by YAML) expands without end:
    it is refused with its position, as an alias bomb is.
    """
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()  # nodes whose children are still being counted
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
            open_nodes.discard(id(node))
            sizes[id(node)] = min(MAX_NODES + 1, 1 + sum(sizes[id(c)] for c in children))
            continue
        open_nodes.add(id(node))
        stack.append((node, True))
        for child in children:
            if id(child) in open_nodes:
                line, col = _pos(child)
                raise CatalogError(
                    "a YAML alias inside the value it names (a value that contains itself)",
                    file=file,
                    line=line,
                    column=col,
                )
            if id(child) not in sizes:
                stack.append((child, False))
    return sizes[id(root)]


def _document(loader: Any, file: str) -> Any:
    """The one document of `loader`, refused when its aliases expand it beyond MAX_NODES."""
    node = loader.get_single_node()
    if node is None:
        return None
    if _expanded_size(node, file) > MAX_NODES:
        line, col = _pos(node)
        raise CatalogError(
            f"more than {MAX_NODES} values once aliases are expanded; refusing a possible "
            "alias bomb",
            file=file,
            line=line,
            column=col,
        )
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
            file=file,
            line=line,
            column=col,
        ) from None
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

"""Safe YAML loading: positions in messages, hostile input refused quickly."""

from __future__ import annotations

import pytest

from generator.core.errors import CatalogError
from generator.core.fields import Fields, position
from generator.core.resources import catalog_dir
from generator.io import yamlload
from generator.io.yamlload import load_text


def test_positions_of_keys_and_items() -> None:
    data = load_text("a: 1\nb:\n  - x\n  - y\n", "f.yaml")
    assert data.where("b") == (2, 1)
    assert data["b"].where(1) == (4, 5)


def test_type_error_names_file_line_and_key() -> None:
    data = load_text("name: x\ncount: three\n", "f.yaml")
    with pytest.raises(CatalogError) as err:
        Fields(data, "f.yaml").get("count", int)
    assert (
        str(err.value) == "f.yaml:2:1: key 'count': expected a whole number, found the text 'three'"
    )


def test_bool_is_not_a_number() -> None:
    data = load_text("count: yes\n", "f.yaml")
    with pytest.raises(CatalogError, match="found 'true'"):
        Fields(data, "f.yaml").get("count", int)


def test_duplicate_key() -> None:
    with pytest.raises(CatalogError, match=r"f\.yaml:2:1: key 'a' appears twice"):
        load_text("a: 1\na: 2\n", "f.yaml")


def test_python_tags_are_refused() -> None:
    with pytest.raises(CatalogError, match=r"f\.yaml:1"):
        load_text("!!python/object/apply:os.system ['echo hi']\n", "f.yaml")


def test_alias_bomb_is_refused() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n"
    prev = "a"
    for i in range(12):
        name = f"l{i}"
        bomb += f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]\n"
        prev = name
    with pytest.raises(CatalogError, match="alias"):
        load_text(bomb, "bomb.yaml")


def test_deep_nesting_is_refused() -> None:
    with pytest.raises(CatalogError, match="nesting"):
        load_text("[" * 200 + "]" * 200, "deep.yaml")


def test_syntax_error_has_a_position() -> None:
    with pytest.raises(CatalogError, match=r"f.yaml:2:\d+: invalid YAML"):
        load_text("a: [1, 2\nb: 3\n", "f.yaml")


def test_one_text_helper_for_every_language() -> None:
    data = load_text(
        "a: {de: Würfel, en: dice}\nb: beide\nc: {de: x}\nd: {de: ' ', en: y}\n"
        "e: {de: x, en: y, fr: z}\n",
        "f.yaml",
    )
    f = Fields(data, "f.yaml", "top")
    assert f.texts("a") == {"de": "Würfel", "en": "dice"}
    assert f.texts("b", plain=True) == {"de": "beide", "en": "beide"}
    assert f.texts("missing", None) is None
    for key, line, message in [
        ("b", 2, "key 'top.b': expected a mapping, found the text 'beide'"),
        ("c", 3, "missing key 'top.c.en'"),
        ("d", 4, "key 'top.d.de': expected a text, found nothing"),
        ("e", 5, "unknown key 'top.e.fr'"),
    ]:
        with pytest.raises(CatalogError) as err:
            f.texts(key)
        assert err.value.line == line and message in str(err.value), str(err.value)


def test_one_position_helper() -> None:
    data = load_text("a: 1\nb:\n  - x\n  - {c: 2}\n", "f.yaml")
    assert position(data, "b") == (2, 1)
    assert position(data["b"], 1) == (4, 5)
    assert position(data["b"][1], "c") == (4, 6)
    assert position(data, "nothing") == (1, 1)  # the mapping itself
    assert position({"a": 1}, "a") == (None, None)  # data not read from a file
    assert Fields(data["b"][1], "f.yaml", "b[1]").place("c") == "f.yaml:4:6 (b[1].c)"


# --- libyaml fast path: the same data and positions as the pure-Python loader -------------

SAMPLES = {
    "byte-order mark": "\ufeffa: 1\nb: [1, 2]\n",
    "CRLF": "a: 1\r\nb:\r\n  - x\r\n  - ä\r\n",
    "letters beyond ASCII": 'text: {de: "Größe", en: 😀}\nlist:\n  - Zoë: 1\n    Łukasz: [a]\n',
    "block scalars": "a: |\n  line one\n  line two\nb: >\n  folded\n  text\nc: 'q'\n",
    "anchors and merge keys": "base: &b {x: 1}\nuse: *b\nmerge:\n  <<: *b\n  y: 2\n",
    "scalars": "a: .inf\nb: 1e3\nc: 0x1F\nd: 010\ne: 1_000\nf: ~\ng: 2001-12-14\nh: yes\n",
    "tab after a key": "a:\t1\n",
    "empty": "",
    "unclosed flow": "a: [1, 2\n",
    "bad indentation": "a:\n  b: 1\n c: 2\n",
    "duplicate key": "a: 1\na: 2\n",
    "Python tag": "!!python/object/apply:os.system ['echo hi']\n",
    "deep nesting": "[" * 60 + "]" * 60,
    "alias bomb": "a: &a [x]\n" + "".join(f"b{i}: *a\n" for i in range(150)),
    "mapping key": "? [1, 2]\n: x\n",
    "unterminated quote": 'a: "abc\n',
    "two documents": "a: 1\n---\nb: 2\n",
    "undefined alias": "a: *nope\n",
}


def _positions(data: object, path: str = "") -> list[object]:
    """Every value with every position a loaded document holds, in document order."""
    if isinstance(data, yamlload.LocDict):
        head: list[object] = [
            (path, data.line, data.column, sorted(map(str, data.key_pos.items())))
        ]
        return head + [p for k, v in data.items() for p in _positions(v, f"{path}.{k}")]
    if isinstance(data, yamlload.LocList):
        head = [(path, data.line, data.column, data.item_pos)]
        return head + [p for i, v in enumerate(data) for p in _positions(v, f"{path}[{i}]")]
    return [(path, type(data).__name__, data)]


def _outcome(text: str) -> list[object]:
    try:
        return _positions(load_text(text, "f.yaml"))
    except CatalogError as exc:
        return [str(exc)]


@pytest.fixture
def fast() -> None:
    if yamlload._CParser is None:
        pytest.skip("PyYAML without libyaml")


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_fast_and_pure_paths_agree(name: str, fast: None, monkeypatch: pytest.MonkeyPatch) -> None:
    text = SAMPLES[name]
    with_libyaml = _outcome(text)
    monkeypatch.setattr(yamlload, "_CParser", None)  # force the pure-Python path
    assert yamlload._loader_class(text) is yamlload._Loader
    assert _outcome(text) == with_libyaml


def test_shipped_catalog_loads_alike_on_both_paths(
    fast: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = sorted(catalog_dir().rglob("*.yaml"))
    assert len(files) > 5
    texts = [f.read_text(encoding="utf-8") for f in files]
    assert all(yamlload._loader_class(t) is yamlload._FastLoader for t in texts)
    with_libyaml = [_outcome(t) for t in texts]
    monkeypatch.setattr(yamlload, "_CParser", None)
    assert [_outcome(t) for t in texts] == with_libyaml


def test_tabs_and_refused_characters_take_the_pure_path(fast: None) -> None:
    assert yamlload._loader_class("a: 1\n") is yamlload._FastLoader
    assert yamlload._loader_class("a:\t1\n") is yamlload._Loader
    assert yamlload._loader_class("a: b\x07c\n") is yamlload._Loader
    with pytest.raises(CatalogError, match=r"f\.yaml:1:3: .*'\\t'"):
        load_text("a:\t1\n", "f.yaml")

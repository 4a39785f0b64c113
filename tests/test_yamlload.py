"""Safe YAML loading: positions in messages, hostile input refused quickly."""

from __future__ import annotations

import pytest

from generator.errors import CatalogError
from generator.yamlload import Fields, load_text, position


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

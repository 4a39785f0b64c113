"""Every error is a code and its parameters, and every code has its words in every language.

The raise sites are read with `ast`: each message is a `Msg("code", …)` (or a
message passed on), never English text; each code has a macro in
`templates/en/errors.j2` and `templates/de/errors.j2` with the same parameters;
and each `Msg` of the code base, said in German with its own arguments (and
samples for the computed ones), keeps no word of its English message.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

import generator
from generator.core.errors import Msg, Note, codes, say
from generator.core.resources import templates_dir

PACKAGE = Path(generator.__file__).parent
ERRORS = {"UserError", "OptionError", "CatalogError", "InputError", "DoesNotFit"}
# words German messages share with English ones: formats, names and notation (and Bonus)
SHARED = {"utf-8", "utf-16", "windows-1252", "yaml", "json", "csv", "pdf", "x", "ja", "yes",
          "a–z", "id", "ids", "tasks.yaml", "rgb", "1-20", "e", "g", "kniffel", "in", "name",
          "excel", "xlsx", "xls",
          "einser", "vorname", "nachname", "klasse", "pip", "install", "make", "serve",
          "nul", "u", "mm", "block", "byte", "bytes", "text", "joker", "extra", "web",
          "dicesheets", "utf", "band", "start", "positive", "k", "manifest", "kribbeln", "die",
          "rational", "ops", "min", "max", "windows", "s", "port", "bonus"}  # fmt: skip
# computed arguments that must be of a kind (a list, a word the template looks up)
SAMPLES: dict[tuple[str, str], Any] = {
    ("ambiguous_name", "full"): ["Anna Berg", "Anna Stein"],
    ("carry_topic_problems_exist", "name"): {"de": "Plus bis 20", "en": "Add to 20"},
    ("key_expected_found", "names"): [Msg("type_int"), Msg("type_str")],
    ("key_expected_found", "kind"): Msg("found_text", value="x"),
    ("not_whole_of", "noun"): "players",
    ("task_dicesheets_kribbeln_analyze", "close"): ["easy_one", "easy_two"],
    ("max_color_per_sheet", "families"): ["pairs"],
}


def _calls() -> list[tuple[str, ast.Call]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(PACKAGE))
        found += [(f"{where}:{n.lineno}", n) for n in ast.walk(tree) if isinstance(n, ast.Call)]
    return found


def _name(node: ast.AST) -> str:
    """The name a call calls ("" for anything but a call)."""
    func = node.func if isinstance(node, ast.Call) else None
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _is_text(node: ast.AST) -> bool:
    """A message written as English text (a string, an f-string or a sum of them)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    return isinstance(node, ast.BinOp) and (_is_text(node.left) or _is_text(node.right))


def _message_arg(call: ast.Call) -> ast.AST | None:
    """The message argument of an error's constructor or of `Fields.error(key, message)`."""
    name = _name(call)
    position = {"UserError": 0, "CatalogError": 0, "OptionError": 1, "InputError": 1,
                "DoesNotFit": 1, "error": 1}.get(name)  # fmt: skip
    if position is None or len(call.args) <= position:
        return None
    if name == "error" and not isinstance(call.func, ast.Attribute):
        return None
    return call.args[position]


def test_no_error_is_raised_with_english_text() -> None:
    texts = [where for where, call in _calls()
             if (arg := _message_arg(call)) is not None and _is_text(arg)]  # fmt: skip
    assert texts == []


def _msgs() -> list[tuple[str, ast.Call]]:
    return [(w, c) for w, c in _calls() if _name(c) == "Msg" and c.args
            and isinstance(c.args[0], ast.Constant)]  # fmt: skip


def test_every_code_has_its_words_in_both_languages_with_the_same_parameters() -> None:
    en, de = codes("en"), codes("de")
    assert sorted(en) == sorted(de)
    assert {c: a for c, a in en.items() if de[c] != a} == {}
    used = {call.args[0].value for _, call in _msgs()}  # type: ignore[attr-defined]
    assert sorted(used - set(en)) == []
    assert sorted(set(en) - used) == []  # no words without a message


def _sample(node: ast.AST, index: int) -> Any:
    if isinstance(node, ast.Call) and _name(node) == "Msg" and node.args:
        return _built(node, index)
    if isinstance(node, ast.Constant):
        return node.value
    return 7001 + index  # a number: the templates compute with some (limits, counts)


def _built(call: ast.Call, index: int = 0) -> Msg:
    code = call.args[0].value  # type: ignore[attr-defined]
    params = {}
    for i, kw in enumerate(call.keywords):
        if kw.arg is None:
            continue
        sample = SAMPLES.get((code, kw.arg))
        literal = isinstance(kw.value, ast.Constant) or _name(kw.value) == "Msg"
        params[kw.arg] = _sample(kw.value, index + i) if literal or sample is None else sample
    return Msg(code, **params)


# what is the same in every language: quoted values, options, keys of a file, formats
VERBATIM = re.compile(r"'[^']*'|„[^“]*“|`[^`]*`|--[\w-]+|\S*[\[\]._=#/]\S*|\b[a-z_]+:(?=\s)")


def _words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[^\W\d_]+", VERBATIM.sub(" ", text))}


@pytest.mark.parametrize(("where", "call"), _msgs(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_message_said_in_german_keeps_no_english_word(where: str, call: ast.Call) -> None:
    msg = _built(call)
    english, german = say(msg, "en"), say(msg, "de")
    if msg.code == "text":
        return  # a caller's own text (a test's), shown as it is
    kept = (_words(english) & _words(german)) - SHARED
    values = [x for v in msg.params.values() for x in (v if isinstance(v, list) else [v])]
    kept -= _words(" ".join(map(str, values)))  # the values themselves
    assert kept == set(), (where, english, german)


def test_the_english_words_are_the_old_messages() -> None:
    # a few messages as they were printed before they came from templates
    assert say(Msg("range", low=1, high=8, noun="players", found=9), "en") == (
        "expected 1–8 players, found 9"
    )
    assert say(Msg("range", low=2, high=8, noun="players", found=9, real="2–5"), "en") == (
        "expected 2–8 players (2–5 in the real game), found 9"
    )
    assert say(Msg("range", low=1, high=10_000, noun="games", found=0, grouped=True), "en") == (
        "expected 1–10,000 games, found 0"
    )
    line = Msg("at_line", label="klasse.txt", line=3, what=Msg("name_control_character"))
    assert say(line, "en") == "klasse.txt:3: the name contains a control character"
    assert say(line, "de") == "klasse.txt, Zeile 3: Der Name enthält ein Steuerzeichen."


def test_a_note_is_its_english_line_and_crosses_a_process_boundary() -> None:
    import pickle

    note = Note(Msg("name_empty", n=2))
    assert note == "name 2 is empty (expected comma-separated names)"
    again = pickle.loads(pickle.dumps(note))
    assert again == note and again.msg == note.msg


def test_the_templates_are_one_macro_a_line() -> None:
    for lang in ("en", "de"):
        text = (templates_dir() / lang / "errors.j2").read_text(encoding="utf-8")
        for line in text.splitlines():
            if line.startswith("{% macro "):
                assert line.endswith("{% endmacro %}"), line

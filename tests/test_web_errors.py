"""A German page says every message in German: bad values in every field of every page.

Each field of each product page (and the coach, and the class list box) gets
values it refuses — not a number, negative, far too large, an empty name, a
control character, a choice that is not on the menu — and every message the
page answers with (at a field, above the form, or a warning) must hold no word
that only the English messages use.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

from starlette.testclient import TestClient

from generator.core.resources import templates_dir
from generator.io.catalog import Catalog
from generator.web.app import Settings, create_app
from generator.web.pages import PAGES
from tests.web_support import WORKSHEET

BAD = {
    "number": ("x", "-1", "99999999999"),
    "text": ("x", "-1", "99999999999", "a,,b", "B\x07n"),
    "choice": ("zzz",),
}
# words both languages write alike (formats, names, loanwords, German words that are English)
SHARED = {"also", "an", "band", "block", "blocks", "byte", "bytes", "dicesheets", "die", "extra",
          "id",
          "ids", "in", "install", "ja", "joker", "json", "k", "klasse", "kribbeln", "make",
          "manifest", "max", "mm", "nachname", "name", "pdf", "pip", "positive", "rational",
          "start", "stufe", "text", "u", "utf", "vorname", "windows", "x", "yaml",
          "yes"}  # fmt: skip


# what is the same in every language: quoted values, options, keys of a file, formats
VERBATIM = re.compile(r"'[^'\n]*'|„[^“]*“|`[^`]*`|--[\w-]+|\S*[\[\]._=#/]\S*|\b[a-z_]+:(?=\s)")


def _words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[^\W\d_]+", VERBATIM.sub(" ", text))}


def _literal_words(lang: str) -> set[str]:
    text = (templates_dir() / lang / "errors.j2").read_text(encoding="utf-8")
    return _words(re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", text, flags=re.S))


ENGLISH_ONLY = _literal_words("en") - SHARED


def english_in(message: str, values: tuple[str, ...] = ()) -> set[str]:
    """The English words of `message`, less `values` (what the user typed, a menu's ids)."""
    return _words(message) - _words(" ".join(values)) & ENGLISH_ONLY


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings(workers=2))) as c:
        yield c


def _messages(answer: Any) -> list[str]:
    data = answer.json()
    if data.get("ok"):
        return list(data.get("warnings", []))
    return [*data.get("errors", {}).values(), *data.get("general", [])]


CATALOG = Catalog.default()


def _ids(page: str) -> tuple[str, ...]:
    """The ids a page's menus offer: a message may list them as they are."""
    return tuple(c for f in PAGES[page].form(CATALOG).fields for c in f.choices)


def _cases() -> list[tuple[str, str, str]]:
    catalog = CATALOG
    cases = []
    for page in PAGES.values():
        for field in page.form(catalog).fields:
            cases += [(page.id, field.name, value) for value in BAD.get(field.kind, ())]
        if "roster" in page.web.own_fields:
            cases.append((page.id, "roster_text", "Anna\nB\x07n"))
    return cases


def test_the_english_words_are_known() -> None:
    # the check below is only as good as this list: the words of the English messages
    assert {"expected", "found", "players", "between"} <= ENGLISH_ONLY
    assert english_in("expected 1–8 players, found 9") == {"expected", "found", "players"}
    assert english_in("Erwartet 1–8 Spieler, nicht 9.") == set()


@pytest.mark.parametrize(("page", "field", "value"), _cases())
def test_a_german_page_says_every_message_in_german(client, page: str, field: str, value: str):
    base = WORKSHEET if page == "worksheet" else {}
    answer = client.post(f"/api/preview/{page}?lang=de", data={**base, field: value})
    assert answer.status_code in (200, 400), answer.text
    for message in _messages(answer):
        assert english_in(message, (value, *_ids(page))) == set(), (field, value, message)


@pytest.mark.parametrize(
    "values",
    [{"ones": "6"}, {"die3": "7"}, {"die3": ""}, {"ones": "x"}, {"rolls_left": "9"},
     {"joker": "zzz", "rules": "zzz"},
     {k: "0" for k in ("ones", "twos", "threes", "fours", "fives", "sixes", "three_kind",
                       "four_kind", "full_house", "small_straight", "large_straight",
                       "kniffel", "chance")}],
)  # fmt: skip
def test_the_coach_says_every_message_in_german(client, values: dict[str, str]) -> None:
    form = {"rules": "kniffel", "rolls_left": "2",
            **{f"die{i}": d for i, d in enumerate("13346", start=1)}, **values}  # fmt: skip
    answer = client.post("/api/coach?lang=de", data=form)
    data = answer.json()
    messages = (
        [] if data.get("ok", True) and "errors" not in data else list(data["errors"].values())
    )
    for message in messages:
        assert english_in(message) == set(), (values, message)


def test_the_playtest_page_lists_every_problem_in_german(tmp_path) -> None:
    import html

    folder = tmp_path / "mine"
    (folder / "koepfchen").mkdir(parents=True)
    (folder / "koepfchen" / "broken.yaml").write_text("length: [1,\n", encoding="utf-8")
    (folder / "koepfchen" / "odd.yaml").write_text("id: odd\nname: 3\n", encoding="utf-8")
    (folder / "templates" / "de").mkdir(parents=True)
    (folder / "templates" / "de" / "nothing.j2").write_text("{% macro x() %}{% endmacro %}")
    with TestClient(create_app(Settings(workers=1, catalog=folder))) as c:
        page = c.get("/playtest?lang=de&check=1").text  # (the findings in the page)
    lines = [
        html.unescape(m)
        for m in re.findall(r'<li class="(?:problem|warning)"><code>(.*?)</code>', page)
    ]
    assert len(lines) >= 3, page
    for line in lines:
        assert english_in(line) == set(), line

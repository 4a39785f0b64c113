"""The pages of the web app: the registry's products that have one, and the words they show.

Words live in `templates/<lang>/web.j2` (one macro each); the HTML structure in
`templates/web/*.html`. A field's label is the macro `label_<name>`; an option
that has none yet shows its CLI spelling, so a new option is on the page at once
(and a test asks for its words in both languages).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from generator import registry
from generator.core.resources import templates_dir
from generator.io.catalog import Catalog
from generator.surface.model import Command, Product, WebPage
from generator.text.words import LANGS
from generator.web.forms import Form, flag_of, make_form


@dataclass(frozen=True)
class Page:
    """A product page: its URL, the registry command its form follows, what it downloads."""

    product: Product

    @property
    def web(self) -> WebPage:
        assert self.product.web is not None
        return self.product.web

    @property
    def id(self) -> str:  # the URL path: "worksheet" → /worksheet
        return self.web.id

    @property
    def command(self) -> Command:
        return registry.COMMANDS[self.product.command]

    @property
    def command_name(self) -> str:  # as typed: "kniffel block"
        return self.product.command

    @property
    def builder(self) -> str:  # the products.BUILDERS key: the product's id
        return self.product.id

    @property
    def parts(self) -> tuple[str, ...]:
        return self.web.parts

    @property
    def has_seed(self) -> bool:
        return self.web.has_seed

    @property
    def replaced_by(self) -> Mapping[str, tuple[str, ...]]:
        return self.web.replaced_by

    def choices(self, catalog: Catalog) -> dict[str, list[str]]:
        """The menus from the catalog (a rule set, a profile, a family …)."""
        return {o.name: o.catalog(catalog) for o in self.command.options() if o.catalog}

    def grouped(self, form: Form) -> list[tuple[str, list[str]]]:
        """The form's field names (and "roster") under their group ids, seed left out."""
        names = [f.name for f in form.fields if f.name != "seed" or not self.has_seed]
        if not self.web.groups:
            return [("", names)]
        placed = {n for _, members in self.web.groups for n in members}
        out = [(g, [n for n in members if n in names or n == "roster"]) for g, members in
               self.web.groups]  # fmt: skip
        rest = [n for n in names if n not in placed]
        return [(g, m) for g, m in [*out, ("more", rest)] if m]

    def form(self, catalog: Catalog) -> Form:
        return make_form(self.command, self.web.skip, self.choices(catalog))

    def flag(self, name: str) -> str:
        """The CLI spelling of the command's parameter `name` (for the command line shown)."""
        return flag_of(self.command, name)


PAGES: dict[str, Page] = {
    p.web.id: Page(p) for p in registry.PRODUCTS.values() if p.web is not None
}
NAV = registry.NAV


# --- words and HTML -----------------------------------------------------------------------


@cache
def environment() -> jinja2.Environment:
    """The HTML environment: shipped templates only (a catalog never changes the page)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    from generator.text.words import number, percent

    env.filters["number"] = number
    env.filters["percent"] = percent
    return env


class Words:
    """The macros of `templates/<lang>/web.j2`, by name."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._module = environment().get_template(f"{lang}/web.j2").make_module({"lang": lang})

    def has(self, key: str) -> bool:
        return hasattr(self._module, key)

    def __call__(self, key: str, **values: Any) -> Markup:
        macro = getattr(self._module, key)
        return Markup(str(macro(**values)).strip())

    def __getattr__(self, key: str) -> Any:
        return getattr(self._module, key)

    def _first(self, *keys: str) -> str | None:
        return next((k for k in keys if self.has(k)), None)

    def label(self, page: str, name: str, flag: str) -> Markup:
        """A field's label (the page's own first), or its CLI spelling while words are missing."""
        key = self._first(f"label_{_ident(page)}_{name}", f"label_{name}")
        return self(key) if key else Markup.escape(flag)

    def hint(self, page: str, name: str) -> Markup:
        key = self._first(f"hint_{_ident(page)}_{name}", f"hint_{name}")
        return self(key) if key else Markup("")

    def pick(self, page: str, key: str, **values: Any) -> Markup:
        """The page's own words for `key` (`<key>_<page>`) if it has them, else the common ones."""
        own = f"{key}_{_ident(page)}"
        return self(own if self.has(own) else key, **values)

    def choice_group(self, page: str, name: str, value: str) -> str:
        """The group of a menu entry ("" for none): a topic's Klasse."""
        if name != "topic" or not value:
            return ""
        from generator.worksheet.topics import BY_ID

        topic = BY_ID.get(value)
        return str(self("topic_group", klasse=topic.klasse)) if topic else ""

    def choice(
        self, page: str, name: str, value: str, own: Mapping[str, str] | None = None
    ) -> Markup:
        """The words for a menu entry (`""`: the default), else its catalog entry's own
        name (`own`), else the value itself."""
        if name == "topic" and value:  # a topic's own name, from the topic table
            from generator.worksheet.topics import BY_ID

            topic = BY_ID.get(value)
            if topic:
                return Markup.escape(topic.name.get(self.lang, topic.name["en"]))
        tail = _ident(value) if value else "default"
        key = self._first(f"choice_{_ident(page)}_{name}_{tail}", f"choice_{name}_{tail}")
        if key:
            return self(key)
        if value and own and (self.lang in own or "en" in own):
            return Markup.escape(own.get(self.lang, own.get("en", value)))
        return self("choice_default") if not value else Markup.escape(value)

    def level(self, family: str, number: str, names: Mapping[str, str] | None) -> Markup:
        """A level's menu entry: its number, its name and the Klasse it suits."""
        name = (names or {}).get(self.lang) or (names or {}).get("en", "")
        key = f"level_klasse_{_ident(family)}_{_ident(number)}"
        klasse = self(key) if self.has(key) else ""
        return self("level_choice", level=number, name=name, klasse=klasse)


def _ident(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text)


@cache
def words(lang: str) -> Words:
    return Words(lang)


def pick_lang(query: str | None, accept: str | None) -> str:
    """The page language: `?lang=`, else the first supported one in Accept-Language, else de."""
    if query in LANGS:
        return query
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag[:2] in LANGS:
            return tag[:2]
    return "de"


def page_lang(request: Any) -> str:
    """The language of a request's page."""
    return pick_lang(request.query_params.get("lang"), request.headers.get("accept-language"))


def render(template: str, lang: str, **values: Any) -> str:
    return environment().get_template(f"web/{template}").render(t=words(lang), lang=lang, **values)


def field_names(pages: Iterable[Page], catalog: Catalog) -> list[str]:
    """Every field name of every page (for the test that each has words in both languages)."""
    return sorted({f.name for page in pages for f in page.form(catalog).fields})


def catalog_for(folder: Path | None) -> Catalog:
    return Catalog.default(folder)


# the catalog folder a menu's entries come from: each entry's YAML has its own name
MENU_FOLDERS = {"rules": "kniffel", "profile": "koepfchen", "spec": "worksheet/specs"}


def _entry_name(catalog: Catalog, folder: str, entry: str) -> dict[str, str]:
    """A catalog entry's own name ({"de": …, "en": …}), or {} when it has none."""
    from generator.io.yamlload import load_file

    path = catalog.path(f"{folder}/{entry}.yaml")
    if path is None:
        return {}
    try:
        data = load_file(path, catalog.label(path))
    except Exception:  # a broken entry keeps its id here; validate and the build name the fault
        return {}
    name = data.get("name") or data.get("title") if isinstance(data, dict) else None
    return {str(k): str(v) for k, v in name.items()} if isinstance(name, dict) else {}


def menu_names(catalog: Catalog, choices: Mapping[str, Iterable[str]]) -> dict[str, dict[str, Any]]:
    """A page's menus' entries by their own names in the catalog (so no id shows)."""
    return {
        field: {entry: _entry_name(catalog, MENU_FOLDERS[field], entry) for entry in entries}
        for field, entries in choices.items()
        if field in MENU_FOLDERS
    }


def level_names(catalog: Catalog) -> dict[str, dict[str, dict[str, str]]]:
    """Every worksheet family's levels by number: {family: {"2": {"de": …, "en": …}}}."""
    from generator.worksheet.load import family_names, load_family

    out: dict[str, dict[str, dict[str, str]]] = {}
    for family in family_names(catalog):
        try:
            levels = load_family(family, catalog).levels
        except Exception:  # a broken family: its levels show as numbers (validate says why)
            continue
        out[family] = {str(level.level): dict(level.name) for level in levels}
    return out

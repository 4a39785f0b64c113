"""What a page keeps for the teacher: settings in the URL, names only in the page itself.

Settings (every field that holds no name) travel in the query string, so a setup can
be bookmarked and shared ("Link zu dieser Einstellung") and a reload, Back or the
language switch finds them again. Names (the class list, `--names`,
`--large-print-for`) never go into a URL or a log: a returned page carries them back
in its own fields (an uploaded file as base64 in a hidden field, held in the page,
never on the server), and the page's script keeps them in the browser's
sessionStorage.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from generator.web.forms import Form

# options whose values are pupils' names: never in a URL, only in the page and the browser
PRIVATE = frozenset({"names", "large_print_for", "roster"})
# the page's own query parameter `lang` is the page's language; a form field of that name
# (the sheet's language) is spelled differently in the URL
URL_KEYS = {"lang": "sheet_lang"}
ROSTER_FIELDS = ("roster_text", "roster_upload", "roster_upload_name")
MAX_UPLOAD = 200_000  # a class list file (the roster reader's own limit)


def url_key(name: str) -> str:
    return URL_KEYS.get(name, name)


@dataclass(frozen=True)
class ClassList:
    """A submitted class list: what the build reads, and what the page hands back."""

    text: str = ""  # the text box, as sent
    upload: bytes | None = None  # an uploaded file's bytes (new, or carried by the page)
    upload_name: str = ""  # the file's own name: it only labels messages

    @property
    def data(self) -> bytes | None:
        """The bytes the roster reader gets: the file first, else the text box."""
        if self.upload is not None:
            return self.upload
        return self.text.encode() if self.text.strip() else None

    def label(self, default: str) -> str:
        return self.upload_name if self.upload is not None and self.upload_name else default

    def fields(self) -> dict[str, str]:
        """The class list as the returned page's fields carry it (a file: base64, hidden)."""
        carried = base64.b64encode(self.upload).decode() if self.upload is not None else ""
        return {
            "roster_text": self.text,
            "roster_upload": carried,
            "roster_upload_name": self.upload_name if carried else "",
        }


class BadCarry(ValueError):
    """A hidden class-list field that is not what the page wrote (400)."""


def file_name(raw: str) -> str:
    """An uploaded file's own name, printable and short (never opened on the server)."""
    return "".join(ch for ch in Path(raw).name if ch.isprintable())[:60]


def class_list(values: dict[str, str], upload: bytes | None, upload_name: str) -> ClassList:
    """The class list of a submitted form (pops its fields from `values`).

    A new file replaces the one the page carries; "Datei nicht mehr verwenden" drops it.
    """
    text = values.pop("roster_text", "")
    carried = values.pop("roster_upload", "")
    carried_name = file_name(values.pop("roster_upload_name", ""))
    drop = values.pop("roster_upload_drop", "") not in ("", "0")
    if upload is not None:
        return ClassList(text, upload, upload_name)
    if carried and not drop:
        try:
            data = base64.b64decode(carried.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError):
            raise BadCarry("roster_upload") from None
        return ClassList(text, data[: MAX_UPLOAD + 1], carried_name)
    return ClassList(text)


def settings_of(
    form: Form, values: Mapping[str, str], defaults: Mapping[str, str]
) -> list[tuple[str, str]]:
    """The URL's (key, value) pairs of a form's settings: no names, defaults left out."""
    pairs: list[tuple[str, str]] = []
    for f in form.fields:
        if f.name in PRIVATE:
            continue
        value = values.get(f.name, defaults.get(f.name, ""))
        if f.kind in ("flag", "switch"):
            value = "1" if value not in ("", "0", "False", "off") else "0"
            default = "1" if defaults.get(f.name, "") not in ("", "0", "False") else "0"
        else:
            default = defaults.get(f.name, "")
        if value != default or f.name == "seed":
            pairs.append((url_key(f.name), value))
    return pairs


def setup_url(page_id: str, lang: str, pairs: list[tuple[str, str]]) -> str:
    """The page's address with these settings ("Link zu dieser Einstellung")."""
    path = "/" if page_id == "worksheet" else f"/{page_id}"
    return f"{path}?{urlencode([('lang', lang), *pairs])}"


def values_from_query(form: Form, query: Mapping[str, str]) -> dict[str, str]:
    """The settings a bookmarked address gives (names never come from a URL)."""
    values: dict[str, str] = {}
    for f in form.fields:
        key = url_key(f.name)
        if f.name not in PRIVATE and key in query:
            values[f.name] = query[key]
    return values

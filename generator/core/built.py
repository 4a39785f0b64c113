"""What every product's `build()` returns: the layout document(s), the manifest and the warnings.

`build()` is pure (no file, environment variable, ContextVar or click); the one
writer in `generator.io.writer` turns a `Built` into files, the web page into bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from generator.core.errors import Msg, UserError
    from generator.render.primitives import Document


@dataclass(frozen=True)
class Built:
    """One product, laid out: the main PDF's document and any PDFs written beside it.

    `extra` holds (role, document) pairs, e.g. ("key", …) for a worksheet whose
    answer key goes into its own file; the writer names that file in the manifest
    as `<role>_pdf`. `options` and `contents` become the manifest beside the main PDF.
    """

    command: str  # the manifest's "command", e.g. "kniffel block"
    name: str  # the main PDF's default file name
    document: Document
    options: Mapping[str, Any]
    seed: int | None
    contents: Mapping[str, Any]
    # a warning about an input is a UserError (its `where` names the input), else a line
    warnings: tuple[str | UserError, ...] = ()  # a line (maybe a `Note`), or about an input
    extra: tuple[tuple[str, Document], ...] = ()

    @property
    def documents(self) -> tuple[Document, ...]:
        """The main document first, then the extra ones."""
        return (self.document, *(doc for _, doc in self.extra))

    @property
    def roles(self) -> tuple[str, ...]:
        return ("pdf", *(role for role, _ in self.extra))


def font_warnings(texts: Iterable[tuple[str, str]]) -> tuple[UserError, ...]:
    """A warning for every (where, text) with letters no font at hand can print.

    Names and titles a user typed (王小明 on a machine without the fallback font) would
    print as boxes without a word; every build that prints them warns through this, and
    the CLI and the web page show it, naming the package that has them if one does.
    """
    from generator.core.errors import Msg, UserError, shown
    from generator.render import fonts

    def message(missing: str, text: str) -> Msg:
        if not fonts.fallback_installed() and fonts.fallback_would_print(missing):
            package = fonts.FALLBACK_PACKAGE
            return Msg(
                "no_glyphs_package", missing=shown(missing), text=shown(text), package=package
            )
        return Msg("no_glyphs", missing=shown(missing), text=shown(text))

    return tuple(
        UserError(message(missing, text), where=where)
        for where, text in texts
        if (missing := fonts.missing_glyphs(text))
    )


def visible(text: str) -> str:
    """`text` without invisible format characters (Unicode category Cf).

    A right-to-left override (U+202E) prints a name reversed, a zero-width space or
    joiner hides in it; like a control character they are never printed. Each input
    that strips them warns with `invisible_note`.
    """
    import unicodedata

    if text.isascii():
        return text
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def invisible_note(text: str) -> Msg | None:
    """The warning for the format characters `visible` removes from `text` (None: none)."""
    import unicodedata

    from generator.core.errors import Msg

    if text.isascii():
        return None
    found = sorted({ch for ch in text if unicodedata.category(ch) == "Cf"})
    if not found:
        return None
    names = ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, 'format character')}" for ch in found)
    return Msg("invisible_removed", names=names, text=visible(text))


def invisible_warnings(texts: Iterable[tuple[str, str | None]]) -> tuple[UserError, ...]:
    """A warning for every (where, text) that had invisible format characters removed."""
    from generator.core.errors import UserError

    return tuple(
        UserError(note, where=where)
        for where, text in texts
        if text is not None and (note := invisible_note(text)) is not None
    )

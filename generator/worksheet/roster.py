"""A class list: one name per line, or a table as Excel saves it, for personalised worksheets.

Text encoding (decided from the bytes, in this order): a UTF-16 byte-order mark →
UTF-16; a UTF-8 byte-order mark or text that is valid UTF-8 → UTF-8; a file whose
non-ASCII lines are partly valid UTF-8 and partly not → an error naming the first
broken line (one bad byte in a UTF-8 list, rather than "ZoÃ«" for every name);
anything else → Windows-1252 (what Excel's "CSV" writes on a German or US Windows).
Valid UTF-8 is tried before Windows-1252 because a Windows-1252 text with umlauts is
practically never valid UTF-8, while the other way round every byte string decodes.

An Excel workbook (.xlsx) is read with openpyxl from its first sheet, as a table whose
first filled row is the header (row numbers stand for lines in messages); the old
binary .xls is refused with a word on how to save it.

Tables: the first non-blank line decides. If it holds a tab or a semicolon, that is
the separator; a comma counts as separator only when that line is a recognised header
(a plain list may hold "Müller, Anna"; such lines get a warning). A table needs a
header row naming its columns (see `COLUMNS`: Name, Vorname, Nachname, Klasse,
Großdruck, First name, Last name, Class, Large print …; case, spaces, hyphens and
underscores do not matter) — without one, only a table with at most one filled cell
per row is accepted. The name is "Vorname Nachname"; a "Name" column beside
"Vorname" is the surname (as German school exports write it). A "Klasse" column fills
the pupil's class line, a "Großdruck" column (x, ja, yes, 1, true …) asks for large
print, a "Stufe" column (Level; 1, 2, "Stufe 3" …; empty: the worksheet's level) gives
that pupil a sheet of that level of the family in the same run. Other columns are ignored.

Names: surrounding spaces are dropped and runs of spaces or tabs become one space;
blank rows are skipped. A name that appears again (compared case-insensitively,
Unicode-normalised) is kept — both pupils get a sheet — with a warning naming both lines.
"""

from __future__ import annotations

import codecs
import csv
import io
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from generator.core.built import invisible_note, visible
from generator.core.errors import Input, InputError, Msg, Note, UserError

MAX_NAMES = 500
MAX_BYTES = 200_000
MAX_NAME_LENGTH = 80

# header cell (folded: lower case, no spaces, hyphens, underscores, dots or slashes) → role
COLUMNS: dict[str, str] = {
    **dict.fromkeys(
        ["name", "namen", "vollername", "schüler", "schülerin", "schülerin/schüler",
         "schülername", "kind", "fullname", "pupil", "pupilname", "student", "studentname"],
        "name",
    ),
    **dict.fromkeys(
        ["vorname", "vornamen", "rufname", "firstname", "givenname", "forename", "first"],
        "first",
    ),
    **dict.fromkeys(
        ["nachname", "familienname", "zuname", "lastname", "surname", "familyname", "last"],
        "last",
    ),
    **dict.fromkeys(
        ["klasse", "lerngruppe", "class", "form", "grade", "homeroom"], "class"
    ),
    **dict.fromkeys(
        ["großdruck", "grossdruck", "großschrift", "grossschrift", "largeprint", "largetype"],
        "large",
    ),
    **dict.fromkeys(["stufe", "niveau", "level", "niveaustufe"], "level"),
}  # fmt: skip
YES = frozenset(["x", "ja", "j", "yes", "y", "1", "true", "wahr", "✓", "✔"])
NO = frozenset(["", "nein", "n", "no", "0", "false", "falsch", "-", "–"])


@dataclass(frozen=True)
class Pupil:
    name: str
    line: int  # 1-based line in the roster file (0: from --names)
    large_print: bool = False
    klass: str = ""  # from the roster's class column
    level: int | None = None  # from the roster's "Stufe" column (None: the worksheet's level)


@dataclass(frozen=True)
class Roster:
    pupils: tuple[Pupil, ...]
    warnings: tuple[Note, ...]
    label: str = ""  # how messages name the list (its file)


def decode(data: bytes, label: str) -> str:
    """The text of a roster file (see the module docstring for the rule)."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise UserError(Msg("not_utf16", label=label, byte=exc.start)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    if data.count(0) > len(data) // 4:  # UTF-16 without a byte-order mark
        raise UserError(Msg("utf16_no_bom", label=label))
    broken = _broken_utf8_line(data)
    if broken is not None:
        raise UserError(Msg("at_line", label=label, line=broken, what=Msg("utf8_line")))
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise UserError(Msg("not_text", label=label, byte=exc.start)) from None


def _broken_utf8_line(data: bytes) -> int | None:
    """The first line that is not UTF-8 in a file whose other non-ASCII lines are UTF-8.

    None when no line is valid UTF-8 beyond ASCII: then the file is Windows-1252 (whose
    umlauts are practically never valid UTF-8), decided for the whole file.
    """
    utf8, broken = False, None
    for number, line in enumerate(data.split(b"\n"), start=1):
        if line.isascii():
            continue
        try:
            line.decode("utf-8")
            utf8 = True
        except UnicodeDecodeError:
            broken = broken or number
        if utf8 and broken:
            return broken
    return None


def _fold(cell: str) -> str:
    text = unicodedata.normalize("NFC", cell).strip().casefold()
    return "".join(ch for ch in text if ch not in " \t-_./\u00a0")


def _tidy(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def _header_roles(cells: Sequence[str]) -> dict[str, int] | None:
    """Role → column of a header row, or None when the row is not a header."""
    roles: dict[str, int] = {}
    for column, cell in enumerate(cells):
        role = COLUMNS.get(_fold(cell))
        if role is not None and role not in roles:
            roles[role] = column
    return roles if {"name", "first", "last"} & roles.keys() else None


def _separator(first_line: str) -> str | None:
    for sep in ("\t", ";"):
        if sep in first_line:
            return sep
    if "," in first_line and _header_roles(first_line.split(",")) is not None:
        return ","
    return None


@dataclass(frozen=True)
class _Entry:
    name: str
    line: int
    large_print: bool = False
    klass: str = ""
    level: int | None = None


def _plain_entries(lines: Sequence[str], label: str) -> tuple[list[_Entry], list[Note]]:
    entries: list[_Entry] = []
    warnings: list[Note] = []
    for number, raw in enumerate(lines, start=1):
        name = _tidy(raw)
        if not name:
            continue
        if not entries and COLUMNS.get(_fold(name)) in ("name", "first", "last"):
            continue  # a one-column list with its header ("Name")
        if "," in name:
            what = Msg("comma_name", name=name)
            warnings.append(Note(Msg("at_line", label=label, line=number, what=what)))
        entries.append(_Entry(name, number))
    return entries, warnings


def _cell(row: Sequence[str], column: int | None) -> str:
    return _tidy(row[column]) if column is not None and column < len(row) else ""


def _table_entries(text: str, sep: str, label: str) -> list[_Entry]:
    reader = csv.reader(io.StringIO(text), delimiter=sep)
    try:
        return _rows_entries(((reader.line_num, row) for row in reader), label)
    except csv.Error as exc:
        what = Msg("csv_error", reason=str(exc))
        raise UserError(Msg("at_line", label=label, line=reader.line_num, what=what)) from None


def _rows_entries(rows: Iterable[tuple[int, Sequence[str]]], label: str) -> list[_Entry]:
    """The pupils of a table's rows (line or row number, cells), the first filled row its
    header (or a one-column list without one)."""
    roles: dict[str, int] | None = None
    header_seen = False
    entries: list[_Entry] = []
    for line, row in rows:
        if not any(cell.strip() for cell in row):
            continue
        if not header_seen:
            header_seen = True
            roles = _header_roles(row)
            if roles is not None:
                continue
        if roles is None:
            filled = [c for c in row if c.strip()]
            if len(filled) > 1:
                raise UserError(Msg("at_line", label=label, line=line, what=Msg("no_header")))
            entries.append(_Entry(_tidy(filled[0]), line))
            continue
        entries.append(_row_entry(row, roles, line, label))
    return [e for e in entries if e.name]


def _row_entry(row: Sequence[str], roles: dict[str, int], line: int, label: str) -> _Entry:
    first, last = _cell(row, roles.get("first")), _cell(row, roles.get("last"))
    name = _cell(row, roles.get("name"))
    if "first" in roles and "last" not in roles and "name" in roles:
        first, last, name = first, name, ""  # Name + Vorname: "Name" is the surname
    full = name or " ".join(part for part in (first, last) if part)
    large = _cell(row, roles.get("large")).casefold()
    if large not in YES | NO:
        what = Msg("large_print_cell", found=large)
        raise UserError(Msg("at_line", label=label, line=line, what=what))
    level = _level_cell(_cell(row, roles.get("level")), line, label)
    return _Entry(full, line, large in YES, _cell(row, roles.get("class")), level)


MAX_LEVEL = 9  # a "Stufe" cell: a level number (the family says which of them it has)
LEVEL_WORDS = ("stufe", "level", "niveau")


def _level_cell(cell: str, line: int, label: str) -> int | None:
    """A "Stufe" cell: "", "3", "3.", "Stufe 3", "Level 3" → None or the number."""
    text = cell.casefold().strip().removesuffix(".")
    for word in LEVEL_WORDS:
        text = text.removeprefix(word).strip()
    if not text:
        return None
    if text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_LEVEL:
        return int(text)
    what = Msg("level_cell", found=cell)
    raise UserError(Msg("at_line", label=label, line=line, what=what))


def _checked(entries: Sequence[_Entry], label: str, where: str) -> Roster:
    pupils: list[Pupil] = []
    warnings: list[Note] = []
    first_seen: dict[str, int] = {}
    for entry in entries:

        def at(what: Msg, line: int = entry.line) -> Msg:
            return Msg("at_line", label=label, line=line, what=what)

        name = entry.name
        if any(unicodedata.category(ch) == "Cc" for ch in name):
            raise UserError(at(Msg("name_control_character")), where=where)
        if (note := invisible_note(name)) is not None:
            warnings.append(Note(at(note)))
            name = " ".join(visible(name).split())
            if not name:
                continue  # (a line of nothing but format characters: a blank line)
        if len(name) > MAX_NAME_LENGTH:
            too_long = Msg("name_too_long", length=len(name), most=MAX_NAME_LENGTH)
            raise UserError(at(too_long), where=where)
        folded = name.casefold()
        if folded in first_seen:
            first = first_seen[folded]
            again = Msg("name_again", name=name, first=first, on_line=bool(entry.line))
            warnings.append(Note(at(again)))
        else:
            first_seen[folded] = entry.line or len(pupils) + 1
        klass = visible(entry.klass)
        pupils.append(Pupil(name, entry.line, entry.large_print, klass, entry.level))
    if not pupils:
        raise UserError(Msg("no_names", label=label), where=where)
    if len(pupils) > MAX_NAMES:
        raise UserError(
            Msg("too_many_names", label=label, names=len(pupils), most=MAX_NAMES), where=where
        )
    return Roster(tuple(pupils), tuple(warnings), label)


def parse_roster(text: str, label: str) -> Roster:
    """The pupils of a roster text; `label` names the file in messages."""
    where = Input("roster")
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    sep = _separator(first)
    try:
        if sep is None:
            entries, warnings = _plain_entries(lines, label)
        else:
            entries, warnings = _table_entries(text, sep, label), []
    except UserError as exc:
        raise UserError(exc.msg, where=where) from None
    roster = _checked(entries, label, where)
    return Roster(roster.pupils, tuple(warnings) + roster.warnings, label)


def roster_from_bytes(data: bytes, label: str) -> Roster:
    """The roster in `data` (a file's bytes, e.g. uploaded); `label` names it in messages.

    An Excel workbook (.xlsx: a zip file) is read from its first sheet, as a table.
    """
    where = Input("roster")
    if len(data) > MAX_BYTES:
        raise UserError(Msg("roster_too_large", label=label, most=MAX_BYTES), where=where)
    try:
        if data.startswith(XLSX_MAGIC):
            entries = _rows_entries(xlsx_rows(data, label), label)
            return _checked(entries, label, where)
        if data.startswith(XLS_MAGIC):
            raise UserError(Msg("xls_old", label=label))
        text = decode(data, label)
    except UserError as exc:
        raise UserError(exc.msg, where=where) from None
    return parse_roster(text, label)


XLSX_MAGIC = b"PK\x03\x04"  # a zip file: Excel's .xlsx
XLS_MAGIC = b"\xd0\xcf\x11\xe0"  # the old binary .xls (an OLE file)
MAX_XLSX_UNPACKED = 20_000_000  # bytes inside the zip: a class list is a few kB
MAX_ROWS = 5_000


def xlsx_rows(data: bytes, label: str) -> list[tuple[int, list[str]]]:
    """The first sheet's rows of an .xlsx workbook as (row number, cell texts).

    openpyxl reads it (read-only, the cells' values rather than their formulas). A zip
    that unpacks to more than `MAX_XLSX_UNPACKED` bytes is refused before it is read.
    """
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError):
        raise UserError(Msg("xlsx_unreadable", label=label)) from None
    if unpacked > MAX_XLSX_UNPACKED:
        raise UserError(Msg("xlsx_unreadable", label=label))
    import openpyxl

    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:  # openpyxl raises many kinds for a broken or foreign zip
        raise UserError(Msg("xlsx_unreadable", label=label)) from None
    try:
        if not book.worksheets:
            raise UserError(Msg("xlsx_unreadable", label=label))
        rows: list[tuple[int, list[str]]] = []
        for number, row in enumerate(book.worksheets[0].iter_rows(values_only=True), start=1):
            if number > MAX_ROWS:
                raise UserError(Msg("too_many_names", label=label, names=number, most=MAX_NAMES))
            rows.append((number, [_xlsx_text(value) for value in row]))
        return rows
    finally:
        book.close()


def _xlsx_text(value: object) -> str:
    """A cell as the text a CSV export would hold (1.0 → "1", empty → "")."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def names_roster(names: str) -> Roster:
    """The pupils of `--names "Anna, Ben, Cem"` (comma-separated; an empty name is an error)."""
    parts = [_tidy(part) for part in names.split(",")]
    if any(not part for part in parts):
        raise InputError("names", Msg("empty_name_in", names=names))
    entries = [_Entry(part, 0) for part in parts]
    return _checked(entries, "names", Input("names"))


def _matches(pupils: Sequence[Pupil], wanted: str) -> list[int]:
    """The pupils `wanted` names: by full name, else by first name when that is unique."""
    folded = wanted.casefold()
    found = [i for i, p in enumerate(pupils) if p.name.casefold() == folded]
    if found:
        return found
    found = [i for i, p in enumerate(pupils) if p.name.split()[0].casefold() == folded]
    full = sorted({pupils[i].name for i in found})
    if len(full) > 1:
        raise InputError("large_print_for", Msg("ambiguous_name", name=wanted, full=full))
    if not found:
        raise InputError("large_print_for", Msg("not_in_class_list", name=wanted))
    return found


def mark_large_print(roster: Roster, names: str) -> Roster:
    """`--large-print-for "Cem, Hannes"`: those pupils get large print.

    A name is a pupil's full name or, when only one pupil has it, a first name;
    case does not matter.
    """
    wanted = [_tidy(part) for part in names.split(",") if part.strip()]
    if not wanted:
        raise InputError("large_print_for", Msg("no_names_given"))
    chosen = {i for name in wanted for i in _matches(roster.pupils, name)}
    pupils = tuple(
        replace(p, large_print=True) if i in chosen else p for i, p in enumerate(roster.pupils)
    )
    return replace(roster, pupils=pupils)

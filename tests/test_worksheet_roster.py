"""Class lists as teachers have them: plain lists, Excel tables, four encodings, --names."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from generator.core.errors import UserError
from generator.worksheet.load import read_roster
from generator.worksheet.roster import decode, mark_large_print, names_roster, parse_roster

GERMAN = "Name;Vorname;Klasse;Großdruck\r\nMüller;Anna;3b;\r\nÖzdemir;Cem;3b;x\r\nBöhm;Zoë;3a;\r\n"


def names(roster) -> list[str]:
    return [p.name for p in roster.pupils]


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [
        ("utf-8", b""),
        ("utf-8", codecs.BOM_UTF8),
        ("utf-16-le", codecs.BOM_UTF16_LE),
        ("utf-16-be", codecs.BOM_UTF16_BE),
        ("cp1252", b""),
    ],
)
def test_every_encoding_excel_writes_reads_the_same(tmp_path: Path, encoding, bom) -> None:
    path = tmp_path / "klasse.csv"
    path.write_bytes(bom + GERMAN.encode(encoding))
    roster = read_roster(path)
    assert names(roster) == ["Anna Müller", "Cem Özdemir", "Zoë Böhm"]
    assert [p.large_print for p in roster.pupils] == [False, True, False]
    assert [p.klass for p in roster.pupils] == ["3b", "3b", "3a"]
    assert [p.line for p in roster.pupils] == [2, 3, 4]
    assert roster.warnings == ()


def test_decoding_rule() -> None:
    # valid UTF-8 wins; bytes that are not UTF-8 are Windows-1252 (€ is 0x80 there)
    assert decode("Jörg €".encode(), "f") == "Jörg €"
    assert decode("Jörg €".encode("cp1252"), "f") == "Jörg €"
    assert decode(codecs.BOM_UTF16_LE + "Łukasz".encode("utf-16-le"), "f") == "Łukasz"
    with pytest.raises(UserError, match="neither UTF-8"):
        decode(b"J\xf6rg \x81", "f")
    with pytest.raises(UserError, match="without a byte-order mark"):
        decode("Jörg Anna\n".encode("utf-16-le"), "f")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # English Excel: comma-separated, with a header
        (
            "First name,Last name,Class\nAnna,Smith,3b\nBen,O'Neil,3b\n",
            ["Anna Smith", "Ben O'Neil"],
        ),
        # tab-separated (Excel "Unicode text"), surname first, unknown columns ignored
        ("Nachname\tVorname\tGeburtstag\nMüller\tAnna\t1.2.2017\n", ["Anna Müller"]),
        # one full-name column; quotes keep a separator inside a cell
        ('Schüler;Klasse\n"Müller; Anna";3b\n', ["Müller; Anna"]),
        # header cells in any case, with spaces, hyphens or underscores
        ("FIRST_NAME;last-name\nAnna;Smith\n", ["Anna Smith"]),
        # blank rows and trailing empty cells (Excel's ;;;) are skipped
        ("Vorname;Nachname;;\n;;;\nAnna;Smith;;\n\n", ["Anna Smith"]),
        # a table without a header is fine when every row has at most one name
        ("Anna;\nBen;\n", ["Anna", "Ben"]),
        # a plain list, with its "Name" header line dropped
        ("Name\nAnna\nBen\n", ["Anna", "Ben"]),
        # only the first name given
        ("Vorname;Nachname\nAnna;\n", ["Anna"]),
    ],
)
def test_tables(text: str, expected: list[str]) -> None:
    assert names(parse_roster(text, "klasse.csv")) == expected


def test_the_header_row_is_never_a_pupil_and_columns_do_not_leak_into_names() -> None:
    roster = parse_roster(GERMAN, "klasse.csv")
    assert all("Name" not in n and "3b" not in n and ";" not in n for n in names(roster))


def test_a_plain_line_with_commas_is_one_name_with_a_warning() -> None:
    roster = parse_roster("Müller, Anna\nBen\n", "klasse.txt")
    assert names(roster) == ["Müller, Anna", "Ben"]
    (warning,) = roster.warnings
    assert warning.startswith("klasse.txt:1: 'Müller, Anna' contains a comma")


def test_table_errors_name_the_line() -> None:
    with pytest.raises(UserError, match=r"klasse.csv:1: a table without a header row"):
        parse_roster("Müller;Anna;3b\n", "klasse.csv")
    with pytest.raises(UserError, match=r"klasse.csv:3: large print 'vielleicht'"):
        parse_roster("Vorname;Großdruck\nAnna;ja\nBen;vielleicht\n", "klasse.csv")


def test_names_option_and_large_print_for() -> None:
    roster = names_roster(" Anna,  Ben , Cem,anna ")
    assert names(roster) == ["Anna", "Ben", "Cem", "anna"]
    assert roster.warnings == ("names: 'anna' appears again (name 1); both get a sheet",)
    marked = mark_large_print(roster, "cem, ANNA")
    assert [p.large_print for p in marked.pupils] == [True, False, True, True]
    with pytest.raises(UserError, match="'Hannes' is not in the class list"):
        mark_large_print(roster, "Cem, Hannes")
    with pytest.raises(UserError, match="an empty name"):
        names_roster("Anna,,Ben")


def test_large_print_for_takes_a_unique_first_name() -> None:
    roster = parse_roster("Vorname;Nachname\nAnna;Müller\nAnna;Schulz\nCem;Öz\n", "k.csv")
    assert [p.large_print for p in mark_large_print(roster, "cem").pupils] == [0, 0, 1]
    assert [p.large_print for p in mark_large_print(roster, "Anna Schulz").pupils] == [0, 1, 0]
    with pytest.raises(UserError, match="'Anna' could be Anna Müller or Anna Schulz"):
        mark_large_print(roster, "Anna")


# --- Excel workbooks (.xlsx), read with openpyxl ------------------------------------------


def xlsx_bytes(rows: list[list[object]]) -> bytes:
    import io

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


XLSX_ROWS: list[list[object]] = [
    ["Name", "Vorname", "Klasse", "Großdruck"],
    ["Müller", "Anna", "3b", None],
    [None, None, None, None],  # a blank row in the middle: skipped, the row numbers stay
    ["Özdemir", "Cem", "3b", "x"],
    ["Böhm", "Zoë", 3, True],
]


def test_an_excel_workbook_reads_as_its_csv_export(tmp_path: Path) -> None:
    from generator.worksheet.roster import roster_from_bytes

    roster = roster_from_bytes(xlsx_bytes(XLSX_ROWS), "klasse.xlsx")
    assert names(roster) == ["Anna Müller", "Cem Özdemir", "Zoë Böhm"]
    assert [p.large_print for p in roster.pupils] == [False, True, True]
    assert [p.klass for p in roster.pupils] == ["3b", "3b", "3"]  # a number cell: "3", not "3.0"
    assert [p.line for p in roster.pupils] == [2, 4, 5]
    path = tmp_path / "klasse.xlsx"  # the CLI reads the same file the same way
    path.write_bytes(xlsx_bytes(XLSX_ROWS))
    assert names(read_roster(path)) == names(roster)
    single = roster_from_bytes(xlsx_bytes([["Zoë"], ["Ömer"]]), "liste.xlsx")
    assert names(single) == ["Zoë", "Ömer"]


def test_broken_and_old_excel_files_are_one_line_in_the_pages_language() -> None:
    from generator.worksheet.roster import roster_from_bytes

    good = xlsx_bytes(XLSX_ROWS)
    for data, de, en in [
        (
            good[: len(good) // 2],
            "lässt sich nicht als Excel-Tabelle",
            "cannot be read as an Excel",
        ),
        (
            b"\xd0\xcf\x11\xe0" + b"\0" * 600,
            "im alten Excel-Dateityp (.xls)",
            "in the old format (.xls)",
        ),
        (xlsx_bytes([["Name", "Großdruck"], ["Anna", "vielleicht"]]), "Zeile 2", "xlsx:2:"),
    ]:
        with pytest.raises(UserError) as info:
            roster_from_bytes(data, "klasse.xlsx")
        assert de in info.value.msg.say("de") and "klasse.xlsx" in info.value.msg.say("de")
        assert en in info.value.msg.say("en")
